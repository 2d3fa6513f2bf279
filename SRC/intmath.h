/*
 * intmath.h -- integer helpers the algorithms and their models share
 * (ground: no calls, no state).
 */
#ifndef BI_INTMATH_H
#define BI_INTMATH_H
#include <stddef.h>

static inline int bi_ispow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
/* largest power of two <= n, n >= 1 */
static inline int bi_pow2_floor(int n) { int p = 1; while (2 * p <= n) p *= 2; return p; }
/* floor(log2 n) and ceil(log2 n), n >= 1 */
static inline int bi_log2i(int n) { int d = 0; while ((1 << (d + 1)) <= n) d++; return d; }
static inline int bi_log2c(int n) { int d = 0; while ((1 << d) < n) d++; return d; }
/* n items cut into k blocks as evenly as possible, the first n mod k one
 * item longer: the first item of block b, 0 <= b <= k (block k starts at n) */
static inline size_t bi_block_first(size_t n, size_t k, size_t b)
{
    return b * (n / k) + (b < n % k ? b : n % k);
}
/* n items cut into pieces of q >= 1 items, the last one what is left
 * (none when q divides n and the pieces number n / q + 1): the first item
 * of piece j, 0 <= j <= n / q + 1 (the exchange's and the two-process
 * broadcast's pieces, plan.c) */
static inline size_t bi_piece_first(size_t n, size_t q, size_t j)
{
    return j * q < n ? j * q : n;
}
/* rings or paths that a signed count nr (its sign a direction) gives over
 * np >= 2 processes: |nr|, at least 1 and at most Np-1 */
static inline int bi_npaths(int nr, int np)
{
    if (nr < 0) nr = -nr;
    if (nr > np - 1) nr = np - 1;
    return nr < 1 ? 1 : nr;
}
/* hops of the longest of those paths (the first (np-1) mod |nr| are one
 * longer): ceil((np-1)/|nr|) */
static inline int bi_paths_longest(int nr, int np)
{
    nr = bi_npaths(nr, np);
    return (np - 1 + nr - 1) / nr;
}

#endif
