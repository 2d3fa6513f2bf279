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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_wrap.h"

typedef int fint;

/* Every wrapped routine is a kernel, and each call falls in a class by its
 * operation count (1 + floor(log2 flops), 0 below one).  A rate per kernel
 * and class, not one per process: with an optimized BLAS a panel's Level 1
 * and 2 calls run ten times slower per operation than the updates' DGEMM,
 * and they are on the critical path, so one average rate makes the panels
 * too fast (sl_real.sh, SLR_RATE=call). */
enum { K_GEMM, K_SYMM, K_SYRK, K_SYR2K, K_TRMM, K_TRSM, K_GEMV, K_GER, K_SYMV, K_SYR, K_SYR2, K_TRMV,
       K_TRSV, K_AXPY, K_DOT, K_SCAL, K_COPY, K_SWAP, K_IAMAX, K_LARFG, K_LACPY, K_LASET, NK };
#define NCLASS SL_FLOPS_CLASSES
_Static_assert(NK == SL_FLOPS_KERNELS, "sl_wrap.h: SL_FLOPS_KERNELS");

static int fclass(double flops)
{
    int e = 0;
    if (flops < 1) return 0;
    (void)frexp(flops, &e); /* flops = m 2^e, m in [0.5, 1) */
    return e < NCLASS ? e : NCLASS - 1;
}

#ifdef SL_REAL
/* The real build (build/real-scalapack, sl_real.sh): nothing is charged;
 * each wrapped call is timed instead, and its count added, by kernel and
 * class, so that a run says at what rate each of its processes computed
 * each kind of call (sl_flops_get, sl_flops_table).  Only the outermost
 * wrapped call is timed, should one call another (the inner call's count
 * goes to its own cell with no seconds). */
#include <mpi.h>
static double kflops, ksecs, tab[NK][NCLASS][2], gap[SL_GAP_KEYS][2], last = -1;
static int gdepth; /* wrapped calls under way: only the outermost is timed */
static sl_trec *trace;  /* SL_TRACE: the timed run's calls so far */
static size_t ntrace, ctrace;
static char tpath[4096]; /* where they go; empty: no trace */
#define CHARGED(k, flops, call)                              \
    do {                                                     \
        const double f_ = (flops);                           \
        const int c_ = fclass(f_), d_ = gdepth;              \
        const double t0_ = sl_gap_enter((k) * NCLASS + c_);  \
        call;                                                \
        const double t1_ = sl_gap_exit();                    \
        const double s_ = d_ ? 0 : t1_ - t0_;                \
        if (!d_ && ntrace) trace[ntrace - 1].dur = (float)s_; \
        ksecs += s_;                                         \
        kflops += f_;                                        \
        tab[k][c_][0] += f_;                                 \
        tab[k][c_][1] += s_;                                 \
    } while (0)

void sl_flops_reset(const char *routine)
{
    kflops = ksecs = 0;
    memset(tab, 0, sizeof tab);
    memset(gap, 0, sizeof gap);
    last = -1; /* the first gap would hold the driver's barrier */
    const char *p = getenv("SL_TRACE");
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    tpath[0] = 0;
    ntrace = 0;
    if (p && *p) snprintf(tpath, sizeof tpath, "%s.%s.%d", p, routine, me);
}

