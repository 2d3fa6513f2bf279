/*
 * context.c -- BLACS state, contexts (grids) and scopes.
 *
 * A grid owns two MPI communicators of the same group, ranks in row-major
 * grid order: the one made with MPI_Comm_create over the system context,
 * handed to the user by BLACS_GET WHAT=10, and a private duplicate that
 * carries all of the library's traffic.  Point-to-point and the BLACS
 * topologies of all three scopes share the private one; the message-ID
 * scheme (msgid.c) keeps their traffic apart by tag, which is the purpose
 * the paper gives it (LAWN 73 6.1).  MPI's own collectives (TOP ' ',
 * barriers) need a communicator per row and column as well; they are made
 * with the grid, with MPI_Comm_create_group over each scope's members
 * (scope_comm_make says why not later), except where a scope is the whole
 * grid (1 x P, P x 1: the private one serves) or one process.  So a grid
 * holds two to four communicators (the reference four), GRIDEXIT frees
 * them all, and creating and exiting grids in a loop never exhausts MPI's
 * context ids.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "bi.h"
#include "support.h"


static bi_ctx **ctxs;     /* context table; handle = index */
static int nctxs, nlive, live_hwm, warn_at = 512;

static MPI_Comm *syscomms; /* C system-context handles; world is 0 */
static int nsys;

typedef void (*cleanup_fn)(void);
#define NCLEANUPS 16 /* the library registers fewer than ten distinct ones */
static cleanup_fn cleanups[NCLEANUPS];
static int ncleanups;

void bi_atexit(void (*fn)(void))
{
    for (int i = 0; i < ncleanups; i++)
        if (cleanups[i] == fn) return;
    /* a cleanup dropped would leak MPI objects past MPI_Finalize */
    if (ncleanups == NCLEANUPS)
        bi_error(-1, __LINE__, __FILE__, "internal: more than %d BLACS_EXIT cleanups", NCLEANUPS);
    cleanups[ncleanups++] = fn;
}

static void run_cleanups(void)
{
    for (int i = 0; i < ncleanups; i++) cleanups[i]();
    ncleanups = 0;
}

/* A program may end with MPI_Finalize alone (GPAW never calls BLACS_EXIT).
 * MPI deletes MPI_COMM_SELF's attributes first thing in MPI_Finalize, with
 * MPI still usable, so the delete callback of an attribute there prints
 * the statistics (BLACS_STATS) and frees the MPI objects we keep
 * (datatypes, operations), unless BLACS_EXIT has already done both: it
 * leaves bi_g.initialized at 0. */
static int self_key = MPI_KEYVAL_INVALID;

static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    if (bi_g.initialized) {
        bi_stats_report();
        run_cleanups();
    }
    bi_watch_stop();
    self_key = MPI_KEYVAL_INVALID; /* MPI frees the key with MPI_COMM_SELF */
    return MPI_SUCCESS;
}

static void at_finalize_hook(void)
{
    if (self_key != MPI_KEYVAL_INVALID) return;
    BI_MPI_IN(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &self_key, NULL),
              "MPI_Comm_create_keyval", -1, "BLACS_PINFO");
    BI_MPI_IN(MPI_Comm_set_attr(MPI_COMM_SELF, self_key, NULL), "MPI_Comm_set_attr", -1,
              "BLACS_PINFO");
}

