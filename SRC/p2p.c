/*
 * p2p.c -- point-to-point: vGESD2D/vGERV2D/vTRSD2D/vTRRV2D (LAWN 73
 * section 3).
 *
 * Sends are locally blocking for any size and any number of outstanding
 * sends: the shape is copied once into a buffer (buffer.c) and sent with
 * MPI_Isend, so the caller may reuse A at once -- unless the receiver has
 * said it waits for this very message (long ones on one node, below):
 * then it goes straight from A.  Receives land directly in
 * A (a derived datatype describes the shape), with no copy.  Messages of a
 * pair arrive in order: the IDs of msgid.c count per pair.  RSRC = -1
 * and/or CSRC = -1 receive from any process of the grid (resp. of the
 * column or row): LAWN 73 7.1.2's wildcard receive; Cblacs_lastsrc tells
 * who sent.
 */
#include <limits.h>
#include <string.h>
#include "bi.h"

int bi_vpid(bi_ctx *c, Int r, Int col, Int ctxt, const char *routine, int argno,
            const char *name)
{
    if (r < 0 || r >= c->nprow || col < 0 || col >= c->npcol)
        bi_argerr(ctxt, routine, argno, name, "{%ld,%ld} is not in the %dx%d grid", (long)r,
                  (long)col, c->nprow, c->npcol);
    return (int)(r * c->npcol + col);
}

/* ---- long messages in pieces -------------------------------------------
 * A locally-blocking send must copy the whole message out of A before it
 * returns.  A long message is therefore sent in pieces: piece j is copied
 * into the buffer and posted with MPI_Isend at once, so the receiver drains
 * piece j while piece j+1 is being copied, and the copy costs about one
 * piece instead of the whole message (the rest overlaps the transfer).
 *
 * The pieces follow one fixed schedule both sides know: piece j has
 * piece_elems(j) elements (under MPICH on one node a prefix of eager
 * pieces first, below; then SEG0 bytes, doubling up to SEGMAX).  A message shorter than the
 * first piece is one piece (one MPI message, as always).  A longer
 * one is cut into full pieces while enough is left, then a last piece that
 * is shorter than its full size -- empty if the message ended exactly after
 * a full piece.  Hence the receiver's rule: a piece of exactly its full size
 * is followed by another one.  It needs no message length in advance, so
 * the usual MPI semantics stay: a message shorter than the receiving shape
 * fills its leading elements, a longer one is a truncation error (at the
 * piece that overflows).  All pieces of one message carry the same ID, and
 * MPI's non-overtaking order (same source, tag and communicator) keeps them
 * in order.  SEG0 is not a power of two, so common block sizes (NB x NB
 * doubles) rarely end exactly at a piece boundary and need the empty piece.
 * Safety of the locally-blocking send: every piece is copied into the
 * message's buffer before its MPI_Isend, MPI never sees A, and the buffer is
 * released only when all the pieces' requests are complete (buffer.c).
 * How much the pieces hide depends on who moves the data.  With MPICH 4.0.2
 * on one node, MPI copies through shared memory on the sender's CPU too,
 * so our copy adds to its time whatever the pieces: on 2 ranks here, first
 * pieces of 16 KiB (doubling to 64 or 256 KiB) or 32 KiB (to 128 KiB) and
 * constant pieces of 64 KiB were no faster than this schedule, within the
 * noise, at 10^4 and 10^5 doubles (1.40-1.63 and 1.29-1.57 times MPI_Send,
 * against 1.40 and 1.32 for this one). */
#define SEG0 ((size_t)40960)
#define SEGMAX (16 * SEG0)
/* Across a network the pieces cost more than they hide.  Each one is a
 * message of its own, and over TCP (UCX's tcp transport, Open MPI's tcp
 * BTL) a message of this size goes by rendezvous, one more round trip per
 * piece, while the copy they overlap is small next to the wire time.  On
 * issue 21's two-host bed, one piece (copy, then one MPI_Isend) took 1.02 /
 * 1.12 times MPI_Send at 10^4 / 10^5 doubles against 1.60 / 1.24 for the
 * shared-memory schedule; at 10^6 both were about 1.2.  So a peer on
 * another node gets pieces from about 1 MB on (SEG0_NET, again not a power
 * of two), doubling to 4 MB: a message up to a megabyte goes whole, and a
 * longer one still overlaps the copy of piece j+1 with piece j's transfer.
 * Which schedule a pair uses depends only on the pair (c->node), so both
 * ends agree; BLACS_P2P_SCHEDULE=node or net forces one for every peer
 * (tests, measurements): the value of the grid's process 0, which every
 * member adopts when the grid is made (agree.c). */
#define SEG0_NET (25 * SEG0)
#define SEGMAX_NET (4 * SEG0_NET)

/* does the pair (me, peer) of grid c use the network schedule? */
static int net_peer(const bi_ctx *c, int peer)
{
    if (c->p2p_sched) return c->p2p_sched == 2; /* grid process 0's setting (agree.c) */
    return c->node[peer] != c->node[c->iam];
}

