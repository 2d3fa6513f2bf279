/*
 * ops.c -- the element operations of the combines: sum, absolute maximum
 * and absolute minimum, one template expanded for the five types
 * acc[i] = acc[i] op in[i].
 *
 * AMX/AMN (as the reference BLACS): the key is |x|, or |Re|+|Im| for complex; A
 * keeps the signed value.  NaN: a key is NaN when x is (for
 * complex: when either part is), and a NaN key WINS both AMX and AMN -- it
 * ranks above +Inf for AMX and below 0 for AMN -- so a NaN anywhere in the
 * scope reaches the result, as IEEE 754-2019's maximum/minimum propagate
 * NaN and as the proposed NaN-aware IxAMAX returns a NaN's index: a pivot
 * search or a norm over a matrix with a NaN must not quietly return a
 * number.  Ties -- equal keys, or several NaN keys -- are broken as
 * before: with owners (RA/CA wanted) the smaller owner key wins (the
 * owner's distance from the destination, or its scope rank for
 * leave-on-all); without owners the larger value in IEEE 754 totalOrder
 * wins, real part first, then imaginary part (3 beats -3, +0 beats -0, a
 * NaN with the sign clear beats one with it set, then by payload).
 * Integers: |x| as an unsigned magnitude, ties to the larger value.
 * Each rule is a strict total order on (key, tie-break) -- equal under it
 * means bitwise equal -- so the operation is commutative and associative:
 * the result and its owner do not depend on the combination order, and
 * every process of a leave-on-all gets the same bits whatever the
 * topology, MPI's reductions (TOP ' ') included.  Plain > and < on keys
 * would not do: with NaN they are no order at all.
 */
#include <math.h>
#include <string.h>
#include "core.h"

/* planted fault 4 (TESTING/planted_faults.sh): AMX keeps the farther owner on a tie */
#if defined(BI_FAULT) && BI_FAULT == 4
#define BI_FAULT4_TIE(mx, ob, oa) ((mx) ? (ob) > (oa) : (ob) < (oa))
#else
#define BI_FAULT4_TIE(mx, ob, oa) ((ob) < (oa))
#endif

/* magnitudes of the integer type without overflow at the most negative value */
typedef unsigned long long bi_umag;
static inline bi_umag imag_(Int x) { return x < 0 ? 0ULL - (bi_umag)x : (bi_umag)x; }

/* IEEE 754 totalOrder as an unsigned integer order: negative values (sign
 * set) reversed below positive ones; integers: sign bit flipped */
static inline uint32_t tord_s(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}
static inline uint64_t tord_d(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u & 0x8000000000000000u) ? ~u : u | 0x8000000000000000u;
}
static inline uint64_t tord_i(Int x) { return (uint64_t)(int64_t)x ^ 0x8000000000000000u; }
#define BI_TORD(x) _Generic((x), float: tord_s, double: tord_d, default: tord_i)(x)
static inline int knan_s(float k) { return isnan(k); }
static inline int knan_d(double k) { return isnan(k); }
static inline int knan_i(bi_umag k) { (void)k; return 0; }
#define BI_KNAN(k) _Generic((k), float: knan_s, double: knan_d, default: knan_i)(k)

/* one expansion per type: C component type, NC components (1 or 2), K key
 * type, KEY(v) the key of value v (array of NC components) */
