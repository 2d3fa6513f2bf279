/*
 * bcast_mpi.c -- TOP ' ' (the default): MPI's own broadcast on the scope's
 * communicator, no message ID.  Only scopes that have one get here; in a
 * row or column that is the whole grid, and on two processes, the plan
 * runs the tree instead (plan.c).
 *
 * The source is locally blocking here too, as for every letter (LAWN 73
 * 4.1): it copies A into a BLACS buffer, posts MPI_Ibcast from it, leaves
 * the request on the buffer queue (buffer.c) and returns.  MPI_Bcast would
 * not do: MPICH's root waits for its receivers (from about 12 KB it takes
 * part in an allgather, and its shared-memory broadcasts make even short
 * ones wait), so a valid program whose receiver first waits for something
 * the source sends after the broadcast would hang.  MPI never matches a
 * blocking collective with a non-blocking one, so the receivers post
 * MPI_Ibcast as well, and wait for it (bi_wait: watched, and a hang at
 * BLACS_DEBUG=2).  The request completes in MPI's own progress and in the
 * polls of later BLACS calls; BLACS_EXIT waits for it, and a grid's exit
 * may free the communicator under it (MPI lets pending operations
 * complete).  The copy is needed whenever the source returns before its
 * receivers have the data: the user may change A as soon as the call
 * returns.  When they have all said they are there it is not (below).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "topo_algs.h"

/* The mark (plan.mark, plan.c).  Short broadcasts (1 to BI_BCAST_SHORT
 * bytes) are a tree (bi_bcast_short_tree: its radix is plan.mark), each
 * process deciding from its own element count; so a process that
 * disagrees on the count across that bound would wait in the tree for a
 * message that never comes, or in MPI_Ibcast for a source that never
 * posts it.  So every longer (or empty) ' ' broadcast also sends a
 * message of no bytes down the same tree, on its
 * message ID, before MPI's broadcast: a process that took the tree then
 * gets "0 items arrived where N were expected" (an empty broadcast is
 * never short: it takes the mark like the long ones), and one that waits
 * for the mark gets a short broadcast's data, "message truncated".  Either
 * way the BLACS count error, not a hang.  The mark costs the tree's
 * latency, beside MPI's broadcast (a receiver
 * posts MPI_Ibcast first).  The source's sends of it are posted together
 * (no bytes: all latency) and returned in *out for its buffer queue;
 * every other process waits for its own, inside its globally-blocking
 * broadcast/receive. */
static void mark_tree(const bi_coll *c, bi_reqs *out)
{
    if (!c->plan.mark) return;
    bi_coll h = *c;
    char none = 0;
    h.buf = &none;
    h.count = 0;
    h.isize = 1;
    h.dt = MPI_BYTE;
    h.shape = NULL;
    h.into = NULL;
    h.owner = NULL;
    h.reqs = (bi_reqs){0};
    h.plan.ord_cap = 0;
    h.plan.top = (char)('0' + c->plan.mark - 1); /* traced as the tree it goes down, with its 0 bytes */
    bi_bcast_tree_from(&h, c->root, c->plan.mark, c->tag);
    if (out && c->me == c->root) {
        *out = h.reqs;
        return;
    }
    bi_waitall(&h);
    bi_reqs_free(&h.reqs);
}

/* a receiver's part of one of the source's MPI_Ibcast (the mark too with
 * mark set: between posting the broadcast and waiting for it) */
static void recv_part(const bi_coll *c, MPI_Comm comm, void *p, int n, MPI_Datatype dt,
                      size_t bytes, int mark)
{
    MPI_Request r;
    BI_MPI(MPI_Ibcast(p, n, dt, c->root, comm, &r), "MPI_Ibcast");
    if (mark) mark_tree(c, NULL);
    bi_wait(&r, MPI_STATUS_IGNORE, 'c', -1, -1, bytes);
}

/* the source's: posted from buffer w, whose queue keeps the request */
static void send_part(bi_coll *c, MPI_Comm comm, bi_buf *w, void *p, int n, MPI_Datatype dt,
                      size_t bytes)
{
    MPI_Request *r = bi_buf_req(w, -1);
    BI_MPI(MPI_Ibcast(p, n, dt, c->root, comm, r), "MPI_Ibcast");
    /* The source then waits for its broadcast in the bounds of its order
     * (transport.c: 8 T_c + 20 us, BLACS_SOURCE_WAIT in all).  MPICH's and
     * Open MPI's non-blocking schedules move only while the root calls
     * MPI, so a root that returned at once would hold a long broadcast's
     * receivers up until its next call: 1 x 2, 800 KB, back to back on
     * shared memory (make bench), 420 us a broadcast without this wait,
     * 110 us with it, against MPI_Bcast's 60-70.  Short ones (up to 256
     * bytes) go eagerly and would only pay for the polls (+0.13 us at 8
     * bytes). */
    if (bytes > 256) bi_source_settle(c, r, bytes);
}

