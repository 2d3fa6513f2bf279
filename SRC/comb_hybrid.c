/*
 * comb_hybrid.c -- TOP 'Y': LAWN 29 Version 4 with the optimal strategy of
 * Theorem 1 (Note 3): going down the dimensions, halve the vector (Version
 * 3) while n >= 2 alpha / ((d-1)(beta + gamma) + gamma) for the d dimensions
 * left, then treat the piece as a whole vector (Version 2 exchange for
 * combine-to-all, Figure 4; fan-in for combine-to-root, Figure 6).
 * Section 6's short-vector modification: when BLACS_COMB_NSHORT (bytes,
 * default 0 = off) is set and n <= NSHORT 2^d, halve instead until the
 * piece is at most NSHORT bytes, since short messages start faster.
 * alpha, beta, gamma: BLACS_ALPHA, BLACS_BETA, BLACS_GAMMA (machine.c), per
 * byte; every process must see the same values.
 *
 * The whole-vector exchange combines each element on both partners, which
 * is bitwise coherent only on identical arithmetic; with the coherence flag
 * (WHAT 16) a leave-on-all therefore halves all the way (= 'R').
 */
#include <math.h>
#include "comb.h"

double bi_comb_nshort(void)
{
    static double v = -1;
    if (v < 0) {
        v = bi_env_number("BLACS_COMB_NSHORT", 0, 0, HUGE_VAL, 0);
    }
    return v;
}

int bi_comb_hybrid_halvings(const bi_machine *m, int np, double bytes)
{
    const int d = bi_log2i(bi_pow2_floor(np));
    const double a = m->tc.a, b = m->tc.b, g = m->to.b, ns = bi_comb_nshort();
    int h = 0;
    double n = bytes;
    if (ns > 0 && bytes <= ns * (double)(1 << d)) {
        while (h < d && n > ns) n /= 2, h++;
        return h;
    }
    for (int left = d; left > 0; left--) {
        double den = (left - 1) * (b + g) + g;
        if (den > 0 && n < 2 * a / den) break;
        n /= 2;
        h++;
    }
    return h;
}

void bi_comb_hybrid(bi_coll *c)
{
    int h = (c->root < 0 && c->coherent)
                ? -1
                : bi_comb_hybrid_halvings(bi_machine_default(), c->np, (double)(c->count * c->isize));
    bi_comb_rhd_core(c, h);
}

/* LAWN 29 3.4: T(S,n,d) = T(S',n/2,d-1) + 2 alpha + n beta + n/2 gamma for a
 * halving step, T(S',n,d-1) + alpha + n (beta + gamma) for a whole one
 * (Corollary 4 for the optimal S); the fold for other Np as in 'R'. */
double bi_model_comb_hybrid(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    const int p2 = bi_pow2_floor(np), d = bi_log2i(p2), h = bi_comb_hybrid_halvings(m, np, bytes);
    const double a = m->tc.a, b = m->tc.b, g = m->to.b;
    double t = 0, n = bytes;
    for (int j = 0; j < d; j++) {
        if (j < h) t += 2 * a + n * b + n / 2 * g, n /= 2;
        else t += a + n * (b + g);
    }
    double fold = p2 < np ? a + bytes * (b + g) : 0;
    if (root) *root = t + fold;
    return t + fold + (p2 < np ? bi_tc(m, bytes) : 0);
}
