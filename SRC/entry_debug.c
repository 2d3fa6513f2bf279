/*
 * entry_debug.c -- the debug and statistics levels LAWN 73 section 7.1.4 proposes,
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
 * once, by a thread of its own (watch.c); bi_wait_text and bi_call_text
 * (error.c) say what is waited for, there and in hang reports alike.
 * Every entry point brackets its work with bi_enter/bi_leave (inline, bi.h);
 * with all of this off they cost a few stores.  Here: the checks those make
 * at debug level 1 and the cross-check of level 3; the waits of level 2 are
 * in wait.c, the descriptions still in flight in check.c, the statistics
 * in stats.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <unistd.h>
#include "bi.h"


/* ---- level 3: cross-checks ------------------------------------------------
 * Each process describes its call (bi_sig) and sends the description to
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
 * The descriptions sent are buffered sends (buffer.c), but the library's
 * own: FREEBUFF does not wait for them.  A source may exit its grid, and
 * even the BLACS, before its receivers have called theirs: GRIDEXIT
 * leaves the descriptions still to come pending (MPI completes operations
 * on a freed communicator); BLACS_EXIT gives what is still in flight
 * either way a moment (WORDS_WAIT), then drops the receives and lets the
 * sends go.  It waited for its sends until they were taken: a receiver
 * 0.2 s late sent its description to a source that had dropped its
 * receive already, and when MPI completed that send only once matched
 * (a full queue; lazympi's LAZYMPI_FULL) the receiver's BLACS_EXIT never
 * returned (make fuzz-lazy; offmpi.list, offmpi_lazy_exit_full). */
static int scope_tag(char id) { return id == 'r' ? 1 : id == 'c' ? 2 : 3; }

static void crosscheck(bi_ctx *ctx, bi_scope *s)
{
    bi_sig me;
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
    bi_chk **now = bi_alloc(NULL, (size_t)s->np * sizeof *now, NULL, "the cross-check");
    int tag = scope_tag(s->id);
    /* My description leaves from one buffer, as any locally-blocking send
     * does (buffer.c): the progress thread moves it while this process
     * computes after the call, and BLACS_EXIT waits for it.  Sent from
     * memory of its own, it was moved only by this process's next MPI call:
     * a peer waiting for it while this process waited outside MPI for that
     * peer was a hang (make fuzz, MPICH, under load).  Outside the
     * BLACS_BUFMAX cap, as a receive's scratch is: the check must not make a
     * program fail that runs without it. */
    bi_buf *out = bi_buf_scratch(sizeof me);
    out->lib = 1; /* not the program's send: EXIT does not wait for it for ever (buffer.c) */
    memcpy(out->data, &me, sizeof me);
    for (int k = 0; k < s->np; k++) {
        now[k] = NULL;
        if (k == s->me) continue;
        int peer = bi_scope_commrank(s, k);
        bi_chk *in = bi_alloc(NULL, sizeof *in, NULL, "the cross-check");
        *in = (bi_chk){.ctxt = ctx->handle, .me = s->me, .peer = k, .mine = me};
        snprintf(in->call, sizeof in->call, "%s", call);
        BI_MPI(MPI_Isend(out->data, (int)sizeof me, MPI_BYTE, peer, tag, ctx->chk,
                         bi_buf_req(out, ctx->world[peer])),
               "MPI_Isend");
        BI_MPI(MPI_Irecv(&in->sig, (int)sizeof in->sig, MPI_BYTE, peer, tag, ctx->chk, &in->r),
               "MPI_Irecv");
        if (wait_for == -1 || wait_for == k) {
            now[k] = in; /* waited for below, on no list meanwhile */
        } else {
            bi_check_track(in);
        }
    }
    bi_buf_post(out);
    /* the descriptions waited for: compared with the first that is the
     * root of the operation (the source, a combine's destination), else
     * with scope rank 0's or the source's, as every process would see it */
    for (int k = 0; k < s->np; k++)
        if (now[k]) bi_wait(&now[k]->r, MPI_STATUS_IGNORE, 'r', bi_scope_commrank(s, k), tag,
                            sizeof me);
    const bi_sig *ref = NULL;
    int refk = -1;
    for (int k = 0; k < s->np && !ref; k++) {
        const bi_sig *o = k == s->me ? &me : now[k] ? &now[k]->sig : NULL;
        if (o && o->root == k) ref = o, refk = k;
    }
    if (!ref && wait_for >= 0) ref = &now[wait_for]->sig, refk = wait_for;
    if (!ref && wait_for == -1) ref = s->me == 0 ? &me : &now[0]->sig, refk = 0;
    char why[400] = "";
    if (ref && refk != s->me) bi_check_differ(&me, s->me, ref, refk, why, sizeof why);
    for (int k = 0; k < s->np && !why[0]; k++)
        if (now[k]) bi_check_differ(&me, s->me, &now[k]->sig, k, why, sizeof why);
    for (int k = 0; k < s->np; k++) free(now[k]);
    free(now);
    if (why[0]) bi_check_fail(ctx->handle, bi_cur.routine, call, why);
    bi_check_poll();
}

/* the bracket's start at debug level 1 and up, for broadcasts and
 * combines (bi_enter, bi.h) */
void bi_enter_debug(const char *routine, Int ctxt, char kind, const char *scope, const bi_shape *s,
                    Int rr, Int rc)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    bi_scope *sc = bi_scope_get(c, scope, routine, 2);
    if (kind == 'r' && bi_scope_rank(sc, rr, rc) == sc->me && rr >= 0 && rr < c->nprow && rc >= 0 &&
        rc < c->npcol)
        bi_argerr(ctxt, routine, s->tr ? 10 : 8, "RSRC/CSRC",
                  "a broadcast receiver names itself {%ld,%ld} as the source", (long)rr, (long)rc);
    if (bi_g.debug >= 3 && sc->np > 1 && c->chk != MPI_COMM_NULL) crosscheck(c, sc);
}
