/*
 * plan.c -- the selection step: what one broadcast or combine runs, decided
 * from the call alone (letter, scope, length, root, BLACS_SET values,
 * machine) before anything moves, and handed to the dispatcher (bcast.c,
 * combine.c) as a constant value.  Every process of a scope makes the same
 * plan: all of it follows from values the scope's members share.
 *
 * In order:
 *   - ' ' in a scope without collectives of its own (a row or column that
 *     is the whole grid: bi_scope_has_coll) is the binomial tree '1', on
 *     its own message IDs, which keep it apart from the 'All' scope's MPI
 *     collectives on the same communicator.  The tree is fixed-order, so a
 *     repeatable combine needs nothing more and its leave-on-all is
 *     coherent.  Traces name '1'.
 *   - a ' ' leave-on-all combine in a scope of two processes is one
 *     exchange, 'H', at every length.  MPICH's MPI_Allreduce of a short
 *     vector does the same there, but ours of one double takes the user
 *     operation that checks the count (comb_mpi.c): 1.16 to 1.34 times
 *     MPI_SUM's (make bench, MPICH, 1 x 2, as the machine is busier), the
 *     exchange 1.05 to 1.21.  At 10^3 and 10^4 doubles the exchange is
 *     faster than MPI's.  Long ones (256 KB on one node, 4 MB between
 *     nodes) go in halves, each partner combining one, as MPICH's
 *     reduce-scatter and allgather do (xchg_halves; as one exchange
 *     DGSUM2D of 10^6 doubles took 1.11-1.48 times MPI_Allreduce), and
 *     16-64 KB between nodes, 8-256 KB on one node under MPICH, in eager
 *     pieces (xchg_pieces); the lengths of
 *     their messages are such that partners passing different counts get
 *     the count error, so the plan needs no agreement on the count.  Both partners
 *     combine the same two operands, and every operation of the library
 *     is commutative to the bit (ops.c), so both get the same bits; a
 *     count that differs fails the exchange's receive.  Not for user
 *     combines (commutative only by contract) or with BLACS_SET 16, where
 *     'H' would be the tree.
 *   - short ' ' broadcasts (1 to BI_BCAST_SHORT bytes, 12 KB) are a tree
 *     in every scope, on one message ID: MPI_Ibcast, which ' ' uses so
 *     that its source never waits, costs twice MPI_Bcast there, and the
 *     whole BLACS call three to four times (make bench, 1 x 2, MPICH: 1.2
 *     us at one double against the tree's 0.3 and MPI_Bcast's 0.3).  The
 *     tree is the one the models price lowest for the scope's size over
 *     the short range (bi_bcast_short_tree: '2' on 4 and 8 processes, on 4
 *     the source sending to each, '3' on 16 and 64), not the binomial
 *     tree: its relays are processes that may be computing outside MPI
 *     (ScaLAPACK's are, most of the time), and a flatter tree has fewer of
 *     them between the source and a waiting receiver.  The longer ones (and
 *     empty ones) reserve one ID too, for their mark down the same tree
 *     (plan.mark, bcast_mpi.c): processes that disagree on the length then
 *     get the count error, not a hang.  In a scope across nodes the tree
 *     and the mark run in node phases (plan.nodes, bcast_tree.c).
 *   - on two processes every ' ' broadcast is that tree, one message, at
 *     every length and empty: MPI's broadcast sends that one message too,
 *     and MPI_Ibcast with the mark cost the BLACS call 1.11-1.36 times
 *     MPI_Bcast at 2,048-10,000 doubles (1 x 2, MPICH 4.0.2; Open MPI 4.1:
 *     1.8-2.6), the tree 1.07-1.19 (1.07-1.25; doc/topologies.md).  As a
 *     leave-on-all combine on two is one exchange at every length.
 *   - ' ' broadcasts past 2^31 bytes under MPICH are the tree too: MPICH's
 *     (4.0) MPI_Ibcast, which ' ' uses so that its source never waits,
 *     fails there ("Invalid communicator" at the receivers; Open MPI's
 *     moves them).
 *   - 'A' runs what the models pick (topology.c), within the two IDs it
 *     reserves.
 *   - an entry whose restriction (topology.h) the call does not meet runs
 *     the radix-2 tree: 'H' broadcasts off powers of two (LAWN 73 4.3.2;
 *     on the second of the two IDs 'H' reserves, and 'H' takes that second
 *     ID only then), 'C' on vectors too short to fill its blocks, 'H'
 *     combines other than leave-on-all without the coherence flag (LAWN 73
 *     5.4.2: the exchange combines each element on both partners).
 *   - a repeatable (BLACS_SET 15) ' ' combine whose result depends on the
 *     order leaves MPI's reduction for the fixed-order algorithm the models
 *     pick for its length ('H' then being the tree); as that depends on
 *     M*N, the scope first agrees on the count (plan.agree).  So does a
 *     leave-on-one ' ' combine in a scope where MPICH's MPI_Reduce is wrong
 *     (BI_REDUCE_LONE, core.h).
 *   - what the chosen algorithm needs at run time: the pieces of the ring
 *     broadcasts 'I', 'D', 'S', 'M' (one for short vectors), the segments
 *     of 'P', the halvings of 'Y', when a fan-in takes its contributions
 *     one at a time, and for a broadcast how long its source may wait for
 *     each send before posting the next (8 T_c of the send + 20 us) and in
 *     all (BLACS_SOURCE_WAIT): the source's order, transport.c; and
 *     whether a source may send straight from A when its receivers say
 *     they are there (long vectors: 64 KB, or 12 KB in a scope on one node;
 *     ' ' under MPICH, on one message ID; the library's own letters on
 *     their first ID), and how long it waits for them (what copying A
 *     costs, T_m; transport.c).  On one node the words cost less than the
 *     copy from 12 KB (1 x 2, MPICH, 16 and 40 KB back to back: ' ' 1.3-1.6
 *     times MPI_Bcast's time, was 1.9-3.0); across a network a word's
 *     latency is more than the copy there (two hosts over TCP: a late
 *     receiver waited 64-214 us at 16 KB, 32-98 from a copy).
 * plan.top is the letter of what runs in the end, for broadcasts and
 * combines alike: message traces (BLACS_TRACE) and hang and long-wait
 * reports name it beside the letter the program passed.
 */
