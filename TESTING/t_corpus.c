/*
 * t_corpus.c -- a fixed corpus of broadcasts and combines, run to produce a
 * message trace (BLACS_TRACE=prefix) that characterises the library's
 * choice of algorithm, message IDs and message sizes for every TOP letter.
 * TESTING/same_behaviour.sh runs it against two builds of the library and
 * compares the traces byte for byte (with the cost-model dump of
 * TIMING/tmodels.c), to prove a refactoring changed nothing observable.
 *
 * Public C interface only (blacs.h), no test helpers, so that the one
 * object links against any build of the library.  For the number of
 * processes it is started on, P, it walks:
 *   grids   : 1 x P ("Row"), P x 1 ("Col"), and for P >= 4 a 2 x (P/2) grid
 *             in column-major order (odd P leaves the last process out);
 *   scopes  : 'R', 'C', 'A' of 1 x P and 2 x (P/2), 'R', 'C' of P x 1: a
 *             whole-grid row or column (no communicator of its own, ' ' is
 *             the tree), a lone process, scopes with MPI's collectives;
 *   letters : every broadcast TOP (' ' I D S M H F T 1-9 C P A) and every
 *             combine TOP (' ' I D S M H F T 1-9 R B Y A);
 *   sizes   : 0, 1, 7, 100, 5000, 100000 doubles ('A', 'C', 'P', 'Y' and
 *             the repeatable ' ' decide by length; fewer on P x 1 and the
 *             2D grid's columns); roots and destinations rotate over the
 *             scope; leave-on-one and leave-on-all;
 *   p2p     : on 1 x P, a ring of Cdgesd2d/Cdgerv2d and Ctrsd2d/Ctrrv2d
 *             messages of 1 to 100000 doubles (long ones repeated);
 *   extras  : integer, single, double complex; non-contiguous GE shapes
 *             (LDA > M) and trapezoids; xGAMX2D/xGAMN2D with and without
 *             RA/CA; a user combine (vTUOP2D);
 *   settings: BLACS_SET WHAT=11..14 (rings and branches, both signs, capped
 *             ones), WHAT=15 (repeatable) and 16 (coherent), alone and
 *             together, each on a grid of its own.
 * Every result is checked (the data are small integers, so every sum is
 * exact whatever the order); a wrong one is reported and the exit status
 * is 1.  The trace files are opened for appending: remove stale ones first.
 * About 2 s on 2 processes, 10 on 3, 20 on 4, 40 on 6 (two cores).
 * Usage: [BLACS_TRACE=prefix] [T_CORPUS_TIMES=1] mpiexec -n P t_corpus [quick]
 *   quick: main sweep on sizes 1, 100, 5000 only;
 *   T_CORPUS_TIMES: seconds per phase on stderr (rank 0).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "blacs.h"

static const char BTOPS[] = " IDSMHFT123456789CPA";
static const char CTOPS[] = " IDSMHFT123456789RBYA";
static const int SIZES[] = {0, 1, 7, 100, 5000, 100000};
static const int QSIZES[] = {1, 100, 5000};
static const int *sizes = SIZES;
static int nsizes = 6;

static int iam, nprocs;
static double t_last; /* T_CORPUS_TIMES: seconds per phase on stderr */
static void phase(const char *what)
{
    if (!getenv("T_CORPUS_TIMES") || iam) return;
    double t = MPI_Wtime();
    fprintf(stderr, "t_corpus: %-24s %6.2f s\n", what, t - t_last);
    t_last = MPI_Wtime();
}
static long nops, nbad, rot; /* operations run, wrong results, rotation counter */

#define BAD(...)                                                                   \
    do {                                                                           \
        if (nbad++ < 20) {                                                         \
            fprintf(stderr, "[%d] t_corpus: ", iam);                               \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
        }                                                                          \
    } while (0)

typedef struct {
    blacs_int ctxt, nprow, npcol, myrow, mycol;
    const char *name;
} grid;

