/*
 * sl_bench.c -- the ScaLAPACK driver of make bench-scalapack
 * (TIMING/scalapack.mk, TIMING/sim/scalapack.sh).
 *
 *   sl_bench ROUTINES N NB P Q [WRAPPREFIX]
 *
 * ROUTINES is a comma-separated list of getrf, potrf, geqrf, sytrd.  On a
 * P x Q grid (row-major BLACS_GRIDINIT) with NB x NB blocks, every routine
 * gets a freshly generated N x N matrix (deterministic: a hash of the
 * global indices in [-0.5, 0.5); for potrf and sytrd symmetric with N
 * added to the diagonal, so that potrf's matrix is positive definite; for
 * getrf and geqrf general, so that getrf pivots as on real data), is
 * timed after an MPI_Barrier with MPI_Wtime (the maximum over ranks), and
 * its result summarised by a checksum: the sum of |entries| of the
 * distributed result (plus |tau|, the pivot indices or |d|+|e| where the
 * routine returns them).  After the timed call, outside it, the scaled
 * residual of a solve with the factors (getrf, potrf, geqrf):
 * ||A x - b|| / (||A|| ||x|| N eps), infinity norms; for sytrd, where
 * there is no solve, what an orthogonal similarity keeps: the trace and the
 * Frobenius norm of the tridiagonal T against A's, each difference over
 * (||A||_F N eps).  The largest over ranks.  Rank 0 prints one line per
 * routine:
 *   SLB,routine,N,NB,P,Q,seconds,checksum,info,residual
 * and, built for real (-DSL_REAL, sl_flops.c), one line per rank with the
 * operation count and the seconds of its BLAS and LAPACK calls in the
 * timed call, and the seconds it spent neither there nor in a BLACS call
 * (ScaLAPACK's own code: index arithmetic, PBLAS's packing loops):
 *   SLK,routine,rank,flops,seconds,other
 * and the same by kernel and class of operation count (sl_wrap.h):
 *   SLKT,routine,rank,kernel,class,flops,seconds
 * and the gaps between the wrapped calls by the call that ends each
 * (sl_wrap.h; key as there):
 *   SLKG,routine,rank,key,count,seconds
 * SL_WARMUP=k in the environment runs each routine k times first,
 * untimed, each on a fresh copy of the matrix (sl_real.sh: the first call
 * of a process pays page faults and MPI's first use of each path, which no
 * simulation models).
 * The driver starts MPI with MPI_Init, as most ScaLAPACK programs do;
 * SL_INIT_THREAD=multiple in the environment makes it MPI_Init_thread
 * with MPI_THREAD_MULTIPLE (this library then runs its progress thread).
 * With WRAPPREFIX the BLACS time accounting of sl_wrap.c is written to
 * WRAPPREFIX.<routine>.csv for each routine.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "sl_wrap.h"

void blacs_pinfo_(int *me, int *np);
void blacs_get_(int *ctxt, int *what, int *val);
void blacs_gridinit_(int *ctxt, const char *order, int *p, int *q, size_t);
void blacs_gridinfo_(int *ctxt, int *p, int *q, int *r, int *c);
void blacs_gridexit_(int *ctxt);
void blacs_exit_(int *cont);
int numroc_(int *n, int *nb, int *iproc, int *isrc, int *nprocs);
void descinit_(int *desc, int *m, int *n, int *mb, int *nb, int *irsrc, int *icsrc, int *ctxt, int *lld,
               int *info);
void pdgetrf_(int *m, int *n, double *a, int *ia, int *ja, int *desc, int *ipiv, int *info);
void pdpotrf_(const char *uplo, int *n, double *a, int *ia, int *ja, int *desc, int *info, size_t);
void pdgeqrf_(int *m, int *n, double *a, int *ia, int *ja, int *desc, double *tau, double *work, int *lwork,
              int *info);
void pdsytrd_(const char *uplo, int *n, double *a, int *ia, int *ja, int *desc, double *d, double *e,
              double *tau, double *work, int *lwork, int *info, size_t);
void pdgemv_(const char *trans, int *m, int *n, double *alpha, double *a, int *ia, int *ja, int *desca, double *x,
             int *ix, int *jx, int *descx, int *incx, double *beta, double *y, int *iy, int *jy, int *descy,
             int *incy, size_t);
double pdlange_(const char *norm, int *m, int *n, double *a, int *ia, int *ja, int *desca, double *work, size_t);
void pdgetrs_(const char *trans, int *n, int *nrhs, double *a, int *ia, int *ja, int *desca, int *ipiv, double *b,
              int *ib, int *jb, int *descb, int *info, size_t);
void pdpotrs_(const char *uplo, int *n, int *nrhs, double *a, int *ia, int *ja, int *desca, double *b, int *ib,
              int *jb, int *descb, int *info, size_t);
void pdormqr_(const char *side, const char *trans, int *m, int *n, int *k, double *a, int *ia, int *ja, int *desca,
              double *tau, double *c, int *ic, int *jc, int *descc, double *work, int *lwork, int *info, size_t,
              size_t);
void pdtrtrs_(const char *uplo, const char *trans, const char *diag, int *n, int *nrhs, double *a, int *ia, int *ja,
              int *desca, double *b, int *ib, int *jb, int *descb, int *info, size_t, size_t, size_t);

static double hval(uint64_t i, uint64_t j)
{
    uint64_t x = i * 0x9E3779B97F4A7C15ull ^ (j + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return (double)(x >> 11) / 9007199254740992.0 - 0.5;
}

/* the local part of the test matrix: sym != 0 for a symmetric one */
static void generate(double *a, int lda, int mloc, int nloc, int n, int nb, int myr, int myc, int p, int q,
                     int sym)
{
    for (int lj = 0; lj < nloc; lj++) {
        int gj = ((lj / nb) * q + myc) * nb + lj % nb;
        for (int li = 0; li < mloc; li++) {
            int gi = ((li / nb) * p + myr) * nb + li % nb;
            double v = sym ? hval(gi < gj ? gi : gj, gi < gj ? gj : gi) : hval(gi, gj);
            if (sym && gi == gj) v += n;
            a[(size_t)lj * lda + li] = v;
        }
    }
}

