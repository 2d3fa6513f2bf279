/*
 * bcast_scatcol.c -- TOP 'C' (ours): the long-vector broadcast of the slides
 * and of Watts (the SC-broadcast): scatter the vector, then collect
 * (allgather) it, for any Np.  Watts and the slides collect around a ring,
 * Np-1 start-ups; the dissemination collect below needs ceil(log2 Np).
 * The items are cut into Np blocks as evenly as possible (sizes differ by
 * at most one item); block b belongs to relative rank b = (me - root) mod Np.
 *   scatter: recursive splitting (Watts 5.1): the holder of relative ranks
 *     [lo,hi) sends the blocks of the upper half [m,hi), m = lo + ceil((hi-lo)/2),
 *     to m; ceil(log2 Np) steps, (Np-1)/Np n items leave the root.
 *   collect, Np a power of two: recursive doubling: at step d = 1, 2, 4, ...
 *     relative ranks v and v XOR d exchange the d contiguous blocks each
 *     holds (from v with its low bits cleared), one message each way.
 *   collect, other Np: dissemination (Bruck) allgather: at step d each
 *     process sends the min(d, Np-d) blocks it holds from its own on to
 *     relative rank me-d and receives the next ones from me+d; blocks are
 *     taken modulo Np, so a run may wrap and go as two messages.
 *   the source (relative rank 0) holds every block from the start: in the
 *     collect it sends what its partner of each step needs and receives
 *     nothing, and no one sends to it.
 *   Every process posts a send only when its previous one is done (bi_fwd):
 *     sends posted together share the sender's link, and the one on the
 *     critical path (the next holder's half of the scatter, this step's
 *     blocks) arrives late -- 18% over the model at 10^5 doubles on 16
 *     simulated processes, within 0.1% in order.  The source keeps that
 *     order with bounded waits and never waits for a receiver that is not
 *     there (transport.c); the others are inside a globally-blocking call
 *     and every receive of a step is posted before its sender waits.
 * Time about 2 ceil(log2 Np) alpha + 2 (Np-1)/Np n beta.  Empty runs (fewer
 * items than processes) are not sent; both sides skip the same ones.
 * Vectors shorter than BI_SCATCOL_MIN bytes per process (16: the largest
 * item, so every shorter vector leaves blocks empty) go down the binomial
 * tree instead (the '1' broadcast; the selection step, topology.c, runs
 * it): with empty blocks the scatter and collect would spend their
 * start-ups on fewer items than processes.
 * Tags: scatter c->tag, collect c->tag + 1.
 */
#include "topo_algs.h"

/* first item of relative block b, 0 <= b <= Np */
static size_t first(const bi_coll *c, int b)
{
    return bi_block_first(c->count, (size_t)c->np, (size_t)b);
}

static int absrank(const bi_coll *c, int v) { return (v % c->np + c->root) % c->np; }

/* blocks [a, a+n) modulo Np as at most two runs of items; returns the runs */
static int runs(const bi_coll *c, int a, int n, size_t off[2], size_t len[2])
{
    a %= c->np;
    int k = 0, e = a + n;
    if (e > c->np) {
        if ((len[k] = first(c, c->np) - first(c, a))) off[k++] = first(c, a);
        if ((len[k] = first(c, e - c->np))) off[k++] = 0;
    } else if ((len[k] = first(c, e) - first(c, a))) {
        off[k++] = first(c, a);
    }
    return k;
}

void bi_bcast_scatcol(bi_coll *c)
{
    int np = c->np, v = (c->me - c->root + np) % np;
    size_t off[2], len[2];
    /* scatter */
    for (int lo = 0, hi = np; hi - lo > 1;) {
        int m = lo + (hi - lo + 1) / 2;
        if (v < m) {
            if (v == lo && runs(c, m, hi - m, off, len))
                bi_fwd(c, absrank(c, m), c->buf + off[0] * c->isize, len[0], c->tag);
            hi = m;
        } else {
            if (v == m && runs(c, m, hi - m, off, len))
                bi_recv(c, absrank(c, lo), c->buf + off[0] * c->isize, len[0], c->tag);
            lo = m;
        }
    }
    /* collect: the source holds every block already, so it only sends its
     * share of each step and receives nothing; nobody sends to it */
    for (int d = 1; d < np; d *= 2) {
        MPI_Request rq[2];
        size_t rlen[2];
        int from, to, rfirst, sfirst, nb;
        if (bi_ispow2(np)) { /* recursive doubling: aligned runs, never wrapping */
            from = to = v ^ d, nb = d;
            rfirst = (v ^ d) & ~(d - 1), sfirst = v & ~(d - 1);
        } else { /* dissemination */
            from = (v + d) % np, to = (v + np - d) % np, nb = d < np - d ? d : np - d;
            rfirst = v + d, sfirst = v;
        }
        int nrq = v == 0 ? 0 : runs(c, rfirst, nb, off, rlen);
        for (int i = 0; i < nrq; i++)
            rq[i] = bi_irecv(c, absrank(c, from), c->buf + off[i] * c->isize, rlen[i], c->tag + 1);
        int ns = to == 0 ? 0 : runs(c, sfirst, nb, off, len);
        for (int i = 0; i < ns; i++)
            bi_fwd(c, absrank(c, to), c->buf + off[i] * c->isize, len[i], c->tag + 1);
        for (int i = 0; i < nrq; i++) bi_irecv_wait(c, &rq[i], absrank(c, from), rlen[i], c->tag + 1);
    }
}
