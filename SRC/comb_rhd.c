/*
 * comb_rhd.c -- TOP 'R': LAWN 29 Version 3, recursive halving then
 * doubling: combine-to-all (Figure 4 with S = (1,...,1)) and combine-to-root
 * (Figure 6: halving, then the pieces gathered to the root).  Also the
 * engine of the hybrid 'Y' (Version 4), which halves only along the first
 * dimensions and treats the rest as whole vectors.
 *
 * Any Np: ranks are taken relative to the destination (0 for leave-on-all);
 * relative ranks p2.. (p2 the largest power of two <= Np) fold their data
 * into rank - p2 first and, for leave-on-all, get the result back last, as
 * the bidirectional exchange does (LAWN 73 5.4.2).  Every combination has a
 * fixed partner and order, so the result is repeatable; each element of a
 * leave-on-all result is combined on one process and copied, so coherent
 * (except in the whole-vector exchange steps of 'Y', see comb_hybrid.c).
 */
#include "comb.h"

typedef struct { size_t lo, hi; } seg_t;

void bi_comb_rhd_core(bi_coll *c, int halve)
{
    const int np = c->np, dest = c->root < 0 ? 0 : c->root, all = c->root < 0;
    const int rel = (c->me - dest + np) % np;
    const int p2 = bi_pow2_floor(np), d = bi_log2i(p2), extra = np - p2;
#define ABS(r) (((r) + dest) % np)
    const size_t is = c->isize;
    char *const x = c->buf;
    if (halve < 0 || halve > d) halve = d;

    if (rel >= p2) { /* folded in, and out again for leave-on-all */
        bi_isend(c, ABS(rel - p2), x, c->count, c->tag);
        if (all) {
            bi_waitall(c);
            bi_recv(c, ABS(rel - p2), x, c->count, c->tag + 1);
        }
        return;
    }
    bi_buf *wb = bi_comb_work(c, rel < extra || halve == 0 ? c->count : (c->count + 1) / 2);
    char *const w = wb->data;
    if (rel < extra) {
        bi_recv(c, ABS(rel + p2), w, c->count, c->tag);
        c->op->fn(x, w, c->count, c->op);
    }

    /* halving: at step j (mask p2 >> j) keep the half my bit selects, send the
     * other half to the partner and combine its copy of mine */
    seg_t seg[32];
    seg[0] = (seg_t){0, c->count};
    for (int j = 1; j <= halve; j++) {
        const int mask = p2 >> j, partner = rel ^ mask;
        const size_t lo = seg[j - 1].lo, hi = seg[j - 1].hi, mid = lo + (hi - lo) / 2;
        seg_t keep = (rel & mask) ? (seg_t){mid, hi} : (seg_t){lo, mid};
        seg_t give = (rel & mask) ? (seg_t){lo, mid} : (seg_t){mid, hi};
        bi_sendrecv(c, ABS(partner), x + give.lo * is, give.hi - give.lo, ABS(partner), w,
                    keep.hi - keep.lo, c->tag);
        c->op->fn(x + keep.lo * is, w, keep.hi - keep.lo, c->op);
        seg[j] = keep;
    }

    /* the remaining dimensions on the whole piece seg[halve] */
    const size_t lo = seg[halve].lo, n = seg[halve].hi - lo;
    int alive = 1;
    for (int mask = p2 >> (halve + 1); mask >= 1; mask >>= 1) {
        const int partner = rel ^ mask;
        if (all) { /* Version 2: exchange and combine */
            bi_sendrecv(c, ABS(partner), x + lo * is, n, ABS(partner), w, n, c->tag);
            c->op->fn(x + lo * is, w, n, c->op);
        } else if (rel & mask) { /* Figure 6 short case: fan in toward rank 0 */
            bi_isend(c, ABS(partner), x + lo * is, n, c->tag);
            alive = 0;
            break;
        } else {
            bi_recv(c, ABS(partner), w, n, c->tag);
            c->op->fn(x + lo * is, w, n, c->op);
        }
    }
    bi_buf_release(wb);

    /* doubling (leave-on-all) or gathering to rank 0 (leave-on-one): undo
     * the halving steps in reverse, the partner's piece lands in place */
    for (int j = halve; j >= 1 && alive; j--) {
        const int mask = p2 >> j, partner = rel ^ mask;
        const seg_t mine = seg[j];
        const seg_t other = (rel & mask) ? (seg_t){seg[j - 1].lo, mine.lo}
                                         : (seg_t){mine.hi, seg[j - 1].hi};
        if (all) {
            bi_sendrecv(c, ABS(partner), x + mine.lo * is, mine.hi - mine.lo, ABS(partner),
                        x + other.lo * is, other.hi - other.lo, c->tag + 1);
        } else if (rel & mask) {
            bi_isend(c, ABS(partner), x + mine.lo * is, mine.hi - mine.lo, c->tag + 1);
            alive = 0;
        } else {
            bi_recv(c, ABS(partner), x + other.lo * is, other.hi - other.lo, c->tag + 1);
        }
    }
    if (all && rel < extra) bi_isend(c, ABS(rel + p2), x, c->count, c->tag + 1);
#undef ABS
}

void bi_comb_rhd(bi_coll *c) { bi_comb_rhd_core(c, -1); }