/* ---- element types: values are small integers, exact in every type ---- */
static size_t esize(char t)
{
    switch (t) {
    case 'I': return sizeof(blacs_int);
    case 'S': return sizeof(float);
    case 'D': return sizeof(double);
    case 'C': return 2 * sizeof(float);
    default: return 2 * sizeof(double); /* 'Z' */
    }
}
static void put(char t, void *a, size_t k, double v)
{
    switch (t) {
    case 'I': ((blacs_int *)a)[k] = (blacs_int)v; break;
    case 'S': ((float *)a)[k] = (float)v; break;
    case 'D': ((double *)a)[k] = v; break;
    case 'C': ((float *)a)[2 * k] = (float)v, ((float *)a)[2 * k + 1] = (float)-v; break;
    default: ((double *)a)[2 * k] = v, ((double *)a)[2 * k + 1] = -v; break;
    }
}
/* the value, or a NaN-free marker 1e300 when a complex pair is not (v, -v) */
static double get(char t, const void *a, size_t k)
{
    switch (t) {
    case 'I': return (double)((const blacs_int *)a)[k];
    case 'S': return ((const float *)a)[k];
    case 'D': return ((const double *)a)[k];
    case 'C': {
        const float *f = a;
        return f[2 * k] == -f[2 * k + 1] ? f[2 * k] : 1e300;
    }
    default: {
        const double *d = a;
        return d[2 * k] == -d[2 * k + 1] ? d[2 * k] : 1e300;
    }
    }
}

/* trapezoid membership as the reference BLACS defines it */
static int in_tr(char uplo, char diag, int m, int n, int i, int j)
{
    int unit = diag == 'U';
    if (uplo == 'U') {
        int k = j + (m > n ? m - n : 0);
        return unit ? i < k : i <= k;
    }
    int k = j - (n > m ? n - m : 0);
    return unit ? i > k : i >= k;
}

/* ---- scopes ------------------------------------------------------------ */
static int scope_np(const grid *g, char sc)
{
    return sc == 'R' ? (int)g->npcol : sc == 'C' ? (int)g->nprow : (int)(g->nprow * g->npcol);
}
static void scope_coords(const grid *g, char sc, int k, blacs_int *r, blacs_int *c)
{
    if (sc == 'R') *r = g->myrow, *c = k;
    else if (sc == 'C') *r = k, *c = g->mycol;
    else *r = k / g->npcol, *c = k % g->npcol;
}
static int scope_me(const grid *g, char sc)
{
    return sc == 'R' ? (int)g->mycol : sc == 'C' ? (int)g->myrow
                                                 : (int)(g->myrow * g->npcol + g->mycol);
}
static int pnum_of(const grid *g, char sc, int k)
{
    blacs_int r, c;
    scope_coords(g, sc, k, &r, &c);
    return (int)Cblacs_pnum(g->ctxt, r, c);
}

static void *xalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "t_corpus: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return p;
}

/* ---- broadcasts ----------------------------------------------------------
 * an m x n matrix (lda) of type t from scope rank root; uplo 'G' general,
 * else a trapezoid with diag */
static double bval(long seed, int i, int j) { return (double)((seed * 13 + i * 7 + j * 31) % 997 - 400); }

static void bcast(const grid *g, char sc, char top, char t, int m, int n, int lda, char uplo,
                  char diag, int root)
{
    const int np = scope_np(g, sc);
    root %= np;
    const long seed = ++rot;
    const size_t es = esize(t), tot = (size_t)lda * (size_t)(n > 0 ? n : 0);
    char *a = xalloc(tot * es);
    const int src = scope_me(g, sc) == root;
    char scope[2] = {sc, 0}, tp[2] = {top, 0}, up[2] = {uplo, 0}, dg[2] = {diag, 0};
#define IN(i, j) (uplo == 'G' ? 1 : in_tr(uplo, diag, m, n, (i), (j)))
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++)
            put(t, a, (size_t)j * lda + i, src && i < m && IN(i, j) ? bval(seed, i, j) : -999);
    blacs_int rr, rc;
    scope_coords(g, sc, root, &rr, &rc);
#define BS(v, T)                                                                             \
    if (uplo == 'G') C##v##gebs2d(g->ctxt, scope, tp, m, n, (T *)a, lda);                     \
    else C##v##trbs2d(g->ctxt, scope, tp, up, dg, m, n, (T *)a, lda)
#define BR(v, T)                                                                             \
    if (uplo == 'G') C##v##gebr2d(g->ctxt, scope, tp, m, n, (T *)a, lda, rr, rc);             \
    else C##v##trbr2d(g->ctxt, scope, tp, up, dg, m, n, (T *)a, lda, rr, rc)
    if (src) {
        switch (t) {
        case 'I': BS(i, blacs_int); break;
        case 'S': BS(s, float); break;
        case 'D': BS(d, double); break;
        case 'C': BS(c, float); break;
        default: BS(z, double); break;
        }
    } else {
        switch (t) {
        case 'I': BR(i, blacs_int); break;
        case 'S': BR(s, float); break;
        case 'D': BR(d, double); break;
        case 'C': BR(c, float); break;
        default: BR(z, double); break;
        }
    }