/* Under MPICH on one node the schedule starts with a prefix of pieces of
 * what MPICH sends eagerly there (bi_xchg_piece: 8,255 bytes, 1,031
 * doubles), as many as cover BI_XCHG_PIECED (64 KB, the exchange's bound):
 * 8 for every type.  MPICH 4.0.2 moves a longer message by a rendezvous
 * and a copy between the processes, which costs several times an eager
 * one: a ping-pong of MPI_Send/MPI_Recv alone (1 x 2, best of 7 rounds),
 * one message against 8,255-byte pieces all posted first, took 5.5 against
 * 2.2 us at 16 KB, 5.9 against 4.0 at 32 KB, 6.9 both at 64 KB (data
 * untouched); with each side writing what it sends and reading what it
 * got, 8.8 against 4.3 at 32 KB, 12.7 against 8.1 at 64 KB, 20.2 against
 * 15.5 at 128 KB.  So a message of 8 KB to 64 KB goes in eager pieces, and
 * a longer one starts with them.  The schedule must not depend on the
 * message's length (a receiving shape may be longer than its message),
 * hence a prefix for every message, not a schedule for short ones.
 *   Between nodes, no prefix.  Four 16 KB pieces (eager over TCP with UCX)
 * halved a two-process exchange of 32-80 KB on the test bed's bare link,
 * but in ScaLAPACK they cost: simulated on node16 (TIMING/README section
 * 8), PDPOTRF with the computation charged took 1.037 times the reference
 * BLACS's time on 16x16 (N = 4,096) and 0.980 on 8x8 (N = 2,048), against
 * 1.000 and 0.965 without the prefix.  Its transposes (64-96 KB, one from
 * each process of a node at once) came later: with one 16 KB piece and
 * the rest the loss was the same (1.030, 0.979), and with every byte in
 * eager pieces too (6 or 8 pieces: 1.030-1.035, 0.977-0.980); whole, each
 * moves when its receiver asks for it.  And a network's eager limit is its
 * own (UCX sets one per transport), so pieces sized on TCP may be
 * rendezvous on another network.  Open MPI's shared memory
 * does not take such pieces without their receiver (stop 88's relay
 * measurement, plan.c): no prefix there either. */
static inline int eager_pieces(size_t es, int net)
{
    if (!BI_MPICH || net) return 0;
    const size_t q = bi_xchg_piece(es, 1) * es; /* bytes in each */
    return (int)(((size_t)BI_XCHG_PIECED + q - 1) / q);
}

static size_t piece_elems(int j, size_t es, int net)
{
    const int pre = eager_pieces(es, net);
    if (j < pre) return bi_xchg_piece(es, 1);
    j -= pre;
    size_t b = net ? (j < 2 ? SEG0_NET << j : SEGMAX_NET) : (j < 4 ? SEG0 << j : SEGMAX);
    return b / es; /* SEG0 is a multiple of 16: whole elements of every type */
}

/* the most elements a message that is not long may have (long_msg): its
 * eager prefix, or without one its first piece.  A long message goes
 * whole once its receiver's word is owed (send_long). */
static size_t unworded_elems(size_t es, int net)
{
    const int pre = eager_pieces(es, net);
    return pre ? (size_t)pre * bi_xchg_piece(es, 1) : piece_elems(0, es, net);
}

/* the most elements one piece of a message of at most n elements can
 * hold (a receive's scratch run: never more than the shape can take) */
static size_t largest_piece(size_t n, size_t es, int net)
{
    size_t most = 0, e = 0;
    for (int j = 0;; j++) {
        size_t full = piece_elems(j, es, net), k = n - e < full ? n - e : full;
        if (k > most) most = k;
        if (k < full) return most; /* the last piece */
        e += k;
    }
}

/* the elements of a shape in column order from some position on: the
 * pieces of a non-contiguous shape are copied out of (into) A in turn */
typedef struct {
    const bi_shape *s;
    char *A;
    size_t es;
    Int j, r, hi; /* next element: row r of column j; the column's rows end at hi */
} walk;

static void walk_start(walk *w, const bi_shape *s, void *A, size_t skip)
{
    Int lo = 0;
    w->s = s;
    w->A = A;
    w->es = bi_types[s->type].size;
    w->j = w->r = w->hi = 0;
    for (; w->j < s->n; w->j++) {
        bi_shape_rows(s, w->j, &lo, &w->hi);
        if (w->hi > lo && (size_t)(w->hi - lo) > skip) break;
        if (w->hi > lo) skip -= (size_t)(w->hi - lo);
    }
    w->r = lo + (Int)skip;
}

/* k elements between the walk's position in A and buf (pack: A -> buf) */
static void walk_copy(walk *w, char *buf, size_t k, int pack)
{
    while (k) {
        while (w->r >= w->hi) { /* next non-empty column */
            Int lo;
            w->j++;
            bi_shape_rows(w->s, w->j, &lo, &w->hi);
            w->r = lo;
        }
        size_t t = (size_t)(w->hi - w->r) < k ? (size_t)(w->hi - w->r) : k;
        char *a = w->A + ((size_t)w->j * (size_t)w->s->lda + (size_t)w->r) * w->es;
        if (pack) memcpy(buf, a, t * w->es);
        else memcpy(a, buf, t * w->es);
        buf += t * w->es;
        w->r += (Int)t;
        k -= t;
    }
}

