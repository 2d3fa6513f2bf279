/*
 * support.c -- the support routines (LAWN 73 2.4): one
 * implementation each, called by both the C and the Fortran entry points.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "bi.h"
#include "support.h"

/* BLACS_SET / BLACS_GET codes of this library beyond the reference's */
enum { WHAT_BUFWAIT = 20, WHAT_BUFMAX = 21, WHAT_NGRIDS = 22 };

void bi_pinfo(Int *mypnum, Int *nprocs)
{
    bi_init();
    *mypnum = bi_g.world_rank;
    *nprocs = bi_g.world_size;
}

void bi_gridinit(Int *ctxt, MPI_Comm sys, const char *order, Int nprow, Int npcol,
                 const char *routine)
{
    bi_grid_check(sys, nprow, npcol); /* before the map: NPROW*NPCOL may overflow */
    Int *map = bi_alloc(NULL, (size_t)nprow * (size_t)npcol * sizeof(Int), routine, "the grid's map");
    int colmajor = bi_up(order) == 'C';
    for (Int i = 0; i < nprow; i++)
        for (Int j = 0; j < npcol; j++)
            map[j * nprow + i] = colmajor ? j * nprow + i : i * npcol + j;
    bi_gridmap(ctxt, sys, map, nprow, nprow, npcol, routine);
    free(map);
}

static bi_ctx *ctx_for(Int ctxt, Int what, const char *routine)
{
    bi_ctx *c = bi_ctx_find(ctxt);
    if (!c)
        bi_argerr(ctxt, routine, 1, "ICONTXT", "%ld is not a valid BLACS context (WHAT=%ld)",
                  (long)ctxt, (long)what);
    return c;
}

void bi_get(Int ctxt, Int what, Int *val, int fortran)
{
    bi_ctx *c;
    switch (what) {
    case 0:
        bi_init();
        *val = fortran ? (Int)MPI_Comm_c2f(MPI_COMM_WORLD) : bi_sys_handle(MPI_COMM_WORLD);
        break;
    case 1:
        bi_init();
        val[0] = bi_g.idlo;
        val[1] = bi_g.idhi;
        break;
    case 2:
        bi_init();
        *val = bi_g.debug;
        break;
    case 10:
        c = ctx_for(ctxt, what, "BLACS_GET");
        if (fortran) *val = (Int)MPI_Comm_c2f(c->ucomm);
        else {
            /* looked up every time: a handle given out before may have
             * been freed by the program, and its slot reused */
            c->syshandle = bi_sys_handle(c->ucomm);
            *val = c->syshandle;
        }
        break;
    case 11: *val = ctx_for(ctxt, what, "BLACS_GET")->rings_bs; break;
    case 12: *val = ctx_for(ctxt, what, "BLACS_GET")->branches_bs; break;
    case 13: *val = ctx_for(ctxt, what, "BLACS_GET")->rings_comb; break;
    case 14: *val = ctx_for(ctxt, what, "BLACS_GET")->branches_comb; break;
    case 15: *val = ctx_for(ctxt, what, "BLACS_GET")->repeat; break;
    case 16: *val = ctx_for(ctxt, what, "BLACS_GET")->coherent; break;
    case WHAT_BUFWAIT: bi_init(); *val = (Int)bi_g.bufwait; break;
    case WHAT_BUFMAX: bi_init(); *val = (Int)(bi_g.bufmax / 1024); break;
    case WHAT_NGRIDS: *val = bi_ctx_live(); break;
    default: BI_WARN(ctxt, "Unknown WHAT (%ld)", (long)what);
    }
}