void bi_init(void)
{
    if (bi_g.initialized) return;
    int up = 0;
    BI_MPI_IN(MPI_Initialized(&up), "MPI_Initialized", -1, "BLACS_PINFO");
    if (!up) {
        BI_MPI_IN(MPI_Init(NULL, NULL), "MPI_Init", -1, "BLACS_PINFO");
        bi_g.we_init_mpi = 1;
    }
    MPI_Errhandler uh = bi_errh_return(MPI_COMM_WORLD); /* the user's: error.c */
    BI_MPI_IN(MPI_Comm_rank(MPI_COMM_WORLD, &bi_g.world_rank), "MPI_Comm_rank", -1, "BLACS_PINFO");
    BI_MPI_IN(MPI_Comm_size(MPI_COMM_WORLD, &bi_g.world_size), "MPI_Comm_size", -1, "BLACS_PINFO");
    int *ub = NULL, flag = 0;
    BI_MPI_IN(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag), "MPI_Comm_get_attr", -1,
              "BLACS_PINFO");
    bi_errh_restore(MPI_COMM_WORLD, uh);
    bi_g.tag_ub = flag ? *ub : 32767;
    if (bi_g.idhi <= bi_g.idlo) { /* not set by BLACS_SET WHAT=1 */
        bi_g.idlo = 0;
        bi_g.idhi = bi_g.tag_ub;
    }
    bi_g.debug = (int)bi_env_number("BLACS_DEBUG", 0, 0, 3, BI_ENV_INT);
    bi_g.bufwait = bi_env_number("BLACS_BUFWAIT", bi_g.bufwait, 0, HUGE_VAL, 0);
    if (!bi_g.bufmax) bi_g.bufmax = (size_t)bi_env_number("BLACS_BUFMAX", 0, 0, 0x1p62, BI_ENV_SIZE);
    bi_g.trace = getenv("BLACS_TRACE") != NULL;
    const char *st = getenv("BLACS_STATS");
    bi_g.stats = st && *st && *st != '0';
    bi_g.hang_timeout = bi_env_number("BLACS_HANG_TIMEOUT", 10.0, 0, HUGE_VAL, 0);
    {
        const char *e = getenv("BLACS_P2P_SCHEDULE");
        bi_g.p2p_sched = e && *e == 'n' ? (e[1] == 'o' ? 1 : 2) : 0; /* "node" / "net" */
        char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
        int len = 0;
        BI_MPI_IN(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name", -1, "BLACS_PINFO");
        uint64_t h = 1469598103934665603u; /* FNV-1a */
        for (int i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 1099511628211u;
        bi_g.node_key = h;
    }
    bi_g.wait_warn = bi_env_number("BLACS_WAIT_WARN", 300.0, 0, HUGE_VAL, 0);
    bi_g.initialized = 1;
    at_finalize_hook();
    bi_watch_start(bi_g.wait_warn);
}

bi_ctx *bi_ctx_find(Int h)
{
    return (h >= 0 && h < nctxs) ? ctxs[h] : NULL;
}

bi_ctx *bi_ctx_get(Int h, const char *routine)
{
    bi_ctx *c = bi_ctx_find(h);
    if (!c)
        bi_argerr(h, routine, 1, "ICONTXT",
                  "%ld is not a valid BLACS context (never made, or already exited)", (long)h);
    bi_poll();
    return c;
}

bi_scope *bi_scope_get(bi_ctx *c, const char *scope, const char *routine, int argno)
{
    switch (bi_up(scope)) {
    case 'R': return &c->row;
    case 'C': return &c->col;
    case 'A': return &c->all;
    default:
        bi_argerr(c->handle, routine, argno, "SCOPE", "Unknown scope '%c'", scope ? *scope : ' ');
    }
}

int bi_scope_rank(const bi_scope *s, Int prow, Int pcol)
{
    switch (s->id) {
    case 'r': return (int)pcol;
    case 'c': return (int)prow;
    default: return (int)(prow * s->ctx->npcol + pcol);
    }
}

/* the scope's communicator, over its members only (MPI_Comm_create_group
 * involves no one else); called for every scope of several processes while
 * the grid is made, when all of them are in GRIDINIT or GRIDMAP anyway.
 * Made on first use instead, it would make the first ' ' operation of a
 * scope wait for every member to arrive: two scopes whose first operations
 * come in opposite orders on their processes (row broadcast then column
 * receive on some, the reverse on others, a legal program) would deadlock. */
static void scope_comm_make(bi_scope *s, const char *routine)
{
    MPI_Group g, sg;
    int *r = bi_alloc(NULL, (size_t)s->np * sizeof(int), routine, "a scope's ranks");
    for (int k = 0; k < s->np; k++) r[k] = bi_scope_commrank(s, k);
    BI_MPI_IN(MPI_Comm_group(s->ctx->comm, &g), "MPI_Comm_group", s->ctx->handle, routine);
    BI_MPI_IN(MPI_Group_incl(g, s->np, r, &sg), "MPI_Group_incl", s->ctx->handle, routine);
    BI_MPI_IN(MPI_Comm_create_group(s->ctx->comm, sg, s->id, &s->comm), "MPI_Comm_create_group",
              s->ctx->handle, routine);
    BI_MPI_IN(MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler",
              s->ctx->handle, routine);
    BI_MPI_IN(MPI_Group_free(&sg), "MPI_Group_free", s->ctx->handle, routine);
    BI_MPI_IN(MPI_Group_free(&g), "MPI_Group_free", s->ctx->handle, routine);
    free(r);
}

static void scope_init(bi_scope *s, bi_ctx *c, char id, int np, int me, int base, int stride)
{
    s->ctx = c;
    s->id = id;
    s->np = np;
    s->me = me;
    s->base = base;
    s->stride = stride;
    s->comm = MPI_COMM_NULL;
}

static Int new_slot(const char *routine)
{
    for (int i = 0; i < nctxs; i++)
        if (!ctxs[i]) return i;
    int old = nctxs, n = nctxs ? 2 * nctxs : 16;
    ctxs = bi_alloc(ctxs, (size_t)n * sizeof *ctxs, routine, "the context table");
    memset(ctxs + old, 0, (size_t)(n - old) * sizeof *ctxs);
    nctxs = n;
    return old;
}

/* message IDs are computed, never exchanged: every process of a grid must
 * carve them from the same range (BLACS_SET WHAT=1), or operations would
 * wait for IDs nobody sends.  One small reduction when the grid is made
 * turns that hang into an error on every member. */
static void check_ranges(MPI_Comm comm, const char *routine)
{
    int v[4] = {bi_g.idlo, -bi_g.idlo, bi_g.idhi, -bi_g.idhi};
    BI_MPI_IN(MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_INT, MPI_MAX, comm), "MPI_Allreduce", -1,
              routine);
    if (v[0] != bi_g.idlo || -v[1] != bi_g.idlo || v[2] != bi_g.idhi || -v[3] != bi_g.idhi)
        bi_error(-1, -1, routine,
                 "the processes of this grid were given different message-ID ranges (BLACS_SET "
                 "WHAT=1): lower ends %d..%d, upper ends %d..%d; this process has [%d,%d]",
                 -v[1], v[0], -v[3], v[2], bi_g.idlo, bi_g.idhi);
}