#undef BS
#undef BR
    long wrong = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++) {
            double want = i < m && IN(i, j) ? bval(seed, i, j) : -999;
            if (get(t, a, (size_t)j * lda + i) != want) wrong++;
        }
#undef IN
    if (wrong)
        BAD("%s bcast scope %c top '%c' type %c %dx%d lda %d uplo %c root %d: %ld wrong elements",
            g->name, sc, top, t, m, n, lda, uplo, root, wrong);
    nops++;
    free(a);
}

/* ---- combines ------------------------------------------------------------
 * kind 's' sum, 'x' absolute maximum, 'n' absolute minimum, 'u' user sum
 * (vTUOP2D); owners: RA/CA wanted (x, n); dest < 0: leave-on-all */
static double sval(int p, long seed, size_t k) { return (double)((p + 1) * (long)(k % 11 + 1) + seed % 5); }
/* distinct absolute values across processes (p < 64), alternating signs */
static double xval(int p, long seed, size_t k)
{
    double v = (double)(((p * 37 + (long)k * 11 + seed) % 101) * 64 + p + 1);
    return k % 2 ? -v : v;
}

static void dsum_op(blacs_int *n, double *in, double *inout)
{
    for (blacs_int i = 0; i < *n; i++) inout[i] += in[i];
}

static void comb(const grid *g, char sc, char top, char kind, char t, int m, int n, int lda,
                 int owners, int dest)
{
    const int np = scope_np(g, sc), me = scope_me(g, sc);
    if (dest >= 0) dest %= np;
    const long seed = ++rot;
    const size_t es = esize(t), tot = (size_t)lda * (size_t)(n > 0 ? n : 0);
    char *a = xalloc(tot * es);
    const int mypn = pnum_of(g, sc, me);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++) {
            size_t k = (size_t)j * m + i;
            double v = i >= m ? -999 : kind == 's' || kind == 'u' ? sval(mypn, seed, k) : xval(mypn, seed, k);
            put(t, a, (size_t)j * lda + i, v);
        }
    blacs_int rd = -1, cd = -1;
    if (dest >= 0) scope_coords(g, sc, dest, &rd, &cd);
    const blacs_int ldia = owners ? (m > 0 ? m : 1) : -1;
    blacs_int *ra = xalloc((size_t)(m > 0 ? m : 1) * (size_t)(n > 0 ? n : 1) * sizeof *ra);
    blacs_int *ca = xalloc((size_t)(m > 0 ? m : 1) * (size_t)(n > 0 ? n : 1) * sizeof *ca);
    char scope[2] = {sc, 0}, tp[2] = {top, 0};
    if (kind == 's') {
        switch (t) {
        case 'I': Cigsum2d(g->ctxt, scope, tp, m, n, (blacs_int *)a, lda, rd, cd); break;
        case 'S': Csgsum2d(g->ctxt, scope, tp, m, n, (float *)a, lda, rd, cd); break;
        case 'D': Cdgsum2d(g->ctxt, scope, tp, m, n, (double *)a, lda, rd, cd); break;
        case 'C': Ccgsum2d(g->ctxt, scope, tp, m, n, (float *)a, lda, rd, cd); break;
        default: Czgsum2d(g->ctxt, scope, tp, m, n, (double *)a, lda, rd, cd); break;
        }
    } else if (kind == 'u') {
        Cdtuop2d(g->ctxt, scope, tp, "G", "N", m, n, (double *)a, lda, rd, cd, NULL, dsum_op, NULL);
    } else if (kind == 'x') {
        switch (t) {
        case 'I': Cigamx2d(g->ctxt, scope, tp, m, n, (blacs_int *)a, lda, ra, ca, ldia, rd, cd); break;
        case 'S': Csgamx2d(g->ctxt, scope, tp, m, n, (float *)a, lda, ra, ca, ldia, rd, cd); break;
        default: Cdgamx2d(g->ctxt, scope, tp, m, n, (double *)a, lda, ra, ca, ldia, rd, cd); break;
        }
    } else {
        switch (t) {
        case 'I': Cigamn2d(g->ctxt, scope, tp, m, n, (blacs_int *)a, lda, ra, ca, ldia, rd, cd); break;
        case 'S': Csgamn2d(g->ctxt, scope, tp, m, n, (float *)a, lda, ra, ca, ldia, rd, cd); break;
        default: Cdgamn2d(g->ctxt, scope, tp, m, n, (double *)a, lda, ra, ca, ldia, rd, cd); break;
        }
    }
    long wrong = 0;
    if (dest < 0 || me == dest) {
        int *pn = xalloc((size_t)np * sizeof *pn);
        for (int k = 0; k < np; k++) pn[k] = pnum_of(g, sc, k);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < lda; i++) {
                size_t k = (size_t)j * m + i;
                double got = get(t, a, (size_t)j * lda + i), want;
                int who = -1;
                if (i >= m) want = -999;
                else if (kind == 's' || kind == 'u') {
                    want = 0;
                    for (int q = 0; q < np; q++) want += sval(pn[q], seed, k);
                } else {
                    want = 0;
                    for (int q = 0; q < np; q++) {
                        double v = xval(pn[q], seed, k), av = v < 0 ? -v : v, aw = want < 0 ? -want : want;
                        if (who < 0 || (kind == 'x' ? av > aw : av < aw)) want = v, who = q;
                    }
                }
                if (got != want) wrong++;
                else if (owners && who >= 0) {
                    blacs_int r, c;
                    scope_coords(g, sc, who, &r, &c);
                    if (ra[(size_t)j * ldia + i] != r || ca[(size_t)j * ldia + i] != c) wrong++;
                }
            }
        free(pn);
    }
    if (wrong)
        BAD("%s combine %c scope %c top '%c' type %c %dx%d lda %d owners %d dest %d: %ld wrong",
            g->name, kind, sc, top, t, m, n, lda, owners, dest, wrong);
    nops++;
    free(a);
    free(ra);
    free(ca);
}

