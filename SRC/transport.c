/*
 * transport.c -- how collective algorithms move items between scope ranks.
 * Every scope's traffic goes over the grid's one communicator, scope ranks
 * translated (rank = base + k*stride), with the tags msgid.c hands out.
 * The optional message trace (BLACS_TRACE) records each send here, so every
 * topology is traced the same way; when off it costs one test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include "core.h"

static FILE *trace_file(void)
{
    static FILE *f;
    if (!f) {
        const char *p = bi_env_text(BI_SET_TRACE);
        char name[4096];
        snprintf(name, sizeof name, "%s.%d", p && *p ? p : "blacs_trace", bi_g.world_rank);
        f = fopen(name, "a");
        if (!f) {
            bi_g.trace = 0;
            BI_WARN(-1, "cannot open trace file %s; tracing off", name);
        }
    }
    return f;
}

void bi_trace_send(bi_coll *c, int to, size_t bytes, int tag)
{
    FILE *f = trace_file();
    if (!f) return;
    fprintf(f, "%ld %c %d %d %zu %d %d %c\n", (long)c->sc->ctx->handle, c->sc->id, c->me, to,
            bytes, tag, c->step, c->plan.top ? c->plan.top : ' ');
    fflush(f);
}

/* a line of the plan that runs (the selection step, plan.c), before its
 * messages: "= b" for a broadcast, "= c" for a combine ('_' for TOP ' ').
 * With the sends' lines it is what the simulated build is checked against
 * (TIMING/sim/same.sh): the same plans and messages under SMPI as under
 * MPICH. */
void bi_trace_plan(const bi_coll *c, char kind)
{
    FILE *f = trace_file();
    if (!f) return;
    const bi_plan *p = &c->plan;
    fprintf(f, "= %c %ld %c %d %d %zu %zu %c mpi %d direct %d mark %d nodes %d nseg %zu param %d tags %d %d %d"
               " agree %d halve %d serial %a order %a %a %a ready %a\n",
            kind, (long)c->sc->ctx->handle, c->sc->id, c->me, c->root, c->count, c->isize,
            p->top && p->top != ' ' ? p->top : '_', p->mpi, p->direct, p->mark, p->nodes, p->nseg, p->param, p->ntags, p->first,
            c->tag, p->agree, p->halve, p->serial, p->ord_a, p->ord_b, p->ord_cap, p->ready_wait);
    fflush(f);
}

/* a point-to-point message (p2p.c): context, from, to (grid ranks), bytes,
 * message ID, and whether it has a receiver's word (p2p.c) */
void bi_trace_p2p(long ctx, int me, int to, size_t bytes, int tag, int worded)
{
    FILE *f = trace_file();
    if (!f) return;
    fprintf(f, "= p %ld %d %d %zu %d word %d\n", ctx, me, to, bytes, tag, worded);
    fflush(f);
}

/* Request arrays: one operation at a time borrows the process's pool, which
 * only grows (no allocation per call); a second simultaneous one would get
 * its own array. */
static MPI_Request *pool;
static int poolmax, poolbusy;

static void free_pool(void)
{
    free(pool);
    pool = NULL;
    poolmax = poolbusy = 0;
}

static void grow(bi_reqs *r)
{
    if (!r->r && !poolbusy && poolmax) {
        r->r = pool;
        r->max = poolmax;
        poolbusy = 1;
    }
    if (r->n == r->max) {
        int first = !r->r && !poolbusy;
        r->max = r->max ? 2 * r->max : 8;
        MPI_Request *p = realloc(r->r, (size_t)r->max * sizeof *r->r);
        if (!p) bi_error(-1, __LINE__, __FILE__, "out of memory for %d MPI requests", r->max);
        if (first && !poolmax) bi_atexit(free_pool);
        if (first || r->r == pool) { /* the pool grows with it */
            pool = p;
            poolmax = r->max;
            poolbusy = 1;
        }
        r->r = p;
    }
}

static void traced(bi_coll *c, int to, size_t items, int tag)
{
    if (bi_g.trace) bi_trace_send(c, to, items * c->isize, tag);
    c->step++;
}

