/* sl_wrap.h -- the BLACS time accounting of TIMING/sim/sl_wrap.c */
#ifndef SL_WRAP_H
#define SL_WRAP_H
void sl_wrap_reset(void);
void sl_wrap_dump(const char *path);
/* this process's seconds in BLACS calls since the reset */
double sl_wrap_seconds(void);
/* non-zero while a BLACS communication routine runs (its wrapper's count) */
extern int sl_in_blacs;
/* sl_flops.c: in the real build, the operation count and the seconds of
 * this process's wrapped BLAS and LAPACK calls since the reset (zero in
 * the simulated one, which charges them instead) */
void sl_flops_reset(const char *routine);
void sl_flops_get(double *flops, double *seconds);
/* The end of the timed run that sl_flops_reset began.  With SL_TRACE=prefix
 * (sl_real.sh, SLR_RATE=trace) the real build writes every outermost
 * wrapped call of the timed run, in order -- its key (below), the gap
 * before it, and for a BLAS or LAPACK call its seconds -- to
 * prefix.<routine>.<rank>, and the simulated one charges each call of its
 * timed run exactly that, where it would charge its kind's average */
void sl_flops_end(void);
/* one record of such a trace (TIMING/sim/t_trace.c reads them too) */
typedef struct {
    int key;        /* the call's gap key (below) */
    float gap, dur; /* seconds of the gap before it and of the call (0: a BLACS call) */
} sl_trec;
/* the same by kernel (SL_FLOPS_KERNELS: the wrapped routines, in the order
 * of sl_flops.c) and class of operation count (SL_FLOPS_CLASSES:
 * 1 + floor(log2 flops)): t[(kernel * SL_FLOPS_CLASSES + class) * 2 + 0]
 * the operations, + 1 the seconds (zeros in the simulated build) */
#define SL_FLOPS_KERNELS 22
#define SL_FLOPS_CLASSES 48
void sl_flops_table(double *t);
/* The gaps: what a process computes between two wrapped calls (BLAS,
 * LAPACK or BLACS) that is neither -- ScaLAPACK's and PBLAS's own code,
 * unwrapped BLAS -- keyed by the call that ends the gap: a BLAS call by
 * kernel * SL_FLOPS_CLASSES + class, a BLACS call by SL_GAP_BLACS + family *
 * 5 + type (sl_wrap.c's order).  The real build times them (sl_gap_table:
 * t[2 * key] the seconds, + 1 the count); the simulated one charges each
 * call the average of its key before it (SL_RATES, sl_flops.c).  Each
 * wrapper calls sl_gap_enter at its entry and sl_gap_exit at its exit;
 * both return MPI_Wtime() (in the real build, 0 inside another wrapped
 * call), so that a wrapper times its call with the same two readings. */
#define SL_GAP_BLACS (SL_FLOPS_KERNELS * SL_FLOPS_CLASSES)
#define SL_GAP_KEYS (SL_GAP_BLACS + 11 * 5)
double sl_gap_enter(int key);
double sl_gap_exit(void);
void sl_gap_table(double *t);
#endif