/* sytrd: T = Q^T A Q, D its diagonal and E its subdiagonal, as held by
 * process row 0 (local columns of the distribution).  An orthogonal
 * similarity keeps the trace and the Frobenius norm; a backward-stable
 * reduction keeps them to a few units of ||A||_F N eps.  Not a proof that
 * T is right, but a wrong value of D or E, or a lost panel, shows. */
static double sytrd_check(int n, const double *a0, int lld, int mloc, int nloc, const double *d,
                          const double *e, int nb, int myr, int myc, int p, int q)
{
    double v[4] = {0, 0, 0, 0}; /* trace(A), ||A||_F^2, trace(T), ||T||_F^2 */
    for (int lj = 0; lj < nloc; lj++) {
        int gj = ((lj / nb) * q + myc) * nb + lj % nb;
        for (int li = 0; li < mloc; li++) {
            int gi = ((li / nb) * p + myr) * nb + li % nb;
            double x = a0[(size_t)lj * lld + li];
            v[1] += x * x;
            if (gi == gj) v[0] += x;
        }
        if (myr == 0) {
            v[2] += d[lj];
            v[3] += d[lj] * d[lj] + (gj < n - 1 ? 2 * e[lj] * e[lj] : 0);
        }
    }
    double w[4];
    MPI_Allreduce(v, w, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double fa = sqrt(w[1]), unit = fa * n * 1.1102230246251565e-16;
    double r1 = fabs(w[2] - w[0]) / unit, r2 = fabs(sqrt(w[3]) - fa) / unit;
    return r1 > r2 ? r1 : r2;
}

/* The scaled residual of a solve with the factors in a: b = A0 xt (xt a
 * hash of the row index), x solved from b with the factors, then
 * ||A0 x - b||_inf / (||A0||_inf ||x||_inf N eps).  A few units for a
 * backward-stable factorisation.  a0: the matrix before the factorisation;
 * x, b: n x 1 vectors of descriptor descb (in process column 0); tau:
 * geqrf's. */
static double residual(const char *r, int n, double *a, double *a0, int *desc, int *ipiv, double *tau, double *x,
                       double *b, int *descb, double *work, int mloc, int nb, int myr, int myc, int p)
{
    int one = 1, info = 0;
    double done = 1, dzero = 0, dm1 = -1;
    if (myc == 0)
        for (int li = 0; li < mloc; li++) x[li] = hval((uint64_t)(((li / nb) * p + myr) * nb + li % nb), 7777);
    pdgemv_("N", &n, &n, &done, a0, &one, &one, desc, x, &one, &one, descb, &one, &dzero, b, &one, &one, descb,
            &one, 1);
    if (myc == 0) memcpy(x, b, sizeof(double) * (size_t)mloc);
    if (!strcmp(r, "getrf"))
        pdgetrs_("N", &n, &one, a, &one, &one, desc, ipiv, x, &one, &one, descb, &info, 1);
    else if (!strcmp(r, "potrf"))
        pdpotrs_("L", &n, &one, a, &one, &one, desc, x, &one, &one, descb, &info, 1);
    else { /* geqrf: x = R^-1 Q^T b */
        double w = 0;
        int lw = -1;
        pdormqr_("L", "T", &n, &one, &n, a, &one, &one, desc, tau, x, &one, &one, descb, &w, &lw, &info, 1, 1);
        lw = (int)w + 1;
        double *wk = malloc(sizeof(double) * (size_t)lw);
        pdormqr_("L", "T", &n, &one, &n, a, &one, &one, desc, tau, x, &one, &one, descb, wk, &lw, &info, 1, 1);
        free(wk);
        pdtrtrs_("U", "N", "N", &n, &one, a, &one, &one, desc, x, &one, &one, descb, &info, 1, 1, 1);
    }
    if (info) return 1e300;
    double an = pdlange_("I", &n, &n, a0, &one, &one, desc, work, 1);
    double xn = pdlange_("I", &n, &one, x, &one, &one, descb, work, 1);
    pdgemv_("N", &n, &n, &done, a0, &one, &one, desc, x, &one, &one, descb, &one, &dm1, b, &one, &one, descb,
            &one, 1);
    double rn = pdlange_("I", &n, &one, b, &one, &one, descb, work, 1);
    return rn / (an * xn * n * 1.1102230246251565e-16);
}

static double asum(const double *a, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += fabs(a[i]);
    return s;
}

int main(int argc, char **argv)
{
    /* as most ScaLAPACK programs, MPI_Init; SL_INIT_THREAD=multiple asks for
     * MPI_THREAD_MULTIPLE, which lets a BLACS run a progress thread */
    const char *th = getenv("SL_INIT_THREAD");
    if (th && !strcmp(th, "multiple")) {
        int got;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &got);
    } else
        MPI_Init(&argc, &argv);
    if (argc < 6) {
        fprintf(stderr, "usage: sl_bench ROUTINES N NB P Q [WRAPPREFIX]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = atoi(argv[2]), nb = atoi(argv[3]), p = atoi(argv[4]), q = atoi(argv[5]);
    const char *wrap = argc > 6 ? argv[6] : NULL, *wu = getenv("SL_WARMUP");
    const int warmup = wu && atoi(wu) > 0 ? atoi(wu) : 0;
    int me, np, ctxt, zero = 0, one = 1, m1 = -1, info = 0;
    blacs_pinfo_(&me, &np);
    if (np < p * q) {
        if (me == 0) fprintf(stderr, "sl_bench: %d ranks for a %d x %d grid\n", np, p, q);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    blacs_get_(&m1, &zero, &ctxt);
    blacs_gridinit_(&ctxt, "R", &p, &q, 1);
    int myr = -1, myc = -1, pp, qq;
    blacs_gridinfo_(&ctxt, &pp, &qq, &myr, &myc);
    int in_grid = myr >= 0 && myr < p && myc >= 0 && myc < q;
    int mloc = in_grid ? numroc_(&n, &nb, &myr, &zero, &p) : 0;
    int nloc = in_grid ? numroc_(&n, &nb, &myc, &zero, &q) : 0;
    int lld = mloc > 1 ? mloc : 1, desc[9];
    double *a = NULL, *v1 = NULL, *v2 = NULL, *v3 = NULL, *work = NULL, *a0 = NULL, *x = NULL, *b = NULL,
           *rwork = NULL;
    int *ipiv = NULL, descb[9];
    if (in_grid) {
        descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
        descinit_(descb, &n, &one, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
        a = malloc(sizeof(double) * (size_t)lld * (nloc > 0 ? nloc : 1));
        a0 = malloc(sizeof(double) * (size_t)lld * (nloc > 0 ? nloc : 1));
        x = malloc(sizeof(double) * (size_t)lld);
        b = malloc(sizeof(double) * (size_t)lld);
        rwork = malloc(sizeof(double) * (size_t)(mloc + nloc + 2 * nb));
        if (!a0 || !x || !b || !rwork) {
            fprintf(stderr, "sl_bench: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        v1 = malloc(sizeof(double) * (size_t)(nloc + nb));
        v2 = malloc(sizeof(double) * (size_t)(nloc + nb));
        v3 = malloc(sizeof(double) * (size_t)(nloc + nb));
        ipiv = malloc(sizeof(int) * (size_t)(mloc + nb));
        if (!a || !v1 || !v2 || !v3 || !ipiv) {
            fprintf(stderr, "sl_bench: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    char *list = strdup(argv[1]);
    char *save = NULL; /* strtok_r: libc is shared by the simulated ranks */
    for (char *r = strtok_r(list, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
        int sym = !strcmp(r, "potrf") || !strcmp(r, "sytrd");
        if (strcmp(r, "getrf") && strcmp(r, "potrf") && strcmp(r, "geqrf") && strcmp(r, "sytrd")) {
            if (me == 0) fprintf(stderr, "sl_bench: unknown routine %s\n", r);
            continue;
        }
        double sum = 0, t = 0;
        int lwork = 0;
        info = 0;
        if (in_grid) {
            generate(a, lld, mloc, nloc, n, nb, myr, myc, p, q, sym);
            memcpy(a0, a, sizeof(double) * (size_t)lld * (size_t)nloc);
            /* workspace queries (outside the timed region) */
            if (!strcmp(r, "geqrf") || !strcmp(r, "sytrd")) {
                double w = 0;
                if (r[0] == 'g')
                    pdgeqrf_(&n, &n, a, &one, &one, desc, v1, &w, &m1, &info);
                else
                    pdsytrd_("L", &n, a, &one, &one, desc, v1, v2, v3, &w, &m1, &info, 1);
                free(work);
                lwork = (int)w + 1;
                work = malloc(sizeof(double) * (size_t)lwork);
            }
        }
        /* SL_WARMUP runs first, untimed, each on a fresh copy of A */
        double t0 = 0;
        for (int it = 0; it <= warmup; it++) {
            if (it == warmup) {
                sl_wrap_reset();
                sl_flops_reset(r);
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = MPI_Wtime();
            }
            if (in_grid) {
                if (!strcmp(r, "getrf"))
                    pdgetrf_(&n, &n, a, &one, &one, desc, ipiv, &info);
                else if (!strcmp(r, "potrf"))
                    pdpotrf_("L", &n, a, &one, &one, desc, &info, 1);
                else if (!strcmp(r, "geqrf"))
                    pdgeqrf_(&n, &n, a, &one, &one, desc, v1, work, &lwork, &info);
                else
                    pdsytrd_("L", &n, a, &one, &one, desc, v1, v2, v3, work, &lwork, &info, 1);
                if (it < warmup) memcpy(a, a0, sizeof(double) * (size_t)lld * (size_t)nloc);
            }
        }
        t = MPI_Wtime() - t0;
        sl_flops_end();
        double kern[3], *kall = me == 0 ? malloc(sizeof(double) * 3 * (size_t)np) : NULL;
        sl_flops_get(&kern[0], &kern[1]);
        kern[2] = t - kern[1] - sl_wrap_seconds();
        MPI_Gather(kern, 3, MPI_DOUBLE, kall, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        enum { NT = SL_FLOPS_KERNELS * SL_FLOPS_CLASSES * 2 };
        double ktab[NT], *ktall = me == 0 ? malloc(sizeof(double) * NT * (size_t)np) : NULL;
        sl_flops_table(ktab);
        MPI_Gather(ktab, NT, MPI_DOUBLE, ktall, NT, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        double gtab[2 * SL_GAP_KEYS], *gall = me == 0 ? malloc(sizeof gtab * (size_t)np) : NULL;
        sl_gap_table(gtab);
        MPI_Gather(gtab, 2 * SL_GAP_KEYS, MPI_DOUBLE, gall, 2 * SL_GAP_KEYS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (wrap) {
            char path[4096];
            snprintf(path, sizeof path, "%s.%s.csv", wrap, r);
            sl_wrap_dump(path);
        }
        if (in_grid) {
            if (!strcmp(r, "potrf") || !strcmp(r, "sytrd")) {
                /* only the lower triangle is the result */
                for (int lj = 0; lj < nloc; lj++) {
                    int gj = ((lj / nb) * q + myc) * nb + lj % nb;
                    for (int li = 0; li < mloc; li++) {
                        int gi = ((li / nb) * p + myr) * nb + li % nb;
                        if (gi >= gj) sum += fabs(a[(size_t)lj * lld + li]);
                    }
                }
            } else
                sum = asum(a, (size_t)lld * nloc);
            if (!strcmp(r, "getrf") && myc == 0)
                for (int i = 0; i < mloc; i++) sum += ipiv[i];
            if (!strcmp(r, "geqrf") && myr == 0) sum += asum(v1, (size_t)nloc);
            if (!strcmp(r, "sytrd") && myr == 0) sum += asum(v1, (size_t)nloc) + asum(v2, (size_t)nloc);
        }
        /* sytrd_check on every rank (a rank off the grid adds nothing) */
        double res = !strcmp(r, "sytrd") ? sytrd_check(n, a0, lld, mloc, nloc, v1, v2, nb, myr, myc, p, q)
                     : in_grid ? residual(r, n, a, a0, desc, ipiv, v1, x, b, descb, rwork, mloc, nb, myr, myc, p)
                               : -1;
        double tmax = 0, stot = 0, rmax = 0;
        int imax = 0;
        MPI_Reduce(&res, &rmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&sum, &stot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        info = info < 0 ? -info : info;
        MPI_Reduce(&info, &imax, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
        if (me == 0) {
            printf("SLB,%s,%d,%d,%d,%d,%.9g,%.17g,%d,%.3g\n", r, n, nb, p, q, tmax, stot, imax, rmax);
            for (int k = 0; kall && k < np; k++)
                if (kall[3 * k + 1] > 0)
                    printf("SLK,%s,%d,%.9g,%.9g,%.9g\n", r, k, kall[3 * k], kall[3 * k + 1],
                           kall[3 * k + 2]);
            for (int k = 0; gall && k < np; k++)
                for (int i = 0; i < SL_GAP_KEYS; i++)
                    if (gall[((size_t)k * SL_GAP_KEYS + i) * 2 + 1] > 0)
                        printf("SLKG,%s,%d,%d,%.0f,%.9g\n", r, k, i,
                               gall[((size_t)k * SL_GAP_KEYS + i) * 2 + 1],
                               gall[((size_t)k * SL_GAP_KEYS + i) * 2]);
            for (int k = 0; ktall && k < np; k++)
                for (int i = 0; i < NT / 2; i++)
                    if (ktall[(size_t)k * NT + 2 * i + 1] > 0)
                        printf("SLKT,%s,%d,%d,%d,%.9g,%.9g\n", r, k, i / SL_FLOPS_CLASSES,
                               i % SL_FLOPS_CLASSES, ktall[(size_t)k * NT + 2 * i],
                               ktall[(size_t)k * NT + 2 * i + 1]);
            fflush(stdout);
        }
        free(kall);
        free(ktall);
        free(gall);
    }
    free(list);
    free(a), free(v1), free(v2), free(v3), free(ipiv), free(work), free(a0), free(x), free(b), free(rwork);
    if (in_grid) blacs_gridexit_(&ctxt);
    blacs_exit_(&one);
    MPI_Finalize();
    return 0;
}