/* Sends of collective operations.  bi_isend posts and never waits for
 * long: the broadcast source (and any process that only sends) returns
 * without depending on its receivers whatever the machine parameters,
 * which LAWN 73 4.1 allows ("as long as we use locally-blocking point to
 * point sends, the broadcast/send will be locally blocking").
 *   The source keeps its sends in order all the same (source_order): a send
 * posted while the one before is in flight shares the source's link with it
 * (SMPI's and TCP's fair sharing), so the first receiver -- the split
 * ring's +1 neighbour, the tree's child with the deepest subtree -- would
 * get its data late and pass it on late.  So before posting the next send
 * the source waits for the previous one, at most what the model says that
 * send takes, times 8 plus 20 us (plan.ord_a, ord_b), and at most
 * BLACS_SOURCE_WAIT in all (plan.ord_cap): when the receivers are there the
 * sends go out one after the other as LAWN 73's models assume; when one is
 * not (its bound passes), the source posts the rest at once and returns, so
 * a missing receiver costs it one bound (but for sends whose receivers have
 * all said they are there, below, which finish even after the bound is
 * spent).
 * The last send is waited for in the same way before the source returns
 * (bi_coll_finish): its next messages then do not share its link with this
 * broadcast's tail (a split ring's -1 half, a ring's last piece) --
 * ScaLAPACK's PDPOTRF in SMPI, 4 x 4, N = 2048, 1.25 GB/s: 1.03 times the
 * reference's time against 1.09 without that wait and 1.25 with no order
 * at all.  Sends that complete at once (eager, buffered by MPI) cost no
 * wait.
 *   The bound learns the link (bi_g.slow, per process).  The model may be
 * far faster than the network (the built-in machine is a 10 GB/s one; a
 * 1 Gbit/s TCP link is 85 times slower), and a send cut short there stays
 * where it is until the source calls MPI again -- MPICH over TCP moves a
 * long message only while its sender is inside MPI -- so a receiver that
 * is there waits for the source's whole computation.  A bound that passes
 * multiplies the factor by 8 for the next sends (up to 1024, never past
 * BLACS_SOURCE_WAIT): every send cut short costs its receiver a whole
 * computation, so the factor must catch up within one or two.  A send done
 * within a quarter of its bound halves it (down to 1).  Only sends of
 * BI_DIRECT_MIN bytes or more teach it (shorter ones go eagerly, or are
 * all latency).  A late receiver still costs the source at most
 * BLACS_SOURCE_WAIT per broadcast, nothing once its missing word shows it
 * late with the progress thread running (bi_source_settle).  And a long
 * broadcast whose receivers have all said they are there (their words,
 * below: in before its first send, c->allthere, or come after it stopped
 * waiting for them and copied) is
 * waited for to the end when its bound passes, or was spent by the sends
 * before (without the progress thread): each receiver is inside its
 * globally-blocking broadcast/receive, so the wait cannot hang, and a send
 * longer than BLACS_SOURCE_WAIT no longer stops halfway.
 * TESTING/t_busysource.c over TCP held to 1 Gbit/s: 4 MB to a receiver 3
 * ms late waited 236 ms (the source's whole computation), now 36-41 ms
 * (the transfer).  ScaLAPACK on MPICH between two such hosts, 1 x 2, N =
 * 2048, the built-in machine (TIMING/sim/sl_real.sh): PDGETRF and PDPOTRF
 * were 1.32-1.44 times the reference BLACS's time.
 *   bi_fwd is for a process passing data on to several others (a tree's
 * interior node, every process of a leave-on-all combine's final
 * broadcast): it waits for its previous send before posting the next, as
 * LAWN 73's models do (each child starts T_c after the one before, 4.3.2,
 * 5.4.1).  The wait is unbounded there because such a process is inside a
 * globally-blocking call (a broadcast/receive, a combine: LAWN 73 4.1 and
 * 5.1): no process may count on leaving one before every process of the
 * scope has called it.  The source of a broadcast (scope rank c->root) is
 * the one process outside that rule: it keeps the bounded order. */