/* ---- the sweep -----------------------------------------------------------
 * Four processes share two cores in the runs this is made for, and every
 * wait for a process that is not running costs a scheduler tick (4 ms):
 * an operation costs 5-10 ms there whatever its size.  So the sweep is
 * thinned where it adds little: the extra types and shapes on two scopes
 * only, combines alternating leave-on-one and leave-on-all by size (both
 * from 5000 items on), fewer sizes where a grid repeats another's scope
 * sizes. */
static void sweep_bcast(const grid *g, const char *scopes, const char *tops, const int *sz, int nsz,
                        const char *extras)
{
    for (const char *s = scopes; *s; s++)
        for (const char *t = tops; *t; t++) {
            for (int k = 0; k < nsz; k++) bcast(g, *s, *t, 'D', sz[k], 1, sz[k] > 0 ? sz[k] : 1, 'G', 'N', (int)rot);
            /* extras: on the scopes named, alternating between them by letter */
            const char *e = strchr(extras, *s);
            if (!e || (size_t)(e - extras) != (size_t)(t - tops) % strlen(extras)) continue;
            bcast(g, *s, *t, 'I', 7, 1, 7, 'G', 'N', (int)rot);
            bcast(g, *s, *t, 'Z', 600, 1, 600, 'G', 'N', (int)rot);  /* 16-byte items */
            if (*t % 2) bcast(g, *s, *t, 'D', 9, 5, 11, 'U', 'N', (int)rot); /* trapezoids */
            else bcast(g, *s, *t, 'S', 5, 9, 6, 'L', 'U', (int)rot);
        }
}

static void sweep_comb(const grid *g, const char *scopes, const char *tops, const int *sz, int nsz,
                       const char *extras)
{
    for (const char *s = scopes; *s; s++)
        for (const char *t = tops; *t; t++) {
            /* leave-on-one and leave-on-all alternate by size, but both
             * run (leave-on-one from 5000 items on) for the letters whose
             * choice depends on it and in the short size lists (nsz < 4) */
            const int both = strchr("HYA", *t) != NULL || nsz < 4;
            for (int k = 0; k < nsz; k++) {
                int n = sz[k], lda = n > 0 ? n : 1;
                if (k % 2 || (both && n >= 5000)) comb(g, *s, *t, 's', 'D', n, 1, lda, 0, (int)rot); /* leave-on-one */
                if (!(k % 2) || both) comb(g, *s, *t, 's', 'D', n, 1, lda, 0, -1);                 /* leave-on-all */
            }
            const char *e = strchr(extras, *s);
            if (!e || (size_t)(e - extras) != (size_t)(t - tops) % strlen(extras)) continue;
            comb(g, *s, *t, 's', 'I', 7, 1, 7, 0, -1);
            comb(g, *s, *t, 's', *t % 2 ? 'Z' : 'S', 300, 2, 307, 0, (int)rot); /* LDA > M */
            comb(g, *s, *t, 'x', *t % 2 ? 'I' : 'D', 100, 1, 100, 1, (int)rot);  /* RA/CA */
            comb(g, *s, *t, 'n', *t % 2 ? 'D' : 'S', 7, 2, 9, *t % 2, -1);       /* with, without */
            comb(g, *s, *t, 'u', 'D', 100, 1, 100, 0, *t % 2 ? -1 : (int)rot); /* vTUOP2D */
        }
}

