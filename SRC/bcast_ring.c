/*
 * bcast_ring.c -- the ring family of LAWN 73 4.3.1: increasing 'I' and
 * decreasing 'D' rings, split ring 'S', multiring 'M' and fully connected
 * 'F'.  I, D, M and F are one algorithm, the multipath broadcast: the Np-1
 * non-root processes, ordered by distance from the root in the ring
 * direction, are cut into |nr| consecutive paths, the first (Np-1) mod |nr|
 * one longer; the root sends to the head of each path, nearest path first,
 * and every node forwards to its successor on the path.  'I' is one path
 * in increasing rank order, 'D' one in decreasing order, 'F' Np-1 paths of
 * one process each.
 */
#include "topo_algs.h"

/* scope rank at distance d from root in direction dir (+1 / -1) */
static int at(int np, int root, int dir, int d) { return ((root + dir * d) % np + np) % np; }

void bi_bcast_paths(bi_coll *c, int root, int nr, int tag)
{
    const int np = c->np, dir = nr < 0 ? -1 : 1, n = np - 1;
    nr = bi_npaths(nr, np);
    const int len = n / nr, nlong = n % nr;
    if (c->me == root) { /* path p: indices from p*len + min(p,nlong), nearest path first */
        for (int p = 0; p < nr; p++) {
            int head = (int)bi_block_first((size_t)n, (size_t)nr, (size_t)p);
            bi_isend(c, at(np, root, dir, 1 + head), c->buf, c->count, tag);
        }
        return;
    }
    int k = (dir * (c->me - root) % np + np) % np - 1; /* my index, 0..np-2 */
    int head, plen;
    if (k < nlong * (len + 1)) {
        head = k - k % (len + 1);
        plen = len + 1;
    } else {
        head = k - (k - nlong * (len + 1)) % len;
        plen = len;
    }
    bi_recv(c, k == head ? root : at(np, root, dir, k), c->buf, c->count, tag);
    if (k + 1 < head + plen) bi_isend(c, at(np, root, dir, k + 2), c->buf, c->count, tag);
}

void bi_bcast_iring(bi_coll *c) { bi_bcast_paths(c, c->root, 1, c->tag); }
void bi_bcast_dring(bi_coll *c) { bi_bcast_paths(c, c->root, -1, c->tag); }
void bi_bcast_mring(bi_coll *c) { bi_bcast_paths(c, c->root, c->plan.param, c->tag); }
void bi_bcast_fully(bi_coll *c) { bi_bcast_paths(c, c->root, c->np - 1, c->tag); }

/* split ring: root sends up, then (Np > 2) down; with half = floor(Np/2) a
 * process at distance d < half forwards up, d > half+1 forwards down. */
void bi_bcast_sring(bi_coll *c)
{
    const int np = c->np, half = np / 2, r = c->root;
    if (c->me == r) {
        bi_isend(c, at(np, r, 1, 1), c->buf, c->count, c->tag);
        if (np > 2) bi_isend(c, at(np, r, -1, 1), c->buf, c->count, c->tag);
        return;
    }
    int d = (c->me - r + np) % np;
    bi_recv(c, at(np, r, 1, d <= half ? d - 1 : d + 1), c->buf, c->count, c->tag);
    if (d < half) bi_isend(c, at(np, r, 1, d + 1), c->buf, c->count, c->tag);
    else if (d > half + 1) bi_isend(c, at(np, r, 1, d - 1), c->buf, c->count, c->tag);
}
