/*
 * mkl_sl.c -- Intel MKL's ScaLAPACK on a BLACS.  Built twice
 * (TESTING/mkl.mk): linked with our libblacs in place of MKL's BLACS, and
 * with MKL's own BLACS; TESTING/run_mkl_diff.sh runs both and requires
 * every result to be bit-identical.
 *
 *   mkl_sl ours|mkl DUMP [--against MKLDUMP] PxQ...
 *
 * On each grid PxQ (P*Q = the number of processes) it runs LU (PDGESV),
 * Cholesky (PDPOTRF + PDPOTRS), QR (PDGEQRF), the symmetric eigensolver
 * (PDSYEV, values and vectors), the PBLAS transposes PDTRAN and PZTRANC
 * (MKL's call Cdsendrecv) and PDGEMR2D (block size 5 to 7 and onto the
 * transposed grid), checks each result on its own (residuals, exact values
 * for the data movers), and writes every local result, bit for bit, to
 * DUMP.<pnum>; with --against, compares each with MKL's run's MKLDUMP.<pnum>
 * (see out()).  "ours" or "mkl" says which BLACS must be answering: the
 * library holding Cblacs_gridinit and Cdsendrecv is checked with dladdr.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int Int; /* MKL's LP64 ScaLAPACK */
void Cblacs_pinfo(Int *, Int *);
void Cblacs_get(Int, Int, Int *);
void Cblacs_gridinit(Int *, const char *, Int, Int);
void Cblacs_gridinfo(Int, Int *, Int *, Int *, Int *);
void Cblacs_gridexit(Int);
void Cblacs_exit(Int);
void Cigsum2d(Int, const char *, const char *, Int, Int, Int *, Int, Int, Int);
void Cdsendrecv(Int, Int, Int, double *, Int, Int, Int, Int, Int, double *, Int, Int, Int);
Int numroc_(const Int *, const Int *, const Int *, const Int *, const Int *);
void descinit_(Int *, const Int *, const Int *, const Int *, const Int *, const Int *,
               const Int *, const Int *, const Int *, Int *);
void pdgesv_(const Int *, const Int *, double *, const Int *, const Int *, const Int *, Int *,
             double *, const Int *, const Int *, const Int *, Int *);
void pdpotrf_(const char *, const Int *, double *, const Int *, const Int *, const Int *, Int *);
void pdpotrs_(const char *, const Int *, const Int *, const double *, const Int *, const Int *,
              const Int *, double *, const Int *, const Int *, const Int *, Int *);
void pdgeqrf_(const Int *, const Int *, double *, const Int *, const Int *, const Int *, double *,
              double *, const Int *, Int *);
void pdsyev_(const char *, const char *, const Int *, double *, const Int *, const Int *,
             const Int *, double *, double *, const Int *, const Int *, const Int *, double *,
             const Int *, Int *);
void pdtran_(const Int *, const Int *, const double *, const double *, const Int *, const Int *,
             const Int *, const double *, double *, const Int *, const Int *, const Int *);
void pztranc_(const Int *, const Int *, const double *, const double *, const Int *, const Int *,
              const Int *, const double *, double *, const Int *, const Int *, const Int *);
void pdgemr2d_(const Int *, const Int *, const double *, const Int *, const Int *, const Int *,
               double *, const Int *, const Int *, const Int *, const Int *);

static const Int i0 = 0, i1 = 1;
static int me, fails;
static FILE *dump;

#define CHECK(cond, ...)                                          \
    do {                                                          \
        if (!(cond)) {                                            \
            printf("process %d: ", me);                           \
            printf(__VA_ARGS__);                                  \
            printf("\n");                                         \
            fails++;                                              \
        }                                                         \
    } while (0)

/* a(i,j), global 0-based, in [-1,1): the same on every process and run */
static double gen(Int i, Int j, int seed)
{
    unsigned long long h = (unsigned long long)(i * 7919 + j * 104729 + seed * 1299709) + 1;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return (double)(h >> 11) / 9007199254740992.0 * 2 - 1;
}
static double gsym(Int i, Int j, Int n, int spd)
{
    double v = gen(i < j ? i : j, i < j ? j : i, 3);
    return i == j && spd ? v + n : v;
}

