/*
 * comb_mring.c -- TOP 'I', 'D', 'S', 'M': the multiring combine proposed in
 * LAWN 73 7.2.4 (while some rings communicate, others combine).  nr rings
 * (+1 'I', -1 'D', 2 'S', BLACS_SET 13 for 'M'; the sign is the
 * direction), |nr| capped at Np-1.  The Np-1 non-destination processes, by
 * distance from the destination, form |nr| consecutive chains of
 * floor((Np-1)/|nr|), the last taking the remainder; each chain passes its
 * partial result inward and its innermost node hands it to the
 * destination.  Leave-on-all: destination 0, then the multipath broadcast
 * of 'M' (bcast_ring.c) with as many paths as rings.
 */
#include <stdlib.h>
#include "comb.h"

/* scope rank at distance t from root in direction dir (data flow) */
static int at(int root, int t, int dir, int np) { return ((root - dir * t) % np + np) % np; }

void bi_comb_mring(bi_coll *c)
{
    const int np = c->np, dest = c->root < 0 ? 0 : c->root;
    const int dir = c->plan.param < 0 ? -1 : 1, a = bi_npaths(c->plan.param, np);
    const int L = (np - 1) / a;
    /* distance toward which data flow: nr > 0 means increasing ranks reach dest */
    const int d = ((dest - c->me) * dir % np + np) % np;
    if (d == 0) {
        /* one message per ring, from its innermost member, nearest ring
         * first (the fixed order when repeatable) */
        int small[64] = {0}, *from = a > 64 ? malloc((size_t)a * sizeof *from) : small;
        for (int k = 0; k < a; k++) from[k] = at(dest, k * L + 1, dir, np);
        bi_comb_recv(c, from, a, c->tag);
        if (from != small) free(from);
    } else {
        int k = (d - 1) / L;
        if (k > a - 1) k = a - 1;
        const int first = k * L + 1, last = k == a - 1 ? np - 1 : (k + 1) * L;
        if (d < last) {
            bi_buf *w = bi_comb_work(c, c->count);
            bi_recv(c, at(dest, d + 1, dir, np), w->data, c->count, c->tag);
            c->op->fn(c->buf, w->data, c->count, c->op);
            bi_buf_release(w);
        }
        bi_isend(c, d == first ? dest : at(dest, d - 1, dir, np), c->buf, c->count, c->tag);
    }
    /* the result goes back in increasing rank order whatever the rings'
     * direction, as the reference does ('D': 0 -> 1 -> 2 ...), into c->buf
     * once the partial result sent from it above has left */
    if (c->root < 0) {
        bi_waitall(c);
        bi_bcast_paths(c, dest, a, c->tag + 1);
    }
}
