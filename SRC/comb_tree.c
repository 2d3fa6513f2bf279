/*
 * comb_tree.c -- TOP '1'..'9', 'T' and 'F': general tree gather (fan-in,
 * LAWN 73 5.4.1) of radix r = branches + 1 ('F': r = Np, everyone sends
 * straight to the destination), then for leave-on-all the result goes back
 * out from scope rank 0 along a binomial tree (spec 8.3).
 */
#include "comb.h"

void bi_comb_fanin(bi_coll *c, int dest, int radix, int tag)
{
    const int np = c->np;
    const long x = (c->me - dest + np) % np; /* distance from the destination */
    bi_buf *w = NULL;
    for (long i = 1; i < np; i *= radix) {
        long xs = x / i; /* scaled distance at level i; x is a multiple of i here */
        if (xs % radix) {
            /* not a receiver at this level: hand my partial result up and stop */
            bi_isend(c, (int)((dest + (xs - xs % radix) * i) % np), c->buf, c->count, tag);
            break;
        }
        for (long j = 1; j < radix && (xs + j) * i < np; j++) {
            if (!w) w = bi_comb_work(c, c->count);
            /* any source (LAWN 73 5.3.2: no artificial order) unless repeatable,
             * then in fixed order me+i, me+2i, ... (spec 8.3) */
            int from = c->repeat ? (int)((c->me + j * i) % np) : BI_ANY;
            bi_recv(c, from, w->data, c->count, tag);
            c->op->fn(c->buf, w->data, c->count, c->op);
        }
    }
    bi_buf_release(w);
}

void bi_comb_bcast_binomial(bi_coll *c, int root, int tag)
{
    const int np = c->np, x = (c->me - root + np) % np;
    int top = 1;
    while (top < np) top <<= 1;
    for (int h = top >> 1; h >= 1; h >>= 1) {
        if (x % (2 * h) == 0) {
            if (x + h < np) bi_isend(c, (c->me + h) % np, c->buf, c->count, tag);
        } else if (x % (2 * h) == h) {
            bi_waitall(c); /* my partial result may still be on its way up */
            bi_recv(c, (c->me - h + np) % np, c->buf, c->count, tag);
        }
    }
}

void bi_comb_tree(bi_coll *c)
{
    int radix = c->param > 0 ? c->param + 1 : 2;
    if (radix > c->np) radix = c->np; /* 'F' and trees wider than the scope */
    if (radix < 2) radix = 2;
    bi_comb_fanin(c, c->root < 0 ? 0 : c->root, radix, c->tag);
    if (c->root < 0) bi_comb_bcast_binomial(c, 0, c->tag + 1);
}

/* LAWN 73 5.4.1: the destination spends about ceil(log_r Np) levels of
 * (r-1) T_c + T_o (receives serialised, the operation overlapping the next
 * receive); leave-on-all adds the binomial broadcast, ceil(log2 Np) T_c. */
double bi_model_comb_tree(const bi_machine *m, int np, double bytes, int param, double *root)
{
    int r = param > 0 ? param + 1 : 2;
    if (r > np) r = np;
    int levels = 0, lg = 0;
    for (long i = 1; i < np; i *= r > 1 ? r : 2) levels++;
    while ((1 << lg) < np) lg++;
    double one = levels * ((r - 1) * bi_tc(m, bytes) + bi_to(m, bytes));
    if (root) *root = one;
    return one + lg * bi_tc(m, bytes);
}
