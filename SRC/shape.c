/*
 * shape.c -- what part of A a call communicates.  A general (GE) shape is
 * M x N with leading dimension LDA; a trapezoidal (TR) shape keeps, in each
 * column, the rows the reference defines (the "diagonal" of length
 * min(M,N) starts at (0,0) when the triangle side is the short side, and is
 * anchored at (M-1,N-1) otherwise).  Everything else sees contiguous items:
 * bi_pack/bi_unpack move between the two, bi_shape_mpitype describes A to
 * MPI so a receive (or a TOP ' ' broadcast) can move it in place without a
 * copy; bi_shape_mpitype_cached keeps the types of the shapes last used
 * (typekeep.c), so that calls in a loop create none.
 */
#include <limits.h>
#include <string.h>
#include <stdlib.h>
#include "core.h"

const bi_typeinfo bi_types[BI_NTYPE] = {
    {'I', sizeof(Int), 0},
    {'S', sizeof(float), 0},
    {'D', sizeof(double), 0},
    {'C', 2 * sizeof(float), 1},
    {'Z', 2 * sizeof(double), 1},
};

void bi_shape_rows(const bi_shape *s, Int j, Int *lo, Int *hi)
{
    if (!s->tr) {
        *lo = 0;
        *hi = s->m;
        return;
    }
    if (s->upper) {
        /* rows r <= k (non-unit) or r < k (unit), k = j + max(M-N,0) */
        Int k = j + (s->m > s->n ? s->m - s->n : 0);
        Int h = s->unit ? k : k + 1;
#if defined(BI_FAULT) && BI_FAULT == 1
        h += 1; /* planted fault 1: off-by-one in the trapezoid */
#endif
        *lo = 0;
        *hi = h < s->m ? (h > 0 ? h : 0) : s->m;
    } else {
        /* rows r >= k (non-unit) or r > k (unit), k = j - max(N-M,0) */
        Int k = j - (s->n > s->m ? s->n - s->m : 0);
        Int l = s->unit ? k + 1 : k;
        *lo = l > 0 ? (l < s->m ? l : s->m) : 0;
        *hi = s->m;
    }
}

/* rows kept in column j; along the columns of a trapezoid this never
 * decreases ('U') or never increases ('L') */
static Int width(const bi_shape *s, Int j)
{
    Int lo, hi;
    bi_shape_rows(s, j, &lo, &hi);
    return hi > lo ? hi - lo : 0;
}

/* end of the run of columns from j that keep the same width as j: by
 * bisection, so that long runs of whole or empty columns cost log N */
static Int run_end(const bi_shape *s, Int j)
{
    Int w = width(s, j), a = j + 1, b = s->n;
    if (w != 0 && w != s->m) return a; /* partial columns: at most min(M,N) */
    while (a < b) {
        Int mid = a + (b - a) / 2;
        if (width(s, mid) == w) a = mid + 1;
        else b = mid;
    }
    return a;
}

/* sum of min(x, m) over x = 0 .. t-1 (t >= 0), in closed form */
static size_t sum_min(int64_t t, int64_t m)
{
    size_t T = (size_t)t, M = (size_t)m;
    if (T <= M + 1) return T * (T ? T - 1 : 0) / 2;
    return M * (M + 1) / 2 + (T - M - 1) * M;
}

/* a trapezoid's elements in closed form: column j keeps min(j + c, M) rows
 * ('U', c >= 0) or M - clamp(j + c, 0, M) rows ('L'), from bi_shape_rows.
 * In 64 bits: j + c reaches N + 1, past the largest Int of LP64 builds. */
size_t bi_shape_count_tr(const bi_shape *s)
{
    if (s->m <= 0 || s->n <= 0) return 0;
    Int lo, hi;
    bi_shape_rows(s, 0, &lo, &hi); /* column 0 gives c (planted faults included) */
    const int64_t m = s->m, n = s->n;
    if (s->upper) {
        const int64_t c = hi; /* min(c, M) for column 0; c itself when below M */
        if (c >= m) return (size_t)m * (size_t)n;
        return sum_min(c + n, m) - sum_min(c, m);
    }
    const int64_t c = s->unit - (n > m ? n - m : 0); /* may be negative */
    const int64_t a = c > 0 ? c : 0, b = c + n > 0 ? c + n : 0;
    return (size_t)m * (size_t)n - (sum_min(b, m) - sum_min(a, m));
}

