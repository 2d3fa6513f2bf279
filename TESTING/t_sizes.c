/*
 * t_sizes.c MODE -- messages and shapes past 2^31 ("Sizes").
 *
 *   types      (1 process) the size arithmetic, without allocating such
 *              memory: element counts of GE/TR shapes with M*N >= 2^31 and
 *              trapezoids whose offsets pass 2^31, and the MPI datatypes
 *              made for them (MPI_Type_size_x, true extents); the
 *              large-count types compared with bi_pack/bi_unpack byte for
 *              byte on small shapes with the count limit lowered.
 *   big        (2 processes) one message of 2^28+1000 doubles (> 2^31
 *              bytes) by DGESD2D/DGERV2D, DGEBS2D/DGEBR2D and DGSUM2D, with
 *              the count limit as it is and lowered to 2^26 (derived
 *              datatypes, reductions in pieces), every element checked.
 *              About 6.5 GB in all at the peak.
 *   grid P Q   Cblacs_gridinit of a P x Q grid: must stop with "Illegal grid"
 *   gridmap P Q  the same through Cblacs_gridmap
 *   span       a shape whose (N-1)*LDA+M elements cannot be addressed (the
 *              product overflows 64 bits in bytes)
 * The error modes return 0 if the call returns, so their tests fail then.
 */
#define _DEFAULT_SOURCE /* madvise */
#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>
#include "tutil.h"
#include "core.h" /* bi_bcast_datatype */

/* ---- types ---------------------------------------------------------------- */

static bi_shape shape(int type, int tr, char uplo, char diag, Int m, Int n, Int lda)
{
    bi_shape s = {type, tr, uplo == 'U', diag == 'U', m, n, lda > m ? lda : (m > 0 ? m : 1)};
    return s;
}

/* first and one past the last element of the shape, in elements from A:
 * the first and last non-empty columns (a trapezoid has at most one empty
 * column at either end, so both loops are short) */
static void span_of(const bi_shape *s, size_t *first, size_t *end)
{
    Int lo, hi, j = 0, k = s->n - 1;
    *first = *end = 0;
    for (; j < s->n; j++) {
        bi_shape_rows(s, j, &lo, &hi);
        if (hi > lo) break;
    }
    if (j == s->n) return;
    *first = (size_t)j * (size_t)s->lda + (size_t)lo;
    for (; k >= j; k--) {
        bi_shape_rows(s, k, &lo, &hi);
        if (hi > lo) break;
    }
    *end = (size_t)k * (size_t)s->lda + (size_t)hi;
}

/* the type of a shape has the shape's count of elements and its span */
static void check_type(const bi_shape *s, size_t count, const char *what)
{
    size_t es = bi_types[s->type].size, first, end;
    TU_CHECK(bi_shape_count(s) == count, "%s: count %zu, expected %zu", what, bi_shape_count(s),
             count);
    span_of(s, &first, &end);
    MPI_Datatype t = bi_shape_mpitype(s);
    MPI_Count size, lb, ext;
    MPI_Type_size_x(t, &size);
    TU_CHECK(size == (MPI_Count)(count * es), "%s: type size %lld, expected %zu", what,
             (long long)size, count * es);
    MPI_Type_get_true_extent_x(t, &lb, &ext);
    TU_CHECK(lb == (MPI_Count)(first * es) && ext == (MPI_Count)((end - first) * es),
             "%s: true lb %lld extent %lld, expected %zu %zu", what, (long long)lb,
             (long long)ext, first * es, (end - first) * es);
    MPI_Type_free(&t);
}

/* n items of el: (n, el) within the limit, else one type of exactly n items */
static void check_count(size_t n, MPI_Datatype el, size_t es, const char *what)
{
    bi_mpicount k = bi_mpicount_of(n, el);
    if (bi_count_piece(n) == n) {
        TU_CHECK(k.n == (int)n && k.dt == el && !k.made, "%s: %zu items not passed as they are",
                 what, n);
    } else {
        MPI_Count size, lb, ext;
        TU_CHECK(k.n == 1 && k.made, "%s: %zu items: count %d", what, n, k.n);
        MPI_Type_size_x(k.dt, &size);
        MPI_Type_get_true_extent_x(k.dt, &lb, &ext);
        TU_CHECK(size == (MPI_Count)(n * es) && lb == 0 && ext == (MPI_Count)(n * es),
                 "%s: %zu items: size %lld lb %lld extent %lld", what, n, (long long)size,
                 (long long)lb, (long long)ext);
    }
    bi_mpicount_free(&k);
}