void sl_flops_end(void)
{
    if (!tpath[0]) return;
    FILE *f = fopen(tpath, "wb");
    if (!f || fwrite(trace, sizeof *trace, ntrace, f) != ntrace || fclose(f)) {
        perror(tpath);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    tpath[0] = 0;
    free(trace);
    trace = NULL;
    ntrace = ctrace = 0;
}

double sl_gap_enter(int key)
{
    if (gdepth++) return 0;
    const double now = MPI_Wtime();
    if (last >= 0) {
        gap[key][0] += now - last;
        gap[key][1] += 1;
    }
    if (tpath[0]) {
        if (ntrace == ctrace) {
            ctrace = ctrace ? 2 * ctrace : 65536;
            trace = realloc(trace, ctrace * sizeof *trace);
            if (!trace) MPI_Abort(MPI_COMM_WORLD, 3);
        }
        trace[ntrace++] = (sl_trec){key, last >= 0 ? (float)(now - last) : 0.0f, 0.0f};
    }
    return now;
}

double sl_gap_exit(void)
{
    if (--gdepth) return 0;
    return last = MPI_Wtime();
}

void sl_gap_table(double *t) { memcpy(t, gap, sizeof gap); }

void sl_flops_get(double *flops, double *seconds)
{
    *flops = kflops;
    *seconds = ksecs;
}

void sl_flops_table(double *t)
{
    memcpy(t, tab, sizeof tab);
}
#else
#include <stdio.h>
#include <mpi.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
static int charge_on = -1;
/* SL_RATES (sl_real.sh, SLR_RATE=call): a file of lines "rank kernel class
 * seconds-per-operation" from a real run; this process's calls are charged
 * those seconds (as operations at its host's speed).  A cell the file does
 * not have takes the line "rank -1 -1 s" (the process's average).  Lines
 * "rank G key s": the average gap before a call of that key (sl_wrap.h),
 * charged before each such call. */
static double spf[NK][NCLASS], spf_all = -1, gapf[SL_GAP_KEYS];
static int gdepth;

static void rates_load(const char *path)
{
    int me = 0, r, k, c;
    double s;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "sl_flops: SL_RATES=%s: cannot open\n", path);
        exit(2);
    }
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%d G %d %lg", &r, &k, &s) == 3) {
            if (r == me && k >= 0 && k < SL_GAP_KEYS) gapf[k] = s;
            continue;
        }
        if (sscanf(line, "%d %d %d %lg", &r, &k, &c, &s) != 4 || r != me) continue;
        if (k < 0)
            spf_all = s;
        else if (k < NK && c >= 0 && c < NCLASS)
            spf[k][c] = s;
    }
    fclose(f);
    if (spf_all < 0) {
        fprintf(stderr, "sl_flops: SL_RATES=%s: no line \"%d -1 -1 s\"\n", path, me);
        exit(2);
    }
    const double speed = sg_host_get_speed(sg_host_self());
    for (k = 0; k < NK; k++)
        for (c = 0; c < NCLASS; c++) spf[k][c] = speed * (spf[k][c] > 0 ? spf[k][c] : spf_all);
    for (k = 0; k < SL_GAP_KEYS; k++) gapf[k] *= speed;
}

static int charging(void)
{
    if (charge_on < 0) {
        const char *e = getenv("SL_FLOPS"), *r = getenv("SL_RATES");
        charge_on = e && *e && strcmp(e, "0") != 0;
        if (charge_on && r && *r) rates_load(r);
    }
    return charge_on;
}

/* SL_TRACE: the timed run's calls as the real run made them (sl_wrap.h) */
static sl_trec *trace;
static size_t ntrace, itrace;
static int replay;
static double tdur; /* the seconds of the call under way, from the trace */

/* s seconds of computation on this rank's host (smpi_execute ignores
 * what is shorter than smpi/cpu-threshold, 1 us) */
static void execute_s(double s) { smpi_execute_flops(s * sg_host_get_speed(sg_host_self())); }

/* the gap before a call of this key, as the real run had it (SL_RATES), or
 * as it was before this very call (SL_TRACE) */
static void gap_charge(int key)
{
    if (gdepth++ || !charging()) return;
    if (replay) {
        if (itrace >= ntrace || trace[itrace].key != key) {
            fprintf(stderr, "sl_flops: SL_TRACE: call %zu of the timed run has key %d, the trace %d\n", itrace,
                    key, itrace < ntrace ? trace[itrace].key : -1);
            exit(2);
        }
        if (trace[itrace].gap > 0) execute_s(trace[itrace].gap);
        tdur = trace[itrace++].dur;
        return;
    }
    if (gapf[key] > 0) smpi_execute_flops(gapf[key]);
}

double sl_gap_enter(int key)
{
    gap_charge(key);
    return MPI_Wtime();
}

double sl_gap_exit(void)
{
    --gdepth;
    return MPI_Wtime();
}

void sl_gap_table(double *t) { memset(t, 0, sizeof(double) * 2 * SL_GAP_KEYS); }

static void charge(int k, int c, double flops)
{
    if (replay) { /* the outermost call: its traced seconds; one inside it: nothing */
        if (gdepth == 1 && tdur > 0) execute_s(tdur);
        tdur = 0;
        return;
    }
    if (!charging() || flops <= 0) return;
    smpi_execute_flops(spf_all < 0 ? flops : flops * spf[k][c]);
}
#define CHARGED(k, flops, call)                  \
    do {                                         \
        const double f_ = (flops);               \
        const int c_ = fclass(f_);               \
        gap_charge((k) * NCLASS + c_);           \
        charge(k, c_, f_);                       \
        call;                                    \
        --gdepth;                                \
    } while (0)