#include <limits.h>
#include "plan.h"

static bi_plan entry_plan(const bi_topo *t, int bcast, const bi_call_in *in)
{
    bi_plan p = {0};
    p.top = t->top;
    p.run = bcast ? t->bcast : t->comb;
    p.ntags = bcast ? t->bcast_ntags : t->comb_ntags;
    p.param = bcast ? bi_bcast_param(t, in->ctx, in->np) : bi_comb_param(t->top, in->ctx, in->np);
    p.mpi = ((bcast ? t->bcast_flags : t->comb_flags) & BI_TOP_MPI) != 0;
    return p;
}

/* the entry of letter top runs the call (radix 1), whatever the plan's
 * letter; the message IDs stay the letter's */
static const bi_topo *run_as(bi_plan *p, char top, int bcast)
{
    const bi_topo *t = bi_topo_find(top);
    p->run = bcast ? t->bcast : t->comb;
    p->top = top;
    p->param = 1;
    p->mpi = 0;
    return t;
}

/* the radix-2 tree in place of what an entry cannot run */
static const bi_topo *tree_instead(bi_plan *p, int bcast) { return run_as(p, '1', bcast); }

/* the rings' pieces under MPICH, with a relay (3 processes or more),
 * BLACS_PIPE_SEGMENT unset, for a vector of at most BI_NODE_EAGER_PIECES
 * such pieces (128 KB): pieces MPICH sends eagerly (BI_NODE_EAGER),
 * whatever the model would cut.  A relay forwards each piece as it comes
 * and returns once its sends complete; sends MPI takes without their
 * receiver complete at once, so it no longer waits for a next hop that is
 * still computing, nor the source for its first.  On one node (MPICH's
 * shared memory, 'I' on 1 x 3, next hop 20 ms late) a relay of one 128 KB
 * message waited 20 ms, of 8 KB pieces 0.4-0.6 ms.  Between hosts (MPICH
 * with UCX over TCP, one process a host, next hop 300 ms late) it waited
 * 304-324 ms for one 128 KB message and 0.4-54 ms in pieces; over
 * 1 Gbit/s 305-320 ms against 4-42 ms.  A longer vector keeps the model's
 * pieces: past what MPICH holds (core.h) the pieces left over wait for
 * their relay's progress, and its late receiver waited 16-30 ms more than
 * for one message (512 KB to 1 MB, shared memory).  Simulated ScaLAPACK
 * on nodes of 16 (make bench-scalapack, TIMING/README): PDPOTRF 16 x 16
 * (N = 4096), whose column rings cross nodes, 0.893 of the reference's
 * time in the comm mode and 1.000 in the flops mode, with pieces on one
 * node only 0.975 and 1.031.  Open MPI's shared memory takes no 8 KB
 * piece without its receiver (the same relay waits 23 ms), so there the
 * model's pieces stay. */