/* one message to myself: sent as (scount, st) from sp, received as
 * (rcount, rt) into rp; returns the elements received */
static int self_msg(const void *sp, int scount, MPI_Datatype st, void *rp, int rcount,
                    MPI_Datatype rt, MPI_Datatype el)
{
    MPI_Status stat;
    int got = -1;
    MPI_Sendrecv(sp, scount, st, 0, 7, rp, rcount, rt, 0, 7, MPI_COMM_SELF, &stat);
    MPI_Get_count(&stat, el, &got);
    return got;
}

/* the type of a small shape moves exactly what bi_pack/bi_unpack move, and
 * so does the run of its items (what senders use); checked with real
 * messages (MPI_Pack is wrong in MPICH 4.0.2 once about 1000 datatypes
 * have existed at once, which the limit-2 cases below reach) */
static void check_pack(const bi_shape *s, const char *what)
{
    size_t es = bi_types[s->type].size, n = bi_shape_count(s);
    size_t span = s->n > 0 ? (size_t)s->lda * (size_t)s->n : 1, nb = span * es;
    MPI_Datatype el = bi_mpitype(s->type), t = bi_shape_mpitype(s);
    unsigned char *a = malloc(nb), *ref = malloc(n * es + 1), *got = malloc(n * es + 1);
    unsigned char *u1 = malloc(nb), *u2 = malloc(nb);
    for (size_t i = 0; i < nb; i++) a[i] = (unsigned char)(i * 131 + 7);
    bi_pack(s, a, ref);
    memset(got, 0xee, n * es + 1);
    int k1 = self_msg(a, 1, t, got, (int)n, el, el);
    TU_CHECK(k1 == (int)n && memcmp(ref, got, n * es) == 0, "%s: shape type sent %d items, differs",
             what, k1);
    memset(u1, 0xee, nb);
    memset(u2, 0xee, nb);
    bi_unpack(s, ref, u1);
    bi_mpicount k = bi_mpicount_of(n, el);
    int k2 = self_msg(ref, k.n, k.dt, u2, 1, t, el);
    TU_CHECK(k2 == (int)n && memcmp(u1, u2, nb) == 0,
             "%s: run of %zu items received by the shape type differs (%d)", what, n, k2);
    memset(got, 0xee, n * es + 1);
    int k3 = self_msg(ref, k.n, k.dt, got, (int)n, el, el);
    TU_CHECK(k3 == (int)n && memcmp(ref, got, n * es) == 0, "%s: run of %zu items differs (%d)",
             what, n, k3);
    bi_mpicount_free(&k);
    MPI_Type_free(&t);
    free(a);
    free(ref);
    free(got);
    free(u1);
    free(u2);
}

/* a trapezoid's count (closed form in shape.c) is the sum of its columns'
 * rows, for every small shape and a few huge ones (columns sampled at the
 * ends, the rest by the rows' pattern: whole or growing by one) */
static void check_tr_counts(void)
{
    for (int up = 0; up < 2; up++)
        for (int unit = 0; unit < 2; unit++)
            for (Int m = 0; m < 24; m++)
                for (Int n = 0; n < 24; n++) {
                    bi_shape s = {BI_D, 1, up, unit, m, n, m > 0 ? m : 1};
                    size_t t = 0;
                    for (Int j = 0; j < n; j++) {
                        Int lo, hi;
                        bi_shape_rows(&s, j, &lo, &hi);
                        t += hi > lo ? (size_t)(hi - lo) : 0;
                    }
                    TU_CHECK(bi_shape_count(&s) == t, "TR %c%c %ldx%ld: count %zu, columns %zu",
                             up ? 'U' : 'L', unit ? 'U' : 'N', (long)m, (long)n,
                             bi_shape_count(&s), t);
                }
    /* N = the largest 32-bit Int: column j + 1 must not overflow (LP64) */
    const size_t X = (size_t)INT32_MAX, M = 1000;
    const struct { int up, unit; Int m, n; size_t want; } big[] = {
        {1, 0, (Int)M, (Int)X, M * (M + 1) / 2 + (X - M) * M},     /* min(j+1, M) */
        {1, 1, (Int)M, (Int)X, M * (M + 1) / 2 + (X - 1 - M) * M}, /* min(j, M) */
        {0, 0, (Int)X, (Int)X, X * (X + 1) / 2},                   /* M - j */
        {0, 1, (Int)X, (Int)X, X * (X - 1) / 2},                   /* M - j - 1 */
    };
    for (size_t k = 0; k < sizeof big / sizeof *big; k++) {
        bi_shape s = {BI_D, 1, big[k].up, big[k].unit, big[k].m, big[k].n, big[k].m};
        TU_CHECK(bi_shape_count(&s) == big[k].want, "TR %c%c %ldx%ld: %zu, expected %zu",
                 big[k].up ? 'U' : 'L', big[k].unit ? 'U' : 'N', (long)big[k].m,
                 (long)big[k].n, bi_shape_count(&s), big[k].want);
    }
    /* 2^31 x 2^31 lower, non-unit: M(M+1)/2 */
    const Int B = (Int)(sizeof(Int) == 8 ? (int64_t)1 << 31 : 1);
    if (sizeof(Int) == 8) {
        bi_shape s = {BI_D, 1, 0, 0, B, B, B};
        size_t want = ((size_t)B * ((size_t)B + 1)) / 2;
        TU_CHECK(bi_shape_count(&s) == want, "TR L 2^31 x 2^31: %zu, expected %zu",
                 bi_shape_count(&s), want);
    }
}

