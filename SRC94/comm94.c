/*
 * comm94.c -- communication routines of the 1994 BLACS interface (LAWN 73
 * sections 3-5 and appendix C), for the five types v = I, S, D, C, Z:
 *
 *   vGESD2D(M, N, A, LDA, RDEST, CDEST)                vGERV2D(M, N, A, LDA, RSRC, CSRC)
 *   vTRSD2D(UPLO, DIAG, M, N, A, LDA, RDEST, CDEST)    vTRRV2D(UPLO, DIAG, M, N, A, LDA, RSRC, CSRC)
 *   vGEBS2D(SCOPE, TOP, M, N, A, LDA)                  vGEBR2D(SCOPE, TOP, M, N, A, LDA, RSRC, CSRC)
 *   vTRBS2D(SCOPE, TOP, UPLO, DIAG, M, N, A, LDA)      vTRBR2D(SCOPE, TOP, UPLO, DIAG, M, N, A, LDA,
 *                                                              RSRC, CSRC)
 *   vGSUM2D(SCOPE, TOP, M, N, A, LDA, RDEST, CDEST)
 *   vGMAX2D(SCOPE, TOP, M, N, A, LDA, RA, CA, LDIA, RDEST, CDEST)   (BLACS 1.1: vGAMX2D)
 *   vGMIN2D(SCOPE, TOP, M, N, A, LDA, RA, CA, LDIA, RDEST, CDEST)   (BLACS 1.1: vGAMN2D)
 *
 * Each is the BLACS 1.1 C routine (Cdgesd2d, ...) applied to the current
 * context.  The 1994 GMAX/GMIN already compared absolute values (LAWN 73
 * Table 13), exactly what the 1.1 GAMX/GAMN do, and LDIA = -1 likewise
 * means "RA and CA are not referenced".  SCOPE and TOP are passed through:
 * only their first letter counts, so the appendix C spellings ('ROW',
 * 'COLUMN', 'ALL'; 'HYPERCUBE', 'INCREASING RING', 'DECREASING RING',
 * 'SPLIT RING', 'MULTIRING', 'FULLY CONNECTED', '1'-'9' and '1-TREE' ...,
 * 'TREE') select the same algorithms they name.
 *
 * The names vGESD2D ... vGSUM2D are also BLACS 1.1 Fortran names (with an
 * ICONTXT first argument) defined in libblacs.a: a 1994 program links
 * libblacs94.a BEFORE libblacs.a so that these definitions are the ones used.
 *
 * One macro list generates all 55 routines.
 */
#include "b94.h"

typedef blacs_int b94_i; /* element types, C view (complex = interleaved pairs) */
typedef float b94_s;
typedef double b94_d;
typedef float b94_c;
typedef double b94_z;

/* X(lower-case letter, upper-case letter) for every BLACS type */
#define B94_TYPES(X) X(i, I) X(s, S) X(d, D) X(c, C) X(z, Z)