static int eager_pieces(const bi_call_in *in)
{
    return BI_MPICH && in->np > 2 && bi_pipe_segment() <= 0 &&
           (double)in->count * (double)in->isize <= BI_NODE_EAGER_PIECES * BI_NODE_EAGER;
}

/* Long exchanges on two processes: each combines half (comb_bidir.c,
 * halves; MPICH's MPI_Allreduce does the same there), from 256 KB on one
 * node and 4 MB between nodes.  (1 x 2, MPICH 4.0.2, alternated rounds;
 * one message each way and all combined, against halves: on one node 2 MB
 * 254 against 213 us, 8 MB 1,460-1,770 against 1,000-1,250, 128 KB and 512
 * KB 0-7% faster in halves, as fast at 8 KB; DGSUM2D of 10^6 doubles took
 * 1.19-1.36 times MPI_Allreduce as one exchange, 0.85-1.06 in halves; over
 * the test bed's bare link 8 MB 4.9 ms against 4.4, 1 and 2 MB 1.5-5%
 * slower in halves, at 1 Gbit/s within 2%.)  The parts'
 * lengths differ, and differ from any whole vector or piece that a partner
 * passing another count could send, as far as needed for the count error:
 * comb_bidir.c. */
#define BI_XCHG_HALVE_NODE 262144.0
#define BI_XCHG_HALVE_NET 4194304.0
static int xchg_halves(const bi_call_in *in)
{
    const double bytes = (double)in->count * (double)in->isize;
    return in->np == 2 && bytes >= (in->onenode ? BI_XCHG_HALVE_NODE : BI_XCHG_HALVE_NET);
}

/* The exchange in pieces that MPI sends eagerly: between nodes, a vector
 * of bi_xchg_piece items (BI_NET_EAGER_MAX bytes, 16 KB and 63) to BI_XCHG_PIECED
 * bytes; on one node under MPICH, of up to BI_NODE_EAGER_MAX bytes, up to
 * where halves begin (BI_XCHG_HALVE_NODE).  Each piece has bi_xchg_piece items
 * but the last, which is shorter (empty when the count is a multiple).
 * So partners that pass different counts still fail a receive, whatever
 * their pieces, rather than one waiting for a piece that never comes:
 * where the two sequences first differ, a message is longer or shorter
 * than its receive (a whole vector below the range is shorter than a
 * piece; one above it, whole or either half, longer than all of them).
 * (Bare link of the test bed, MPICH 4.0.2 with UCX over TCP, 1 x 2: 4,096
 * doubles whole 58 us, in pieces 33, MPI_Allreduce 36; at 1 Gbit/s all
 * three within 1%.  On one node MPICH moves a message past 8 KB by a
 * rendezvous and a copy between the processes (CMA), which costs most
 * when the data were just written and are read right after, as a
 * combine's are: an exchange of 32 KB, each side then reading what came
 * and writing what it sends next, took 22-28 us whole and 12-13 in 8 KB
 * pieces, 128 KB 64-96 against 39-45 (MPI alone, 1 x 2, alternated); and
 * DGAMX2D of 4,096 items with RA/CA 57 us where MPI_Allreduce's MPI_MAX
 * took 17-27.  Whole, 1,024 doubles took 2.2 us, as two pieces (8 KB and
 * an empty one) 3.3, hence pieces of all that goes eagerly.  Open MPI's
 * shared memory does not take an 8 KB piece without its receiver
 * (eager_pieces, above), so there the vector stays one message.) */
static size_t xchg_pieces(const bi_call_in *in)
{
    const double bytes = (double)in->count * (double)in->isize;
    const size_t pi = bi_xchg_piece(in->isize, in->onenode);
    if (in->count < pi) return 0;
    if (in->onenode ? !BI_MPICH || bytes >= BI_XCHG_HALVE_NODE : bytes > BI_XCHG_PIECED) return 0;
    return in->count / pi + 1;
}