void bi_set(Int ctxt, Int what, const Int *val)
{
    bi_ctx *c;
    switch (what) {
    case 0: BI_WARN(ctxt, "Cannot set default system context"); break;
    case 1:
        /* LAWN 73 6.1: the range is read when a grid is made (SHIFT_RANGE) */
        bi_init();
        if (val[0] < 0 || val[1] > bi_g.tag_ub || val[1] - val[0] + 1 < 64)
            BI_WARN(ctxt, "Illegal message-ID range [%ld,%ld] (must lie in [0,%d], 64 IDs at least); ignored",
                    (long)val[0], (long)val[1], bi_g.tag_ub);
        else {
            bi_g.idlo = (int)val[0];
            bi_g.idhi = (int)val[1];
        }
        break;
    case 2: BI_WARN(ctxt, "Debug level is set with the environment variable BLACS_DEBUG"); break;
    case 10: BI_WARN(ctxt, "Cannot set the system context of a BLACS context"); break;
    case 11:
    case 13:
        c = ctx_for(ctxt, what, "BLACS_SET");
        if (*val == 0) BI_WARN(ctxt, "Number of rings must be non-zero; ignored");
        else if (what == 11) c->rings_bs = *val;
        else c->rings_comb = *val;
        break;
    case 12:
    case 14:
        c = ctx_for(ctxt, what, "BLACS_SET");
        if (*val <= 0) BI_WARN(ctxt, "Number of branches must be positive; ignored");
        else if (what == 12) c->branches_bs = *val;
        else c->branches_comb = *val;
        break;
    case 15: ctx_for(ctxt, what, "BLACS_SET")->repeat = *val; break;
    case 16: ctx_for(ctxt, what, "BLACS_SET")->coherent = *val; break;
    case WHAT_BUFWAIT: bi_init(); bi_g.bufwait = (double)*val; break;
    case WHAT_BUFMAX: bi_init(); bi_g.bufmax = (size_t)*val * 1024; break;
    default: BI_WARN(ctxt, "Unknown WHAT (%ld)", (long)what);
    }
}

void bi_freebuff(Int ctxt, Int wait)
{
    (void)ctxt;
    bi_buf_freeall(wait != 0, "BLACS_FREEBUFF");
}

void bi_gridinfo(Int ctxt, Int *nprow, Int *npcol, Int *myrow, Int *mycol)
{
    bi_ctx *c = bi_ctx_find(ctxt);
    if (!c) {
        *nprow = *npcol = *myrow = *mycol = -1;
        return;
    }
    *nprow = c->nprow;
    *npcol = c->npcol;
    *myrow = c->myrow;
    *mycol = c->mycol;
}

Int bi_pnum(Int ctxt, Int prow, Int pcol)
{
    bi_ctx *c = bi_ctx_get(ctxt, "BLACS_PNUM");
    if (prow < 0 || prow >= c->nprow || pcol < 0 || pcol >= c->npcol) return -1;
    return prow * c->npcol + pcol;
}

void bi_pcoord(Int ctxt, Int pnum, Int *prow, Int *pcol)
{
    bi_ctx *c = bi_ctx_get(ctxt, "BLACS_PCOORD");
    if (pnum < 0 || pnum >= c->np) {
        *prow = *pcol = -1;
        return;
    }
    *prow = pnum / c->npcol;
    *pcol = pnum % c->npcol;
}

/* The barrier of a scope without collectives of its own (a row or column
 * that is the whole grid: bi_scope_has_coll): a dissemination barrier of
 * empty messages on the private communicator, tagged with one message ID
 * of the scope's class, so that it can meet neither the 'All' scope's
 * MPI_Barrier nor any other scope's traffic.  In round k every process
 * signals scope rank me + 2^k and waits for me - 2^k (mod Np); after
 * ceil(log2 Np) rounds each has heard, through others, from all, so none
 * leaves before every member has come.  The 2^k differ mod Np, so within
 * one barrier the rounds' senders differ too and one ID serves them all. */
static void barrier_p2p(bi_scope *s, Int ctxt, const char *routine)
{
    const int np = s->np, tag = bi_msgid_scoped(s, 0, 1, 1);
    for (int d = 1; d < np; d *= 2) {
        const int to = bi_scope_commrank(s, (s->me + d) % np);
        const int from = bi_scope_commrank(s, (s->me - d + np) % np);
        if (bi_watch_on) bi_watch_mark(routine, 'r', from, tag, 0);
        BI_MPI_IN(MPI_Sendrecv(NULL, 0, MPI_BYTE, to, tag, NULL, 0, MPI_BYTE, from, tag,
                               s->ctx->comm, MPI_STATUS_IGNORE),
                  "MPI_Sendrecv", ctxt, routine);
        bi_watch_end();
    }
}

