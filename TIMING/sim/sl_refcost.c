/*
 * sl_refcost.c -- linked into the reference's simulated ScaLAPACK only
 * (TIMING/scalapack.mk, sl_bench_ref): the host work of the reference BLACS
 * that our library's simulated build is charged for too.
 *   - Its pack and unpack loops of the combines, BI_?mvcopy and BI_?vmcopy
 *     (complex types go through the real ones): copies, charged as
 *     sl_copy.c charges ours.
 *   - Its combine operations BI_?vv{sum,amx,amn,amx2,amn2}: one flop an
 *     item, as TIMING/sim/simops.c charges our library's combine
 *     operations in every simulation.
 * Each is linked with -Wl,--wrap=<name>, charges, then does the work.
 */
#include <smpi/smpi.h>

int sl_copy_begin(double bytes);
void sl_copy_end(int began);

typedef int Int; /* the reference BLACS as built here (no -DInt) */

#define COPY(name, T)                                                                              \
    void __real_##name(Int, Int, T *, Int, T *);                                                   \
    void __wrap_##name(Int m, Int n, T *A, Int lda, T *buff);                                      \
    void __wrap_##name(Int m, Int n, T *A, Int lda, T *buff)                                       \
    {                                                                                              \
        int b = sl_copy_begin(m > 0 && n > 0 ? (double)m * (double)n * sizeof(T) : 0.0);           \
        __real_##name(m, n, A, lda, buff);                                                         \
        sl_copy_end(b);                                                                            \
    }
COPY(BI_imvcopy, Int)
COPY(BI_ivmcopy, Int)
COPY(BI_smvcopy, float)
COPY(BI_svmcopy, float)
COPY(BI_dmvcopy, double)
COPY(BI_dvmcopy, double)

#define OP(name)                                                                                   \
    void __real_##name(Int, char *, char *);                                                       \
    void __wrap_##name(Int n, char *v1, char *v2);                                                 \
    void __wrap_##name(Int n, char *v1, char *v2)                                                  \
    {                                                                                              \
        if (n > 0) smpi_execute_flops((double)n);                                                  \
        __real_##name(n, v1, v2);                                                                  \
    }
#define OPS(x) OP(BI_##x##vvsum) OP(BI_##x##vvamx) OP(BI_##x##vvamn) OP(BI_##x##vvamx2) OP(BI_##x##vvamn2)
OPS(i)
OPS(s)
OPS(d)
OPS(c)
OPS(z)
