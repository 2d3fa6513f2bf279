/*
 * bcast_hypercube.c -- TOP 'H' (LAWN 73 4.3.2, after van de Geijn) on a
 * power-of-two scope: the process at relative rank x = me XOR root sends to
 * me XOR b for every power of two b > x, nearest node first.  On other
 * scopes 'H' is the 1-branch general tree (the plan, plan.c,
 * runs it instead).
 */
#include "topo_algs.h"

void bi_bcast_hypercube(bi_coll *c)
{
    int x = c->me ^ c->root;
    if (x) /* my parent differs in my highest bit; I pass on to me XOR b, b > x */
        bi_recv_vector(c, c->me ^ bi_pow2_floor(x), c->tag, 2 * bi_pow2_floor(x) >= c->np);
    for (int b = 1; b < c->np; b <<= 1)
        if (b > x) bi_fwd(c, c->me ^ b, c->buf, c->count, c->tag);
}
