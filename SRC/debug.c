/*
 * debug.c -- the debug and statistics levels LAWN 73 section 7.1.4 proposes,
 * chosen at run time:
 *   BLACS_DEBUG=1  extra argument checks (broadcast receivers naming
 *                  themselves as source, ...)
 *   BLACS_DEBUG=2  hang detection: every wait polls; when nothing arrives for
 *                  BLACS_HANG_TIMEOUT seconds (default 10) the process says
 *                  what it waits in and what it last completed, then the job
 *                  stops with a BLACS error
 *   BLACS_DEBUG=3  cross-checks: before every broadcast and combine the
 *                  members of the scope compare routine, scope, topology,
 *                  element count and root, and report a mismatch precisely
 *   BLACS_STATS=1  per-routine statistics printed at BLACS_EXIT (each
 *                  process its own table, and CSV in BLACS_STATS_CSV.<pnum>
 *                  if set)
 * At every level a wait in progress for BLACS_WAIT_WARN seconds is reported
 * once, by a thread of its own (watch.c); bi_wait_text and bi_call_text say
 * what is waited for, here and there alike.
 * Every entry point brackets its work with bi_enter/bi_leave; with all of
 * this off they cost a few stores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <unistd.h>
#include "bi.h"
#include "support.h"
#include "topo_algs.h"


/* ---- statistics --------------------------------------------------------- */
typedef struct {
    const char *routine;
    long calls;
    double bytes, tin, twait, minmsg, maxmsg;
} bi_stat;
#define NSTAT 128
static bi_stat stats[NSTAT];
static int nstats;

static bi_stat *stat_of(const char *routine)
{
    for (int i = 0; i < nstats; i++)
        if (stats[i].routine == routine || strcmp(stats[i].routine, routine) == 0) return &stats[i];
    if (nstats == NSTAT) return NULL;
    bi_stat *s = &stats[nstats++];
    memset(s, 0, sizeof *s);
    s->routine = routine;
    s->minmsg = -1;
    return s;
}

/* ---- where we are -------------------------------------------------------- */
static const char *kind_name(char k)
{
    switch (k) {
    case 's': return "point-to-point send";
    case 'v': return "point-to-point receive";
    case 'b': return "broadcast send";
    case 'r': return "broadcast receive";
    case 'c': return "combine";
    default: return "call";
    }
}

void bi_call_text(const bi_call *c, char *out, size_t n)
{
    if (!c->routine) {
        snprintf(out, n, "(nothing)");
        return;
    }
    snprintf(out, n, "%s (%s, context %ld, scope '%c', topology '%c', %zu elements, %s {%ld,%ld})",
             c->routine, kind_name(c->kind), (long)c->ctxt, c->scope ? c->scope : '-',
             c->top ? c->top : '-', c->count,
             c->kind == 's' ? "to" : c->kind == 'c' ? "destination" : c->kind == 'b' ? "from" : "source",
             (long)c->rr, (long)c->rc);
}

/* ---- level 3: cross-checks ------------------------------------------------ */
typedef struct {
    char routine[16];
    int kind, scope, top;
    long count, root;
} sig_t;

/* The allgather of the cross-check in a scope without collectives of its
 * own (a row or column that is the whole grid: bi_scope_has_coll), point
 * to point on two message IDs of its class: every member's record to scope
 * rank 0, then the table back from it along the binomial tree.  Every
 * member reserves the IDs in the same place of the scope's sequence, since
 * debug level 3 is the whole grid's or nobody's (context.c). */
static void gather_p2p(bi_scope *s, const sig_t *me, sig_t *all)
{
    bi_coll c = {0};
    c.sc = s;
    c.np = s->np;
    c.me = s->me;
    c.root = 0;
    c.isize = 1;
    c.dt = MPI_BYTE;
    c.param = 1;
    c.top = '1';
    const int tag = bi_msgid_scoped(s, 0, 2, 1);
    if (s->me) bi_send(&c, 0, me, sizeof *me, tag);
    else {
        all[0] = *me;
        for (int k = 1; k < s->np; k++) bi_recv(&c, k, &all[k], sizeof *me, tag);
    }
    c.buf = (char *)all;
    c.count = (size_t)s->np * sizeof *all;
    c.tag = tag + 1;
    bi_bcast_tree(&c);
    bi_coll_finish(&c); /* no BLACS buffer: waits for the sends from all */
}

