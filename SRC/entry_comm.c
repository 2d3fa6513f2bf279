/*
 * entry_comm.c -- C entry points of the communication routines
 * (Cigesd2d ... Czgamn2d), generated from entry.h for the five types.
 */
#include "entry.h"

#define C_ENTRIES(v, V, T, TY)                                                                   \
    BI_API void C##v##gesd2d(Int ctxt, Int m, Int n, T *A, Int lda, Int r, Int c)               \
        BI_GESD("C" #v "gesd2d", TY, ctxt, m, n, A, lda, r, c)                                  \
    BI_API void C##v##gerv2d(Int ctxt, Int m, Int n, T *A, Int lda, Int r, Int c)               \
        BI_GERV("C" #v "gerv2d", TY, ctxt, m, n, A, lda, r, c)                                  \
    BI_API void C##v##trsd2d(Int ctxt, char *uplo, char *diag, Int m, Int n, T *A, Int lda,     \
                             Int r, Int c)                                                      \
        BI_TRSD("C" #v "trsd2d", TY, ctxt, uplo, diag, m, n, A, lda, r, c)                      \
    BI_API void C##v##trrv2d(Int ctxt, char *uplo, char *diag, Int m, Int n, T *A, Int lda,     \
                             Int r, Int c)                                                      \
        BI_TRRV("C" #v "trrv2d", TY, ctxt, uplo, diag, m, n, A, lda, r, c)                      \
    BI_API void C##v##gebs2d(Int ctxt, char *scope, char *top, Int m, Int n, T *A, Int lda)     \
        BI_GEBS("C" #v "gebs2d", TY, ctxt, scope, top, m, n, A, lda)                            \
    BI_API void C##v##gebr2d(Int ctxt, char *scope, char *top, Int m, Int n, T *A, Int lda,     \
                             Int r, Int c)                                                      \
        BI_GEBR("C" #v "gebr2d", TY, ctxt, scope, top, m, n, A, lda, r, c)                      \
    BI_API void C##v##trbs2d(Int ctxt, char *scope, char *top, char *uplo, char *diag, Int m,   \
                             Int n, T *A, Int lda)                                              \
        BI_TRBS("C" #v "trbs2d", TY, ctxt, scope, top, uplo, diag, m, n, A, lda)                \
    BI_API void C##v##trbr2d(Int ctxt, char *scope, char *top, char *uplo, char *diag, Int m,   \
                             Int n, T *A, Int lda, Int r, Int c)                                \
        BI_TRBR("C" #v "trbr2d", TY, ctxt, scope, top, uplo, diag, m, n, A, lda, r, c)          \
    BI_API void C##v##gsum2d(Int ctxt, char *scope, char *top, Int m, Int n, T *A, Int lda,     \
                             Int r, Int c)                                                      \
        BI_GSUM("C" #v "gsum2d", TY, ctxt, scope, top, m, n, A, lda, r, c)                      \
    BI_API void C##v##gamx2d(Int ctxt, char *scope, char *top, Int m, Int n, T *A, Int lda,     \
                             Int *ra, Int *ca, Int ldia, Int r, Int c)                          \
        BI_GAMX("C" #v "gamx2d", BI_AMX, TY, ctxt, scope, top, m, n, A, lda, ra, ca, ldia, r, c) \
    BI_API void C##v##gamn2d(Int ctxt, char *scope, char *top, Int m, Int n, T *A, Int lda,     \
                             Int *ra, Int *ca, Int ldia, Int r, Int c)                          \
        BI_GAMX("C" #v "gamn2d", BI_AMN, TY, ctxt, scope, top, m, n, A, lda, ra, ca, ldia, r, c) \
    BI_API void C##v##tuop2d(Int ctxt, char *scope, char *top, char *uplo, char *diag, Int m,   \
                             Int n, T *A, Int lda, Int r, Int c, void (*init)(Int *, T *),      \
                             void (*op)(Int *, T *, T *), void (*post)(Int *, T *))             \
        BI_TUOP("C" #v "tuop2d", TY, ctxt, scope, top, uplo, diag, m, n, A, lda, r, c, init, op, post)

BI_TYPES(C_ENTRIES)