/* NPROW x NPCOL must fit in sys; the product is never formed (it may overflow) */
void bi_grid_check(MPI_Comm sys, Int nprow, Int npcol)
{
    bi_init();
    int size = -1;
    MPI_Errhandler uh = bi_errh_return(sys); /* the user's communicator: error.c */
    BI_MPI(MPI_Comm_size(sys, &size), "MPI_Comm_size");
    bi_errh_restore(sys, uh);
    if (nprow < 1 || npcol < 1 || nprow > size || npcol > size / nprow)
        bi_error(-1, -1, "BLACS_GRIDINIT/BLACS_GRIDMAP", "Illegal grid (%ld x %ld), #procs=%d",
                 (long)nprow, (long)npcol, size);
}

/* Which processes of the grid share a node, so that point-to-point can
 * send each peer the way its transport likes (p2p.c).  A node is named by
 * a hash of MPI_Get_processor_name (computed once, bi_init), as MPIs
 * themselves tell nodes apart by host name; the grid's members exchange
 * theirs in one small allgather when the grid is made -- never on first
 * use -- and cheaper than MPI_COMM_TYPE_SHARED's communicator would be for
 * programs that make many grids.  Two hosts that shared a name would just
 * use the node schedule between them, alike on both ends.  SimGrid's SMPI:
 * one node, the simulated schedule stays the one its figures were taken
 * with. */
static void node_map(bi_ctx *c, const char *routine)
{
#ifndef SMPI_H
    BI_MPI_IN(MPI_Allgather(&bi_g.node_key, 1, MPI_UINT64_T, c->node, 1, MPI_UINT64_T, c->comm),
              "MPI_Allgather", c->handle, routine);
#else
    for (int i = 0; i < c->np; i++) c->node[i] = 0;
    (void)routine;
#endif
}