void sl_flops_reset(const char *routine)
{
    const char *p = getenv("SL_TRACE");
    free(trace);
    trace = NULL;
    ntrace = itrace = 0;
    replay = 0;
    if (!p || !*p || !charging()) return;
    char path[4096];
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    snprintf(path, sizeof path, "%s.%s.%d", p, routine, me);
    FILE *f = fopen(path, "rb");
    long len = -1;
    if (f && !fseek(f, 0, SEEK_END)) len = ftell(f);
    if (!f || len < 0 || fseek(f, 0, SEEK_SET)) {
        perror(path);
        exit(2);
    }
    ntrace = (size_t)len / sizeof *trace;
    trace = malloc(ntrace ? ntrace * sizeof *trace : 1);
    if (!trace || fread(trace, sizeof *trace, ntrace, f) != ntrace) {
        fprintf(stderr, "sl_flops: SL_TRACE: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    replay = 1;
}

void sl_flops_end(void)
{
    if (replay && itrace != ntrace) {
        fprintf(stderr, "sl_flops: SL_TRACE: the timed run made %zu calls, the trace has %zu\n", itrace, ntrace);
        exit(2);
    }
    replay = 0;
}

void sl_flops_get(double *flops, double *seconds) { *flops = *seconds = 0; }

void sl_flops_table(double *t) { memset(t, 0, sizeof(double) * NK * NCLASS * 2); }
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
    CHARGED(K_GEMM, 2.0 * *m * *n * *k, __real_dgemm_(ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc));
}

void __real_dsymm_(const char *, const char *, const I *, const I *, const D *, const D *, const I *,
                   const D *, const I *, const D *, D *, const I *);
void __wrap_dsymm_(const char *side, const char *uplo, const I *m, const I *n, const D *al, const D *a,
                   const I *lda, const D *b, const I *ldb, const D *be, D *c, const I *ldc)
{
    CHARGED(K_SYMM, left(side) ? 2.0 * *m * *m * *n : 2.0 * *m * *n * *n,
            __real_dsymm_(side, uplo, m, n, al, a, lda, b, ldb, be, c, ldc));
}

void __real_dsyrk_(const char *, const char *, const I *, const I *, const D *, const D *, const I *,
                   const D *, D *, const I *);
void __wrap_dsyrk_(const char *uplo, const char *tr, const I *n, const I *k, const D *al, const D *a,
                   const I *lda, const D *be, D *c, const I *ldc)
{
    CHARGED(K_SYRK, (double)*n * (*n + 1) * *k, __real_dsyrk_(uplo, tr, n, k, al, a, lda, be, c, ldc));
}

void __real_dsyr2k_(const char *, const char *, const I *, const I *, const D *, const D *, const I *,
                    const D *, const I *, const D *, D *, const I *);
void __wrap_dsyr2k_(const char *uplo, const char *tr, const I *n, const I *k, const D *al, const D *a,
                    const I *lda, const D *b, const I *ldb, const D *be, D *c, const I *ldc)
{
    CHARGED(K_SYR2K, 2.0 * *n * *n * *k, __real_dsyr2k_(uplo, tr, n, k, al, a, lda, b, ldb, be, c, ldc));
}

void __real_dtrmm_(const char *, const char *, const char *, const char *, const I *, const I *,
                   const D *, const D *, const I *, D *, const I *);
void __wrap_dtrmm_(const char *side, const char *uplo, const char *ta, const char *diag, const I *m,
                   const I *n, const D *al, const D *a, const I *lda, D *b, const I *ldb)
{
    CHARGED(K_TRMM, left(side) ? (double)*m * *m * *n : (double)*m * *n * *n,
            __real_dtrmm_(side, uplo, ta, diag, m, n, al, a, lda, b, ldb));
}

void __real_dtrsm_(const char *, const char *, const char *, const char *, const I *, const I *,
                   const D *, const D *, const I *, D *, const I *);
void __wrap_dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const I *m,
                   const I *n, const D *al, const D *a, const I *lda, D *b, const I *ldb)
{
    CHARGED(K_TRSM, left(side) ? (double)*m * *m * *n : (double)*m * *n * *n,
            __real_dtrsm_(side, uplo, ta, diag, m, n, al, a, lda, b, ldb));
}

/* ---- Level 2 ------------------------------------------------------------ */
void __real_dgemv_(const char *, const I *, const I *, const D *, const D *, const I *, const D *,
                   const I *, const D *, D *, const I *);
void __wrap_dgemv_(const char *t, const I *m, const I *n, const D *al, const D *a, const I *lda,
                   const D *x, const I *incx, const D *be, D *y, const I *incy)
{
    CHARGED(K_GEMV, 2.0 * *m * *n, __real_dgemv_(t, m, n, al, a, lda, x, incx, be, y, incy));
}

void __real_dger_(const I *, const I *, const D *, const D *, const I *, const D *, const I *, D *,
                  const I *);
void __wrap_dger_(const I *m, const I *n, const D *al, const D *x, const I *incx, const D *y,
                  const I *incy, D *a, const I *lda)
{
    CHARGED(K_GER, 2.0 * *m * *n, __real_dger_(m, n, al, x, incx, y, incy, a, lda));
}

void __real_dsymv_(const char *, const I *, const D *, const D *, const I *, const D *, const I *,
                   const D *, D *, const I *);
