/*
 * debug.c -- the debug and statistics levels LAWN 73 section 7.1.4 proposes,
 * chosen at run time:
 *   BLACS_DEBUG=1  extra argument checks (broadcast receivers naming
 *                  themselves as source, ...)
 *   BLACS_DEBUG=2  hang detection: every wait polls; when nothing arrives for
 *                  BLACS_HANG_TIMEOUT seconds (default 10) the process says
 *                  what it waits in and what it last completed, then the job
 *                  stops with a BLACS error
 *   BLACS_DEBUG=3  cross-checks: the members of a scope compare routine,
 *                  topology, element count and root of every broadcast and
 *                  combine, and report a mismatch precisely, without a
 *                  broadcast source ever waiting for its receivers (below)
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

/* ---- level 3: cross-checks ------------------------------------------------
 * Each process describes its call (sig_t) and sends the description to
 * every other member of the scope, point to point on the grid's check
 * communicator (ctx->chk, made with the grid at this level), one tag per
 * scope: the members of a scope make its operations in the same order (the
 * reference's message IDs need it too), so MPI's ordering pairs the k-th
 * descriptions of two processes.  Nobody waits for more than the operation
 * itself would make it wait for:
 *   - a broadcast source waits for nothing: it posts its descriptions and
 *     returns (a broadcast/send is locally blocking, LAWN 73 4.1); the
 *     descriptions the receivers send it are compared as they arrive;
 *   - a broadcast receiver waits for the source's description (it waits for
 *     the source anyway) and compares before the data moves, so a count that
 *     differs is reported as such and not as a truncated message;
 *   - a combine waits for every member's (it is globally blocking).
 * Descriptions left to arrive later are compared when they do: by every
 * BLACS call (bi_poll) and every wait of the hang detection this level
 * includes, so a mismatch that makes an operation hang is still reported.
 * A source may exit its grid before its receivers have even called theirs:
 * GRIDEXIT leaves what is still to come pending (MPI completes operations
 * on a freed communicator), BLACS_EXIT drops it. */
typedef struct {
    char routine[16];
    int kind, scope, top;
    long count, root;
} sig_t;

typedef struct chk {
    struct chk *next;
    Int ctxt;
    int recv;              /* 1: a peer's description arriving; 0: mine leaving */
    int me, peer, np;      /* scope ranks, scope size */
    sig_t sig;             /* the message */
    sig_t mine;            /* receives: my description of the same operation */
    char call[300];        /* receives: my call, for the report */
    MPI_Request r;
} chk;
static chk *pending;
static chk *orphans; /* sends of exited grids that MPI still carries out */

static int scope_tag(char id) { return id == 'r' ? 1 : id == 'c' ? 2 : 3; }

/* why two descriptions of one operation disagree ("" if they agree): mine
 * at scope rank me, o at scope rank k */
static void differ(const sig_t *m, int me, const sig_t *o, int k, char *why, size_t n)
{
    why[0] = 0;
    if (m->kind == 'B' && o->kind == 'B' && m->root == me && o->root == k && k != me)
        snprintf(why, n, "two broadcast sources in one operation: scope ranks %d and %d",
                 me < k ? me : k, me < k ? k : me);
    else if (o->kind != m->kind)
        snprintf(why, n, "this process called %s but scope rank %d called %s", m->routine, k, o->routine);
    else if (o->top != m->top)
        snprintf(why, n, "topology '%c' here, '%c' at scope rank %d (%s)", m->top, o->top, k, o->routine);
    else if (o->count != m->count)
        snprintf(why, n, "%ld elements (M*N) here, %ld at scope rank %d (%s)", m->count, o->count, k, o->routine);
    else if (o->root != m->root)
        snprintf(why, n, "root/destination is scope rank %ld here, %ld at scope rank %d (%s)", m->root, o->root, k, o->routine);
}

static BI_NORETURN void mismatch(Int ctxt, const char *routine, const char *call, const char *why)
{
    bi_error(ctxt, -1, routine, "BLACS_DEBUG=3 cross-check failed in %s: %s", call, why);
}

/* a peer's description that has arrived, compared with mine */
static void arrived(const chk *p)
{
    char why[400];
    differ(&p->mine, p->me, &p->sig, p->peer, why, sizeof why);
    if (why[0]) mismatch(p->ctxt, p->mine.routine, p->call, why);
}

/* compare what has arrived, free what is done; with last (BLACS_EXIT)
 * unfinished receives are cancelled and unfinished sends freed */