int bi_shape_contig_tr(const bi_shape *s)
{
    if (s->m <= 0 || s->n <= 0) return 1;
    /* a trapezoid is one block only if every column is whole */
    if (width(s, 0) != s->m || run_end(s, 0) != s->n) return 0;
    return s->n == 1 || s->lda == s->m;
}

/* one loop over the columns serves both directions */
static void copy_cols(const bi_shape *s, char *A, char *buf, int pack)
{
    size_t es = bi_types[s->type].size;
    for (Int j = 0; j < s->n; j++) {
        Int lo, hi;
        bi_shape_rows(s, j, &lo, &hi);
        if (hi <= lo) continue;
        char *col = A + ((size_t)j * (size_t)s->lda + (size_t)lo) * es;
        size_t nb = (size_t)(hi - lo) * es;
        if (pack) memcpy(buf, col, nb);
        else memcpy(col, buf, nb);
        buf += nb;
    }
}

/* a shape that lies as one block is one copy, whatever its N */
void bi_pack(const bi_shape *s, const void *A, void *buf)
{
    if (s->m <= 0 || s->n <= 0) return;
    if (bi_shape_contig(s)) memcpy(buf, A, bi_shape_count(s) * bi_types[s->type].size);
    else copy_cols(s, (char *)A, buf, 1);
}

/* bytes [a, b) of a GE shape's packed run (a source that copies A as it
 * sends, a piece at a time: transport.c) */
void bi_pack_range(const bi_shape *s, const void *A, void *buf, size_t a, size_t b)
{
    if (!s || bi_shape_contig(s)) {
        memcpy((char *)buf + a, (const char *)A + a, b - a);
        return;
    }
    const size_t es = bi_types[s->type].size, col = (size_t)s->m * es, ld = (size_t)s->lda * es;
    while (a < b) {
        const size_t j = a / col, in = a % col, k = col - in < b - a ? col - in : b - a;
        memcpy((char *)buf + a, (const char *)A + j * ld + in, k);
        a += k;
    }
}

void bi_unpack(const bi_shape *s, const void *buf, void *A)
{
    if (s->m <= 0 || s->n <= 0) return;
    if (bi_shape_contig(s)) memcpy(A, buf, bi_shape_count(s) * bi_types[s->type].size);
    else copy_cols(s, A, (char *)buf, 0);
}

/* M x N items of el with columns ld bytes apart (es bytes per item): a new
 * uncommitted type.  Byte strides (MPI_Aint) and count.c's blocks keep
 * offsets and lengths past 2^31 exact. */
static MPI_Datatype ge_type(size_t m, size_t n, MPI_Aint ld, MPI_Datatype el, MPI_Aint es)
{
    if (n == 1 || ld == (MPI_Aint)m * es) return bi_type_blocks(m * n, 1, es, el);
    if (bi_count_piece(m) == m) return bi_type_blocks(n, (int)m, ld, el);
    MPI_Datatype col = bi_type_blocks(m, 1, es, el), t = bi_type_blocks(n, 1, ld, col);
    BI_MPI(MPI_Type_free(&col), "MPI_Type_free");
    return t;
}

/* A trapezoid's whole columns form one run (a suffix for 'U', a prefix for
 * 'L') and become one GE block; each other non-empty column, at most
 * min(M,N) of them, is one block.  Struct blocks in column order, so the
 * type map follows bi_pack's order. */
