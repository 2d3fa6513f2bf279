/*
 * bcast_hypercube.c -- TOP 'H' (LAWN 73 4.3.2, after van de Geijn): for a
 * power-of-two scope, the process at relative rank x = me XOR root sends to
 * me XOR b for every power of two b > x, nearest node first.  Otherwise the
 * 1-branch general tree, on the second of the two message IDs reserved.
 */
#include "topo_algs.h"

static int pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

void bi_bcast_hypercube(bi_coll *c)
{
    if (!pow2(c->np)) {
        c->tag += 1;
        c->param = 1;
        bi_bcast_tree(c);
        return;
    }
    int x = c->me ^ c->root;
    if (x) {
        int hb = x;
        while (hb & (hb - 1)) hb &= hb - 1; /* highest bit: my parent differs there */
        bi_recv(c, c->me ^ hb, c->buf, c->count, c->tag);
    }
    for (int b = 1; b < c->np; b <<= 1)
        if (b > x) bi_fwd(c, c->me ^ b, c->buf, c->count, c->tag);
}

/* a power-of-two hypercube is the binomial tree: its model (LAWN 73 4.3.2) */
double bi_model_bcast_hcube(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    return bi_model_bcast_tree(m, np, bytes, 1, root);
}