/* have all the words come by now?  (MPI_Request_get_status: the requests
 * stay the buffer's, which waits for them once posted) */
static int words_all_in(const bi_coll *c)
{
    if (c->allthere) return 1;
    if (!c->words) return 0;
    for (int i = 0; i < c->np - 1; i++) {
        int in = 1;
        if (c->words[i] != MPI_REQUEST_NULL)
            BI_MPI(MPI_Request_get_status(c->words[i], &in, MPI_STATUS_IGNORE), "MPI_Request_get_status");
        if (!in) return 0;
    }
    return 1;
}

void bi_source_settle(bi_coll *c, MPI_Request *r, size_t bytes)
{
    if (c->me != c->root || c->op || c->plan.ord_cap <= 0) return;
    if (c->ordspent >= c->plan.ord_cap) {
        /* the bound is spent, and the rest go at once; but a send whose
         * receivers have all said they are there still finishes (as below),
         * for without the progress thread its data would wait for the
         * source's next MPI call (over TCP): 'C' on 1 x 2 sends twice, and
         * once the factor had grown its first wait took the whole bound, so
         * a 1 MB panel's receiver that was there waited 560 ms, the
         * source's computation (TESTING/t_busysource.c) */
        if (!bi_progress_running() && (c->lastdirect || words_all_in(c)))
            bi_wait(r, MPI_STATUS_IGNORE, 's', -1, -1, bytes);
        return;
    }
    /* A receiver whose word (plan.direct) is not in has not called the
     * broadcast yet.  With the progress thread the data moves without the
     * source (the buffer's post arms it), so the source does not wait for
     * it at all: make bench (TIMING/blate.c), 1 x 2, 10^5 doubles to a
     * receiver 20 ms late, 10 ms in the source (BLACS_SOURCE_WAIT, once
     * the late receivers had grown the bound), now 0.1 ms.  Without the
     * thread it waits in the bounds below as before, and a bound that
     * passes grows them: there a late receiver's data moves only while the
     * source is in MPI (over TCP), so waiting for it up to
     * BLACS_SOURCE_WAIT is what keeps that receiver from waiting for the
     * source's whole computation (TESTING/t_busysource.c). */
    if (bi_progress_running() && c->words && !c->lastdirect && !words_all_in(c)) {
        c->ordspent = c->plan.ord_cap; /* the rest go at once */
        return;
    }
    const double slow = bi_g.slow > 1 ? bi_g.slow : 1;
    double lim = (c->plan.ord_a + c->plan.ord_b * (double)bytes) * slow;
    /* with the progress thread (progress.c) the source need not stay in MPI
     * for its data to move: it waits what a receiver that is there takes
     * (2 T_c + 5 us), not 8, and a late one costs it that much less */
    if (bi_progress_running()) lim *= 0.25;
    const int capped = lim >= c->plan.ord_cap - c->ordspent;
    if (capped) lim = c->plan.ord_cap - c->ordspent;
    const int learn = (double)bytes >= BI_DIRECT_MIN; /* a shorter one may go eagerly, or be all latency */
    double w;
    if (bi_wait_bounded(r, lim, &w)) {
        c->ordspent += w;
        if (learn && w < 0.25 * lim && slow > 1) bi_g.slow = slow / 2;
    } else if (c->lastdirect || words_all_in(c)) {
        /* every receiver has said it is there, inside its globally-blocking
         * broadcast/receive: this send finishes while the source stays in
         * MPI, and no program can make that wait a hang (as a send from A) */
        c->ordspent += w;
        bi_wait(r, MPI_STATUS_IGNORE, 's', -1, -1, bytes);
        if (learn && slow < 1024 && !capped) bi_g.slow = slow * 8;
    } else {
        c->ordspent = c->plan.ord_cap; /* a receiver not there: the rest go at once */
        if (learn && !capped && slow < 1024) bi_g.slow = slow * 8;
    }
}

/* plan.direct 2 at the source (bi_words_each): every receiver's word is
 * looked at as it is sent to (a plan.direct 1 source has words, no from) */
static int each(const bi_coll *c)
{
    return c->words && c->from;
}