static void crosscheck(bi_ctx *ctx, bi_scope *s)
{
    sig_t me, *all;
    memset(&me, 0, sizeof me);
    snprintf(me.routine, sizeof me.routine, "%s", bi_cur.routine);
    me.kind = bi_cur.kind == 'b' || bi_cur.kind == 'r' ? 'B' : 'C';
    me.scope = s->id;
    me.top = bi_up(&bi_cur.top);
    me.count = (long)bi_cur.count;
    me.root = bi_cur.kind == 'b' ? s->me
              : (bi_cur.kind == 'c' && (bi_cur.rr == -1 || bi_cur.rc == -1)) ? -1
                                                                              : bi_scope_rank(s, bi_cur.rr, bi_cur.rc);
    all = bi_alloc(NULL, (size_t)s->np * sizeof *all, NULL, "the cross-check");
    if (bi_scope_has_coll(s)) {
        /* blocking: a member that never comes is left to the long-wait warning */
        bi_watch_begin('c', -1, -1, sizeof me);
        BI_MPI(MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE,
                             bi_scope_comm(s)),
               "MPI_Allgather");
        bi_watch_end();
    } else {
        gather_p2p(s, &me, all);
    }
    /* compare with the first process of the scope that is the root (or 0) */
    int ref = 0;
    for (int k = 0; k < s->np; k++)
        if (all[k].root == k) ref = k;
    const sig_t *r = &all[ref];
    char why[400] = "";
    if (r->kind != me.kind)
        snprintf(why, sizeof why, "this process called %s but scope rank %d called %s", me.routine, ref, r->routine);
    else if (r->top != me.top)
        snprintf(why, sizeof why, "topology '%c' here, '%c' at scope rank %d (%s)", me.top, r->top, ref, r->routine);
    else if (r->count != me.count)
        snprintf(why, sizeof why, "%ld elements (M*N) here, %ld at scope rank %d (%s)", me.count, r->count, ref, r->routine);
    else if (r->root != me.root)
        snprintf(why, sizeof why, "root/destination is scope rank %ld here, %ld at scope rank %d (%s)", me.root, r->root, ref, r->routine);
    else
        for (int k = 0; k < s->np && !why[0]; k++)
            if (all[k].kind == 'B' && all[k].root == k && k != ref)
                snprintf(why, sizeof why, "two broadcast sources in one operation: scope ranks %d and %d", ref, k);
    free(all);
    if (why[0]) {
        char d[300];
        bi_call_text(&bi_cur, d, sizeof d);
        bi_error(ctx->handle, -1, bi_cur.routine, "BLACS_DEBUG=3 cross-check failed in %s: %s", d, why);
    }
}

void bi_enter(const char *routine, Int ctxt, char kind, const char *scope, const char *top,
              const bi_shape *s, Int rr, Int rc)
{
    bi_cur.routine = routine;
    bi_cur.ctxt = ctxt;
    bi_cur.kind = kind;
    bi_cur.scope = scope ? (char)(bi_up(scope) | 32) : 0;
    bi_cur.top = top ? bi_up(top) : 0;
    bi_cur.count = bi_shape_count(s);
    bi_cur.bytes = bi_cur.count * bi_types[s->type].size;
    bi_cur.rr = rr;
    bi_cur.rc = rc;
    bi_cur.twait = 0;
    if (bi_g.stats) bi_cur.t0 = MPI_Wtime();
    if (bi_g.debug >= 1 && (kind == 'r' || kind == 'b' || kind == 'c')) {
        bi_ctx *c = bi_ctx_get(ctxt, routine);
        bi_scope *sc = bi_scope_get(c, scope, routine, 2);
        if (kind == 'r' && bi_scope_rank(sc, rr, rc) == sc->me &&
            rr >= 0 && rr < c->nprow && rc >= 0 && rc < c->npcol)
            bi_argerr(ctxt, routine, s->tr ? 10 : 8, "RSRC/CSRC",
                      "a broadcast receiver names itself {%ld,%ld} as the source", (long)rr, (long)rc);
        if (bi_g.debug >= 3 && sc->np > 1) crosscheck(c, sc);
    }
}

void bi_leave(void)
{
    if (bi_g.stats) {
        bi_stat *s = stat_of(bi_cur.routine);
        if (s) {
            double b = (double)bi_cur.bytes;
            s->calls++;
            s->bytes += b;
            s->tin += MPI_Wtime() - bi_cur.t0;
            s->twait += bi_cur.twait;
            if (s->minmsg < 0 || b < s->minmsg) s->minmsg = b;
            if (b > s->maxmsg) s->maxmsg = b;
        }
    }
    bi_last = bi_cur;
    bi_cur.routine = NULL;
}

void bi_wait_text(char dir, int peer, int tag, size_t bytes, char *out, size_t n)
{
    char who[48] = "any process of the grid", id[40] = "", sz[32] = "";
    if (peer >= 0) snprintf(who, sizeof who, "rank %d of the grid", peer);
    if (tag >= 0) snprintf(id, sizeof id, ", message ID %d", tag);
    if (bytes) snprintf(sz, sizeof sz, ", %zu bytes", bytes);
    if (dir == 'c') snprintf(out, n, "the other processes of the scope in an MPI collective%s", sz);
    else if (dir == 's' && peer < 0) snprintf(out, n, "its sends to be received%s", id);
    else if (dir == 's') snprintf(out, n, "%s to take a message%s%s", who, id, sz);
    else snprintf(out, n, "a message from %s%s%s", who, id, sz);
}