#define B94_DEFINE(v, V)                                                                     \
    B94_EXPORT void B94F(v##gesd2d, V##GESD2D)(blacs_int *m, blacs_int *n, b94_##v *a,       \
                                               blacs_int *lda, blacs_int *rdest,             \
                                               blacs_int *cdest)                             \
    {                                                                                        \
        C##v##gesd2d(b94_ctxt(#V "GESD2D"), *m, *n, a, *lda, *rdest, *cdest);                \
    }                                                                                        \
    B94_EXPORT void B94F(v##gerv2d, V##GERV2D)(blacs_int *m, blacs_int *n, b94_##v *a,       \
                                               blacs_int *lda, blacs_int *rsrc,              \
                                               blacs_int *csrc)                              \
    {                                                                                        \
        C##v##gerv2d(b94_ctxt(#V "GERV2D"), *m, *n, a, *lda, *rsrc, *csrc);                  \
    }                                                                                        \
    B94_EXPORT void B94F(v##trsd2d, V##TRSD2D)(char *uplo, char *diag, blacs_int *m,         \
                                               blacs_int *n, b94_##v *a, blacs_int *lda,     \
                                               blacs_int *rdest, blacs_int *cdest)           \
    {                                                                                        \
        C##v##trsd2d(b94_ctxt(#V "TRSD2D"), uplo, diag, *m, *n, a, *lda, *rdest, *cdest);    \
    }                                                                                        \
    B94_EXPORT void B94F(v##trrv2d, V##TRRV2D)(char *uplo, char *diag, blacs_int *m,         \
                                               blacs_int *n, b94_##v *a, blacs_int *lda,     \
                                               blacs_int *rsrc, blacs_int *csrc)             \
    {                                                                                        \
        C##v##trrv2d(b94_ctxt(#V "TRRV2D"), uplo, diag, *m, *n, a, *lda, *rsrc, *csrc);      \
    }                                                                                        \
    B94_EXPORT void B94F(v##gebs2d, V##GEBS2D)(char *scope, char *top, blacs_int *m,         \
                                               blacs_int *n, b94_##v *a, blacs_int *lda)     \
    {                                                                                        \
        C##v##gebs2d(b94_ctxt(#V "GEBS2D"), scope, top, *m, *n, a, *lda);                    \
    }                                                                                        \
    B94_EXPORT void B94F(v##gebr2d, V##GEBR2D)(char *scope, char *top, blacs_int *m,         \
                                               blacs_int *n, b94_##v *a, blacs_int *lda,     \
                                               blacs_int *rsrc, blacs_int *csrc)             \
    {                                                                                        \
        C##v##gebr2d(b94_ctxt(#V "GEBR2D"), scope, top, *m, *n, a, *lda, *rsrc, *csrc);      \
    }                                                                                        \
    B94_EXPORT void B94F(v##trbs2d, V##TRBS2D)(char *scope, char *top, char *uplo,           \
                                               char *diag, blacs_int *m, blacs_int *n,       \
                                               b94_##v *a, blacs_int *lda)                   \
    {                                                                                        \
        C##v##trbs2d(b94_ctxt(#V "TRBS2D"), scope, top, uplo, diag, *m, *n, a, *lda);        \
    }                                                                                        \
    B94_EXPORT void B94F(v##trbr2d, V##TRBR2D)(char *scope, char *top, char *uplo,           \
                                               char *diag, blacs_int *m, blacs_int *n,       \
                                               b94_##v *a, blacs_int *lda, blacs_int *rsrc,  \
                                               blacs_int *csrc)                              \
    {                                                                                        \
        C##v##trbr2d(b94_ctxt(#V "TRBR2D"), scope, top, uplo, diag, *m, *n, a, *lda, *rsrc,  \
                     *csrc);                                                                 \
    }                                                                                        \
    B94_EXPORT void B94F(v##gsum2d, V##GSUM2D)(char *scope, char *top, blacs_int *m,         \
                                               blacs_int *n, b94_##v *a, blacs_int *lda,     \
                                               blacs_int *rdest, blacs_int *cdest)           \
    {                                                                                        \
        C##v##gsum2d(b94_ctxt(#V "GSUM2D"), scope, top, *m, *n, a, *lda, *rdest, *cdest);    \
    }                                                                                        \
    B94_EXPORT void B94F(v##gmax2d, V##GMAX2D)(char *scope, char *top, blacs_int *m,         \
                                               blacs_int *n, b94_##v *a, blacs_int *lda,     \
                                               blacs_int *ra, blacs_int *ca,                 \
                                               blacs_int *ldia, blacs_int *rdest,            \
                                               blacs_int *cdest)                             \
    {                                                                                        \
        C##v##gamx2d(b94_ctxt(#V "GMAX2D"), scope, top, *m, *n, a, *lda, ra, ca, *ldia,      \
                     *rdest, *cdest);                                                        \
    }                                                                                        \
    B94_EXPORT void B94F(v##gmin2d, V##GMIN2D)(char *scope, char *top, blacs_int *m,         \
                                               blacs_int *n, b94_##v *a, blacs_int *lda,     \
                                               blacs_int *ra, blacs_int *ca,                 \
                                               blacs_int *ldia, blacs_int *rdest,            \
                                               blacs_int *cdest)                             \
    {                                                                                        \
        C##v##gamn2d(b94_ctxt(#V "GMIN2D"), scope, top, *m, *n, a, *lda, ra, ca, *ldia,      \
                     *rdest, *cdest);                                                        \
    }

B94_TYPES(B94_DEFINE)