static MPI_Datatype tr_type(const bi_shape *s, MPI_Datatype el, MPI_Aint es, MPI_Aint ld)
{
    size_t cap = 16, nb = 0;
    int *len = bi_alloc(NULL, cap * sizeof *len, NULL, "a trapezoid's datatype");
    MPI_Aint *disp = bi_alloc(NULL, cap * sizeof *disp, NULL, "a trapezoid's datatype");
    MPI_Datatype *ty = bi_alloc(NULL, cap * sizeof *ty, NULL, "a trapezoid's datatype"), t;
    for (Int j = 0, e; j < s->n; j = e) {
        Int lo, hi;
        bi_shape_rows(s, j, &lo, &hi);
        e = run_end(s, j);
        if (hi <= lo) continue;
        if (nb == cap) {
            cap *= 2;
            len = bi_alloc(len, cap * sizeof *len, NULL, "a trapezoid's datatype");
            disp = bi_alloc(disp, cap * sizeof *disp, NULL, "a trapezoid's datatype");
            ty = bi_alloc(ty, cap * sizeof *ty, NULL, "a trapezoid's datatype");
        }
        disp[nb] = (MPI_Aint)j * ld + (MPI_Aint)lo * es;
        len[nb] = 1;
        if (hi - lo == s->m) {
            ty[nb] = ge_type((size_t)s->m, (size_t)(e - j), ld, el, es);
        } else if (bi_count_piece((size_t)(hi - lo)) == (size_t)(hi - lo)) {
            len[nb] = (int)(hi - lo);
            ty[nb] = el;
        } else {
            ty[nb] = bi_type_blocks((size_t)(hi - lo), 1, es, el);
        }
        nb++;
    }
    if (nb > (size_t)INT_MAX) /* M and N both past 2^31: no memory holds that */
        bi_error(-1, __LINE__, __FILE__, "trapezoid of %zu columns is larger than MPI can describe", nb);
    if (nb == 0) BI_MPI(MPI_Type_contiguous(0, el, &t), "MPI_Type_contiguous");
    else BI_MPI(MPI_Type_create_struct((int)nb, len, disp, ty, &t), "MPI_Type_create_struct");
    for (size_t k = 0; k < nb; k++)
        if (ty[k] != el) BI_MPI(MPI_Type_free(&ty[k]), "MPI_Type_free");
    free(len);
    free(disp);
    free(ty);
    return t;
}

MPI_Datatype bi_shape_mpitype(const bi_shape *s)
{
    MPI_Datatype el = bi_mpitype(s->type), t;
    MPI_Aint es = (MPI_Aint)bi_types[s->type].size, ld = (MPI_Aint)s->lda * es;
    if (s->m <= 0 || s->n <= 0) BI_MPI(MPI_Type_contiguous(0, el, &t), "MPI_Type_contiguous");
    else if (!s->tr) t = ge_type((size_t)s->m, (size_t)s->n, ld, el, es);
    else t = tr_type(s, el, es, ld);
    BI_MPI(MPI_Type_commit(&t), "MPI_Type_commit");
    return t;
}

/* ---- the types of the shapes last used -----------------------------------
 * A receive or TOP ' ' broadcast of a non-contiguous shape needs its type on
 * every call, and programs use few shapes, over and over (an NB x NB block,
 * its triangles): typekeep.c keeps them.  The key is everything the type
 * depends on: the shape (lda is the effective one) and the count limit it
 * was built under (count.c: it decides how long runs are cut). */
static MPI_Datatype make_shape_type(const void *s)
{
    return bi_shape_mpitype(s);
}

MPI_Datatype bi_shape_mpitype_cached(const bi_shape *s)
{
    bi_typekey k = {.n = 0};
    const char kind = 'S';
    const int tri[4] = {s->type, s->tr, s->tr && s->upper, s->tr && s->unit};
    const Int dims[3] = {s->m, s->n, s->lda};
    const size_t limit = bi_count_piece(SIZE_MAX);
    _Static_assert(sizeof kind + sizeof tri + sizeof dims + sizeof limit <= BI_TYPEKEY_MAX,
                   "shape key longer than BI_TYPEKEY_MAX");
    bi_typekey_put(&k, &kind, sizeof kind);
    bi_typekey_put(&k, tri, sizeof tri);
    bi_typekey_put(&k, dims, sizeof dims);
    bi_typekey_put(&k, &limit, sizeof limit);
    return bi_type_kept(&k, make_shape_type, s);
}