static int run_types(void)
{
    const size_t G = (size_t)1 << 31;
    char what[160];
    bi_count_limit = (size_t)INT32_MAX;
    check_tr_counts();

    /* counts: INT_MAX items go as they are; one more needs a type */
    check_count((size_t)INT32_MAX, MPI_DOUBLE, 8, "INT_MAX doubles");
    check_count(G, MPI_DOUBLE, 8, "2^31 doubles");
    check_count(3 * G + 12345, MPI_DOUBLE, 8, "3*2^31+12345 doubles");
    check_count(4 * G + 7, MPI_C_DOUBLE_COMPLEX, 16, "2^33+7 complex");
    MPI_Datatype item; /* a combine item with its owner key: 12 bytes */
    MPI_Type_contiguous(12, MPI_BYTE, &item);
    MPI_Type_commit(&item);
    check_count(G + 1, item, 12, "2^31+1 owner items");
    TU_CHECK(bi_count_piece(4 * G) == (size_t)INT32_MAX && bi_count_piece(5) == 5,
             "pieces of a reduction: %zu", bi_count_piece(4 * G));

    /* GE shapes with M*N >= 2^31 and byte offsets far past 2^31 */
    bi_shape s = shape(BI_D, 0, 0, 0, 50000, 50000, 50000);
    TU_CHECK(bi_shape_contig(&s), "50000^2 with LDA=M is one block");
    check_type(&s, 2500000000u, "GE 50000x50000 LDA 50000");
    s = shape(BI_D, 0, 0, 0, 50000, 50000, 50003);
    TU_CHECK(!bi_shape_contig(&s), "LDA > M is not one block");
    check_type(&s, 2500000000u, "GE 50000x50000 LDA 50003");
    s = shape(BI_Z, 0, 0, 0, 3, 1000000000, 5);
    check_type(&s, 3000000000u, "GE Z 3x10^9 LDA 5");
    s = shape(BI_I, 0, 0, 0, 1000, 3000000, 1000);
    check_type(&s, 3000000000u, "GE I 1000x3*10^6");
    s = shape(BI_S, 0, 0, 0, 7, 400000000, 2000000000);
    check_type(&s, 2800000000u, "GE S 7x4*10^8 LDA 2*10^9 (offsets past 2^60 bytes)");

    /* trapezoids: offsets past 2^31 elements, counts past 2^31 */
    s = shape(BI_D, 1, 'U', 'N', 3000, 1000, 3000000);
    check_type(&s, 1000u * 2000u + 1000u * 1001u / 2, "TR U N 3000x1000 LDA 3*10^6");
    s = shape(BI_D, 1, 'L', 'U', 1000, 3000, 1000000);
    check_type(&s, 2000u * 1000u + 999u * 1000u / 2, "TR L U 1000x3000 LDA 10^6");
    s = shape(BI_C, 1, 'U', 'N', 70000, 70000, 70001);
    check_type(&s, (size_t)70000 * 70001 / 2, "TR U N 70000^2 (count > 2^31)");
    s = shape(BI_D, 1, 'L', 'N', 70000, 70000, 70000);
    check_type(&s, (size_t)70000 * 70001 / 2, "TR L N 70000^2");
    s = shape(BI_D, 1, 'U', 'U', 4, 900000000, 4);
    check_type(&s, (size_t)900000000 * 4 - 10, "TR U U 4x9*10^8 (whole-column run)");
    s = shape(BI_D, 1, 'L', 'U', 4, 900000000, 6);
    check_type(&s, (size_t)(900000000 - 4) * 4 + 6, "TR L U 4x9*10^8 LDA 6");

    if (sizeof(Int) >= 8) { /* M or N past INT_MAX: only 64-bit BLACS integers */
        s = shape(BI_D, 0, 0, 0, (Int)(G + 5), 3, (Int)(G + 9));
        check_type(&s, 3 * (G + 5), "GE column of 2^31+5");
        s = shape(BI_D, 0, 0, 0, 3, (Int)(G + 5), 4);
        check_type(&s, 3 * (G + 5), "GE 2^31+5 columns");
        s = shape(BI_D, 1, 'L', 'N', (Int)(G + 5), 3, (Int)(G + 5));
        check_type(&s, 3 * (G + 5) - 3, "TR L N columns of 2^31+5");
        s = shape(BI_D, 1, 'U', 'N', 2, (Int)(2 * G), 2);
        check_type(&s, 4 * G - 1, "TR U N 2^32 columns");
    }

    /* the large-count code on small data: limits 2..64, compared with
     * bi_pack/bi_unpack; also the big shapes above with a small limit */
    static const size_t limits[] = {2, 3, 5, 7, 64, 0};
    static const Int ge[][3] = {{1, 1, 1}, {7, 5, 7}, {7, 5, 9}, {13, 3, 20}, {1, 17, 3},
                                {40, 2, 41}, {100, 1, 100}, {9, 9, 9}};
    static const Int tr[][2] = {{5, 9}, {9, 5}, {6, 6}, {1, 4}, {4, 1}, {20, 3}, {3, 20}, {17, 17}};
    static const int types[] = {BI_I, BI_D, BI_Z};
    for (int l = 0; limits[l]; l++) {
        bi_count_limit = limits[l];
        for (int t = 0; t < 3; t++) {
            for (size_t g = 0; g < sizeof ge / sizeof ge[0]; g++) {
                s = shape(types[t], 0, 0, 0, ge[g][0], ge[g][1], ge[g][2]);
                snprintf(what, sizeof what, "limit %zu type %d GE %ldx%ld LDA %ld", limits[l],
                         types[t], (long)ge[g][0], (long)ge[g][1], (long)ge[g][2]);
                check_pack(&s, what);
            }
            for (size_t g = 0; g < sizeof tr / sizeof tr[0]; g++)
                for (int u = 0; u < 4; u++) {
                    char uplo = u & 1 ? 'L' : 'U', diag = u & 2 ? 'U' : 'N';
                    s = shape(types[t], 1, uplo, diag, tr[g][0], tr[g][1], tr[g][0] + 2);
                    snprintf(what, sizeof what, "limit %zu type %d TR %c%c %ldx%ld", limits[l],
                             types[t], uplo, diag, (long)tr[g][0], (long)tr[g][1]);
                    check_pack(&s, what);
                }
        }
        static const size_t runs[] = {0, 1, 2, 3, 7, 8, 9, 100, 1000, 4097};
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
            snprintf(what, sizeof what, "limit %zu run", limits[l]);
            check_count(runs[r], MPI_DOUBLE, 8, what);
            check_count(runs[r], item, 12, what);
        }
        s = shape(BI_D, 0, 0, 0, 50000, 50000, 50003);
        snprintf(what, sizeof what, "limit %zu GE 50000^2 LDA 50003", limits[l]);
        check_type(&s, 2500000000u, what);
        s = shape(BI_D, 1, 'L', 'U', 1000, 3000, 1000000);
        snprintf(what, sizeof what, "limit %zu TR L U 1000x3000", limits[l]);
        check_type(&s, 2000u * 1000u + 999u * 1000u / 2, what);
        snprintf(what, sizeof what, "limit %zu", limits[l]);
        check_count(3 * G + 12345, MPI_DOUBLE, 8, what);
        TU_CHECK(bi_count_piece(1000) == (limits[l] < 1000 ? limits[l] : 1000),
                 "limit %zu: piece %zu", limits[l], bi_count_piece(1000));
    }
    MPI_Type_free(&item);
    bi_count_limit = 0;
    return tu_finish();
}