static inline void isend(bi_ctx *c, bi_buf *b, size_t off, size_t k, MPI_Datatype t, int dest,
                         int tag, const char *routine)
{
    MPI_Request *r = bi_buf_req(b, c->world[dest]);
#if defined(BI_FAULT) && BI_FAULT == 5
    /* planted fault 5: a send that blocks until it is received */
    BI_MPI_IN(MPI_Issend(b->data + off, (int)k, t, dest, tag, c->comm, r), "MPI_Issend", c->handle,
              routine);
    bi_wait(r, MPI_STATUS_IGNORE, 's', dest, tag, 0);
    b->nreq--;
#else
    BI_MPI_IN(MPI_Isend(b->data + off, (int)k, t, dest, tag, c->comm, r), "MPI_Isend", c->handle,
              routine);
#endif
}

/* ---- long messages straight from A ---------------------------------------
 * On one node the copy of a long message costs the sender about what MPI's
 * own transfer costs (make bench, 1 x 2: T_c 1.2-1.4 times MPI's at 10^4
 * and 10^5 doubles), and across TCP 10-20% at 10^6.  A sender may skip it
 * only when the receiver is already inside its receive for this very
 * message: that receive does not return before it has the message, so a
 * send straight from A, waited for, cannot become a hang.
 *
 * Words.  The receiver tells it with a word: a message of no bytes on an ID
 * of the sender's own subrange (msgid.c), which none of the receiver's
 * messages to the sender carries.  A word goes with message k of a pair
 * exactly when message k-1 of the pair was long (more than the first piece
 * of the pair's schedule, or under MPICH on one node than its eager
 * prefix, and DIRECT_MIN bytes; long_msg): both ends know that, so
 * the sender knows which of its messages have a word coming, and takes
 * every one -- none is ever left unmatched.  A receive from a named source
 * sends its word first, before it waits; a wildcard receive sends it once
 * it has found the source (too late to change the send, but owed).  The
 * sender of such a message posts the receive of its word; for a long,
 * contiguous message it copies A while it looks for the word, and with the
 * word in, sends A as it lies in one MPI message (the receiver, probing,
 * tells it from a first piece by its length) and waits for it.  Across
 * nodes (the network schedule) it looks on after the copy up to what the
 * copy should cost (T_m, BLACS_MEMCPY_BETA; BLACS_SOURCE_WAIT in all;
 * bi_copy_waiting, wait.c); on one node only while it copies, since there
 * MPI moves a message without its sender, and a word that comes with the
 * copy complete would make the sender wait for a transfer its copy has
 * already paid for (TIMING/tword, MPICH 4.0.2, 256 KB, A written before
 * each send, the word just after the copy: the sender returned after 11 us
 * instead of 33, the receiver had its data 35 us after the sender's call
 * instead of 33; SMPI: PDPOTRF, TIMING/README).  Otherwise the copy is
 * complete by then, so it sends the copy as one message too, not in
 * pieces: there is nothing left for pieces to overlap, and a receiver that
 * comes later takes one message sooner than three rendezvous (TIMING/tword,
 * MPICH 4.0.2 on one node: 256 KB 27 us after it arrives, against 34 in
 * pieces; the reference's 28, MPI_Isend's 25).  The word's receive then
 * goes on the copy's buffer queue (buffer.c): FREEBUFF never waits for one,
 * EXIT gives them a moment, then cancels them.  No words where the pair
 * shares a subrange (a narrow ID range, BLACS_SET 1).  make bench, T_c at 10^4 /
 * 10^5 doubles: 1.06 / 1.00-1.04 times MPI_Send's, was 1.35 / 1.17; make
 * bench-hosts (TCP) at 10^6: 1.00, was 1.21. */
#define DIRECT_MIN ((size_t)BI_DIRECT_MIN)
_Static_assert(SEG0 <= DIRECT_MIN && SEG0 <= SEG0_NET, "a message under SEG0 bytes is short");
/* the usual message's bound: shorter than a first piece of either
 * schedule (under MPICH one node's is 8,255 bytes less a part of an
 * element, so BI_NODE_EAGER) */
#define PLAIN_MAX (BI_MPICH ? (size_t)BI_NODE_EAGER : SEG0)
_Static_assert(BI_NODE_EAGER <= BI_NODE_EAGER_MAX - 19, "the usual message is under a piece");

/* the usual message, which either end takes first (send_msg, recv_msg):
 * contiguous, shorter than a first piece on either schedule (so not long)
 * and with no word owed (the pair's last message in that direction, last,
 * was not long; words only in the p2p stream).  Either end does with it
 * what its general path would, computing nothing else. */
static inline int plain_bytes(size_t bytes, int p2p, unsigned char last)
{
    return bytes < PLAIN_MAX && !(p2p && last);
}

static inline int plain_msg(const bi_shape *s, size_t bytes, int p2p, unsigned char last)
{
    return plain_bytes(bytes, p2p, last) && bi_shape_contig(s);
}