void bi_barrier(Int ctxt, const char *scope, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    /* the reference returns silently on an unknown scope; a barrier that
     * synchronizes nothing lets the program run on into a race, so it is
     * the same argument error as in every other routine with a SCOPE */
    bi_scope *s = bi_scope_get(c, scope, routine, 2);
    if (!bi_scope_has_coll(s)) {
        barrier_p2p(s, ctxt, routine);
        return;
    }
    if (bi_watch_on) bi_watch_mark(routine, 'c', -1, -1, 0);
    BI_MPI_IN(MPI_Barrier(bi_scope_comm(s)), "MPI_Barrier", ctxt, routine);
    bi_watch_end();
}

void bi_abort(Int ctxt, Int errnum)
{
    Int r = -1, cc = -1, nr, nc;
    bi_gridinfo(ctxt, &nr, &nc, &r, &cc);
    int rank = -1, up = 0;
    MPI_Initialized(&up);
    if (up) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fflush(stdout);
    fprintf(stderr, "{%ld,%ld}, pnum=%d, Contxt=%ld, killed other procs, exiting with error #%ld.\n\n",
            (long)r, (long)cc, rank, (long)ctxt, (long)errnum);
    fflush(stderr);
    bi_linger();
    MPI_Abort(MPI_COMM_WORLD, (int)errnum);
    exit((int)errnum);
}

void bi_exit(Int cont)
{
    if (!bi_g.initialized) {
        /* nothing to tear down; still honour CONTINUE = 0 */
        int up = 0, down = 0;
        BI_MPI_IN(MPI_Initialized(&up), "MPI_Initialized", -1, "BLACS_EXIT");
        if (up) BI_MPI_IN(MPI_Finalized(&down), "MPI_Finalized", -1, "BLACS_EXIT");
        if (!cont && up && !down) BI_MPI_IN(MPI_Finalize(), "MPI_Finalize", -1, "BLACS_EXIT");
        return;
    }
    bi_ctx_exit_all();
    bi_progress_stop(); /* before the last waits: the main thread alone again */
    bi_buf_freeall(2, "BLACS_EXIT"); /* EXIT waits for every buffered send, as the reference does */
    bi_stats_report();
    bi_watch_stop(); /* after the last wait; PINFO starts it again */
    bi_g.initialized = 0;
    if (!cont) {
        /* like the reference, finalise MPI even if the user started it */
        bi_sys_reset();
        int down = 0;
        BI_MPI_IN(MPI_Finalized(&down), "MPI_Finalized", -1, "BLACS_EXIT");
        if (!down) BI_MPI_IN(MPI_Finalize(), "MPI_Finalize", -1, "BLACS_EXIT");
        bi_buf_finalized();
    }
}

Int bi_ksendid(Int ctxt, Int rdest, Int cdest, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    return bi_msgid_p2p_send(c, bi_vpid(c, rdest, cdest, ctxt, routine, 2, "RDEST/CDEST"), 0);
}

Int bi_krecvid(Int ctxt, Int rsrc, Int csrc, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    return bi_msgid_p2p_recv(c, bi_vpid(c, rsrc, csrc, ctxt, routine, 2, "RSRC/CSRC"), 0);
}

Int bi_kbsid(Int ctxt, const char *scope, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    bi_scope *s = bi_scope_get(c, scope, routine, 2);
    return bi_msgid_scoped(s, s->me, 1, 0);
}

Int bi_kbrid(Int ctxt, const char *scope, Int rsrc, Int csrc, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    bi_scope *s = bi_scope_get(c, scope, routine, 2);
    bi_vpid(c, rsrc, csrc, ctxt, routine, 3, "RSRC/CSRC");
    return bi_msgid_scoped(s, bi_scope_rank(s, rsrc, csrc), 1, 0);
}

double bi_cputime(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return -1.0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double bi_walltime(void) { return MPI_Wtime(); }

void bi_lastsrc(Int ctxt, Int *rsrc, Int *csrc)
{
    bi_ctx *c = bi_ctx_get(ctxt, "Cblacs_lastsrc");
    if (c->lastsrc < 0) {
        *rsrc = *csrc = -1;
        return;
    }
    *rsrc = c->lastsrc / c->npcol;
    *csrc = c->lastsrc % c->npcol;
}