#define BI_OPS(tl, C, NC, K, KEY)                                                             \
    static inline K key_##tl(const C *v) { return KEY; }                                      \
    /* ties without owners: lexicographic totalOrder over components */                       \
    static inline int vgt_##tl(const C *a, const C *b)                                        \
    {                                                                                          \
        for (int k = 0; k < NC; k++)                                                           \
            if (BI_TORD(a[k]) != BI_TORD(b[k])) return BI_TORD(a[k]) > BI_TORD(b[k]);          \
        return 0;                                                                              \
    }                                                                                          \
    /* > 0 when key kb beats ka, < 0 when ka beats kb, 0 on a tie; NaN beats any number */    \
    static inline int kcmp_##tl(K ka, K kb, int mx)                                           \
    {                                                                                          \
        int na = BI_KNAN(ka), nb = BI_KNAN(kb);                                                \
        if (na || nb) return nb - na;                                                          \
        return mx ? (kb > ka) - (kb < ka) : (kb < ka) - (kb > ka);                             \
    }                                                                                          \
    static void sum_##tl(void *restrict acc, const void *restrict in, size_t n,               \
                         const bi_op *op)                                                      \
    {                                                                                          \
        (void)op;                                                                              \
        C *a = acc; /* acc and in never overlap (MPI's and our combines) */                   \
        const C *b = in;                                                                       \
        size_t i = 0, m = n * NC;                                                              \
        /* four at a time: -O2 makes vector adds of the body (not of a plain loop) */          \
        for (; i + 4 <= m; i += 4) {                                                           \
            a[i] += b[i];                                                                      \
            a[i + 1] += b[i + 1];                                                              \
            a[i + 2] += b[i + 2];                                                              \
            a[i + 3] += b[i + 3];                                                              \
        }                                                                                      \
        for (; i < m; i++) a[i] += b[i];                                                       \
    }                                                                                          \
    /* absolute max or min; items may be unaligned (owner key) */                             \
    static void am_##tl(void *acc, const void *in, size_t n, const bi_op *op)                 \
    {                                                                                          \
        const size_t vs = NC * sizeof(C);                                                      \
        const int mx = op->kind == BI_AMX;                                                     \
        char *pa = acc;                                                                        \
        const char *pb = in;                                                                   \
        for (size_t i = 0; i < n; i++, pa += op->isize, pb += op->isize) {                     \
            C va[NC], vb[NC];                                                                  \
            memcpy(va, pa, vs);                                                                \
            memcpy(vb, pb, vs);                                                                \
            int take = kcmp_##tl(key_##tl(va), key_##tl(vb), mx);                              \
            if (take) take = take > 0;                                                         \
            else if (op->owners) {                                                             \
                const uint32_t oa = bi_okey_get(pa + vs, op->owners),                          \
                               ob = bi_okey_get(pb + vs, op->owners);                          \
                take = BI_FAULT4_TIE(mx, ob, oa);                                              \
            } else take = vgt_##tl(vb, va);                                                    \
            if (take) { /* constant sizes: moves, not a memcpy call */                         \
                memcpy(pa, pb, vs);                                                            \
                if (op->owners == 2) memcpy(pa + vs, pb + vs, 2);                              \
                else if (op->owners) memcpy(pa + vs, pb + vs, 4);                              \
            }                                                                                  \
        }                                                                                      \
    }

BI_OPS(i, Int, 1, bi_umag, imag_(v[0]))
BI_OPS(s, float, 1, float, fabsf(v[0]))
BI_OPS(d, double, 1, double, fabs(v[0]))
BI_OPS(c, float, 2, float, fabsf(v[0]) + fabsf(v[1]))
BI_OPS(z, double, 2, double, fabs(v[0]) + fabs(v[1]))

static void (*const sums[BI_NTYPE])(void *, const void *, size_t, const bi_op *) = {
    sum_i, sum_s, sum_d, sum_c, sum_z};
static void (*const ams[BI_NTYPE])(void *, const void *, size_t, const bi_op *) = {
    am_i, am_s, am_d, am_c, am_z};

/* user-defined combine: the user's op(n, in, inout), Fortran-style.  N is
 * an Int (and MPI's user operations get an int): vectors past the count
 * limit (count.c) go to the user's routines in pieces, which is why OP,
 * INIT and POST are elementwise (README). */
bi_uop bi_cur_uop;
static void user_fn(void *acc, const void *in, size_t n, const bi_op *op)
{
    for (size_t off = 0, k; off < n; off += k) {
        k = bi_count_piece(n - off);
        Int kn = (Int)k; /* by reference: the user may change it */
        ((void (*)(Int *, const void *, void *))op->user->op)(
            &kn, (const char *)in + off * op->isize, (char *)acc + off * op->isize);
    }
}

void bi_uop_apply(bi_ufn f, size_t n, void *x, size_t isize)
{
    for (size_t off = 0, k; off < n; off += k) {
        k = bi_count_piece(n - off);
        Int kn = (Int)k;
        ((void (*)(Int *, void *))f)(&kn, (char *)x + off * isize);
    }
}

void bi_op_setup(bi_op *op, int kind, int type, int owners)
{
    op->kind = kind;
    op->type = type;
    op->owners = kind == BI_AMX || kind == BI_AMN ? owners : 0;
    op->isize = bi_types[type].size + (size_t)op->owners;
    op->fn = kind == BI_SUM ? sums[type] : kind == BI_USER ? user_fn : ams[type];
    op->user = kind == BI_USER ? &bi_cur_uop : NULL;
}
