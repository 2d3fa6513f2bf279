/*
 * simops.c -- the computation cost (gamma, LAWN 73's T_o) of combines in
 * the SimGrid build.  The simulations run with smpi/simulate-computation:no,
 * so host code costs no simulated time and the numbers are deterministic;
 * the one piece of computation the cost models count, combining two vectors
 * of n items, is injected here as n flops (smpi_execute_flops) on the host,
 * whose speed the platform file sets to 1/gamma items per second.
 *
 * The SMPI build compiles SRC/ops.c with -Dbi_op_setup=bi_op_setup_real;
 * this bi_op_setup calls it and puts a wrapper in front of the element
 * function, so every combine -- our algorithms and the MPI user operation
 * of TOP ' ' (SRC/comb_mpi.c) alike -- pays n items of gamma.
 */
#include <smpi/smpi.h>
#include "bi.h"

void bi_op_setup_real(bi_op *op, int kind, int type, int owners);
void bi_op_setup(bi_op *op, int kind, int type, int owners);

typedef void (*opfn)(void *, const void *, size_t, const bi_op *);
/* per rank (privatised like all globals); the last index: owner key bytes / 2 */
static opfn real[BI_USER + 1][BI_NTYPE][3];

static void timed(void *acc, const void *in, size_t n, const bi_op *op)
{
    real[op->kind][op->type][op->owners / 2](acc, in, n, op);
    if (n) smpi_execute_flops((double)n);
}

void bi_op_setup(bi_op *op, int kind, int type, int owners)
{
    bi_op_setup_real(op, kind, type, owners);
    real[op->kind][op->type][op->owners / 2] = op->fn;
    op->fn = timed;
}