static void source_order(bi_coll *c)
{
    bi_reqs *q = c->lastdirect ? &c->direct : &c->reqs; /* where the latest send is */
    if (q->n) bi_source_settle(c, &q->r[q->n - 1], c->lastbytes);
}

/* a source that copies A as it sends (c->from, bcast.c): the copy up to
 * the end of the run about to go out, so that the first receiver's data
 * leaves after the copy of its piece, not of the whole vector, and the copy
 * of piece j+1 goes on while piece j is moved */
void bi_copy_upto(bi_coll *c, size_t end)
{
    if (!c->from || end <= c->copied) return;
    bi_pack_range(c->fromshape, c->from, c->buf, c->copied, end);
    c->copied = end;
}

/* plan.direct 2: may this send to scope rank to go from A?  Yes once to's
 * word is in; the source looks for it while it copies A (what is left of
 * plan.ready_wait in all the broadcast's sends), and without it the copy
 * is complete and the send goes from there */
static int to_is_there(bi_coll *c, int to)
{
    MPI_Request *w = &c->words[to < c->root ? to : to - 1];
    const double t0 = MPI_Wtime();
    int in = bi_copy_waiting(w, 1, c->buf, c->from, c->fromshape, c->count * c->isize, c->wordleft,
                             &c->copied);
    c->wordleft -= MPI_Wtime() - t0;
    if (c->wordleft < 0) c->wordleft = 0;
    return in;
}

/* what `items` of the operation travel as: a combine's as bytes (count.c) */
static bi_mpicount wire(const bi_coll *c, size_t items)
{
    return c->op ? bi_mpicount_bytes(items, c->isize, c->dt) : bi_mpicount_of(items, c->dt);
}

void bi_isend(bi_coll *c, int to, const void *p, size_t items, int tag)
{
    const size_t off = (size_t)((const char *)p - c->buf);
    bi_mpicount k = wire(c, items);
    bi_reqs *q = &c->reqs;
    if (each(c)) {
        source_order(c); /* the previous send first: its wait is time for this word */
        c->lastdirect = to_is_there(c, to);
        /* a GE shape goes from A through its datatype (bcast.c says where),
         * whole messages only */
        if (c->lastdirect && c->fromshape &&
            (off || items != c->count || k.made ||
             !bi_inplace_with(c->sc, to, c->count * c->isize, 0))) {
            c->lastdirect = 0;
            bi_copy_upto(c, off + items * c->isize);
        }
        if (c->lastdirect) {
            if (c->fromshape) k = (bi_mpicount){1, bi_shape_mpitype_cached(c->fromshape), 0};
            p = c->from + off;
            q = &c->direct;
        }
    } else {
        if (c->from) bi_copy_upto(c, off + items * c->isize);
        source_order(c);
    }
    grow(q);
    traced(c, to, items, tag);
    c->lastbytes = items * c->isize;
    BI_MPI(MPI_Isend(p, k.n, k.dt, bi_scope_commrank(c->sc, to), tag,
                           c->sc->ctx->comm, &q->r[q->n++]), "MPI_Isend");
    bi_mpicount_free(&k);
}

void bi_fwd(bi_coll *c, int to, const void *p, size_t items, int tag)
{
    if (c->reqs.n && c->me != c->root) bi_waitall(c);
    bi_isend(c, to, p, items, tag);
}

static int from_rank(const bi_coll *c, int commrank)
{
    return (commrank - c->sc->base) / c->sc->stride;
}

/* items of the operation from scope rank from (or BI_ANY), as k says they travel */
static int recv_as(bi_coll *c, int from, void *p, bi_mpicount k, size_t items, int tag)
{
    MPI_Status st;
    int src = from == BI_ANY ? MPI_ANY_SOURCE : bi_scope_commrank(c->sc, from);
    if (bi_g.debug >= 2 || bi_g.stats) {
        MPI_Request r;
        BI_MPI(MPI_Irecv(p, k.n, k.dt, src, tag, c->sc->ctx->comm, &r), "MPI_Irecv");
        bi_wait(&r, &st, 'r', src, tag, items * c->isize);
    } else {
        bi_watch_begin('r', src, tag, items * c->isize);
        BI_MPI(MPI_Recv(p, k.n, k.dt, src, tag, c->sc->ctx->comm, &st), "MPI_Recv");
        bi_watch_end();
    }
    bi_recv_check(c, &st, items);
    return from_rank(c, st.MPI_SOURCE);
}

