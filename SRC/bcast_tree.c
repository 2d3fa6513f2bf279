/*
 * bcast_tree.c -- TOP '1'..'9' and 'T': the general tree of LAWN 73 4.3.2
 * (table 10) with N_b branches, radix r = N_b + 1, any Np.  Let i0 be the
 * largest power of r below Np.  In distances d from the root, the root
 * sends at levels i = i0, i0/r, ..., 1 to d = j*i (j = 1..r-1, d < Np):
 * furthest first.  A process receives at the largest level i dividing its
 * d, from d - ((d/i) mod r) i, then sends to d + j*i' for every lower level
 * i'.  With N_b = 1 it is the binomial tree.  A process that received sends
 * to its children one after the other, the furthest (deepest subtree)
 * first, as the model assumes; the source posts its sends together and
 * returns (bi_fwd, transport.c).  The tree combines send their result back
 * out along the same binomial tree (comb_tree.c).
 */
#include "topo_algs.h"

void bi_bcast_tree_from(bi_coll *c, int root, int radix, int tag)
{
    long np = c->np, r = radix;
    if (r < 2) r = 2;
    if (r > np) r = np;
    long i0 = 1;
    while (i0 * r < np) i0 *= r;
    long d = (c->me - root + np) % np, lvl = i0 * r;
    if (d) {
        lvl = i0;
        while (d % lvl) lvl /= r;
        long from = d - (d / lvl) % r * lvl;
        bi_waitall(c); /* a combine's partial result may still be on its way up */
        bi_recv(c, (int)((from + root) % np), c->buf, c->count, tag);
    }
    for (long i = lvl / r; i >= 1; i /= r)
        for (long j = 1; j < r && d + j * i < np; j++)
            bi_fwd(c, (int)((d + j * i + root) % np), c->buf, c->count, tag);
}

void bi_bcast_tree(bi_coll *c) { bi_bcast_tree_from(c, c->root, c->plan.param + 1, c->tag); }
