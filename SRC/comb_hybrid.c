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
#include "comb.h"

void bi_comb_hybrid(bi_coll *c) { bi_comb_rhd_core(c, c->plan.halve); }