typedef struct {
    Int ctxt, nprow, npcol, myrow, mycol;
} grid;
typedef struct {
    Int desc[9], mloc, nloc, ld;
    double *a;
} dmat;

/* an m x n matrix in mb x nb blocks over g, element (i,j) = f(i,j) */
static void mk(dmat *d, const grid *g, Int m, Int n, Int mb, Int nb, Int cplx,
               double (*f)(Int, Int, void *), void *arg)
{
    d->mloc = numroc_(&m, &mb, &g->myrow, &i0, &g->nprow);
    d->nloc = numroc_(&n, &nb, &g->mycol, &i0, &g->npcol);
    d->ld = d->mloc > 1 ? d->mloc : 1;
    Int info;
    descinit_(d->desc, &m, &n, &mb, &nb, &i0, &i0, &g->ctxt, &d->ld, &info);
    CHECK(info == 0, "descinit info %d", info);
    size_t cnt = (size_t)d->ld * (d->nloc > 0 ? d->nloc : 1) * (cplx ? 2 : 1);
    d->a = calloc(cnt, sizeof(double));
    if (!f) return;
    for (Int jl = 0; jl < d->nloc; jl++)
        for (Int il = 0; il < d->mloc; il++) {
            Int i = (il / mb * g->nprow + g->myrow) * mb + il % mb;
            Int j = (jl / nb * g->npcol + g->mycol) * nb + jl % nb;
            if (cplx) {
                d->a[2 * (il + jl * d->ld)] = f(i, j, arg);
                d->a[2 * (il + jl * d->ld) + 1] = f(j, i, arg) * 0.5;
            } else d->a[il + jl * d->ld] = f(i, j, arg);
        }
}
/* global (i,j) of local (il,jl) */
static Int gi(const dmat *d, const grid *g, Int il) { return (il / d->desc[4] * g->nprow + g->myrow) * d->desc[4] + il % d->desc[4]; }
static Int gj(const dmat *d, const grid *g, Int jl) { return (jl / d->desc[5] * g->npcol + g->mycol) * d->desc[5] + jl % d->desc[5]; }

/* every result goes to the dump and, given MKL's run's dump (--against),
 * is compared with it: bit for bit, except PDSYEV on a grid with a row or
 * column of 3 or more processes ("tolerant"), whose sums (vDGSUM2D inside
 * PDSYTRD and the eigenvector updates) add three or more numbers in an
 * order that depends on the combine algorithm: there the two BLACS agree
 * to a few units in the last place, and we require 1e-12 relative */
static FILE *ref;
static int tolerant, nsame, nclose;
static void out(const char *what, const void *p, size_t bytes)
{
    if (dump) {
        fprintf(dump, "%s %zu\n", what, bytes);
        fwrite(p, 1, bytes, dump);
    }
    if (!ref) return;
    char name[128];
    size_t rb = 0;
    if (!fgets(name, sizeof name, ref) || sscanf(strrchr(name, ' ') ? strrchr(name, ' ') : name, "%zu", &rb) != 1 ||
        strncmp(name, what, strlen(what)) || rb != bytes) {
        CHECK(0, "%s: not the next result in MKL's dump (%s)", what, name);
        fclose(ref);
        ref = NULL;
        return;
    }
    unsigned char *q = malloc(bytes ? bytes : 1);
    if (fread(q, 1, bytes, ref) != bytes) CHECK(0, "%s: MKL's dump ends early", what);
    if (!memcmp(p, q, bytes)) nsame++;
    else if (tolerant && strstr(what, "pdsyev") && bytes % sizeof(double) == 0) {
        const double *x = p, *y = (const double *)q;
        double big = 0, diff = 0;
        for (size_t k = 0; k < bytes / sizeof(double); k++) {
            if (fabs(y[k]) > big) big = fabs(y[k]);
            if (!(fabs(x[k] - y[k]) <= diff)) diff = fabs(x[k] - y[k]);
        }
        CHECK(diff <= 1e-12 * big, "%s: differs from MKL's BLACS by %g (largest entry %g)", what, diff, big);
        nclose++;
    } else {
        size_t k = 0;
        while (((const unsigned char *)p)[k] == q[k]) k++;
        CHECK(0, "%s: not bit-identical to the result with MKL's BLACS (first difference at byte %zu of %zu)",
              what, k, bytes);
    }
    free(q);
}
static void outmat(const char *what, const dmat *d, int cplx)
{
    out(what, d->a, (size_t)d->ld * (size_t)d->nloc * sizeof(double) * (cplx ? 2 : 1));
}