/* Every broadcast on two processes under MPICH, whatever its TOP: a vector
 * of bi_xchg_piece items (what MPI sends eagerly: 8,255 bytes on one node,
 * 16,447 between nodes) to BI_PAIR_PIECED bytes goes in such pieces, the
 * last one shorter (empty when the count is a multiple), as the exchange's
 * (xchg_pieces), so that a source and a receiver that pass different
 * counts still fail a receive, and from a copy of A (not straight from A
 * after the receiver's word, which costs a message each way).  It runs as
 * 'I', whose receiver takes the pieces one by one; the letter keeps its
 * message IDs.  A ring or 'P' given BLACS_PIPE_SEGMENT keeps those
 * pieces.  Shorter vectors and longer ones go as the letter sends them.
 * (One node, MPICH 4.0.2, 1 x 2, a stream of broadcasts, the source
 * rewriting A and the receiver reading it between them: 4,096 doubles took
 * 16-22 us as one message, 5.0 in pieces; 8,192 doubles 23-31 against
 * 10.4; with A untouched 8.2-10.9 against 4.5, and 7.9-9.4 against 8.0.
 * Past 64 KB, untouched, one message was faster: 12,000 doubles 12.5
 * against 13.0 us, 16,384 doubles 10.9 against 18.7.  ScaLAPACK's PDPOTRF
 * on 2 x 1, whose 'I' column broadcasts of 32 x 64 blocks in LDA 1,024
 * went whole from A: its receivers, computing 50 us between broadcasts,
 * waited 7.6-13.5 us a block whole and 3.1-5.7 in pieces, 6.4-8.3 with the
 * reference BLACS.  Between two hosts (MPICH with UCX over TCP), whose
 * pieces hold 16,447 bytes, so that such a block goes whole, the routine
 * took a median 0.74 of the reference's time, 0.90 with 16 KB pieces,
 * which sent the block as one and an empty piece.) */
#define BI_PAIR_PIECED 65536.0
static int pair_pieces(const bi_call_in *in)
{
    const double bytes = (double)in->count * (double)in->isize;
    return BI_MPICH && in->count >= bi_xchg_piece(in->isize, in->onenode) && bytes <= BI_PAIR_PIECED;
}

/* what the algorithm that runs (table entry t) needs at run time */
static void runtime(bi_plan *p, const bi_topo *t, int bcast, const bi_call_in *in,
                    const bi_machine *m)
{
    const int flags = bcast ? t->bcast_flags : t->comb_flags;
    if (flags & BI_TOP_NSEG) p->nseg = bi_pipe_nseg(m, in->np, in->count, in->isize);
    if (flags & BI_TOP_PIECES)
        p->nseg = p->xpiece            ? in->count / p->xpiece + 1 /* pair_pieces */
                  : eager_pieces(in) ? bi_pieces_upto(in->count, in->isize, BI_NODE_EAGER)
                                     : bi_ring_nseg(m, t->top, in->np, p->param, in->count, in->isize);
    if (!bcast && (flags & BI_TOP_EXCHANGE)) {
        p->nseg = xchg_pieces(in);
        p->xpiece = bi_xchg_piece(in->isize, in->onenode);
        p->halve = xchg_halves(in);
    }
    if (flags & BI_TOP_HALVE)
        p->halve = (in->root < 0 && in->coherent)
                       ? -1 /* coherent leave-on-all halves all the way (= 'R') */
                       : bi_comb_hybrid_halvings(m, in->np, (double)(in->count * in->isize));
    p->serial = bi_serial_bytes(m);
    if (bcast) { /* the source's order: 8 times the model's T_c, plus 20 us, per send */
        p->ord_cap = 1e-6 * bi_source_wait();
        p->ord_a = 1e-6 * (8 * m->tc.a + 20);
        p->ord_b = 1e-6 * 8 * m->tc.b;
        const double bytes = (double)in->count * (double)in->isize;
        /* a send whose transfer is under 1% of the start-up (T_c(0)) is all
         * latency: posted together such sends delay the first receiver by
         * no more than that, while the source's wait for each would cost a
         * whole T_c(0) -- ScaLAPACK's INFO broadcasts (igebs2d, 4 bytes;
         * PDPOTRF 4 x 4 in SMPI, N = 1024, 10 GB/s: 0.94 of the reference's
         * time, was 1.00).  Longer ones do share the link: SMPI's 1 x 16 fat
         * tree, '1' at 100 doubles, 4.35 one-way times unordered, 4.00 in
         * order */
        if (bi_posted_together(m, bytes)) p->ord_cap = 0;
        if (in->np > 1 && bytes >= (in->onenode ? BI_BCAST_DIRECT_MIN : BI_DIRECT_MIN) &&
            (!p->mpi || BI_BCAST_DIRECT) && !p->xpiece) {
            /* the letters' sources look at each receiver's word as they send
             * to it (2, transport.c), but where receivers wait for each other */
            p->direct = p->mpi || (flags & BI_TOP_PEERS) ? 1 : 2;
            if (p->mpi) p->ntags = 1; /* the receivers' words (the letters' go on their first ID) */
            p->ready_wait = 1e-6 * m->tm.b * bytes;
            if (p->ready_wait > p->ord_cap) p->ready_wait = p->ord_cap;
        }
    }
}