/* ---- big: one message of more than 2^31 bytes between 2 processes ------- */

static double pat(int seed, size_t i)
{
    return (double)(((uint64_t)i * 2654435761u + (uint64_t)seed * 40503u) % 1000003u);
}

static void fill(double *a, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++) a[i] = pat(seed, i);
}

/* items [0,n) laid out in columns of m with LDA ld hold mul * pat(seed, item) */
static long bad_elems(const double *a, size_t n, size_t m, size_t ld, int seed, double mul)
{
    long bad = 0;
    for (size_t j = 0, i = 0; i < n; j++) {
        const double *col = a + j * ld;
        size_t rows = n - i < m ? n - i : m;
        for (size_t r = 0; r < rows; r++, i++) {
            double v = col[r], want = mul * pat(seed, i);
            if (v != want) {
                if (bad < 3)
                    fprintf(stderr, "[rank %d] item %zu: %g, expected %g\n", tu_rank, i, v, want);
                bad++;
            }
        }
    }
    return bad;
}

/* TU_VERBOSE=1: the time of each step */
static void step(const char *what)
{
    static double t0;
    double t = MPI_Wtime();
    if (tu_verbose && t0 > 0) fprintf(stderr, "[rank %d] %-28s %6.2f s\n", tu_rank, what, t - t0);
    t0 = t;
}