static int make_grid(grid *g, const char *order, int nprow, int npcol, const char *name)
{
    Cblacs_get(0, 0, &g->ctxt);
    Cblacs_gridinit(&g->ctxt, (char *)order, nprow, npcol);
    g->name = name;
    Cblacs_gridinfo(g->ctxt, &g->nprow, &g->npcol, &g->myrow, &g->mycol);
    return g->myrow >= 0 && g->myrow < g->nprow; /* in the grid */
}

static void set(const grid *g, int what, blacs_int v) { Cblacs_set(g->ctxt, what, &v); }

/* BLACS_SET variations: {WHAT, value} pairs ending with 0 */
static const int SETTINGS[][9] = {
    {11, 2, 12, 3, 13, -2, 14, 2, 0},
    {11, -2, 12, 2, 13, 3, 14, 3, 0},
    {11, -100, 12, 100, 13, 100, 14, 100, 0}, /* beyond Np - 1 */
    {15, 1, 0},
    {16, 1, 0},
    {15, 1, 16, 1, 0},
};

/* point-to-point on 1 x P: each process sends to its right neighbour and
 * receives from its left, in double precision, for each size in turn
 * (long ones repeated, so that the pair's next message has the receiver's
 * word, p2p.c), as a column (LDA = M), a GE block with LDA > M and an
 * upper trapezoid; every element and the guards around it checked */