void bi_gridmap(Int *ctxt, MPI_Comm sys, const Int *map, Int ldup, Int nprow, Int npcol,
                const char *routine)
{
    bi_grid_check(sys, nprow, npcol);
    int size;
    MPI_Errhandler uh = bi_errh_return(sys); /* the user's communicator: error.c */
    BI_MPI_IN(MPI_Comm_size(sys, &size), "MPI_Comm_size", -1, routine);
    if (ldup < nprow)
        bi_argerr(-1, routine, 3, "LDUMAP", "LDUMAP=%ld is smaller than NPROW=%ld", (long)ldup,
                  (long)nprow);
    int np = (int)(nprow * npcol);
    int *ranks = bi_alloc(NULL, (size_t)np * sizeof(int), routine, "the grid's ranks");
    char *seen = bi_alloc(NULL, (size_t)size, routine, "the grid's ranks");
    memset(seen, 0, (size_t)size);
    for (Int i = 0; i < nprow; i++)
        for (Int j = 0; j < npcol; j++) {
            Int r = map[(size_t)j * (size_t)ldup + (size_t)i];
            if (r < 0 || r >= size || seen[r])
                bi_argerr(-1, routine, 2, "USERMAP",
                          "entry (%ld,%ld) = %ld is %s", (long)i + 1, (long)j + 1, (long)r,
                          (r < 0 || r >= size) ? "not a process of the system context"
                                               : "a process placed twice");
            seen[r] = 1;
            ranks[i * npcol + j] = (int)r; /* row-major grid order */
        }
    free(seen);
    MPI_Group sg, gg;
    MPI_Comm comm;
    BI_MPI_IN(MPI_Comm_group(sys, &sg), "MPI_Comm_group", -1, routine);
    BI_MPI_IN(MPI_Group_incl(sg, np, ranks, &gg), "MPI_Group_incl", -1, routine);
    BI_MPI_IN(MPI_Comm_create(sys, gg, &comm), "MPI_Comm_create", -1, routine);
    /* the new communicator is the user's (BLACS_GET WHAT=10): it gets the
     * handler the user gave the system context, not the one switched in for
     * the call above, which some MPIs (Open MPI) copy into it */
    if (comm != MPI_COMM_NULL)
        BI_MPI_IN(MPI_Comm_set_errhandler(comm, uh != MPI_ERRHANDLER_NULL ? uh : MPI_ERRORS_RETURN),
                  "MPI_Comm_set_errhandler", -1, routine);
    bi_errh_restore(sys, uh);
    BI_MPI_IN(MPI_Group_free(&gg), "MPI_Group_free", -1, routine);
    BI_MPI_IN(MPI_Group_free(&sg), "MPI_Group_free", -1, routine);
    free(ranks);
    if (comm == MPI_COMM_NULL) {
        *ctxt = -1;
        return;
    }
    check_ranges(comm, routine);
    Int h = new_slot(routine);
    bi_ctx *c = bi_alloc(NULL, sizeof *c, routine, "a context");
    memset(c, 0, sizeof *c);
    ctxs[h] = c;
    c->handle = h;
    c->ucomm = comm;
    /* the library's own traffic goes over a private duplicate: whatever the
     * user sends on the communicator of BLACS_GET WHAT=10, with any tag,
     * can never match a BLACS receive, nor a BLACS message a user's */
    BI_MPI_IN(MPI_Comm_dup(comm, &c->comm), "MPI_Comm_dup", -1, routine);
    BI_MPI_IN(MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", -1,
              routine);
    /* the cross-checks of BLACS_DEBUG=3 travel apart from everything else */
    c->chk = MPI_COMM_NULL;
    if (bi_g.debug >= 3)
        BI_MPI_IN(MPI_Comm_dup(c->comm, &c->chk), "MPI_Comm_dup", -1, routine);
    c->nprow = (int)nprow;
    c->npcol = (int)npcol;
    c->np = np;
    BI_MPI_IN(MPI_Comm_rank(comm, &c->iam), "MPI_Comm_rank", h, routine);
    c->myrow = c->iam / c->npcol;
    c->mycol = c->iam % c->npcol;
    scope_init(&c->row, c, 'r', c->npcol, c->mycol, c->myrow * c->npcol, 1);
    scope_init(&c->col, c, 'c', c->nprow, c->myrow, c->mycol, c->npcol);
    scope_init(&c->all, c, 'a', np, c->iam, 0, 1);
    c->all.comm = c->comm; /* MPI collectives of the all scope use the private communicator */
    /* row, then column: every member of a row makes the row's first, so
     * the two collective creations cannot cross */
    bi_scope *rc[2] = {&c->row, &c->col};
    for (int k = 0; k < 2; k++)
        if (rc[k]->np == np) rc[k]->comm = c->comm; /* the whole grid, in the same order */
        else if (rc[k]->np > 1) scope_comm_make(rc[k], routine);
        else rc[k]->comm = MPI_COMM_SELF; /* alone in it: nothing to make */
    c->rings_bs = c->branches_bs = c->rings_comb = c->branches_comb = 1;
    c->lastsrc = -1;
    c->syshandle = -1;
    c->world = bi_alloc(NULL, (size_t)np * sizeof(int), routine, "the grid's ranks");
    {
        MPI_Group cg, wg;
        int *seq = bi_alloc(NULL, (size_t)np * sizeof(int), routine, "the grid's ranks");
        for (int i = 0; i < np; i++) seq[i] = i;
        BI_MPI_IN(MPI_Comm_group(comm, &cg), "MPI_Comm_group", h, routine);
        BI_MPI_IN(MPI_Comm_group(MPI_COMM_WORLD, &wg), "MPI_Comm_group", h, routine);
        BI_MPI_IN(MPI_Group_translate_ranks(cg, np, seq, wg, c->world), "MPI_Group_translate_ranks",
                  h, routine);
        BI_MPI_IN(MPI_Group_free(&cg), "MPI_Group_free", h, routine);
        BI_MPI_IN(MPI_Group_free(&wg), "MPI_Group_free", h, routine);
        free(seq);
    }
    c->node = bi_alloc(NULL, (size_t)np * sizeof *c->node, routine, "the grid's nodes");
    node_map(c, routine);
    bi_msgid_setup(c);
    bi_error_grid(h, c->myrow, c->mycol);
    *ctxt = h;
    if (++nlive > live_hwm) live_hwm = nlive;
    if (nlive >= warn_at) {
        BI_WARN(h, "%d grids are alive in this process: is BLACS_GRIDEXIT missing?", nlive);
        warn_at *= 2;
    }
}

