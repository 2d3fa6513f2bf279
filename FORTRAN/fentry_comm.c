/*
 * fentry_comm.c -- Fortran-callable communication routines (igesd2d ...
 * zgamn2d, vTUOP2D), every argument by reference, generated from
 * SRC/entry.h; each under all Fortran spellings (fname.h).
 */
#include "entry.h"
#include "fname.h"

#define F_ENTRIES(v, V, T, TY)                                                                   \
    F_DEF(void, v##gesd2d, V##GESD2D, (Int *ctxt, Int *m, Int *n, T *A, Int *lda, Int *r,    \
                                          Int *c))                                              \
        BI_GESD(#V "GESD2D", TY, *ctxt, *m, *n, A, *lda, *r, *c)                                \
    F_DEF(void, v##gerv2d, V##GERV2D, (Int *ctxt, Int *m, Int *n, T *A, Int *lda, Int *r,    \
                                          Int *c))                                              \
        BI_GERV(#V "GERV2D", TY, *ctxt, *m, *n, A, *lda, *r, *c)                                \
    F_DEF(void, v##trsd2d, V##TRSD2D, (Int *ctxt, char *uplo, char *diag, Int *m, Int *n,    \
                                          T *A, Int *lda, Int *r, Int *c))                      \
        BI_TRSD(#V "TRSD2D", TY, *ctxt, uplo, diag, *m, *n, A, *lda, *r, *c)                    \
    F_DEF(void, v##trrv2d, V##TRRV2D, (Int *ctxt, char *uplo, char *diag, Int *m, Int *n,    \
                                          T *A, Int *lda, Int *r, Int *c))                      \
        BI_TRRV(#V "TRRV2D", TY, *ctxt, uplo, diag, *m, *n, A, *lda, *r, *c)                    \
    F_DEF(void, v##gebs2d, V##GEBS2D, (Int *ctxt, char *scope, char *top, Int *m, Int *n,    \
                                          T *A, Int *lda))                                      \
        BI_GEBS(#V "GEBS2D", TY, *ctxt, scope, top, *m, *n, A, *lda)                            \
    F_DEF(void, v##gebr2d, V##GEBR2D, (Int *ctxt, char *scope, char *top, Int *m, Int *n,    \
                                          T *A, Int *lda, Int *r, Int *c))                      \
        BI_GEBR(#V "GEBR2D", TY, *ctxt, scope, top, *m, *n, A, *lda, *r, *c)                    \
    F_DEF(void, v##trbs2d, V##TRBS2D, (Int *ctxt, char *scope, char *top, char *uplo,        \
                                          char *diag, Int *m, Int *n, T *A, Int *lda))          \
        BI_TRBS(#V "TRBS2D", TY, *ctxt, scope, top, uplo, diag, *m, *n, A, *lda)                \
    F_DEF(void, v##trbr2d, V##TRBR2D, (Int *ctxt, char *scope, char *top, char *uplo,        \
                                          char *diag, Int *m, Int *n, T *A, Int *lda, Int *r,  \
                                          Int *c))                                              \
        BI_TRBR(#V "TRBR2D", TY, *ctxt, scope, top, uplo, diag, *m, *n, A, *lda, *r, *c)        \
    F_DEF(void, v##gsum2d, V##GSUM2D, (Int *ctxt, char *scope, char *top, Int *m, Int *n,    \
                                          T *A, Int *lda, Int *r, Int *c))                      \
        BI_GSUM(#V "GSUM2D", TY, *ctxt, scope, top, *m, *n, A, *lda, *r, *c)                    \
    F_DEF(void, v##gamx2d, V##GAMX2D, (Int *ctxt, char *scope, char *top, Int *m, Int *n,    \
                                          T *A, Int *lda, Int *ra, Int *ca, Int *ldia, Int *r, \
                                          Int *c))                                              \
        BI_GAMX(#V "GAMX2D", BI_AMX, TY, *ctxt, scope, top, *m, *n, A, *lda, ra, ca, *ldia, *r, *c) \
    F_DEF(void, v##gamn2d, V##GAMN2D, (Int *ctxt, char *scope, char *top, Int *m, Int *n,    \
                                          T *A, Int *lda, Int *ra, Int *ca, Int *ldia, Int *r, \
                                          Int *c))                                              \
        BI_GAMX(#V "GAMN2D", BI_AMN, TY, *ctxt, scope, top, *m, *n, A, *lda, ra, ca, *ldia, *r, *c) \
    F_DEF(void, v##tuop2d, V##TUOP2D, (Int *ctxt, char *scope, char *top, char *uplo,        \
                                          char *diag, Int *m, Int *n, T *A, Int *lda, Int *r,  \
                                          Int *c, void (*init)(Int *, T *),                    \
                                          void (*op)(Int *, T *, T *), void (*post)(Int *, T *))) \
        BI_TUOP(#V "TUOP2D", TY, *ctxt, scope, top, uplo, diag, *m, *n, A, *lda, *r, *c, init, op, post)

BI_TYPES(F_ENTRIES)

/* Intel MKL's extension (SRC/sendrecv.c) */
F_DEF(void, dsendrecv, DSENDRECV, (Int *ctxt, Int *m, Int *n, double *A, Int *lda, Int *rdest,
                                   Int *cdest, Int *m2, Int *n2, double *B, Int *ldb, Int *rsrc,
                                   Int *csrc))
{
    bi_mkl_sendrecv(*ctxt, *m, *n, A, *lda, *rdest, *cdest, *m2, *n2, B, *ldb, *rsrc, *csrc,
                    "DSENDRECV");
}
