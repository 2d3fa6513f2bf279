/*
 * comb_bucket.c -- TOP 'B': the bucket (ring) algorithms of van de Geijn's
 * slides and Watts (distributed reduction + collect): a reduce-scatter
 * around the ring leaves block k of the result on relative rank k, then an
 * allgather around the ring (leave-on-all) or a binomial gather of the
 * blocks to the destination (leave-on-one).  Any Np, no folding; blocks
 * differ by at most one item.  Each block is combined in a fixed order along
 * the ring and exists on one process before it is copied: repeatable and
 * coherent by construction.
 */
#include "comb.h"

/* first item of block b of np over n items */
static size_t blo(size_t n, int np, int b) { return bi_block_first(n, (size_t)np, (size_t)b); }

void bi_comb_bucket(bi_coll *c)
{
    const int np = c->np, dest = c->root < 0 ? 0 : c->root;
    const int rel = (c->me - dest + np) % np;
    const int next = (c->me + 1) % np, prev = (c->me - 1 + np) % np;
    const size_t n = c->count, is = c->isize;
    char *const x = c->buf;
#define LO(b) blo(n, np, (((b) % np) + np) % np)
#define LEN(b) (blo(n, np, (((b) % np) + np) % np + 1) - LO(b))

    /* reduce-scatter: at step s send block rel-1-s, receive and combine
     * block rel-2-s; after Np-1 steps block rel is complete here */
    bi_buf *wb = bi_comb_work(c, n / (size_t)np + 1);
    for (int s = 0; s < np - 1; s++) {
        int sb = rel - 1 - s, rb = rel - 2 - s;
        bi_sendrecv(c, next, x + LO(sb) * is, LEN(sb), prev, wb->data, LEN(rb), c->tag);
        c->op->fn(x + LO(rb) * is, wb->data, LEN(rb), c->op);
    }
    bi_buf_release(wb);

    if (c->root < 0) {
        /* allgather: at step s pass on block rel-s, receive block rel-1-s in place */
        for (int s = 0; s < np - 1; s++) {
            int sb = rel - s, rb = rel - 1 - s;
            bi_sendrecv(c, next, x + LO(sb) * is, LEN(sb), prev, x + LO(rb) * is, LEN(rb),
                        c->tag + 1);
        }
        return;
    }
    /* binomial gather of the contiguous blocks [rel, rel+mask) toward rel 0 */
    for (int mask = 1; mask < np; mask <<= 1) {
        if (rel & mask) {
            int hi = rel + mask < np ? rel + mask : np;
            bi_isend(c, (c->me - mask + np) % np, x + LO(rel) * is, blo(n, np, hi) - LO(rel),
                     c->tag + 1);
            break;
        }
        if (rel + mask < np) {
            int from = rel + mask, hi = rel + 2 * mask < np ? rel + 2 * mask : np;
            bi_recv(c, (c->me + mask) % np, x + LO(from) * is, blo(n, np, hi) - LO(from),
                    c->tag + 1);
        }
    }
#undef LO
#undef LEN
}