void bi_gridexit(Int h, const char *routine)
{
    if (h < 0 || h >= nctxs)
        bi_error(h, -1, routine, "Trying to exit non-existent context");
    bi_ctx *c = ctxs[h];
    if (!c) bi_error(h, -1, routine, "Trying to exit an already freed context");
    bi_poll();
    bi_scope *rc[2] = {&c->row, &c->col};
    for (int k = 0; k < 2; k++)
        if (rc[k]->comm != MPI_COMM_NULL && rc[k]->comm != MPI_COMM_SELF && rc[k]->comm != c->comm)
            BI_MPI_IN(MPI_Comm_free(&rc[k]->comm), "MPI_Comm_free", h, routine);
    if (c->syshandle > 0) bi_sys_free(c->syshandle, 1);
    if (c->chk != MPI_COMM_NULL) {
        bi_check_exit(h);
        BI_MPI_IN(MPI_Comm_free(&c->chk), "MPI_Comm_free", h, routine);
    }
    /* buffered sends still in flight keep their own reference to the
     * communicator (MPI frees it once they complete) */
    BI_MPI_IN(MPI_Comm_free(&c->comm), "MPI_Comm_free", h, routine);
    BI_MPI_IN(MPI_Comm_free(&c->ucomm), "MPI_Comm_free", h, routine);
    bi_msgid_free(c);
    free(c->world);
    free(c->node);
    free(c);
    ctxs[h] = NULL;
    bi_error_grid(h, -1, -1);
    nlive--;
}