/* ---- the last plans made ----------------------------------------------
 * A program repeats its calls (ScaLAPACK's panels, a loop of short sums),
 * and a plan follows from the call, the grid's BLACS_SET 11-14 and the
 * machine alone.  Making one is not free: about 200 instructions for the
 * exchange of a sum on two processes (the table, the models' guards), a
 * sixth of what DGSUM2D of one double does outside MPI (callgrind, 1 x 2);
 * many more where the models search ('A', the rings' pieces).  So the last
 * two plans of each kind are kept with their calls and handed out again
 * for the same call.  Only for the built-in machine (bi_machine_default,
 * read once): a plan for any other (tests, the timers' models) is made
 * afresh.  The key is everything the plan reads: each field of the call
 * but the grid, and of the grid only its ring and branch counts (so a grid
 * freed and another made at its address cannot be mistaken for it).  The
 * library is called by one thread at a time (doc/user-guide.md). */
typedef struct {
    const bi_topo *t;
    size_t count, isize;
    long long where;     /* np and root */
    Int rings, branches; /* the grid's BLACS_SET 11 and 12, or 13 and 14 */
    int flags;           /* has_coll, repeat, coherent, ordered, user, onenode, first_alone
                            (each 0 or 1) */
} memo_key;
typedef struct {
    memo_key k;
    bi_plan p;
} memo;
static memo memos[2][2]; /* [bcast][entry] */
static int nmemo[2], nextmemo[2];

static memo_key key_of(const bi_call_in *in, int bcast)
{
    const bi_ctx *c = in->ctx;
    return (memo_key){in->t, in->count, in->isize,
                      (long long)in->np << 32 | (unsigned)in->root,
                      bcast ? c->rings_bs : c->rings_comb,
                      bcast ? c->branches_bs : c->branches_comb,
                      in->has_coll | in->repeat << 1 | in->coherent << 2 | in->ordered << 3 |
                          in->user << 4 | in->onenode << 5 | in->first_alone << 6};
}

static int same_key(const memo_key *a, const memo_key *b)
{
    return a->t == b->t && a->count == b->count && a->isize == b->isize &&
           a->where == b->where && a->rings == b->rings && a->branches == b->branches &&
           a->flags == b->flags;
}

static bi_plan bcast_plan(const bi_call_in *in, const bi_machine *m);
static bi_plan comb_plan(const bi_call_in *in, const bi_machine *m);

/* the plan of the call (a broadcast's if bcast), kept or made */
static bi_plan kept(const bi_call_in *in, const bi_machine *m, int bcast)
{
    if (m != bi_machine_default() || !in->ctx)
        return bcast ? bcast_plan(in, m) : comb_plan(in, m);
    const memo_key k = key_of(in, bcast);
    for (int i = 0; i < nmemo[bcast]; i++)
        if (same_key(&memos[bcast][i].k, &k)) return memos[bcast][i].p;
    memo *e = &memos[bcast][nextmemo[bcast]];
    nextmemo[bcast] ^= 1;
    if (nmemo[bcast] < 2) nmemo[bcast]++;
    e->k = k;
    e->p = bcast ? bcast_plan(in, m) : comb_plan(in, m);
    return e->p;
}

bi_plan bi_bcast_plan(const bi_call_in *in, const bi_machine *m)
{
    return kept(in, m, 1);
}

bi_plan bi_comb_plan(const bi_call_in *in, const bi_machine *m)
{
    return kept(in, m, 0);
}