/* the lanes of vGESD2D and vGERV2D (bi_p2p_gesd, bi_p2p_gerv): is the call
 * a usual message (plain_msg) to or from a valid process (r, col) of the
 * valid grid c, told from the arguments alone?  M and N below 2^16 (so not
 * negative, and M N of any type cannot overflow), contiguous (N <= 1, or
 * LDA = M: no LDA error either).  send: the call sends (the pair's
 * lastlong at c->np on).  The peer's grid rank, and the count k and the
 * bytes nb; -1 when the call takes the general path. */
static inline int usual_peer(const bi_ctx *c, int type, Int m, Int n, Int lda, Int r, Int col,
                             int send, size_t *k, size_t *nb)
{
    if (!c || ((uint64_t)m | (uint64_t)n) >= 65536 || (n > 1 && lda != m) ||
        (uint64_t)r >= (uint64_t)c->nprow || (uint64_t)col >= (uint64_t)c->npcol)
        return -1;
    const int peer = (int)(r * c->npcol + col);
    *k = (size_t)m * (size_t)n;
    *nb = *k * bi_types[type].size;
    return plain_bytes(*nb, 1, c->lastlong[(send ? c->np : 0) + peer]) ? peer : -1;
}

/* is a message of n elements of size es to or from peer long? */
static int long_msg(size_t n, size_t es, int net)
{
    return n > unworded_elems(es, net) && n * es >= DIRECT_MIN;
}

/* does the next message of the pair (me, peer) have a word?  last: the
 * pair's previous message in that direction was long */
static int worded(const bi_ctx *c, int peer, int last)
{
    return last && bi_msgid_p2p_apart(c, c->iam, peer);
}

/* the sender: how long it looks for the word -- what the copy of bytes
 * would cost, BLACS_SOURCE_WAIT at most -- copying A meanwhile
 * (bi_copy_waiting, wait.c) */
static double word_limit(size_t bytes)
{
    double limit = 1e-6 * bi_machine_default()->tm.b * (double)bytes, cap = 1e-6 * bi_source_wait();
    return limit < cap ? limit : cap;
}

/* a message straight from A: one MPI message however long (the receiver
 * tells it from a first piece by its length, bi_p2p_recv), waited for */
static void send_direct(bi_ctx *c, const void *A, size_t n, size_t nb, MPI_Datatype t, int dest,
                        int tag, const char *routine)
{
    MPI_Request r;
    BI_MPI_IN(MPI_Isend(A, (int)n, t, dest, tag, c->comm, &r), "MPI_Isend", c->handle, routine);
    bi_wait(&r, MPI_STATUS_IGNORE, 's', dest, tag, nb);
}

/* a receiver that said it waits: the elements of the message now coming,
 * probed (whole messages from A are longer than any first piece) */
static size_t probe_count(bi_ctx *c, int src, int tag, MPI_Datatype el, size_t bytes,
                          const char *routine)
{
    MPI_Status st;
    int flag = 0, k = 0;
    const double t0 = MPI_Wtime();
    bi_watch_begin('r', src, tag, bytes);
    if (bi_g.debug >= 2) {
        while (!flag) {
            BI_MPI_IN(MPI_Iprobe(src, tag, c->comm, &flag, &st), "MPI_Iprobe", c->handle, routine);
            if (!flag && MPI_Wtime() - t0 > bi_g.hang_timeout)
                bi_hang('r', src, tag, bytes, MPI_Wtime() - t0);
        }
    } else {
        BI_MPI_IN(MPI_Probe(src, tag, c->comm, &st), "MPI_Probe", c->handle, routine);
    }
    bi_watch_end();
    BI_MPI_IN(MPI_Get_count(&st, el, &k), "MPI_Get_count", c->handle, routine);
    return k > 0 ? (size_t)k : 0;
}

/* ---- short messages ------------------------------------------------------
 * Every message that is not sent straight from A to a receiver that said
 * it waits (above) is copied into a buffer and sent with MPI_Isend, however
 * short.  A short message used to go from A with MPI_Send (the
 * BLACS_EAGER_DIRECT path): MPI sends it eagerly, but eagerly is not
 * "without the receiver": once the shared-memory queue to a peer is full
 * (56 messages of 8 bytes with MPICH and UCX, 100 of 1 KB with Open MPI)
 * MPI_Send waits until that peer's process drains it inside an MPI call, so
 * a sender whose receiver computes stalled for the whole computation, and
 * one whose receiver waited for a signal from it outside MPI hung.  The copy
 * of a short message costs a few nanoseconds; what the buffered path costs
 * beyond MPI_Send is its bookkeeping (make bench: README).
 * BLACS_EAGER_DIRECT is refused unless 0 (init.c, bi_init). */

/* the copy of a usual message (plain_msg) into its buffer: up to 16
 * bytes (one to four elements) as fixed-size moves, which a call to
 * memcpy costs more than; every element size is a multiple of 4 */
static inline void copy_short(char *d, const void *A, size_t nb)
{
    const char *a = A;
    if (nb - 8 <= 8) { /* 8 to 16 bytes: two 8-byte moves, overlapping below 16 */
        memcpy(d, a, 8);
        memcpy(d + nb - 8, a + nb - 8, 8);
    } else if (nb == 4) memcpy(d, a, 4);
    else if (nb) memcpy(d, a, nb);
}