int bi_recv(bi_coll *c, int from, void *p, size_t items, int tag)
{
    bi_mpicount k = wire(c, items);
    int got = recv_as(c, from, p, k, items, tag);
    bi_mpicount_free(&k);
    return got;
}

/* A letter's receiver that passes nothing on takes the vector straight
 * into its A, through the shape's datatype, where that is the faster way
 * (shape.c, bi_inplace: from another node; on one node MPI moves a
 * datatype only while its sender is inside MPI); the
 * rest receive into c->buf, which bcast.c unpacks. */
void bi_recv_vector(bi_coll *c, int from, int tag, int last)
{
    if (!last || !c->into || !bi_inplace_with(c->sc, from, c->count * c->isize, 1)) {
        bi_recv(c, from, c->buf, c->count, tag);
        return;
    }
    recv_as(c, from, c->into, (bi_mpicount){1, bi_shape_mpitype_cached(c->intoshape), 0}, c->count, tag);
    c->into = NULL;
}

void bi_irecv_wait(bi_coll *c, MPI_Request *r, int from, size_t items, int tag)
{
    MPI_Status st;
    bi_wait(r, &st, 'r', bi_scope_commrank(c->sc, from), tag, items * c->isize);
    bi_recv_check(c, &st, items);
}

void bi_recv_check(bi_coll *c, const MPI_Status *st, size_t items)
{
    /* past INT_MAX items MPI_Get_count cannot answer; those arrive with
     * count.c's derived type, whose size both sides compute alike */
    if (items > (size_t)INT_MAX) return;
    int got = 0;
    BI_MPI(MPI_Get_count(st, c->dt, &got), "MPI_Get_count");
    if ((size_t)got != items)
        bi_error(c->sc->ctx->handle, __LINE__, __FILE__,
                 "%s: %d items arrived from scope rank %d where %zu were expected: do all "
                 "processes of the operation pass the same number of elements?",
                 bi_cur.routine ? bi_cur.routine : "BLACS", got, from_rank(c, st->MPI_SOURCE),
                 items);
}

MPI_Request bi_irecv(bi_coll *c, int from, void *p, size_t items, int tag)
{
    MPI_Request r;
    int src = from == BI_ANY ? MPI_ANY_SOURCE : bi_scope_commrank(c->sc, from);
    bi_mpicount k = wire(c, items);
    BI_MPI(MPI_Irecv(p, k.n, k.dt, src, tag, c->sc->ctx->comm, &r), "MPI_Irecv");
    bi_mpicount_free(&k);
    return r;
}

void bi_sendrecv(bi_coll *c, int to, const void *sp, size_t sitems, int from, void *rp,
                 size_t ritems, int tag)
{
    traced(c, to, sitems, tag);
    bi_mpicount ks = wire(c, sitems), kr = wire(c, ritems);
    MPI_Status st;
    if (bi_g.debug >= 2 || bi_g.stats) {
        MPI_Request r[2];
        BI_MPI(MPI_Irecv(rp, kr.n, kr.dt, bi_scope_commrank(c->sc, from), tag,
                               c->sc->ctx->comm, &r[1]), "MPI_Irecv");
        BI_MPI(MPI_Isend(sp, ks.n, ks.dt, bi_scope_commrank(c->sc, to), tag,
                               c->sc->ctx->comm, &r[0]), "MPI_Isend");
        bi_wait(&r[1], &st, 'r', bi_scope_commrank(c->sc, from), tag, ritems * c->isize);
        bi_wait(&r[0], MPI_STATUS_IGNORE, 's', bi_scope_commrank(c->sc, to), tag,
                sitems * c->isize);
    } else {
        /* reported as its receive: the send alone rarely blocks */
        bi_watch_begin('r', bi_scope_commrank(c->sc, from), tag, ritems * c->isize);
        BI_MPI(MPI_Sendrecv(sp, ks.n, ks.dt, bi_scope_commrank(c->sc, to), tag, rp, kr.n,
                                  kr.dt, bi_scope_commrank(c->sc, from), tag, c->sc->ctx->comm, &st),
                  "MPI_Sendrecv");
        bi_watch_end();
    }
    bi_mpicount_free(&ks);
    bi_mpicount_free(&kr);
    /* a shorter contribution would be combined with stale bytes */
    bi_recv_check(c, &st, ritems);
}