/* c's data as the (count, datatype) of one MPI call: a non-contiguous
 * shape in place through its kept datatype (shape.c), else the run of
 * items (past INT_MAX items a derived type, freed by bi_mpicount_free) */
static bi_mpicount data_of(const bi_coll *c)
{
    if (c->shape) return (bi_mpicount){1, bi_shape_mpitype_cached(c->shape), 0};
    return bi_mpicount_of(c->count, c->dt);
}

/* Element counts must agree (as for every broadcast).  MPICH checks every broadcast's
 * bytes and reports the difference as an MPI error, whichever way it goes
 * (BI_MPI names the routine); other MPIs need not -- Open MPI fills what
 * arrives and returns success when a receiver expects more -- so elsewhere
 * the count travels with the data: a 16-byte header (count, ~count) in
 * front of short broadcasts (one copy each way), a broadcast of its own
 * before long ones (SimGrid's SMPI takes MPICH's side, BI_MPICH).  A
 * receiver's non-contiguous shape (c->shape) is unpacked from behind the
 * header when short -- the header costs that copy anyway, and a second
 * collective would cost more than it -- and taken in place through its datatype after the count's
 * broadcast when long.  The source sends from its copy in every case: the
 * items in c->dt, as a receiver's run or datatype of them, so the type
 * signatures match (the short header's broadcast is bytes on both sides). */
#if BI_MPICH
#define BI_MPI_CHECKS_BCAST 1
#define HDR ((size_t)0)
#else
#define BI_MPI_CHECKS_BCAST 0
#define HDR ((size_t)BI_CNT_HDR)

static void check_header(const bi_coll *c, const int64_t *h)
{
    if (h[1] == ~h[0] && h[0] == (int64_t)c->count) return;
    bi_count_mismatch("broadcast", c->count, h[1] == ~h[0] ? (long long)h[0] : -1, "at the source",
                      "the shapes must be the same everywhere");
}

static void recv_counted(const bi_coll *c, MPI_Comm comm)
{
    const size_t nb = c->count * c->isize;
    int64_t h[2];
    if (nb <= BI_CNT_HDR_MAX) {
        bi_buf *w = bi_buf_scratch(BI_CNT_HDR + nb);
        char *d = w->data + BI_CNT_HDR;
        recv_part(c, comm, w->data, (int)(BI_CNT_HDR + nb), MPI_BYTE, BI_CNT_HDR + nb,
                  c->plan.mark);
        memcpy(h, w->data, BI_CNT_HDR);
        check_header(c, h);
        if (c->shape) bi_unpack(c->shape, d, c->buf);
        else if (nb) memcpy(c->buf, d, nb);
        bi_buf_release(w);
        return;
    }
    recv_part(c, comm, h, 2, MPI_INT64_T, BI_CNT_HDR, c->plan.mark);
    check_header(c, h);
    bi_mpicount k = data_of(c);
    recv_part(c, comm, c->buf, k.n, k.dt, nb, 0);
    bi_mpicount_free(&k);
}
#endif

/* Straight from A when the receivers are there.  Copying a long vector
 * costs the source about what MPI's own transfer costs on shared memory
 * (1 x 2, 800 KB, back to back: 110 us a broadcast against MPI_Bcast's
 * 60-70, make bench).  So in a broadcast the plan makes direct (MPICH,
 * BI_DIRECT_MIN bytes or more, BI_BCAST_DIRECT_MIN in a scope on one
 * node: plan.c) every receiver first tells the
 * source it is there: a word of no bytes on the broadcast's message ID,
 * on the private communicator like every message of the library's own
 * topologies (the IDs keep it apart from them).  The source waits for
 * those words at most what the copy should cost (plan.ready_wait, within
 * BLACS_SOURCE_WAIT), copying a contiguous A meanwhile (bi_copy_waiting,
 * wait.c).  With every word in, each receiver is inside its
 * broadcast/receive, which does not return before the broadcast
 * completes: the source posts MPI_Ibcast from A as it lies and waits for
 * it, and no program can make that wait a hang.  Without them it sends
 * the copy as before and leaves the words still to come on the copy's
 * request queue.  Both sides decide from the element count alone, which
 * they share.  Only where MPI checks the broadcast's count itself (MPICH):
 * elsewhere the count travels first (above).
 * The words are transport.c's, as for the other letters (bcast.c).
 * send_direct: 1 if it sent from A; else 0, *rdy the words to come
 * (c->np - 1 requests, some of them done), and a contiguous A copied into
 * w as send_copy puts it */
