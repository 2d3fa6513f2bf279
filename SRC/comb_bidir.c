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
    /* the partner's data: on the stack when short (a sum of a few doubles
     * on two processes is this exchange, and a buffer's take and release
     * were 46 of the 1,180 instructions it ran outside MPI) */
    _Alignas(16) char st[256];
    bi_buf *w = c->count * c->isize <= sizeof st ? NULL : bi_comb_work(c, c->count);
    char *wd = w ? w->data : st;
    if (me < extra) {
        bi_recv(c, me + p2, wd, c->count, c->tag);
        c->op->fn(c->buf, wd, c->count, c->op);
    }
    for (int b = 1; b < p2; b <<= 1) {
        bi_sendrecv(c, me ^ b, c->buf, c->count, me ^ b, wd, c->count, c->tag);
        c->op->fn(c->buf, wd, c->count, c->op);
    }
    bi_buf_release(w); /* NULL: nothing */
    if (me < extra) bi_isend(c, me + p2, c->buf, c->count, c->tag + 1);
}