static void waitall(bi_reqs *q)
{
    for (int i = 0; i < q->n; i++) bi_wait(&q->r[i], MPI_STATUS_IGNORE, 's', -1, -1, 0);
    q->n = 0;
}

void bi_waitall(bi_coll *c)
{
    waitall(&c->reqs);
}

void bi_reqs_free(bi_reqs *r)
{
    if (r->r && r->r == pool) poolbusy = 0; /* back to the pool, kept */
    else free(r->r);
    r->r = NULL;
    r->n = r->max = 0;
}

/* plan.direct 2, the source's end: its sends from A are waited for (their
 * receivers are inside their globally-blocking broadcast/receive, and took
 * all this source sends them before they wait for anyone else: no program
 * can make that wait a hang); the words still to come go on the copy's
 * queue (buffer.c), so that every word is taken */
static void each_finish(bi_coll *c)
{
    waitall(&c->direct);
    bi_reqs_free(&c->direct);
    c->lastdirect = 0;
    bi_words_queue(c, c->owner, c->words);
}

void bi_coll_finish(bi_coll *c)
{
    /* the source's last send, in the same bounds, when it is long: a
     * send MPI takes eagerly moves as fast without the source, so waiting
     * for it costs the source its completion and buys its receiver nothing
     * (on shared memory it is complete at once, over TCP it is not: MPICH
     * with UCX, 3,000 broadcasts of 800 bytes back to back on 1 x 2
     * between two hosts of the test bed: 11.3 us each with this wait, 7.8
     * us MPI_Bcast's; make bench-hosts showed it first) */
    if ((double)c->lastbytes >= BI_SETTLE_MIN) source_order(c);
    if (each(c)) each_finish(c);
    bi_words_forget(c);
    if (c->owner) {
        for (int i = 0; i < c->reqs.n; i++)
            if (c->reqs.r[i] != MPI_REQUEST_NULL) *bi_buf_req(c->owner, -1) = c->reqs.r[i];
        c->reqs.n = 0;
        bi_buf_post(c->owner);
        c->owner = NULL;
    } else {
        bi_waitall(c);
    }
    bi_reqs_free(&c->reqs);
}

/* ---- receivers' words (plan.direct): a long broadcast from A ----------
 * Copying a long vector costs a source about what MPI's own transfer costs
 * on shared memory, so where the plan says direct (plan.c) every receiver
 * first tells the source it is there: a message of no bytes on the
 * broadcast's first message ID, on the private communicator.  A source
 * never receives in any broadcast, so nothing else meets it there.  A
 * receiver whose word is in is inside its globally-blocking
 * broadcast/receive, and the source may send straight from A to it and
 * wait for that send: no program can make that wait a hang, as long as the
 * receiver takes all the source sends it before it waits for another
 * process -- true of every letter's receivers but 'C''s, which exchange
 * blocks with each other (BI_TOP_PEERS).  So the letters look at each
 * receiver's word as they send to it (plan.direct 2: bi_isend,
 * to_is_there), and 'C' and TOP ' ' (whose MPI_Ibcast is one operation)
 * wait for every word (plan.direct 1: bi_words_in).  The source copies A
 * while it looks for words, at most what the copy should cost in all
 * (plan.ready_wait; bi_copy_waiting, wait.c); what it cannot send from A
 * goes from the copy as before, and the words still to come stay on the
 * copy's request queue (buffer.c), so every word is taken.  Waiting for
 * the last word cost every receiver the copy when one came late. */