/* one message of the shape s from A to grid rank dest with ID tag, any but
 * the usual one (send_msg, below); words (above) only in the stream of
 * vGESD2D/vGERV2D (p2p), which keeps the pairs' record of long messages,
 * not in Cdsendrecv's */
BI_NOINLINE static void send_long(bi_ctx *c, const bi_shape *s, const void *A, int dest,
                                  int tag, int p2p, const char *routine)
{
    const size_t es = bi_types[s->type].size, n = bi_shape_count(s), nb = n * es;
    unsigned char *last = &c->lastlong[c->np + dest];
    const int contig = bi_shape_contig(s);
    const MPI_Datatype t = bi_mpitype(s->type);
    const int net = net_peer(c, dest);
    /* the receiver's word, when this message has one (above) */
    MPI_Request word = MPI_REQUEST_NULL;
    if (p2p && worded(c, dest, *last))
        BI_MPI_IN(MPI_Irecv(NULL, 0, MPI_BYTE, dest, bi_msgid_p2p_word(c, c->iam), c->comm, &word),
                  "MPI_Irecv", c->handle, routine);
    if (p2p) *last = (unsigned char)long_msg(n, es, net);
    if (bi_g.trace) bi_trace_p2p((long)c->handle, c->iam, dest, nb, tag, word != MPI_REQUEST_NULL);
    /* (not past 2^31 bytes: one MPI message that long is where MPI
     * libraries are slowest and least tried; the pieces are not) */
    bi_buf *b = bi_buf_take(nb);
    int copied = 0; /* A is in b already (the word's wait) */
    if (word != MPI_REQUEST_NULL && *last && (contig || (!s->tr && bi_inplace(net, nb, 0))) &&
        nb <= INT_MAX) {
        size_t done = 0;
        /* on one node (the node schedule) it looks for the word only while
         * it copies: with the copy complete, sending it costs less than
         * waiting for the receiver's transfer from A (above) */
        if (bi_copy_waiting(&word, 1, b->data, A, contig ? NULL : s, nb, net ? word_limit(nb) : 0,
                            &done) &&
            (net || done < nb)) {
            bi_buf_release(b);
            /* a GE shape through its datatype where MPI moves it as fast
             * as we copy: to another node, where MPI packs as the bytes
             * leave, and on one node long ones (shape.c, bi_inplace) */
            if (contig) send_direct(c, A, n, nb, t, dest, tag, routine);
            else send_direct(c, A, 1, nb, bi_shape_mpitype_cached(s), dest, tag, routine);
            bi_poll();
            return;
        }
        copied = 1;
    }
    if (copied) { /* the copy is complete: one message, no pieces to overlap */
        isend(c, b, 0, n, t, dest, tag, routine);
    } else if (n < piece_elems(0, es, net)) {
        if (contig) {
            if (nb) memcpy(b->data, A, nb);
        } else bi_pack(s, A, b->data);
        isend(c, b, 0, n, t, dest, tag, routine);
    } else {
        walk w;
        if (!contig) walk_start(&w, s, (void *)A, 0);
        size_t e = 0;
        for (int j = 0;; j++) {
            size_t full = piece_elems(j, es, net), k = n - e < full ? n - e : full;
            if (contig) memcpy(b->data + e * es, (const char *)A + e * es, k * es);
            else walk_copy(&w, b->data + e * es, k, 1);
            isend(c, b, e * es, k, t, dest, tag, routine);
            e += k;
            if (k < full) break; /* the last piece; after a full one another follows */
        }
    }
    if (word != MPI_REQUEST_NULL) *bi_buf_req(b, BI_WORD_PEER(c->world[dest])) = word;
    bi_buf_post(b);
}

/* one message of the shape s of A to grid rank dest with ID tag: the usual
 * message (plain_msg) here, any other by send_long.  The send's head (up to
 * MPI_Isend) is on the critical path of every exchange, so it does no
 * polling (bi_buf_take; bi_buf_post polls after the send is out) and no
 * generic shape walk.  send_long stays out of line (BI_NOINLINE): inlined,
 * its frame made every short send save and restore what only long ones
 * use (callgrind, MPICH 4.0.2, one DGESD2D + one DGERV2D of one double,
 * one rank: 689 of the library's own instructions against 742) */
static inline void send_msg(bi_ctx *c, const bi_shape *s, const void *A, int dest, int tag,
                            int p2p, const char *routine)
{
    const size_t n = bi_shape_count(s), nb = n * bi_types[s->type].size;
    if (plain_msg(s, nb, p2p, c->lastlong[c->np + dest]) && !bi_g.trace) {
        bi_buf *b = bi_buf_take(nb);
        copy_short(b->data, A, nb);
        isend(c, b, 0, n, bi_mpitype(s->type), dest, tag, routine);
        bi_buf_post(b);
    } else send_long(c, s, A, dest, tag, p2p, routine);
}