static bi_plan bcast_plan(const bi_call_in *in, const bi_machine *m)
{
    const bi_topo *t = in->t;
    const int np = in->np;
    bi_plan p = {0};
    p.top = t->top;
    /* one-process scope: nothing to do, no message ID (MPI's own collective
     * is called even there) */
    if (np < 2 && !(t->bcast_flags & BI_TOP_MPI)) return p;
    if ((t->bcast_flags & BI_TOP_MPI) && !in->has_coll) t = bi_topo_find('1');
    const double bytes = (double)in->count * (double)in->isize;
#if BI_MPICH
    if ((t->bcast_flags & BI_TOP_MPI) && np > 1 && bytes > (double)INT_MAX) t = bi_topo_find('1');
#endif
    int mark = 0, nodes = 0;
    if ((t->bcast_flags & BI_TOP_MPI) && np > 1) {
        const bi_topo *s = bi_bcast_short_tree(np);
        nodes = !in->onenode;
        if ((bytes > 0 && bytes <= BI_BCAST_SHORT) || np == 2) t = s;
        else mark = bi_bcast_param(s, NULL, np) + 1; /* its radix */
    }
    p = entry_plan(t, 1, in); /* t: the entry whose message IDs are reserved */
    const bi_topo *e = t;
    if (mark) {
        p.mark = mark;
        p.ntags = 1; /* the mark's (and the receivers' words', when direct) */
    }
    p.nodes = nodes;
    if (t->bcast_flags & BI_TOP_AUTO) {
        t = bi_bcast_choose(np, bytes, &p.param);
        p.run = t->bcast;
        p.top = t->top;
    }
    if ((t->bcast_flags & BI_TOP_POW2) && !bi_ispow2(np)) {
        p.first = 1;
        t = tree_instead(&p, 1);
    } else if ((t->bcast_flags & BI_TOP_LONG) && bi_bcast_scatcol_short(np, bytes)) {
        t = tree_instead(&p, 1);
    } else if (e->bcast_flags & BI_TOP_POW2) {
        p.ntags = 1; /* TOP 'H' takes its second ID only for the tree */
    }
    if (np == 2 && pair_pieces(in) &&
        !((t->bcast_flags & (BI_TOP_PIECES | BI_TOP_NSEG)) && bi_pipe_segment() > 0)) {
        t = run_as(&p, 'I', 1); /* its receiver takes the pieces one by one */
        p.xpiece = bi_xchg_piece(in->isize, in->onenode);
    }
    runtime(&p, t, 1, in, m);
    return p;
}

static bi_plan comb_plan(const bi_call_in *in, const bi_machine *m)
{
    const bi_topo *t = in->t;
    bi_plan p = {0};
    p.top = t->top;
    /* a one-process scope combines nothing and consumes no message ID */
    if (in->np < 2) return p;
    if ((t->comb_flags & BI_TOP_MPI) && in->np == 2 && in->root < 0 && !in->coherent &&
        !in->user) {
        t = bi_topo_find('H'); /* one exchange, at every length */
        p = entry_plan(t, 0, in);
        runtime(&p, t, 0, in, m);
        return p;
    }
    if ((t->comb_flags & BI_TOP_MPI) && !in->has_coll) t = bi_topo_find('1');
    p = entry_plan(t, 0, in); /* 'A' keeps the two IDs it reserves whatever it picks */
    const int all = in->root < 0;
    if (t->comb_flags & BI_TOP_AUTO) {
        /* the letter the models pick, with the parameter they were
         * evaluated with */
        p.top = bi_comb_choose(m, in->np, (double)(in->count * in->isize), all, in->coherent);
        p.param = 1;
        t = bi_topo_find(p.top);
        p.run = t->comb;
    }
    if ((t->comb_flags & BI_TOP_EXCHANGE) && (!all || in->coherent)) {
        tree_instead(&p, 0);
        t = bi_topo_find('1');
    } else if ((t->comb_flags & BI_TOP_MPI) &&
               ((in->repeat && in->ordered) || (!all && in->first_alone))) {
        char alt = bi_comb_choose(m, in->np, (double)(in->count * in->isize), all, in->coherent);
        if (alt == 'H') alt = '1';
        t = bi_topo_find(alt);
        p = entry_plan(t, 0, in);
        p.param = 1;
        p.agree = 1;
    }
    runtime(&p, t, 0, in, m);
    return p;
}