static int send_direct(bi_coll *c, MPI_Comm comm, bi_buf *w, MPI_Request **rdy)
{
    const size_t nb = c->count * c->isize;
    if (c->shape && !bi_bcast_mpi_inplace()) {
        /* packed (BLACS_BCAST_DATATYPE=0): never through its datatype, even
         * to receivers that are there; their words are taken, or queued */
        if (bi_words_in(c, 0, NULL, NULL, 0, rdy)) {
            *rdy = NULL;
            c->allthere = 1; /* the source may finish its MPI_Ibcast (bi_source_settle) */
        }
        return 0;
    }
    if (!bi_words_in(c, c->plan.ready_wait, w->data + HDR, c->shape ? NULL : c->buf, nb, rdy))
        return 0;
    MPI_Request b;
    bi_mpicount k = data_of(c);
    BI_MPI(MPI_Ibcast(c->buf, k.n, k.dt, c->root, comm, &b), "MPI_Ibcast");
    bi_mpicount_free(&k);
    bi_wait(&b, MPI_STATUS_IGNORE, 'c', -1, -1, c->count * c->isize);
    return 1;
}

/* The source: A (c->buf, c->shape when not contiguous: bcast.c hands it
 * over as it lies) copied once into the BLACS buffer w (unless copied:
 * send_direct did), the header in front where there is one, every
 * broadcast posted from there */
static void send_copy(bi_coll *c, MPI_Comm comm, bi_buf *w, int copied, MPI_Request *rdy,
                      bi_reqs *mark)
{
    const size_t nb = c->count * c->isize;
    bi_words_queue(c, w, rdy); /* receivers' words still to come (send_direct) */
    for (int i = 0; i < mark->n; i++) *bi_buf_req(w, -1) = mark->r[i];
    mark->n = 0;
    char *d = w->data + HDR;
    if (c->shape) bi_pack(c->shape, c->buf, d);
    else if (nb && !copied) memcpy(d, c->buf, nb);
#if !BI_MPI_CHECKS_BCAST
    const int64_t h[2] = {(int64_t)c->count, ~(int64_t)c->count};
    memcpy(w->data, h, BI_CNT_HDR);
    if (nb <= BI_CNT_HDR_MAX) {
        send_part(c, comm, w, w->data, (int)(BI_CNT_HDR + nb), MPI_BYTE, BI_CNT_HDR + nb);
        bi_buf_post(w);
        return;
    }
    send_part(c, comm, w, w->data, 2, MPI_INT64_T, BI_CNT_HDR);
#else
    if (!nb) {
        /* an empty broadcast still happens (as in the reference); with one
         * byte, as MPI skips empty ones: a process whose shape is not empty
         * then gets an error instead of waiting forever */
        *d = 0;
        send_part(c, comm, w, d, 1, MPI_BYTE, 1);
        bi_buf_post(w);
        return;
    }
#endif
    bi_mpicount k = bi_mpicount_of(c->count, c->dt);
    send_part(c, comm, w, d, k.n, k.dt, nb);
    bi_mpicount_free(&k); /* a derived type outlives its free while in use */
    bi_buf_post(w);
}

void bi_bcast_mpi(bi_coll *c)
{
    MPI_Comm comm = bi_scope_comm(c->sc);
    if (c->np < 2) {
        /* a one-process scope: nobody to wait for, nothing to copy */
        char token = 0;
        bi_mpicount k = c->count ? data_of(c) : (bi_mpicount){1, MPI_BYTE, 0};
        BI_MPI(MPI_Bcast(c->count ? (void *)c->buf : &token, k.n, k.dt, c->root, comm),
               "MPI_Bcast");
        bi_mpicount_free(&k);
        return;
    }
    if (c->me == c->root) {
        MPI_Request *rdy = NULL;
        bi_reqs mark = {0};
        mark_tree(c, &mark);
        const size_t nb = c->count * c->isize;
        bi_buf *w = bi_buf_get(HDR + (nb ? nb : 1));
        if (c->plan.direct && send_direct(c, comm, w, &rdy)) {
            bi_buf_release(w);
            bi_coll h = *c; /* every receiver is there: the mark is through */
            h.reqs = mark;
            bi_waitall(&h);
        } else {
            send_copy(c, comm, w, c->plan.direct && !c->shape, rdy, &mark);
            bi_words_forget(c); /* its buffer is posted */
        }
        bi_reqs_free(&mark);
        return;
    }
#if !BI_MPI_CHECKS_BCAST
    recv_counted(c, comm);
#else
    if (!c->count) {
        char token = 0;
        recv_part(c, comm, &token, 1, MPI_BYTE, 1, c->plan.mark);
        return;
    }
    MPI_Request said = MPI_REQUEST_NULL;
    if (c->plan.direct) said = bi_word_say(c); /* "here" (send_direct) */
    bi_mpicount k = data_of(c);
    recv_part(c, comm, c->buf, k.n, k.dt, c->count * c->isize, c->plan.mark);
    bi_mpicount_free(&k);
    /* the source takes every word, in this broadcast or on its buffer's
     * queue; the send is not waited for: the source may be outside MPI */
    bi_buf_adopt(&said);
#endif
}