void __wrap_dsymv_(const char *uplo, const I *n, const D *al, const D *a, const I *lda, const D *x,
                   const I *incx, const D *be, D *y, const I *incy)
{
    CHARGED(K_SYMV, 2.0 * *n * *n, __real_dsymv_(uplo, n, al, a, lda, x, incx, be, y, incy));
}

void __real_dsyr_(const char *, const I *, const D *, const D *, const I *, D *, const I *);
void __wrap_dsyr_(const char *uplo, const I *n, const D *al, const D *x, const I *incx, D *a,
                  const I *lda)
{
    CHARGED(K_SYR, (double)*n * *n, __real_dsyr_(uplo, n, al, x, incx, a, lda));
}

void __real_dsyr2_(const char *, const I *, const D *, const D *, const I *, const D *, const I *, D *,
                   const I *);
void __wrap_dsyr2_(const char *uplo, const I *n, const D *al, const D *x, const I *incx, const D *y,
                   const I *incy, D *a, const I *lda)
{
    CHARGED(K_SYR2, 2.0 * *n * *n, __real_dsyr2_(uplo, n, al, x, incx, y, incy, a, lda));
}

void __real_dtrmv_(const char *, const char *, const char *, const I *, const D *, const I *, D *,
                   const I *);
void __wrap_dtrmv_(const char *uplo, const char *t, const char *diag, const I *n, const D *a,
                   const I *lda, D *x, const I *incx)
{
    CHARGED(K_TRMV, (double)*n * *n, __real_dtrmv_(uplo, t, diag, n, a, lda, x, incx));
}

void __real_dtrsv_(const char *, const char *, const char *, const I *, const D *, const I *, D *,
                   const I *);
void __wrap_dtrsv_(const char *uplo, const char *t, const char *diag, const I *n, const D *a,
                   const I *lda, D *x, const I *incx)
{
    CHARGED(K_TRSV, (double)*n * *n, __real_dtrsv_(uplo, t, diag, n, a, lda, x, incx));
}

/* ---- Level 1, copies, dlarfg --------------------------------------------- */
void __real_daxpy_(const I *, const D *, const D *, const I *, D *, const I *);
void __wrap_daxpy_(const I *n, const D *al, const D *x, const I *incx, D *y, const I *incy)
{
    CHARGED(K_AXPY, 2.0 * *n, __real_daxpy_(n, al, x, incx, y, incy));
}

D __real_ddot_(const I *, const D *, const I *, const D *, const I *);
D __wrap_ddot_(const I *n, const D *x, const I *incx, const D *y, const I *incy)
{
    D r_;
    CHARGED(K_DOT, 2.0 * *n, r_ = __real_ddot_(n, x, incx, y, incy));
    return r_;
}

void __real_dscal_(const I *, const D *, D *, const I *);
void __wrap_dscal_(const I *n, const D *al, D *x, const I *incx)
{
    CHARGED(K_SCAL, (double)*n, __real_dscal_(n, al, x, incx));
}

void __real_dcopy_(const I *, const D *, const I *, D *, const I *);
void __wrap_dcopy_(const I *n, const D *x, const I *incx, D *y, const I *incy)
{
    CHARGED(K_COPY, (double)*n, __real_dcopy_(n, x, incx, y, incy));
}

void __real_dswap_(const I *, D *, const I *, D *, const I *);
void __wrap_dswap_(const I *n, D *x, const I *incx, D *y, const I *incy)
{
    CHARGED(K_SWAP, (double)*n, __real_dswap_(n, x, incx, y, incy));
}

I __real_idamax_(const I *, const D *, const I *);
I __wrap_idamax_(const I *n, const D *x, const I *incx)
{
    I r_;
    CHARGED(K_IAMAX, (double)*n, r_ = __real_idamax_(n, x, incx));
    return r_;
}

void __real_dlarfg_(const I *, D *, D *, const I *, D *);
void __wrap_dlarfg_(const I *n, D *alpha, D *x, const I *incx, D *tau)
{
    CHARGED(K_LARFG, 3.0 * *n, __real_dlarfg_(n, alpha, x, incx, tau));
}

void __real_dlacpy_(const char *, const I *, const I *, const D *, const I *, D *, const I *);
void __wrap_dlacpy_(const char *uplo, const I *m, const I *n, const D *a, const I *lda, D *b,
                    const I *ldb)
{
    CHARGED(K_LACPY, (double)*m * *n, __real_dlacpy_(uplo, m, n, a, lda, b, ldb));
}

void __real_dlaset_(const char *, const I *, const I *, const D *, const D *, D *, const I *);
void __wrap_dlaset_(const char *uplo, const I *m, const I *n, const D *al, const D *be, D *a,
                    const I *lda)
{
    CHARGED(K_LASET, (double)*m * *n, __real_dlaset_(uplo, m, n, al, be, a, lda));
}
