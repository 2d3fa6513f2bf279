/*
 * sl_flops.c -- the "flops" mode of make bench-scalapack: computation
 * charged by its operation count rather than by its measured time.
 *
 * The "comp" mode (smpi/simulate-computation:yes) charges each rank's
 * computation as SMPI measures it on this machine, so a loaded machine
 * moves the figures by more than the BLACS do (the two libraries' runs of
 * one cell were 0.87-1.60 apart with other jobs running).  Here the
 * simulation charges nothing it measures (simulate-computation:no, as in
 * the "comm" mode); instead every BLAS and LAPACK routine ScaLAPACK calls
 * locally (linked with -Wl,--wrap=<name>_, TIMING/scalapack.mk) charges
 * its operation count at the host's speed (20 Gflop/s in the platform
 * files) through smpi_execute_flops, and then computes as usual, so the
 * results and checksums are those of the other modes.  Counts: LAWN 41's
 * for the Level 2 and 3 BLAS (dgemm 2mnk, dtrsm m^2 n or m n^2, dsyrk
 * n(n+1)k, ...), one per element for the Level 1 routines and copies,
 * 3n for dlarfg.  Two runs of a cell give the same time, so the mode says
 * how the BLACS change an application's time when it also computes, on any
 * machine and under any load.  Only when SL_FLOPS is set to 1 in the
 * environment (scalapack.sh does for this mode); otherwise the wrappers
 * only pass the call on.  Built for a real MPI (-DSL_REAL: the driver of
 * sl_real.sh) they charge nothing and time the calls instead, so that a
 * real run says at what rate each process computed (sl_flops_get), the
 * rate its simulation is then given.
 *
 * The wrappers take the Fortran arguments by address and leave out the
 * hidden lengths of character arguments, which the BLAS and LAPACK used
 * here never read (CHARACTER*1 arguments; PBLAS calls them from C without
 * lengths too).
 */
#include <stdlib.h>
#include <string.h>
#include "sl_wrap.h"

typedef int fint;

#ifdef SL_REAL
/* The real build (build/real-scalapack, sl_real.sh): nothing is charged;
 * each wrapped call is timed instead, and its count added, so that a run
 * says at what rate each of its processes computed (sl_flops_get).  Only
 * the outermost wrapped call is timed, should one call another. */
#include <mpi.h>
static double kflops, ksecs;
static int depth;
#define CHARGED(flops, call)                                 \
    do {                                                     \
        const double t0_ = depth++ ? 0 : MPI_Wtime();        \
        call;                                                \
        if (!--depth) ksecs += MPI_Wtime() - t0_;            \
        kflops += (flops);                                   \
    } while (0)

void sl_flops_reset(void) { kflops = ksecs = 0; }

void sl_flops_get(double *flops, double *seconds)
{
    *flops = kflops;
    *seconds = ksecs;
}
#else
#include <smpi/smpi.h>
static int charge_on = -1;

static void charge(double flops)
{
    if (charge_on < 0) {
        const char *e = getenv("SL_FLOPS");
        charge_on = e && *e && strcmp(e, "0") != 0;
    }
    if (charge_on && flops > 0) smpi_execute_flops(flops);
}
#define CHARGED(flops, call) \
    do {                     \
        charge(flops);       \
        call;                \
    } while (0)

void sl_flops_reset(void) {}

void sl_flops_get(double *flops, double *seconds) { *flops = *seconds = 0; }
#endif

static int left(const char *side) { return *side == 'L' || *side == 'l'; }

#define D double
#define I fint

/* ---- Level 3 ------------------------------------------------------------ */
void __real_dgemm_(const char *, const char *, const I *, const I *, const I *, const D *, const D *,
                   const I *, const D *, const I *, const D *, D *, const I *);
void __wrap_dgemm_(const char *ta, const char *tb, const I *m, const I *n, const I *k, const D *al,
                   const D *a, const I *lda, const D *b, const I *ldb, const D *be, D *c, const I *ldc)
{
    CHARGED(2.0 * *m * *n * *k, __real_dgemm_(ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc));
}