static Int N = 37;
static double fa(Int i, Int j, void *n) { return gen(i, j, 1) + (i == j ? *(Int *)n * 0.25 : 0); }
static double fspd(Int i, Int j, void *n) { return gsym(i, j, *(Int *)n, 1); }
static double fsym(Int i, Int j, void *n) { return gsym(i, j, *(Int *)n, 0); }
static double fx(Int i, Int j, void *n) { (void)n; return gen(i, j, 2); }
static double fz(Int i, Int j, void *n) { (void)i; (void)j; (void)n; return 0; }
static double fb_lu(Int i, Int j, void *n)
{
    double s = 0;
    for (Int k = 0; k < *(Int *)n; k++) s += fa(i, k, n) * fx(k, j, n);
    return s;
}
static double fb_spd(Int i, Int j, void *n)
{
    double s = 0;
    for (Int k = 0; k < *(Int *)n; k++) s += fspd(i, k, n) * fx(k, j, n);
    return s;
}

/* largest |x - xtrue| over the local part, then over the grid (as 1e-12 units) */
static void check_solution(const char *what, const dmat *x, const grid *g)
{
    double worst = 0;
    for (Int jl = 0; jl < x->nloc; jl++)
        for (Int il = 0; il < x->mloc; il++) {
            double e = fabs(x->a[il + jl * x->ld] - fx(gi(x, g, il), gj(x, g, jl), NULL));
            if (!(e <= worst)) worst = e;
        }
    CHECK(worst < 1e-9, "%s: solution off by %g", what, worst);
}

