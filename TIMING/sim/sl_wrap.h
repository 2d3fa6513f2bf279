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
void sl_flops_reset(void);
void sl_flops_get(double *flops, double *seconds);
/* the same by kernel (SL_FLOPS_KERNELS: the wrapped routines, in the order
 * of sl_flops.c) and class of operation count (SL_FLOPS_CLASSES:
 * 1 + floor(log2 flops)): t[(kernel * SL_FLOPS_CLASSES + class) * 2 + 0]
 * the operations, + 1 the seconds (zeros in the simulated build) */
#define SL_FLOPS_KERNELS 22
#define SL_FLOPS_CLASSES 48
void sl_flops_table(double *t);
#endif