void bi_p2p_send(Int ctxt, const bi_shape *s, const void *A, Int rdest, Int cdest,
                 const char *routine)
{
    bi_ctx *c = bi_ctx_find(ctxt);
    if (!c) c = bi_ctx_get(ctxt, routine); /* reports the invalid context */
    int argr = s->tr ? 8 : 6;
    int dest = bi_vpid(c, rdest, cdest, ctxt, routine, argr, "RDEST/CDEST");
    send_msg(c, s, A, dest, bi_msgid_p2p_send(c, dest, 1), 1, routine);
}

/* vGESD2D.  The usual message (plain_msg: short, contiguous, no word owed)
 * to a valid process of a valid grid, without BLACS_STATS or BLACS_TRACE,
 * is told from the arguments alone and sent before anything else: its
 * buffer (one of the calling thread's own), its ID, its copy and its
 * MPI_Isend.  The head of a send is on the critical path of every
 * exchange (a delay of ~50 cycles put there cost the echo 5-9%; the same
 * after the MPI_Isend, nothing), and the shape, its checks and the call's
 * record were most of it.  Arguments the lane takes pass every check, so
 * only the record (bi_record) follows the MPI_Isend.  Anything else takes
 * the general path: the checks, the bracket, then bi_p2p_send.  Under
 * callgrind (MPICH 4.0.2, one rank) a DGESD2D and a DGERV2D of one double
 * (with bi_p2p_gerv's lane) run 475 instructions of the library's own
 * between them, 689 before. */
BI_NOINLINE static void gesd_general(const char *routine, int type, Int ctxt, Int m, Int n,
                                     const void *A, Int lda, Int rdest, Int cdest)
{
    bi_shape s;
    bi_make_shape(&s, ctxt, routine, type, 0, NULL, 0, NULL, 0, m, n, lda, 2);
    bi_enter(routine, ctxt, 's', NULL, NULL, &s, rdest, cdest);
    bi_p2p_send(ctxt, &s, A, rdest, cdest, routine);
    bi_leave();
}

void bi_p2p_gesd(const char *routine, int type, Int ctxt, Int m, Int n, const void *A, Int lda,
                 Int rdest, Int cdest)
{
    bi_ctx *c = bi_ctx_find(ctxt);
    size_t k, nb;
    int dest;
    bi_buf *b;
    if (!bi_g.stats && !bi_g.trace &&
        (dest = usual_peer(c, type, m, n, lda, rdest, cdest, 1, &k, &nb)) >= 0 &&
        (b = bi_buf_own(nb))) {
        atomic_store_explicit(&bi_inside, 1, memory_order_relaxed);
        copy_short(b->data, A, nb);
        isend(c, b, 0, k, bi_mpitype(type), dest, bi_msgid_p2p_send(c, dest, 1), routine);
        bi_record(routine, ctxt, 's', NULL, NULL, k, nb, rdest, cdest);
        bi_buf_post(b);
        bi_leave();
        return;
    }
    gesd_general(routine, type, ctxt, m, n, A, lda, rdest, cdest);
}

/* wildcard receive: the next message of any allowed source is the one with
 * that source's next ID; poll the candidates until one is there */
static int any_source(bi_ctx *c, Int rsrc, Int csrc, int *tag, size_t bytes)
{
    double t0 = MPI_Wtime();
    bi_watch_begin('r', MPI_ANY_SOURCE, -1, bytes);
    for (;;) {
        for (int v = 0; v < c->np; v++) {
            if ((rsrc >= 0 && v / c->npcol != rsrc) || (csrc >= 0 && v % c->npcol != csrc)) continue;
            int t = bi_msgid_p2p_recv(c, v, 0), flag = 0;
            BI_MPI(MPI_Iprobe(v, t, c->comm, &flag, MPI_STATUS_IGNORE), "MPI_Iprobe");
            if (flag) {
                bi_watch_end();
                *tag = t;
                return v;
            }
        }
        bi_poll();
        if (bi_g.debug >= 2 && MPI_Wtime() - t0 > bi_g.hang_timeout)
            bi_hang('r', MPI_ANY_SOURCE, -1, bytes, MPI_Wtime() - t0);
    }
}

/* a receive MPI failed: a message longer than the shape (M x N, count
 * elements), or MPI's error */
BI_NORETURN BI_NOINLINE static void recv_failed(bi_ctx *c, size_t count, Int m, Int n, int rc,
                                                int src, const char *routine)
{
    int cls;
    MPI_Error_class(rc, &cls);
    if (cls == MPI_ERR_TRUNCATE)
        bi_error(c->handle, -1, routine,
                 "message from {%d,%d} is longer than the %zu elements of the receiving shape (M=%ld, N=%ld)",
                 src / c->npcol, src % c->npcol, count, (long)m, (long)n);
    bi_mpi_fail(rc, "MPI_Recv", c->handle, routine, __LINE__, __FILE__);
}

/* one piece of a message into p (cnt items of t); returns the elements
 * received if count, else 0 (asking is not free, and the usual short
 * message cannot be a full first piece).  A piece that is counted is
 * always received as the element type itself (bi_p2p_recv), so
 * MPI_Get_count says how many elements came; MPI_Get_elements, which
 * SimGrid's SMPI does not implement, is never needed. */
