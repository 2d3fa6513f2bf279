/*
 * entry_check.c -- decoding and the always-on checks of a matrix argument
 * (the reference's rules, stricter where it would crash): M, N >= 0; LDA >= M whenever
 * columns would overlap (N > 1); UPLO in U/L and DIAG in U/N for
 * trapezoids (first character, any case).
 */
#include <stdint.h>
#include "bi.h"

void bi_make_shape(bi_shape *s, Int ctxt, const char *routine, int type, int tr,
                   const char *uplo, int argu, const char *diag, int argd, Int m, Int n, Int lda,
                   int argm)
{
    if (m < 0) bi_argerr(ctxt, routine, argm, "M", "M=%ld is negative", (long)m);
    if (n < 0) bi_argerr(ctxt, routine, argm + 1, "N", "N=%ld is negative", (long)n);
    if (lda < m && n > 1)
        bi_argerr(ctxt, routine, argm + 3, "LDA", "LDA=%ld is smaller than M=%ld", (long)lda, (long)m);
    /* the memory A spans, ((N-1) LDA + M) elements, must be addressable
     * (MPI_Aint, ptrdiff_t): then no offset computed later can overflow */
    /* (below 2^26 each they span under 2^56 bytes: no divisions per call) */
    if (m > 0 && n > 0 && ((uint64_t)m | (uint64_t)n | (uint64_t)lda) >> 26) {
        size_t most = (size_t)PTRDIFF_MAX / bi_types[type].size, ld = (size_t)(lda > m ? lda : m);
        int bad_m = (size_t)m > most;
        if (bad_m || (size_t)(n - 1) > (most - (size_t)m) / ld)
            bi_argerr(ctxt, routine, bad_m ? argm : argm + 3, bad_m ? "M" : "LDA",
                      "M=%ld, N=%ld, LDA=%ld span more memory than can be addressed", (long)m,
                      (long)n, (long)lda);
    }
    s->type = type;
    s->tr = tr;
    s->upper = s->unit = 0;
    if (tr) {
        char u = bi_up(uplo), d = bi_up(diag);
        if (u != 'U' && u != 'L')
            bi_argerr(ctxt, routine, argu, "UPLO", "UPLO='%c' is neither 'U' nor 'L'", uplo ? *uplo : ' ');
        if (d != 'U' && d != 'N')
            bi_argerr(ctxt, routine, argd, "DIAG", "DIAG='%c' is neither 'U' nor 'N'", diag ? *diag : ' ');
        s->upper = u == 'U';
        s->unit = d == 'U';
    }
    s->m = m;
    s->n = n;
    s->lda = lda > m ? lda : (m > 0 ? m : 1);
}