/* 2 GB of fresh memory costs seconds of page faults on a loaded machine:
 * huge pages where the kernel offers them */
static double *big_alloc(size_t n)
{
    size_t align = (size_t)2 << 20, nb = (n * sizeof(double) + align - 1) / align * align;
    double *a = aligned_alloc(align, nb);
    if (!a) {
        fprintf(stderr, "[rank %d] cannot allocate %zu bytes\n", tu_rank, nb);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
#ifdef MADV_HUGEPAGE
    madvise(a, nb, MADV_HUGEPAGE);
#endif
    return a;
}

static void fill_const(double *a, size_t n, double v)
{
    for (size_t i = 0; i < n; i++) a[i] = v;
}

static int run_big(void)
{
    const size_t N = ((size_t)1 << 28) + 1000, M = N / 2, LD = M + 3, G = 4;
    const size_t plain = (size_t)INT_MAX, small = (size_t)1 << 26;
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    if (ctxt < 0) return tu_finish();
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    /* N items, or 2 columns of M with LDA M+3 (N+3 elements); guards after */
    size_t total = 2 * LD + G;
    double *a = big_alloc(total);
    fill_const(a + 2 * LD, G, -7); /* never written by anyone */
    const blacs_int n = (blacs_int)N, m = (blacs_int)M, ld = (blacs_int)LD;
    long bad;
#define GUARDS_OK() (a[2 * LD] == -7 && a[total - 1] == -7)
#define GAPS_OK() (a[M] == -7 && a[M + 2] == -7 && a[2 * LD - 3] == -7 && a[2 * LD - 1] == -7)

    step("start");
    /* 1: p2p, an int count of items (> 2^31 bytes) */
    bi_count_limit = plain;
    if (c == 0) {
        fill(a, N, 1);
        Cdgesd2d(ctxt, n, 1, a, n, 0, 1);
    } else {
        fill_const(a, 2 * LD, 0);
        Cdgerv2d(ctxt, n, 1, a, n, 0, 0);
        bad = bad_elems(a, N, N, N, 1, 1.0);
        TU_CHECK(bad == 0, "p2p of %zu doubles: %ld wrong", N, bad);
        TU_CHECK(GUARDS_OK() && a[N] == 0 && a[N + 2] == 0, "p2p wrote past the message");
    }
    /* the send is over once 1 has it: 0's 2 GB buffer is reused from now on */
    Cblacs_barrier(ctxt, "A");

    step("p2p");
    /* 2: the same with the limit at 2^26: derived types on both sides; the
     * receiver lands it in two columns of 2^27+500 with LDA = M+3 */
    bi_count_limit = small;
    if (c == 0) {
        Cdgesd2d(ctxt, n, 1, a, n, 0, 1);
    } else {
        fill_const(a, 2 * LD, -7);
        Cdgerv2d(ctxt, m, 2, a, ld, 0, 0);
        bad = bad_elems(a, N, M, LD, 1, 1.0);
        TU_CHECK(bad == 0, "p2p into 2 columns of %zu, limit 2^26: %ld wrong", M, bad);
        TU_CHECK(GAPS_OK() && GUARDS_OK(), "p2p into columns wrote into the LDA gap or past the end");
    }
    Cblacs_barrier(ctxt, "A");

    step("p2p into columns");
    /* 3: broadcast, TOP ' ' (MPI_Bcast), an int count; 0 sends its N items */
    bi_count_limit = plain;
    if (c == 0) {
        Cdgebs2d(ctxt, "A", " ", n, 1, a, n);
    } else {
        fill_const(a, 2 * LD, 0);
        Cdgebr2d(ctxt, "A", " ", n, 1, a, n, 0, 0);
        bad = bad_elems(a, N, N, N, 1, 1.0);
        TU_CHECK(bad == 0, "broadcast ' ' of %zu doubles: %ld wrong", N, bad);
        TU_CHECK(GUARDS_OK() && a[N] == 0, "broadcast ' ' wrote past the message");
    }

    step("broadcast ' '");
    /* 4: broadcast back, TOP '1' (tree over transport.c), limit 2^26; 0
     * receives into two columns (through its BLACS buffer) */
    /* 4b: the same with TOP ' ' (packed under MPICH); 4c: then 0 sends its
     * two columns in place, through the shape's datatype (runs of 2^26
     * under this limit), and 1 receives N items.  (Receiving in place
     * works too, but MPICH 4.0.2 takes over a minute for it.) */
    bi_count_limit = small;
    for (int k = 0; k < 2; k++) {
        char top[2] = {k ? ' ' : '1', 0};
        if (c == 1) {
            Cdgebs2d(ctxt, "A", top, n, 1, a, n);
        } else {
            fill_const(a, 2 * LD, -7);
            Cdgebr2d(ctxt, "A", top, m, 2, a, ld, 0, 1);
            bad = bad_elems(a, N, M, LD, 1, 1.0);
            TU_CHECK(bad == 0, "broadcast '%s' into 2 columns, limit 2^26: %ld wrong", top, bad);
            TU_CHECK(GAPS_OK() && GUARDS_OK(), "broadcast '%s' wrote into the LDA gap or past the end",
                     top);
            if (!k) {
                Cblacs_freebuff(ctxt, 1);
                fill(a, N, 1);
            }
        }
        step(k ? "broadcast ' ' into columns" : "broadcast '1'");
    }
    bi_bcast_datatype = 1;
    if (c == 0) {
        Cdgebs2d(ctxt, "A", " ", m, 2, a, ld);
        fill(a, N, 1);
    } else {
        fill_const(a, 2 * LD, 0);
        Cdgebr2d(ctxt, "A", " ", n, 1, a, n, 0, 0);
        bad = bad_elems(a, N, N, N, 1, 1.0);
        TU_CHECK(bad == 0, "broadcast ' ' from 2 columns, limit 2^26: %ld wrong", bad);
        TU_CHECK(GUARDS_OK() && a[N] == 0, "broadcast ' ' from columns wrote past the message");
    }

    bi_bcast_datatype = -1;
    step("broadcast ' ' from columns");
    /* 5: sum to all, TOP ' ' (MPI_Allreduce in pieces of 2^26) */
    Cdgsum2d(ctxt, "A", " ", n, 1, a, n, -1, -1);
    bad = bad_elems(a, N, N, N, 1, 2.0);
    TU_CHECK(bad == 0, "sum of %zu doubles in pieces of 2^26: %ld wrong", N, bad);
    TU_CHECK(GUARDS_OK(), "sum wrote past the vector");

    step("sum");
    bi_count_limit = 0;
    free(a);
    Cblacs_gridexit(ctxt);
    return tu_finish();
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "types";
    int rc = 0;
    if (!strcmp(mode, "types")) {
        rc = run_types();
    } else if (!strcmp(mode, "big")) {
        rc = run_big();
    } else {
        blacs_int me, np, ctxt, sys;
        Cblacs_pinfo(&me, &np);
        Cblacs_get(0, 0, &sys);
        ctxt = sys;
        blacs_int p = argc > 2 ? (blacs_int)atoll(argv[2]) : 65536;
        blacs_int q = argc > 3 ? (blacs_int)atoll(argv[3]) : 65536;
        if (!strcmp(mode, "grid")) {
            Cblacs_gridinit(&ctxt, "R", p, q);
        } else if (!strcmp(mode, "gridmap")) {
            blacs_int map[4] = {0, 1, 0, 1};
            Cblacs_gridmap(&ctxt, map, p, p, q);
        } else if (!strcmp(mode, "span")) {
            double x[8] = {0};
            Cblacs_gridinit(&ctxt, "R", 1, np);
            /* 2^31-1 columns of LDA 2^31-1 double complex: 2^66 bytes */
            Czgesd2d(ctxt, 4, INT32_MAX, x, INT32_MAX, 0, 0);
        }
        printf("t_sizes %s returned\n", mode);
    }
    Cblacs_exit(0);
    return rc;
}