/* ---- level 2: waits that notice a hang ------------------------------------ */
void bi_hang(char dir, int peer, int tag, size_t bytes, double waited)
{
    char now[300], last[300], what[200];
    bi_call_text(&bi_cur, now, sizeof now);
    bi_call_text(&bi_last, last, sizeof last);
    bi_wait_text(dir, peer, tag, bytes, what, sizeof what);
    /* let every stuck process say its piece before the job stops */
    fprintf(stderr,
            "BLACS HANG (BLACS_DEBUG=2) on pnum %d: nothing arrived for %.0f s\n"
            "  waiting in: %s\n  for: %s\n  last completed: %s\n",
            bi_g.world_rank, waited, now, what, last);
    fflush(stderr);
    struct timespec ts = {2, 0};
    nanosleep(&ts, NULL);
    bi_error(bi_cur.ctxt, -1, bi_cur.routine ? bi_cur.routine : "BLACS",
             "hang detected: waited %.0f s in %s for %s", waited, now, what);
}

int bi_wait(MPI_Request *r, MPI_Status *st, char dir, int peer, int tag, size_t bytes)
{
    double t0 = (bi_g.stats || bi_g.debug >= 2) ? MPI_Wtime() : 0;
    /* an error of MPI_Wait/MPI_Test reaches MPI_COMM_WORLD's handler first
     * under MPICH (error.c) */
    bi_watch_begin(dir, peer, tag, bytes);
    if (bi_g.debug >= 2) {
        int done = 0;
        long spins = 0;
        while (!done) {
            BI_MPI(MPI_Test(r, &done, st), "MPI_Test");
            if (!done && (++spins & 1023) == 0) {
                double w = MPI_Wtime() - t0;
                if (w > bi_g.hang_timeout) bi_hang(dir, peer, tag, bytes, w);
                bi_poll();
            }
        }
    } else {
        BI_MPI(MPI_Wait(r, st), "MPI_Wait");
    }
    bi_watch_end();
    if (bi_g.stats) bi_cur.twait += MPI_Wtime() - t0;
    return MPI_SUCCESS;
}

/* ---- printing the statistics at BLACS_EXIT (or MPI_Finalize: context.c) --
 * Each process prints its own table: no MPI call, so nothing waits for
 * processes that never used the BLACS (a job whose other ranks never call
 * them, grids over a communicator of some ranks only).  The table goes out
 * with one write, so the tables of different processes do not mix line by
 * line; BLACS_STATS_CSV=file writes the rows as CSV to file.<pnum>. */
static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

void bi_stats_report(void)
{
    if (!bi_g.stats) return;
    const int pn = bi_g.world_rank;
    /* a line is at most about 160 characters (the routine names are short) */
    size_t max = (size_t)(nstats + 3) * 256, off = 0;
    char *tab = bi_alloc(NULL, max, "BLACS_EXIT", "the statistics");
    off += (size_t)snprintf(tab + off, max - off,
                            "BLACS statistics (BLACS_STATS=1) of pnum %d\n%5s %-12s %8s %12s %10s %10s "
                            "%10s %10s %10s %10s %6s\n",
                            pn, "pnum", "routine", "calls", "bytes", "in (s)", "wait (s)", "min msg",
                            "max msg", "mean msg", "buf hwm", "grids");
    const char *csv = getenv("BLACS_STATS_CSV");
    FILE *f = NULL;
    if (csv && *csv) {
        size_t len = strlen(csv) + 16;
        char *name = bi_alloc(NULL, len, "BLACS_EXIT", "the statistics");
        snprintf(name, len, "%s.%d", csv, pn);
        f = fopen(name, "w");
        free(name);
    }
    if (f)
        fprintf(f, "pnum,routine,calls,bytes,time_in_s,time_wait_s,min_msg,max_msg,mean_msg,"
                   "buffer_hwm_bytes,live_grids_hwm\n");
    for (int i = 0; i < nstats; i++) {
        const bi_stat *s = &stats[i];
        double mn = s->minmsg < 0 ? 0 : s->minmsg, me = s->calls ? s->bytes / (double)s->calls : 0.0;
        off += (size_t)snprintf(tab + off, max - off,
                                "%5d %-12s %8ld %12.0f %10.4f %10.4f %10.0f %10.0f %10.1f %10zu %6d\n",
                                pn, s->routine, s->calls, s->bytes, s->tin, s->twait, mn, s->maxmsg,
                                me, bi_buf_hwm(), bi_ctx_hwm());
        if (off >= max) off = max - 1; /* cut, never overrun */
        if (f)
            fprintf(f, "%d,%s,%ld,%.0f,%.6f,%.6f,%.0f,%.0f,%.1f,%zu,%d\n", pn, s->routine, s->calls,
                    s->bytes, s->tin, s->twait, mn, s->maxmsg, me, bi_buf_hwm(), bi_ctx_hwm());
    }
    if (f) fclose(f);
    fflush(stdout); /* the program's own output first */
    write_all(STDOUT_FILENO, tab, off);
    free(tab);
    nstats = 0;
}