int bi_ctx_live(void) { return nlive; }
int bi_ctx_hwm(void) { return live_hwm; }

void bi_ctx_exit_all(void)
{
    for (int i = 0; i < nctxs; i++)
        if (ctxs[i]) bi_gridexit(i, "BLACS_EXIT");
    free(ctxs);
    ctxs = NULL;
    nctxs = 0;
    bi_check_exit(-1);
    run_cleanups();
    bi_error_grid(-1, -1, -1);
}

/* ---- C system-context handles (Csys2blacs_handle); handles stay stable -- */
Int bi_sys_handle(MPI_Comm comm)
{
    bi_init();
    if (comm == MPI_COMM_NULL)
        bi_error(-1, __LINE__, __FILE__, "Cannot define a BLACS system handle based on MPI_COMM_NULL");
    if (nsys == 0) {
        nsys = 8;
        syscomms = bi_alloc(NULL, (size_t)nsys * sizeof *syscomms, "Csys2blacs_handle",
                            "the system-context table");
        for (int i = 0; i < nsys; i++) syscomms[i] = MPI_COMM_NULL;
        syscomms[0] = MPI_COMM_WORLD;
    }
    for (int i = 0; i < nsys; i++)
        if (syscomms[i] == comm) return i;
    for (int i = 1; i < nsys; i++)
        if (syscomms[i] == MPI_COMM_NULL) {
            syscomms[i] = comm;
            return i;
        }
    int n = 2 * nsys;
    syscomms = bi_alloc(syscomms, (size_t)n * sizeof *syscomms, "Csys2blacs_handle",
                        "the system-context table");
    for (int i = nsys; i < n; i++) syscomms[i] = MPI_COMM_NULL;
    syscomms[nsys] = comm;
    nsys = n;
    return n / 2;
}

MPI_Comm bi_sys_comm(Int h, const char *routine, const char *argname)
{
    bi_init();
    if (h == 0) return MPI_COMM_WORLD;
    if (h < 0 || h >= nsys || syscomms[h] == MPI_COMM_NULL)
        bi_argerr(-1, routine, 1, argname,
                  "%ld is not a BLACS system context handle (BLACS_GET WHAT=0 or "
                  "Csys2blacs_handle gives them)", (long)h);
    return syscomms[h];
}

/* A Fortran system context is any Fortran communicator handle of the
 * user's, so there is no table to look it up in.  MPI_Comm_f2c of a number
 * that is none (an ICONTXT that BLACS_GET never set) makes a handle that
 * MPI rejects at its first use, deep inside GRIDINIT, with MPI's own
 * message naming no BLACS routine.  So MPI is asked about it once, with its
 * errors returned: it reports a bad handle to the handler of
 * MPI_COMM_WORLD (MPI_COMM_SELF in MPI 4), both switched for the call
 * only (error.c). */
MPI_Comm bi_sys_fcomm(Int h, const char *routine)
{
    bi_init();
    MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)h);
    int size = 0, rc = MPI_ERR_COMM;
    if ((Int)(MPI_Fint)h == h && comm != MPI_COMM_NULL) {
        MPI_Errhandler uw = bi_errh_return(MPI_COMM_WORLD), us = bi_errh_return(MPI_COMM_SELF);
        rc = MPI_Comm_size(comm, &size);
        bi_errh_restore(MPI_COMM_SELF, us);
        bi_errh_restore(MPI_COMM_WORLD, uw);
    }
    if (rc != MPI_SUCCESS || size < 1)
        bi_argerr(-1, routine, 1, "ICONTXT",
                  "%ld is not a system context (a Fortran MPI communicator handle, as BLACS_GET "
                  "WHAT=0 gives)", (long)h);
    return comm;
}

void bi_sys_free(Int h, int quiet)
{
    if (h == 0) return;
    if (h < 0 || h >= nsys || syscomms[h] == MPI_COMM_NULL) {
        if (!quiet) BI_WARN(-1, "Trying to free non-existent system context handle %ld", (long)h);
        return;
    }
    syscomms[h] = MPI_COMM_NULL;
}

void bi_sys_reset(void)
{
    free(syscomms);
    syscomms = NULL;
    nsys = 0;
}