/* A non-contiguous shape goes to MPI in place, through its datatype (kept
 * below), or packed into one run: TOP ' ' broadcasts (bcast.c) and
 * point-to-point receives (p2p.c) ask here, and so do the long sends
 * straight from A of a GE shape to a receiver that is there (the letters'
 * broadcasts, transport.c; point-to-point, p2p.c); other sends and the
 * letters' receivers pack.  In place saves our copy on each side, but MPI
 * then moves the shape itself, and how well depends on the MPI and the
 * length.  On 2 ranks of this machine (100 x 100 and 1000 x 1000 doubles,
 * LDA 200 and 1200; medians of alternated runs on a quiet machine), a ' '
 * broadcast in place took 1.6 and 1.5 times as long with MPICH 4.0.2,
 * whose datatype engine copies element by element below 16 KiB blocks
 * (MPI_Pack 1.5-5 times bi_pack's time), and 0.9 and 0.3 times as long
 * with Open MPI 4.1.4, which packs as fast as we do.  So MPI's own
 * collectives (bi_bcast_mpi_inplace) take shapes packed under MPICH (and
 * SMPI, which stands for it), in place elsewhere.
 *   The letters' messages and point-to-point ones are single sends, and
 * MPICH moves a long one on one node without packing it: with UCX (Debian's
 * MPICH 4.0.2) the receiver reads the source's columns where they lie.
 * There in place is the faster way from 80-100 KB on, packed below
 * (TIMING/tplace.c, 2 ranks, the receiver waiting, medians of 4 runs;
 * TIMING/README, "In place on one node"): an 'S' broadcast of 1984 x 64
 * doubles of a 2048-row A (992 KB, PDPOTRF's panel on 1 x 2) reached its
 * receiver after 151 us in place, 226 us packed (MPI_Send of the
 * datatype: 148); a DGESD2D/DGERV2D of 992 KB after 149 us against 214;
 * but an 'S' broadcast of 100 x 100 of LDA 200 (78 KB) after 76 us in
 * place, 52 packed.  So on one node under MPICH sends straight from A go
 * in place from BI_INPLACE_NODE_MIN bytes (bi_inplace), with other MPIs
 * at every length.  Receives on one node are packed, with every MPI:
 * MPICH 4.0.2 with UCX and Open MPI 4.1 move a message by itself (the
 * receiver reads it) only when both ends are contiguous; with a datatype
 * at either end the transfer waits for its sender's next MPI call.  A
 * sender from A waits for its send, but one whose receiver was not there
 * sends its copy and goes on, and a receiver that then took the shape in
 * place waited for the sender's whole computation
 * (TESTING/t_busysource.c, busysource_node_ge: 97 ms of 100, under both
 * MPIs; 992 KB sent contiguously, received through a datatype, 5 ms late
 * behind a sender that computed 5 ms, with either MPI).  The 992
 * KB 'S' broadcast above now reaches its receiver after 152 us (TIMING/
 * tplace.c, both in place 134, both packed 178, MPI_Send of the datatype
 * 128; the same run).
 *   Between two nodes, the letters' long messages go in place with every
 * MPI (bi_inplace): there our copies stand in line with the transfer
 * (the source packs all before it sends, the receiver unpacks all after it
 * received), where MPI packs and unpacks piece by piece as the bytes move,
 * as fast as the wire or faster.  ScaLAPACK's PDSYTRD on MPICH between two
 * hosts whose link is held to 10 Gbit/s (1 x 2, N = 2048): its 'S'
 * broadcasts of 1856 x 64 doubles out of a 2048-row A, the receiver there,
 * reached it 1.30 ms after the source's call packed, 0.84 ms for the
 * reference BLACS, which packs at the source but receives in place.
 * A long point-to-point message whose receiver waits goes the same way
 * between two nodes (p2p.c: 2000 x 128 doubles over 10 Gbit/s, 2.8-3.1 ms
 * against 4.5-5.3 packed).
 * recv: the receiving end (on one node packed, with every MPI).
 * BLACS_BCAST_DATATYPE=0|1 overrides all of these.  Processes may differ:
 * MPI matches type signatures, and bcast_mpi.c's counted protocol is the
 * same either way. */
#define BI_INPLACE_NODE_MIN ((size_t)98304)
#if BI_MPICH
#define BI_INPLACE_DEFAULT 0
#else
#define BI_INPLACE_DEFAULT 1
#endif
int bi_bcast_datatype = -1;

static int datatype_setting(void)
{
    if (bi_bcast_datatype < 0) bi_bcast_datatype = (int)bi_env_num_or(BI_SET_BCAST_DATATYPE, 2);
    return bi_bcast_datatype;
}

int bi_bcast_mpi_inplace(void)
{
    const int v = datatype_setting();
    return v == 2 ? BI_INPLACE_DEFAULT : v;
}

int bi_inplace(int net, size_t bytes, int recv)
{
    const int v = datatype_setting();
    if (v != 2) return v;
    if (net) return 1;
    if (recv) return 0;
    return !BI_MPICH || bytes >= BI_INPLACE_NODE_MIN;
}

int bi_inplace_with(const bi_scope *sc, int k, size_t bytes, int recv)
{
    return bi_inplace(sc->nnodes > 1 && sc->nodeof[k] != sc->nodeof[sc->me], bytes, recv);
}
