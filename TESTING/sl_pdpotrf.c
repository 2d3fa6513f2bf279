/*
 * sl_pdpotrf.c -- ScaLAPACK on our BLACS, from C: Cholesky factorisation
 * A = L L^T of a distributed symmetric positive definite matrix with
 * PDPOTRF on a 2 x 2 process grid (block-cyclic, NB = 8), checked by the
 * scaled residual ||A - L L^T||_1 / (||A||_1 N eps) (L L^T formed with
 * PDGEMM).
 *
 * It also shows which BLACS answers the C interface:
 *  - dlsym(RTLD_DEFAULT, "Cblacs_gridinit") and dladdr name the object that
 *    provides Cblacs_gridinit to the whole process (the program itself when
 *    our static library is linked in, libblacs.so under LD_PRELOAD, the
 *    ScaLAPACK library otherwise);
 *  - Cblacs_get(ctxt, 22, &v) (number of live grids) is an extension of ours;
 *    the reference BLACS warns "Unknown WHAT" and leaves v alone.
 * With the argument "ours" the program fails unless our BLACS answers.
 *
 * Our own prototypes (a ScaLAPACK client need not have our header).
 * Run on 4 processes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctxt);
void Cblacs_abort(int ctxt, int errno_);
void Cblacs_exit(int notdone);
void Cdgamx2d(int ctxt, char *scope, char *top, int m, int n, double *a, int lda, int *ra,
              int *ca, int rcflag, int rdest, int cdest);

/* ScaLAPACK (Fortran interface; hidden CHARACTER lengths passed explicitly) */
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ictxt, const int *lld, int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *info, size_t luplo);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
             const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
             double *c, const int *ic, const int *jc, const int *descc, size_t lta, size_t ltb);
double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work, size_t lnorm);
double pdlamch_(const int *ictxt, const char *cmach, size_t lcmach);

enum { N = 96, NB = 8 };

/* 0-based global index of 0-based local index l (distribution starts on process 0) */
static int l2g(int l, int p, int np) { return (l / NB) * NB * np + p * NB + l % NB; }

/* A(i,j): symmetric, strongly diagonally weighted, so positive definite */
static double aij(int i, int j)
{
    return 1.0 / (1.0 + abs(i - j)) + 0.1 * cos(0.3 * (i + j)) + (i == j ? (double)N : 0.0);
}

int main(int argc, char **argv)
{
    int want_ours = argc > 1 && strcmp(argv[1], "ours") == 0;
    int iam, nprocs, ctxt, nprow = 2, npcol = 2, myrow, mycol, info, one = 1, zero = 0;
    int desc[9];

    Cblacs_pinfo(&iam, &nprocs);
    if (nprocs < nprow * npcol) {
        if (iam == 0) printf("sl_pdpotrf: needs 4 processes\n");
        Cblacs_exit(0);
        return 1;
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row-major", nprow, npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    int bad = 0, ours = 1;
    if (myrow < 0) goto done;

    /* which BLACS is this? */
    void *sym = dlsym(RTLD_DEFAULT, "Cblacs_gridinit");
    Dl_info dli;
    const char *from = sym && dladdr(sym, &dli) && dli.dli_fname ? dli.dli_fname : "?";
    int nlive = -99;
    Cblacs_get(ctxt, 22, &nlive);
    ours = nlive == 1 && !strstr(from, "scalapack");
    if (iam == 0)
        printf("sl_pdpotrf: Cblacs_gridinit comes from %s; Cblacs_get WHAT=22 -> %d: "
               "BLACS in use is %s\n",
               from, nlive, ours ? "ours" : "NOT ours");

    int mloc = numroc_(&(int){N}, &(int){NB}, &myrow, &zero, &nprow);
    int nloc = numroc_(&(int){N}, &(int){NB}, &mycol, &zero, &npcol);
    int lld = mloc > 1 ? mloc : 1;
    descinit_(desc, &(int){N}, &(int){N}, &(int){NB}, &(int){NB}, &zero, &zero, &ctxt, &lld,
              &info);
    size_t sz = (size_t)lld * (size_t)(nloc > 1 ? nloc : 1);
    double *a = malloc(sz * sizeof *a), *a0 = malloc(sz * sizeof *a0);
    double *work = malloc((size_t)(mloc + nloc + 1) * sizeof *work);
    for (int jl = 0; jl < nloc; jl++)
        for (int il = 0; il < mloc; il++)
            a[(size_t)jl * lld + il] = aij(l2g(il, myrow, nprow), l2g(jl, mycol, npcol));
    memcpy(a0, a, sz * sizeof *a);

    pdpotrf_("L", &(int){N}, a, &one, &one, desc, &info, 1);
    if (info != 0) {
        printf("sl_pdpotrf: PDPOTRF INFO = %d on process %d\n", info, iam);
        Cblacs_abort(ctxt, 1);
    }
    /* keep L: zero the strictly upper part PDPOTRF left untouched */
    for (int jl = 0; jl < nloc; jl++)
        for (int il = 0; il < mloc; il++)
            if (l2g(il, myrow, nprow) < l2g(jl, mycol, npcol)) a[(size_t)jl * lld + il] = 0.0;

    double anorm = pdlange_("1", &(int){N}, &(int){N}, a0, &one, &one, desc, work, 1);
    /* a0 := a0 - L L^T */
    pdgemm_("N", "T", &(int){N}, &(int){N}, &(int){N}, &(double){-1.0}, a, &one, &one, desc, a,
            &one, &one, desc, &(double){1.0}, a0, &one, &one, desc, 1, 1);
    double rnorm = pdlange_("1", &(int){N}, &(int){N}, a0, &one, &one, desc, work, 1);
    double eps = pdlamch_(&ctxt, "Epsilon", 7);
    double resid = rnorm / (anorm * N * eps);
    bad = !(resid < 10.0);
    if (iam == 0) {
        printf("sl_pdpotrf: PDPOTRF, N = %d, NB = %d, %d x %d grid\n", N, NB, nprow, npcol);
        printf("sl_pdpotrf: ||A - L L^T|| / (||A|| N eps) = %.3e %s\n", resid, bad ? "FAILED" : "ok");
    }
    /* everybody learns the verdict (a last use of the BLACS) */
    double flag = bad + (want_ours && !ours);
    Cdgamx2d(ctxt, "All", " ", 1, 1, &flag, 1, NULL, NULL, -1, -1, -1);
    bad = flag != 0.0;
    free(a);
    free(a0);
    free(work);
    Cblacs_gridexit(ctxt);
done:
    Cblacs_exit(0);
    return bad ? 1 : 0;
}