static void sweep_p2p(const grid *g)
{
    static const int N[] = {1, 100, 5000, 100000, 100000, 100000, 7};
    const int P = (int)g->npcol, me = (int)g->mycol, right = (me + 1) % P, left = (me + P - 1) % P;
    for (size_t i = 0; i < sizeof N / sizeof N[0]; i++)
        for (int form = 0; form < 3; form++) {
            const int m = form == 0 ? N[i] : N[i] < 100 ? N[i] : 100;
            const int n = form == 0 ? 1 : (N[i] + m - 1) / m, lda = form == 1 ? m + 3 : m;
            const size_t len = (size_t)lda * (size_t)n + 2;
            double *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b);
            if (!a || !b) { BAD("out of memory"); exit(2); }
            for (size_t k = 0; k < len; k++) a[k] = (double)(me * 1000 + (int)(k % 997)), b[k] = -1;
            rot++;
            if (form == 2) {
                Cdtrsd2d(g->ctxt, "U", "N", m, n, a + 1, lda, 0, right);
                Cdtrrv2d(g->ctxt, "U", "N", m, n, b + 1, lda, 0, left);
            } else {
                Cdgesd2d(g->ctxt, m, n, a + 1, lda, 0, right);
                Cdgerv2d(g->ctxt, m, n, b + 1, lda, 0, left);
            }
            nops++;
            long wrong = 0;
            for (size_t k = 0; k < len; k++) {
                int inside = k >= 1 && k < len - 1;
                size_t e = k - 1;
                int r = inside ? (int)(e % (size_t)lda) : 0, c = inside ? (int)(e / (size_t)lda) : 0;
                if (inside && (r >= m || (form == 2 && !in_tr('U', 'N', m, n, r, c)))) inside = 0;
                double want = inside ? (double)(left * 1000 + (int)(k % 997)) : -1;
                if (b[k] != want) wrong++;
            }
            if (wrong) BAD("p2p %d x %d (LDA %d, form %d) from %d: %ld elements wrong", m, n, lda, form, left, wrong);
            free(a);
            free(b);
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &iam);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    alarm(300); /* a hang ends the job (SIGALRM) instead of the caller's patience */
    if (argc > 1 && !strcmp(argv[1], "quick")) sizes = QSIZES, nsizes = 3;
    blacs_int me, np;
    Cblacs_pinfo(&me, &np);
    const int P = (int)np;
    t_last = MPI_Wtime();
    static const int SZ_FEW[] = {0, 7, 5000}, SZ_TWO[] = {7, 100000};
    static const int SET_B[] = {5000}, SET_C[] = {100, 100000};

    /* the main sweep: every letter on three grid shapes.  1 x P: 'R' is the
     * whole grid (no communicator of its own: ' ' is the tree), 'C' a lone
     * process, 'A' the whole grid with MPI's collectives; P x 1 the same
     * turned; 2 x (P/2) scopes of 2 and P/2 processes with communicators */
    for (int gi = 0; gi < 3; gi++) {
        grid g;
        int in;
        if (gi == 0) in = make_grid(&g, "Row", 1, P, "1xP");
        else if (gi == 1) in = make_grid(&g, "Col", P, 1, "Px1");
        else if (P >= 4) in = make_grid(&g, "Col", 2, P / 2, "2x(P/2)");
        else break;
        if (!in) continue;
        rot = 0; /* roots and data depend on the grid's own calls only */
        if (gi == 0) {
            sweep_bcast(&g, "RCA", BTOPS, sizes, nsizes, "");
            phase("1xP bcast");
            sweep_bcast(&g, "RA", BTOPS, sizes, 0, "RA");
            phase("1xP bcast extras");
            sweep_comb(&g, "RCA", CTOPS, sizes, nsizes, "");
            phase("1xP comb");
            sweep_comb(&g, "RA", CTOPS, sizes, 0, "RA");
            phase("1xP comb extras");
            sweep_p2p(&g);
            phase("1xP p2p");
        } else if (gi == 1) {
            sweep_bcast(&g, "RC", BTOPS, SZ_FEW, 3, "");
            sweep_comb(&g, "RC", CTOPS, SZ_FEW, 3, "");
            phase("Px1");
        } else {
            sweep_bcast(&g, "RA", BTOPS, sizes, nsizes, "");
            sweep_bcast(&g, "C", BTOPS, SZ_TWO, 2, "");
            phase("2D bcast");
            sweep_comb(&g, "RA", CTOPS, sizes, nsizes, "");
            sweep_comb(&g, "C", CTOPS, SZ_TWO, 2, "");
            phase("2D comb");
        }
        Cblacs_gridexit(g.ctxt);
    }

    /* BLACS_SET WHAT=11..16, each setting on a fresh grid (2 x (P/2) when
     * P >= 4, else 1 x P) and every letter under each, so that a setting
     * leaking into a letter it does not concern shows too; scope 'A' (it
     * has MPI's collectives: the repeatable ' ' leaves them for real data) */
    const int nset = (int)(sizeof SETTINGS / sizeof SETTINGS[0]);
    for (int si = 0; si < nset; si++) {
        grid g;
        int in = P >= 4 ? make_grid(&g, "Row", 2, P / 2, "set 2x(P/2)") : make_grid(&g, "Row", 1, P, "set 1xP");
        if (!in) continue;
        rot = 0;
        for (const int *w = SETTINGS[si]; *w; w += 2) set(&g, w[0], w[1]);
        /* every letter on 5000 items; the letters a setting concerns
         * ('M', 'T'; for 15 and 16 the combine ' ', 'H', 'Y', 'A') also on 100 and
         * 100000 items; combines leave-on-one and -all on each */
        const int rings = SETTINGS[si][0] < 15;
        sweep_bcast(&g, "A", BTOPS, SET_B, 1, "");
        sweep_bcast(&g, "A", rings ? "MT" : "", SET_C, 2, "");
        sweep_comb(&g, "A", CTOPS, SET_B, 1, "");
        sweep_comb(&g, "A", rings ? "MT" : " HYA", SET_C, 2, "");
        /* what the repeatable ' ' tells apart: integer sums stay MPI's,
         * real ones and user combines do not (combine.c) */
        comb(&g, 'A', ' ', 's', 'I', 5000, 1, 5000, 0, -1);
        comb(&g, 'A', ' ', 'u', 'D', 5000, 1, 5000, 0, (int)rot);
        comb(&g, 'A', ' ', 'x', 'D', 100, 1, 100, 1, -1);
        comb(&g, 'R', ' ', 's', 'D', 5000, 1, 5000, 0, -1);
        Cblacs_gridexit(g.ctxt);
        phase("setting");
    }

    long loc[2] = {nops, nbad}, tot[2];
    MPI_Allreduce(loc, tot, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (iam == 0) {
        printf("t_corpus: %d processes, %ld operations, %ld wrong results\n", P, tot[0], tot[1]);
        fflush(stdout);
    }
    Cblacs_exit(1);
    MPI_Finalize();
    return tot[1] ? 1 : 0;
}