static void run(const grid *g, int gridno)
{
    Int n = N, nrhs = 3, nb = 4, info;
    char tag[64];
#define TAG(s) (snprintf(tag, sizeof tag, "grid%d %s", gridno, s), tag)
    /* LU */
    dmat A, B;
    mk(&A, g, n, n, nb, nb, 0, fa, &n);
    mk(&B, g, n, nrhs, nb, nb, 0, fb_lu, &n);
    Int *ipiv = calloc((size_t)A.mloc + nb, sizeof(Int));
    pdgesv_(&n, &nrhs, A.a, &i1, &i1, A.desc, ipiv, B.a, &i1, &i1, B.desc, &info);
    CHECK(info == 0, "PDGESV info %d", info);
    check_solution("PDGESV", &B, g);
    outmat(TAG("pdgesv LU"), &A, 0);
    outmat(TAG("pdgesv X"), &B, 0);
    out(TAG("pdgesv ipiv"), ipiv, (size_t)A.mloc * sizeof(Int));
    free(ipiv);
    free(A.a);
    free(B.a);

    /* Cholesky */
    mk(&A, g, n, n, nb, nb, 0, fspd, &n);
    mk(&B, g, n, nrhs, nb, nb, 0, fb_spd, &n);
    pdpotrf_("L", &n, A.a, &i1, &i1, A.desc, &info);
    CHECK(info == 0, "PDPOTRF info %d", info);
    pdpotrs_("L", &n, &nrhs, A.a, &i1, &i1, A.desc, B.a, &i1, &i1, B.desc, &info);
    CHECK(info == 0, "PDPOTRS info %d", info);
    check_solution("PDPOTRF/PDPOTRS", &B, g);
    outmat(TAG("pdpotrf L"), &A, 0);
    outmat(TAG("pdpotrs X"), &B, 0);
    free(A.a);
    free(B.a);

    /* QR of a 41 x 29 matrix: |R(j,j)| of column 1 is its norm */
    Int m = 41, nq = 29;
    mk(&A, g, m, nq, nb, nb, 0, fx, NULL);
    double norm1 = 0;
    for (Int i = 0; i < m; i++) norm1 += fx(i, 0, NULL) * fx(i, 0, NULL);
    norm1 = sqrt(norm1);
    Int ltau = A.nloc + nb;
    double *tau = calloc((size_t)ltau, sizeof(double)), wq;
    Int lw = -1;
    pdgeqrf_(&m, &nq, A.a, &i1, &i1, A.desc, tau, &wq, &lw, &info);
    lw = (Int)wq;
    double *work = malloc((size_t)lw * sizeof(double));
    pdgeqrf_(&m, &nq, A.a, &i1, &i1, A.desc, tau, work, &lw, &info);
    CHECK(info == 0, "PDGEQRF info %d", info);
    if (g->myrow == 0 && g->mycol == 0)
        CHECK(fabs(fabs(A.a[0]) - norm1) < 1e-12 * norm1, "PDGEQRF: |R(1,1)| %.17g, column norm %.17g",
              A.a[0], norm1);
    outmat(TAG("pdgeqrf QR"), &A, 0);
    out(TAG("pdgeqrf tau"), tau, (size_t)A.nloc * sizeof(double));
    free(work);
    free(tau);
    free(A.a);

    /* symmetric eigenproblem: the eigenvalues add up to the trace */
    dmat Z;
    mk(&A, g, n, n, nb, nb, 0, fsym, &n);
    mk(&Z, g, n, n, nb, nb, 0, NULL, NULL);
    double *w = calloc((size_t)n, sizeof(double)), trace = 0;
    for (Int i = 0; i < n; i++) trace += fsym(i, i, &n);
    lw = -1;
    pdsyev_("V", "U", &n, A.a, &i1, &i1, A.desc, w, Z.a, &i1, &i1, Z.desc, &wq, &lw, &info);
    lw = (Int)wq + 1000;
    work = malloc((size_t)lw * sizeof(double));
    pdsyev_("V", "U", &n, A.a, &i1, &i1, A.desc, w, Z.a, &i1, &i1, Z.desc, work, &lw, &info);
    CHECK(info == 0, "PDSYEV info %d", info);
    double sw = 0;
    for (Int i = 0; i < n; i++) sw += w[i];
    CHECK(fabs(sw - trace) < 1e-10 * n, "PDSYEV: eigenvalues add up to %.17g, trace %.17g", sw, trace);
    out(TAG("pdsyev W"), w, (size_t)n * sizeof(double));
    outmat(TAG("pdsyev Z"), &Z, 0);
    free(work);
    free(w);
    free(A.a);
    free(Z.a);

    /* transposes (MKL's PBLAS use Cdsendrecv): C = A^T, exactly */
    dmat C;
    double one[2] = {1, 0}, zero[2] = {0, 0};
    Int mt = 23, nt = 17, mbt = 3, nbt = 3;
    mk(&A, g, mt, nt, mbt, nbt, 0, fx, NULL);
    mk(&C, g, nt, mt, mbt, nbt, 0, fz, NULL);
    pdtran_(&nt, &mt, one, A.a, &i1, &i1, A.desc, zero, C.a, &i1, &i1, C.desc);
    for (Int jl = 0; jl < C.nloc; jl++)
        for (Int il = 0; il < C.mloc; il++)
            if (C.a[il + jl * C.ld] != fx(gj(&C, g, jl), gi(&C, g, il), NULL)) {
                CHECK(0, "PDTRAN: C(%d,%d) wrong", gi(&C, g, il), gj(&C, g, jl));
                jl = C.nloc;
                break;
            }
    outmat(TAG("pdtran C"), &C, 0);
    free(A.a);
    free(C.a);
    mk(&A, g, mt, nt, mbt, nbt, 1, fx, NULL);
    mk(&C, g, nt, mt, mbt, nbt, 1, fz, NULL);
    pztranc_(&nt, &mt, one, A.a, &i1, &i1, A.desc, zero, C.a, &i1, &i1, C.desc);
    for (Int jl = 0; jl < C.nloc; jl++)
        for (Int il = 0; il < C.mloc; il++) {
            Int i = gi(&C, g, il), j = gj(&C, g, jl);
            double *c = &C.a[2 * (il + jl * C.ld)];
            if (c[0] != fx(j, i, NULL) || c[1] != -fx(i, j, NULL) * 0.5) {
                CHECK(0, "PZTRANC: C(%d,%d) wrong", i, j);
                jl = C.nloc;
                break;
            }
        }
    outmat(TAG("pztranc C"), &C, 1);
    free(A.a);
    free(C.a);

    /* PDGEMR2D: 5 x 5 blocks to 7 x 3 blocks, a submatrix at (2,3) */
    Int mr = 31, nr = 26, ia = 2, ja = 3, mm = 25, nn = 20;
    mk(&A, g, mr, nr, 5, 5, 0, fx, NULL);
    mk(&C, g, mr, nr, 7, 3, 0, fz, NULL);
    pdgemr2d_(&mm, &nn, A.a, &ia, &ja, A.desc, C.a, &ia, &ja, C.desc, &g->ctxt);
    for (Int jl = 0; jl < C.nloc; jl++)
        for (Int il = 0; il < C.mloc; il++) {
            Int i = gi(&C, g, il), j = gj(&C, g, jl);
            int in = i >= ia - 1 && i < ia - 1 + mm && j >= ja - 1 && j < ja - 1 + nn;
            if (C.a[il + jl * C.ld] != (in ? fx(i, j, NULL) : 0)) {
                CHECK(0, "PDGEMR2D: C(%d,%d) wrong", i, j);
                jl = C.nloc;
                break;
            }
        }
    outmat(TAG("pdgemr2d C"), &C, 0);
    free(A.a);
    free(C.a);
#undef TAG
}