void __real_dsymm_(const char *, const char *, const I *, const I *, const D *, const D *, const I *,
                   const D *, const I *, const D *, D *, const I *);
void __wrap_dsymm_(const char *side, const char *uplo, const I *m, const I *n, const D *al, const D *a,
                   const I *lda, const D *b, const I *ldb, const D *be, D *c, const I *ldc)
{
    CHARGED(left(side) ? 2.0 * *m * *m * *n : 2.0 * *m * *n * *n,
            __real_dsymm_(side, uplo, m, n, al, a, lda, b, ldb, be, c, ldc));
}

void __real_dsyrk_(const char *, const char *, const I *, const I *, const D *, const D *, const I *,
                   const D *, D *, const I *);
void __wrap_dsyrk_(const char *uplo, const char *tr, const I *n, const I *k, const D *al, const D *a,
                   const I *lda, const D *be, D *c, const I *ldc)
{
    CHARGED((double)*n * (*n + 1) * *k, __real_dsyrk_(uplo, tr, n, k, al, a, lda, be, c, ldc));
}

void __real_dsyr2k_(const char *, const char *, const I *, const I *, const D *, const D *, const I *,
                    const D *, const I *, const D *, D *, const I *);
void __wrap_dsyr2k_(const char *uplo, const char *tr, const I *n, const I *k, const D *al, const D *a,
                    const I *lda, const D *b, const I *ldb, const D *be, D *c, const I *ldc)
{
    CHARGED(2.0 * *n * *n * *k, __real_dsyr2k_(uplo, tr, n, k, al, a, lda, b, ldb, be, c, ldc));
}

void __real_dtrmm_(const char *, const char *, const char *, const char *, const I *, const I *,
                   const D *, const D *, const I *, D *, const I *);
void __wrap_dtrmm_(const char *side, const char *uplo, const char *ta, const char *diag, const I *m,
                   const I *n, const D *al, const D *a, const I *lda, D *b, const I *ldb)
{
    CHARGED(left(side) ? (double)*m * *m * *n : (double)*m * *n * *n,
            __real_dtrmm_(side, uplo, ta, diag, m, n, al, a, lda, b, ldb));
}

void __real_dtrsm_(const char *, const char *, const char *, const char *, const I *, const I *,
                   const D *, const D *, const I *, D *, const I *);
void __wrap_dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const I *m,
                   const I *n, const D *al, const D *a, const I *lda, D *b, const I *ldb)
{
    CHARGED(left(side) ? (double)*m * *m * *n : (double)*m * *n * *n,
            __real_dtrsm_(side, uplo, ta, diag, m, n, al, a, lda, b, ldb));
}

/* ---- Level 2 ------------------------------------------------------------ */
void __real_dgemv_(const char *, const I *, const I *, const D *, const D *, const I *, const D *,
                   const I *, const D *, D *, const I *);
void __wrap_dgemv_(const char *t, const I *m, const I *n, const D *al, const D *a, const I *lda,
                   const D *x, const I *incx, const D *be, D *y, const I *incy)
{
    CHARGED(2.0 * *m * *n, __real_dgemv_(t, m, n, al, a, lda, x, incx, be, y, incy));
}

void __real_dger_(const I *, const I *, const D *, const D *, const I *, const D *, const I *, D *,
                  const I *);
void __wrap_dger_(const I *m, const I *n, const D *al, const D *x, const I *incx, const D *y,
                  const I *incy, D *a, const I *lda)
{
    CHARGED(2.0 * *m * *n, __real_dger_(m, n, al, x, incx, y, incy, a, lda));
}

void __real_dsymv_(const char *, const I *, const D *, const D *, const I *, const D *, const I *,
                   const D *, D *, const I *);
void __wrap_dsymv_(const char *uplo, const I *n, const D *al, const D *a, const I *lda, const D *x,
                   const I *incx, const D *be, D *y, const I *incy)
{
    CHARGED(2.0 * *n * *n, __real_dsymv_(uplo, n, al, a, lda, x, incx, be, y, incy));
}

