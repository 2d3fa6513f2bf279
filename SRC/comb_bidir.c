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

/* my vector to partner peer and its into wd: one message, or the plan's
 * pieces (plan.c, xchg_pieces), all my sends posted before
 * the receives (MPI sends them eagerly; with MPI_Recv a piece longer than
 * its receive is the BLACS error, never MPI's abort in MPI_Wait); the sends
 * are complete on return, so the caller may combine into c->buf */
static void exchange(bi_coll *c, int peer, char *wd)
{
    const size_t k = c->plan.nseg;
    if (k < 2) {
        bi_sendrecv(c, peer, c->buf, c->count, peer, wd, c->count, c->tag);
        return;
    }
    const size_t pi = c->plan.xpiece, n = c->count, sz = pi * c->isize;
    /* piece j: pi items, the last one what is left (none when pi divides) */
#define PIECE(j) (bi_piece_first(n, pi, (j) + 1) - bi_piece_first(n, pi, (j)))
    for (size_t j = 0; j < k; j++) bi_isend(c, peer, c->buf + j * sz, PIECE(j), c->tag);
    for (size_t j = 0; j < k; j++) bi_recv(c, peer, wd + j * sz, PIECE(j), c->tag);
#undef PIECE
    bi_waitall(c);
}

/* plan.halve on two processes (plan.c, xchg_halves): MPICH's long
 * MPI_Allreduce there -- each combines half and sends it back --, so each
 * process combines half the items.  Process 0 combines the first c/2 + 1
 * items, process 1 the others: the two parts never have the same length,
 * so partners that pass different counts fail a receive, whatever each
 * runs (plan.c).  Every item is combined once, so both get the same bits. */
static void halves(bi_coll *c, char *wd)
{
    const size_t lo = c->count / 2 + 1, hi = c->count - lo, sz = c->isize;
    const int peer = 1 - c->me;
    char *const a = c->buf;
    /* mine: [0, lo) on process 0, [lo, count) on process 1 */
    const size_t off = c->me ? lo : 0, n = c->me ? hi : lo, poff = c->me ? 0 : lo, pn = c->count - n;
    bi_isend(c, peer, a + poff * sz, pn, c->tag);
    bi_recv(c, peer, wd, n, c->tag);
    c->op->fn(a + off * sz, wd, n, c->op);
    bi_waitall(c); /* its part, sent from c->buf, is received into below */
    bi_isend(c, peer, a + off * sz, n, c->tag);
    bi_recv(c, peer, a + poff * sz, pn, c->tag);
    bi_waitall(c);
}

void bi_comb_bidir(bi_coll *c)
{
    const int np = c->np, me = c->me, p2 = bi_pow2_floor(np), extra = np - p2;
    if (c->plan.halve > 0) { /* two processes only (plan.c, xchg_halves) */
        bi_buf *w = bi_comb_work(c, c->count / 2 + 1);
        halves(c, w->data);
        bi_buf_release(w);
        return;
    }
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
        exchange(c, me ^ b, wd);
        c->op->fn(c->buf, wd, c->count, c->op);
    }
    bi_buf_release(w); /* NULL: nothing */
    if (me < extra) bi_isend(c, me + p2, c->buf, c->count, c->tag + 1);
}