static void check_sweep(int last)
{
    for (chk **pp = &pending, *p; (p = *pp);) {
        int done = 0;
        MPI_Status st;
        BI_MPI(MPI_Test(&p->r, &done, &st), "MPI_Test");
        if (!done && last) {
            if (p->recv) {
                BI_MPI(MPI_Cancel(&p->r), "MPI_Cancel");
                BI_MPI(MPI_Wait(&p->r, &st), "MPI_Wait");
                int cancelled = 0;
                MPI_Test_cancelled(&st, &cancelled);
                done = !cancelled ? 1 : -1;
            } else {
                /* MPI sends it on: its buffer stays until BLACS_EXIT */
                BI_MPI(MPI_Request_free(&p->r), "MPI_Request_free");
                *pp = p->next;
                p->next = orphans;
                orphans = p;
                continue;
            }
        }
        if (!done) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        if (p->recv && done > 0) arrived(p);
        free(p);
    }
}

void bi_check_poll(void)
{
    if (pending) check_sweep(0);
}

void bi_check_exit(Int ctxt)
{
    if (pending) check_sweep(ctxt < 0);
    if (ctxt < 0) /* BLACS_EXIT: every grid is gone, and with it its sends */
        while (orphans) {
            chk *p = orphans;
            orphans = p->next;
            free(p);
        }
}

static void crosscheck(bi_ctx *ctx, bi_scope *s)
{
    sig_t me;
    memset(&me, 0, sizeof me);
    snprintf(me.routine, sizeof me.routine, "%s", bi_cur.routine);
    me.kind = bi_cur.kind == 'b' || bi_cur.kind == 'r' ? 'B' : 'C';
    me.scope = s->id;
    me.top = bi_up(&bi_cur.top);
    me.count = (long)bi_cur.count;
    me.root = bi_cur.kind == 'b' ? s->me
              : (bi_cur.kind == 'c' && (bi_cur.rr == -1 || bi_cur.rc == -1)) ? -1
                                                                              : bi_scope_rank(s, bi_cur.rr, bi_cur.rc);
    /* whose description this process waits for now: the source's (a
     * receiver naming a source outside the scope is the argument check's,
     * right after), everyone's (a combine), nobody's (the source) */
    int wait_for = bi_cur.kind == 'r' ? (me.root >= 0 && me.root < s->np ? (int)me.root : -2)
                   : bi_cur.kind == 'c' ? -1 : -2;
    char call[300];
    bi_call_text(&bi_cur, call, sizeof call);
    chk **now = bi_alloc(NULL, (size_t)s->np * sizeof *now, NULL, "the cross-check");
    int tag = scope_tag(s->id);
    for (int k = 0; k < s->np; k++) {
        now[k] = NULL;
        if (k == s->me) continue;
        int peer = bi_scope_commrank(s, k);
        chk *out = bi_alloc(NULL, sizeof *out, NULL, "the cross-check");
        chk *in = bi_alloc(NULL, sizeof *in, NULL, "the cross-check");
        *out = (chk){.ctxt = ctx->handle, .recv = 0, .me = s->me, .peer = k, .np = s->np, .sig = me};
        *in = (chk){.ctxt = ctx->handle, .recv = 1, .me = s->me, .peer = k, .np = s->np, .mine = me};
        snprintf(in->call, sizeof in->call, "%s", call);
        BI_MPI(MPI_Isend(&out->sig, (int)sizeof out->sig, MPI_BYTE, peer, tag, ctx->chk, &out->r),
               "MPI_Isend");
        BI_MPI(MPI_Irecv(&in->sig, (int)sizeof in->sig, MPI_BYTE, peer, tag, ctx->chk, &in->r),
               "MPI_Irecv");
        out->next = pending;
        pending = out;
        if (wait_for == -1 || wait_for == k) {
            now[k] = in; /* waited for below, on no list meanwhile */
        } else {
            in->next = pending;
            pending = in;
        }
    }
    /* the descriptions waited for: compared with the first that is the
     * root of the operation (the source, a combine's destination), else
     * with scope rank 0's or the source's, as every process would see it */
    for (int k = 0; k < s->np; k++)
        if (now[k]) bi_wait(&now[k]->r, MPI_STATUS_IGNORE, 'r', bi_scope_commrank(s, k), tag,
                            sizeof me);
    const sig_t *ref = NULL;
    int refk = -1;
    for (int k = 0; k < s->np && !ref; k++) {
        const sig_t *o = k == s->me ? &me : now[k] ? &now[k]->sig : NULL;
        if (o && o->root == k) ref = o, refk = k;
    }
    if (!ref && wait_for >= 0) ref = &now[wait_for]->sig, refk = wait_for;
    if (!ref && wait_for == -1) ref = s->me == 0 ? &me : &now[0]->sig, refk = 0;
    char why[400] = "";
    if (ref && refk != s->me) differ(&me, s->me, ref, refk, why, sizeof why);
    for (int k = 0; k < s->np && !why[0]; k++)
        if (now[k]) differ(&me, s->me, &now[k]->sig, k, why, sizeof why);
    for (int k = 0; k < s->np; k++) free(now[k]);
    free(now);
    if (why[0]) mismatch(ctx->handle, bi_cur.routine, call, why);
    bi_check_poll();
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
        if (bi_g.debug >= 3 && sc->np > 1 && c->chk != MPI_COMM_NULL) crosscheck(c, sc);
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