MPI_Request bi_word_say(const bi_coll *c)
{
    MPI_Request r;
    BI_MPI(MPI_Isend(NULL, 0, MPI_BYTE, bi_scope_commrank(c->sc, c->root), c->tag,
                     c->sc->ctx->comm, &r),
           "MPI_Isend");
    return r;
}

/* the receives of every receiver's word, in scope rank order */
static MPI_Request *words_post(const bi_coll *c)
{
    MPI_Request *r = bi_alloc(NULL, (size_t)(c->np - 1) * sizeof *r, NULL, "MPI requests");
    for (int i = 0, k = 0; k < c->np; k++)
        if (k != c->root)
            BI_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, bi_scope_commrank(c->sc, k), c->tag,
                             c->sc->ctx->comm, &r[i++]),
                   "MPI_Irecv");
    return r;
}

int bi_words_in(const bi_coll *c, double limit, void *dst, const void *src, size_t bytes,
                MPI_Request **rest)
{
    const int n = c->np - 1;
    MPI_Request *r = words_post(c);
    size_t done = 0;
    if (bi_copy_waiting(r, n, dst, src, NULL, bytes, limit, &done)) {
        free(r);
        return 1;
    }
    *rest = r;
    return 0;
}

void bi_words_queue(bi_coll *c, bi_buf *w, MPI_Request *rest)
{
    if (!rest) return;
    for (int i = 0; i < c->np - 1; i++)
        if (rest[i] != MPI_REQUEST_NULL) *bi_buf_req(w, -1) = rest[i];
    c->words = rest; /* the same requests, looked at until the buffer is posted */
}

void bi_words_each(bi_coll *c)
{
    c->words = words_post(c);
    c->wordleft = c->plan.ready_wait;
}

void bi_words_forget(bi_coll *c)
{
    free(c->words);
    c->words = NULL;
}

/* ---- MPI reductions on the scope communicator (TOP ' ' combines) ---- */
/* one reduction, sbuf -> rbuf (rbuf == sbuf: in place, leave-on-all only);
 * non-blocking at BLACS_DEBUG=2 or with statistics, so that a hang is
 * noticed and the waiting time counted */
void bi_reduce(const bi_coll *c, MPI_Comm comm, int all, void *sbuf, void *rbuf, int n,
                   MPI_Datatype dt, MPI_Op op)
{
    void *s = rbuf == sbuf ? MPI_IN_PLACE : sbuf;
    if (bi_g.debug >= 2 || bi_g.stats) {
        MPI_Request r;
        if (all) BI_MPI(MPI_Iallreduce(s, rbuf, n, dt, op, comm, &r), "MPI_Iallreduce");
        else BI_MPI(MPI_Ireduce(sbuf, rbuf, n, dt, op, c->root, comm, &r), "MPI_Ireduce");
        bi_wait(&r, MPI_STATUS_IGNORE, 'c', -1, -1, c->count * c->isize);
    } else {
        bi_watch_begin('c', -1, -1, c->count * c->isize);
        if (all) BI_MPI(MPI_Allreduce(s, rbuf, n, dt, op, comm), "MPI_Allreduce");
        else BI_MPI(MPI_Reduce(sbuf, rbuf, n, dt, op, c->root, comm), "MPI_Reduce");
        bi_watch_end();
    }
}

/* The count agreed on by a combine's scope (comb_mpi.c before long
 * vectors, combine.c before a repeatable ' '): the header (count, ~count)
 * reduced with MPI_MAX, the largest count and the complement of the
 * smallest; a difference is an error everywhere */
static BI_NORETURN void count_differs(long long other)
{
    bi_count_mismatch("combine", bi_cur.count, other, "at another process of the scope",
                      "M*N must be the same everywhere");
}

void bi_count_agree(const bi_coll *c)
{
    const int64_t n = (int64_t)c->count;
    int64_t h[2] = {n, ~n};
    bi_reduce(c, bi_scope_comm(c->sc), 1, h, h, 2, MPI_INT64_T, MPI_MAX);
    if (h[0] != n) count_differs(h[0]);
    if (~h[1] != n) count_differs(~h[1]);
}
