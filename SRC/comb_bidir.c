/*
 * comb_bidir.c -- TOP 'H': bidirectional exchange (LAWN 73 5.4.2, LAWN 29
 * Version 2) for leave-on-all without the coherence flag; other 'H'
 * combines are the radix-2 tree (the plan, plan.c, runs it):
 * a leave-on-one needs no exchange, and the exchange combines each element
 * on both partners, bitwise coherent only on identical arithmetic.  Np not
 * a power of two: with p2 the largest power of two <= Np, ranks p2.. first
 * fold their data into rank - p2, the p2 ranks exchange with me XOR 1, 2,
 * 4, ..., and the result goes back out to the folded ranks.
 */
#include "comb.h"

void bi_comb_bidir(bi_coll *c)
{
    const int np = c->np, me = c->me, p2 = bi_pow2_floor(np), extra = np - p2;
    if (me >= p2) {
        bi_isend(c, me - p2, c->buf, c->count, c->tag);
        bi_waitall(c);
        bi_recv(c, me - p2, c->buf, c->count, c->tag + 1);
        return;
    }
    bi_buf *w = bi_comb_work(c, c->count);
    if (me < extra) {
        bi_recv(c, me + p2, w->data, c->count, c->tag);
        c->op->fn(c->buf, w->data, c->count, c->op);
    }
    for (int b = 1; b < p2; b <<= 1) {
        bi_sendrecv(c, me ^ b, c->buf, c->count, me ^ b, w->data, c->count, c->tag);
        c->op->fn(c->buf, w->data, c->count, c->op);
    }
    bi_buf_release(w);
    if (me < extra) bi_isend(c, me + p2, c->buf, c->count, c->tag + 1);
}