void __real_dsyr_(const char *, const I *, const D *, const D *, const I *, D *, const I *);
void __wrap_dsyr_(const char *uplo, const I *n, const D *al, const D *x, const I *incx, D *a,
                  const I *lda)
{
    CHARGED((double)*n * *n, __real_dsyr_(uplo, n, al, x, incx, a, lda));
}

void __real_dsyr2_(const char *, const I *, const D *, const D *, const I *, const D *, const I *, D *,
                   const I *);
void __wrap_dsyr2_(const char *uplo, const I *n, const D *al, const D *x, const I *incx, const D *y,
                   const I *incy, D *a, const I *lda)
{
    CHARGED(2.0 * *n * *n, __real_dsyr2_(uplo, n, al, x, incx, y, incy, a, lda));
}

void __real_dtrmv_(const char *, const char *, const char *, const I *, const D *, const I *, D *,
                   const I *);
void __wrap_dtrmv_(const char *uplo, const char *t, const char *diag, const I *n, const D *a,
                   const I *lda, D *x, const I *incx)
{
    CHARGED((double)*n * *n, __real_dtrmv_(uplo, t, diag, n, a, lda, x, incx));
}

void __real_dtrsv_(const char *, const char *, const char *, const I *, const D *, const I *, D *,
                   const I *);
void __wrap_dtrsv_(const char *uplo, const char *t, const char *diag, const I *n, const D *a,
                   const I *lda, D *x, const I *incx)
{
    CHARGED((double)*n * *n, __real_dtrsv_(uplo, t, diag, n, a, lda, x, incx));
}

/* ---- Level 1, copies, dlarfg --------------------------------------------- */
void __real_daxpy_(const I *, const D *, const D *, const I *, D *, const I *);
void __wrap_daxpy_(const I *n, const D *al, const D *x, const I *incx, D *y, const I *incy)
{
    CHARGED(2.0 * *n, __real_daxpy_(n, al, x, incx, y, incy));
}

D __real_ddot_(const I *, const D *, const I *, const D *, const I *);
D __wrap_ddot_(const I *n, const D *x, const I *incx, const D *y, const I *incy)
{
    D r_;
    CHARGED(2.0 * *n, r_ = __real_ddot_(n, x, incx, y, incy));
    return r_;
}

void __real_dscal_(const I *, const D *, D *, const I *);
void __wrap_dscal_(const I *n, const D *al, D *x, const I *incx)
{
    CHARGED((double)*n, __real_dscal_(n, al, x, incx));
}

void __real_dcopy_(const I *, const D *, const I *, D *, const I *);
void __wrap_dcopy_(const I *n, const D *x, const I *incx, D *y, const I *incy)
{
    CHARGED((double)*n, __real_dcopy_(n, x, incx, y, incy));
}

void __real_dswap_(const I *, D *, const I *, D *, const I *);
void __wrap_dswap_(const I *n, D *x, const I *incx, D *y, const I *incy)
{
    CHARGED((double)*n, __real_dswap_(n, x, incx, y, incy));
}

I __real_idamax_(const I *, const D *, const I *);
I __wrap_idamax_(const I *n, const D *x, const I *incx)
{
    I r_;
    CHARGED((double)*n, r_ = __real_idamax_(n, x, incx));
    return r_;
}

void __real_dlarfg_(const I *, D *, D *, const I *, D *);
void __wrap_dlarfg_(const I *n, D *alpha, D *x, const I *incx, D *tau)
{
    CHARGED(3.0 * *n, __real_dlarfg_(n, alpha, x, incx, tau));
}

void __real_dlacpy_(const char *, const I *, const I *, const D *, const I *, D *, const I *);
void __wrap_dlacpy_(const char *uplo, const I *m, const I *n, const D *a, const I *lda, D *b,
                    const I *ldb)
{
    CHARGED((double)*m * *n, __real_dlacpy_(uplo, m, n, a, lda, b, ldb));
}

void __real_dlaset_(const char *, const I *, const I *, const D *, const D *, D *, const I *);
void __wrap_dlaset_(const char *uplo, const I *m, const I *n, const D *al, const D *be, D *a,
                    const I *lda)
{
    CHARGED((double)*m * *n, __real_dlaset_(uplo, m, n, al, be, a, lda));
}