static size_t recv_piece(bi_ctx *c, const bi_shape *s, void *p, size_t cnt, MPI_Datatype t, int src,
                         int tag, int count, const char *routine)
{
    MPI_Status st;
    int rc;
    if (bi_g.debug >= 2 || bi_g.stats) {
        MPI_Request r;
        rc = MPI_Irecv(p, (int)cnt, t, src, tag, c->comm, &r);
        if (rc == MPI_SUCCESS)
            rc = bi_wait(&r, &st, 'r', src, tag, bi_shape_count(s) * bi_types[s->type].size);
    } else {
        bi_watch_begin('r', src, tag, bi_shape_count(s) * bi_types[s->type].size);
        rc = MPI_Recv(p, (int)cnt, t, src, tag, c->comm, &st);
        bi_watch_end();
    }
    if (rc != MPI_SUCCESS) recv_failed(c, bi_shape_count(s), s->m, s->n, rc, src, routine);
    int k = 0;
    if (count) BI_MPI_IN(MPI_Get_count(&st, t, &k), "MPI_Get_count", c->handle, routine);
    return k > 0 ? (size_t)k : 0;
}

/* one message into the shape s of A from grid rank src with ID tag, any
 * but the usual one (recv_msg, below); p2p: the stream of vGERV2D (words,
 * the pairs' record of long messages) */
BI_NOINLINE static void recv_long(bi_ctx *c, const bi_shape *s, void *A, int src, int tag,
                                  int p2p, const char *routine)
{
    const size_t es = bi_types[s->type].size, n = bi_shape_count(s);
    const int net = net_peer(c, src);
    /* the word "I am in my receive of your next message", when it has one
     * (long messages straight from A, above): a named source's first, a
     * wildcard's once it is found (owed, though too late to change the
     * send).  Either probes a message that has a word: it may be one
     * message, from A or from the complete copy (send_msg) */
    MPI_Request said = MPI_REQUEST_NULL;
    if (p2p && worded(c, src, c->lastlong[src]))
        BI_MPI_IN(MPI_Isend(NULL, 0, MPI_BYTE, src, bi_msgid_p2p_word(c, src), c->comm, &said),
                  "MPI_Isend", c->handle, routine);
    const int probe = said != MPI_REQUEST_NULL;
    const int contig = bi_shape_contig(s);
    const MPI_Datatype el = bi_mpitype(s->type);
    /* A non-contiguous shape is received in place through its datatype
     * (kept by shape.c) where MPI's datatype engine is as fast as our own
     * copy, else into a scratch run and unpacked: the same choice as the
     * ' ' broadcast's (bcast_mpi.c, BLACS_BCAST_DATATYPE).  Piece 0 (the
     * whole message if it is short) fills the leading elements either way.
     * A shape of a piece or more is received into the scratch run from
     * piece 0 on, the later pieces' way: piece 0's count is then one of
     * elements (recv_piece). */
    size_t p0 = piece_elems(0, es, net), got, total = 0;
    const int inplace = contig || (bi_bcast_mpi_inplace() && n < p0);
    bi_buf *scratch = NULL;
    walk w;
    size_t whole = probe && n > p0 ? probe_count(c, src, tag, el, n * es, routine) : 0;
    if (whole > p0) { /* sent straight from A, in one message (bi_p2p_send) */
        if (contig) got = recv_piece(c, s, A, n, el, src, tag, 1, routine);
        else if (whole == n && n * es <= INT_MAX && bi_inplace(net, n * es, 1)) {
            /* the whole shape through its datatype, unpacked by MPI as the
             * bytes arrive (from another node: shape.c, bi_inplace) */
            recv_piece(c, s, A, 1, bi_shape_mpitype_cached(s), src, tag, 0, routine);
            got = n;
        } else {
            scratch = bi_buf_scratch(n * es);
            walk_start(&w, s, A, 0);
            got = recv_piece(c, s, scratch->data, n, el, src, tag, 1, routine);
            walk_copy(&w, scratch->data, got, 0);
        }
        total = got;
    } else if (!inplace) {
        scratch = bi_buf_scratch(largest_piece(n, es, net) * es);
        walk_start(&w, s, A, 0);
        got = recv_piece(c, s, scratch->data, n < p0 ? n : p0, el, src, tag, 1, routine);
        walk_copy(&w, scratch->data, got, 0);
    } else if (contig) got = recv_piece(c, s, A, n < p0 ? n : p0, el, src, tag, n >= p0, routine);
    else got = recv_piece(c, s, A, 1, bi_shape_mpitype_cached(s), src, tag, 0, routine);
    if (whole <= p0) total = got;
    if (whole <= p0 && got == p0) { /* a full first piece: a long message, more pieces follow */
        size_t e = p0;
        for (int j = 1;; j++) {
            size_t full = piece_elems(j, es, net), cap = n - e < full ? n - e : full;
            if (contig) got = recv_piece(c, s, (char *)A + e * es, cap, el, src, tag, 1, routine);
            else {
                got = recv_piece(c, s, scratch->data, cap, el, src, tag, 1, routine);
                walk_copy(&w, scratch->data, got, 0);
            }
            e += got;
            if (got < full) break;
        }
        total = e;
    }
    bi_buf_release(scratch);
    /* a message that fits in the first piece is not counted (recv_piece):
     * short it is, as its sender knows */
    if (p2p) c->lastlong[src] = (unsigned char)long_msg(total, es, net);
    bi_buf_adopt(&said); /* not waited for: the source may be outside MPI (buffer.c) */
    c->lastsrc = src;
}