static const char *lib_of(void *sym)
{
    Dl_info di;
    return sym && dladdr(sym, &di) && di.dli_fname ? di.dli_fname : "?";
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: mkl_sl ours|mkl DUMP [--against MKLDUMP] PxQ...\n");
        return 2;
    }
    Int pnum, np;
    Cblacs_pinfo(&pnum, &np);
    me = (int)pnum;
    /* which BLACS answers */
    const char *want = !strcmp(argv[1], "ours") ? "libblacs" : "libmkl_blacs";
    const char *l1 = lib_of((void *)Cblacs_gridinit), *l2 = lib_of((void *)Cdsendrecv);
    CHECK(strstr(l1, want) && strstr(l2, want), "BLACS from %s and %s, expected %s", l1, l2, want);
    if (me == 0) printf("mkl_sl: BLACS is %s\n", l1);
    char name[4096];
    snprintf(name, sizeof name, "%s.%d", argv[2], me);
    dump = fopen(name, "wb");
    if (!dump) {
        perror(name);
        return 1;
    }
    int first = 3;
    if (argc > 4 && !strcmp(argv[3], "--against")) {
        snprintf(name, sizeof name, "%s.%d", argv[4], me);
        ref = fopen(name, "rb");
        CHECK(ref != NULL, "cannot read MKL's dump %s", name);
        first = 5;
    }
    for (int a = first; a < argc; a++) {
        grid g;
        int p, q;
        if (sscanf(argv[a], "%dx%d", &p, &q) != 2 || p * q != np) {
            fprintf(stderr, "mkl_sl: grid %s does not fit %d processes\n", argv[a], (int)np);
            return 2;
        }
        Cblacs_get(0, 0, &g.ctxt);
        Cblacs_gridinit(&g.ctxt, "R", p, q);
        Cblacs_gridinfo(g.ctxt, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
        tolerant = g.nprow > 2 || g.npcol > 2;
        run(&g, a - first + 1);
        Cblacs_gridexit(g.ctxt);
    }
    fclose(dump);
    if (ref) fclose(ref);
    Int all = fails, ctxt, cnt[2] = {nsame, nclose};
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cigsum2d(ctxt, "A", " ", 1, 1, &all, 1, -1, -1);
    Cigsum2d(ctxt, "A", " ", 2, 1, cnt, 2, -1, -1);
    Cblacs_gridexit(ctxt);
    if (me == 0) printf("mkl_sl %s: %d processes, grids", argv[1], (int)np);
    for (int a = first; a < argc && me == 0; a++) printf(" %s", argv[a]);
    if (me == 0 && first == 5)
        printf(": %d local results bit-identical to MKL's BLACS, %d (PDSYEV, 3+ in a row or column) within 1e-12",
               (int)cnt[0], (int)cnt[1]);
    if (me == 0) printf(": %s\n", all ? "FAILED" : "ok");
    Cblacs_exit(0);
    return all != 0;
}
