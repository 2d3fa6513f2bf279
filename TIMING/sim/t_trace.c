/*
 * t_trace.c -- the check of the traces that sl_real.sh gives its
 * simulations (SL_TRACE, TIMING/sim/sl_flops.c; SLR_RATE=trace), run by
 * TIMING/sim/trace.sh.  Built for this machine's MPI (-DSL_REAL) it makes
 * a timed run of CALLS DGEMMs, each after 20 us of computation of its own
 * (the gap), and writes its trace.  Built for SMPI it makes the same run
 * under SL_FLOPS=1 and checks that the trace holds a record a call and the
 * gaps the real run computed, and that the simulated timed run lasts
 * exactly the trace's gaps and calls added up.  With T_TRACE_EXTRA set it
 * makes one call more than the trace holds: sl_flops.c must stop the
 * simulation (trace.sh checks that).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include "sl_wrap.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *, const double *,
            const int *, const double *, const int *, const double *, double *, const int *);

enum { CALLS = 8, N = 48 };
static const double GAP = 20e-6;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    static double a[N * N], b[N * N], c[N * N];
    for (int i = 0; i < N * N; i++) a[i] = b[i] = 1.0 / (1 + i % 7);
    const int n = N, calls = CALLS + (getenv("T_TRACE_EXTRA") != NULL);
    const double one = 1, zero = 0;
    sl_flops_reset("t");
    const double t0 = MPI_Wtime();
    for (int k = 0; k < calls; k++) {
#ifdef SL_REAL
        volatile double x = 0;
        for (const double s = MPI_Wtime(); MPI_Wtime() - s < GAP;) x += 1;
#endif
        dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n);
    }
    const double t = MPI_Wtime() - t0;
    sl_flops_end();
#ifdef SL_REAL
    printf("t_trace: %d calls in %.6f s\n", calls, t);
#else
    const char *p = getenv("SL_TRACE");
    char path[4096];
    snprintf(path, sizeof path, "%s.t.0", p ? p : "");
    FILE *f = fopen(path, "rb");
    double sum = 0, gaps = 0;
    int nr = 0, pass = 0, fail = 0;
    sl_trec r;
    while (f && fread(&r, sizeof r, 1, f) == 1) {
        sum += (double)r.gap + (double)r.dur;
        gaps += r.gap;
        nr++;
    }
    if (f) fclose(f);
#define CHECK(ok, what) ((ok) ? (void)pass++ : (void)(fail++, printf("FAIL: %s\n", what)))
    CHECK(nr == CALLS, "the trace holds a record a call");
    CHECK(gaps >= (CALLS - 1) * GAP * 0.9, "the trace holds the gaps the real run computed");
    CHECK(fabs(t - sum) <= 1e-9 + 1e-6 * sum, "the simulated timed run lasts the trace's gaps and calls");
    printf("t_trace: simulated %.9f s, the trace %.9f s\n%d passed, %d failed\n", t, sum, pass, fail);
#endif
    MPI_Finalize();
    return 0;
}