/* one message into the shape s of A from grid rank src with ID tag: the
 * usual message (plain_msg) here, one piece straight into A, any other by
 * recv_long (out of line, as send_long) */
static inline void recv_msg(bi_ctx *c, const bi_shape *s, void *A, int src, int tag, int p2p,
                            const char *routine)
{
    const size_t n = bi_shape_count(s);
    if (plain_msg(s, n * bi_types[s->type].size, p2p, c->lastlong[src])) {
        recv_piece(c, s, A, n, bi_mpitype(s->type), src, tag, 0, routine);
        c->lastsrc = src;
    } else recv_long(c, s, A, src, tag, p2p, routine);
}

void bi_p2p_recv(Int ctxt, const bi_shape *s, void *A, Int rsrc, Int csrc, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    int argr = s->tr ? 8 : 6, src, tag;
    const int wild = rsrc == -1 || csrc == -1;
    if (wild) {
        if (rsrc < -1 || rsrc >= c->nprow || csrc < -1 || csrc >= c->npcol)
            bi_vpid(c, rsrc, csrc, ctxt, routine, argr, "RSRC/CSRC");
        src = any_source(c, rsrc, csrc, &tag, bi_shape_count(s) * bi_types[s->type].size);
        bi_msgid_p2p_recv(c, src, 1);
    } else {
        src = bi_vpid(c, rsrc, csrc, ctxt, routine, argr, "RSRC/CSRC");
        tag = bi_msgid_p2p_recv(c, src, 1);
    }
    recv_msg(c, s, A, src, tag, 1, routine);
    /* no poll of this process's sends here: the caller acts on the message
     * at once (an echo sends it back), and a poll would delay that; the
     * next send polls after its MPI_Isend (bi_buf_post) */
}

/* vGERV2D, as vGESD2D (bi_p2p_gesd): the usual message from a valid
 * process of a valid grid, without BLACS_STATS or BLACS_DEBUG=2 (whose
 * receives wait in bi_wait), is one MPI_Recv into A, without the general
 * path's frames (recv_piece's at the other levels).  The record
 * (bi_record) comes first here: the long-wait warning names the call while
 * it waits.  Anything else, wildcards included, takes the general path. */
BI_NOINLINE static void gerv_general(const char *routine, int type, Int ctxt, Int m, Int n,
                                     void *A, Int lda, Int rsrc, Int csrc)
{
    bi_shape s;
    bi_make_shape(&s, ctxt, routine, type, 0, NULL, 0, NULL, 0, m, n, lda, 2);
    bi_enter(routine, ctxt, 'v', NULL, NULL, &s, rsrc, csrc);
    bi_p2p_recv(ctxt, &s, A, rsrc, csrc, routine);
    bi_leave();
}

void bi_p2p_gerv(const char *routine, int type, Int ctxt, Int m, Int n, void *A, Int lda,
                 Int rsrc, Int csrc)
{
    bi_ctx *c = bi_ctx_find(ctxt);
    size_t k, nb;
    int src;
    if (bi_g.debug < 2 && !bi_g.stats &&
        (src = usual_peer(c, type, m, n, lda, rsrc, csrc, 0, &k, &nb)) >= 0) {
        bi_record(routine, ctxt, 'v', NULL, NULL, k, nb, rsrc, csrc);
        bi_poll();
        const int tag = bi_msgid_p2p_recv(c, src, 1);
        bi_watch_begin('r', src, tag, nb);
        int rc = MPI_Recv(A, (int)k, bi_mpitype(type), src, tag, c->comm, MPI_STATUS_IGNORE);
        bi_watch_end();
        if (rc != MPI_SUCCESS) recv_failed(c, k, m, n, rc, src, routine);
        c->lastsrc = src;
        bi_leave();
        return;
    }
    gerv_general(routine, type, ctxt, m, n, A, lda, rsrc, csrc);
}

/* Intel MKL's Cdsendrecv (sendrecv.c): the send, then the receive, both
 * on the grid's sendrecv ID, a stream of their own (msgid.c), by the same
 * path as vGESD2D and vGERV2D.  The send is locally blocking (a buffer,
 * never straight from A: no words in this stream), so two processes
 * exchanging, or a ring of them, never wait for each other's send. */
void bi_p2p_sendrecv(Int ctxt, const bi_shape *ss, const void *A, Int rdest, Int cdest,
                     const bi_shape *rs, void *B, Int rsrc, Int csrc, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    int dest = bi_vpid(c, rdest, cdest, ctxt, routine, 6, "RDEST/CDEST");
    int src = bi_vpid(c, rsrc, csrc, ctxt, routine, 12, "RSRC/CSRC");
    send_msg(c, ss, A, dest, c->sendrecv_id, 0, routine);
    recv_msg(c, rs, B, src, c->sendrecv_id, 0, routine);
    bi_poll();
}
