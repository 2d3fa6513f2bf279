/*
 * entry.h -- the bodies of the communication entry points, written once.
 * SRC/entry_comm.c expands them with the C calling convention (input
 * scalars by value), FORTRAN/fentry_comm.c with Fortran's (everything by
 * reference).  BI_TYPES lists the five types; a family is one macro.
 * Argument positions (for error messages) are the same in C and Fortran.
 */
#ifndef ENTRY_H
#define ENTRY_H
#include "bi.h"

/* X(lower letter, UPPER letter, C element type, type code) */
#define BI_TYPES(X)              \
    X(i, I, Int, BI_I)           \
    X(s, S, float, BI_S)         \
    X(d, D, double, BI_D)        \
    X(c, C, float, BI_C)         \
    X(z, Z, double, BI_Z)

/* the body every communication entry point shares: decode and check the
 * matrix (M at argument argm, UPLO/DIAG at argu/argd for trapezoids),
 * bracket the work for the debug and statistics levels, call the core */
#define BI_CALL(NAME, TY, ctxt, tr, uplo, argu, diag, argd, m, n, lda, argm, kind, scope, top,  \
                r, c, CORE)                                                                  \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, tr, uplo, argu, diag, argd, m, n, lda, argm);     \
        bi_enter(NAME, ctxt, kind, scope, top, &s_, r, c);                                   \
        CORE;                                                                                \
        bi_leave();                                                                          \
    }

/* vGESD2D and vGERV2D check and bracket in p2p.c (bi_p2p_gesd, bi_p2p_gerv),
 * so that the usual message's MPI call comes first */
#define BI_GESD(NAME, TY, ctxt, m, n, A, lda, r, c)                                          \
    { bi_p2p_gesd(NAME, TY, ctxt, m, n, A, lda, r, c); }
#define BI_GERV(NAME, TY, ctxt, m, n, A, lda, r, c)                                          \
    { bi_p2p_gerv(NAME, TY, ctxt, m, n, A, lda, r, c); }
#define BI_TRSD(NAME, TY, ctxt, uplo, diag, m, n, A, lda, r, c)                              \
    BI_CALL(NAME, TY, ctxt, 1, uplo, 2, diag, 3, m, n, lda, 4, 's', NULL, NULL, r, c,        \
            bi_p2p_send(ctxt, &s_, A, r, c, NAME))
#define BI_TRRV(NAME, TY, ctxt, uplo, diag, m, n, A, lda, r, c)                              \
    BI_CALL(NAME, TY, ctxt, 1, uplo, 2, diag, 3, m, n, lda, 4, 'v', NULL, NULL, r, c,        \
            bi_p2p_recv(ctxt, &s_, A, r, c, NAME))
#define BI_GEBS(NAME, TY, ctxt, scope, top, m, n, A, lda)                                    \
    BI_CALL(NAME, TY, ctxt, 0, NULL, 0, NULL, 0, m, n, lda, 4, 'b', scope, top, -1, -1,      \
            bi_bcast_send(ctxt, scope, top, &s_, A, NAME))
#define BI_GEBR(NAME, TY, ctxt, scope, top, m, n, A, lda, r, c)                              \
    BI_CALL(NAME, TY, ctxt, 0, NULL, 0, NULL, 0, m, n, lda, 4, 'r', scope, top, r, c,        \
            bi_bcast_recv(ctxt, scope, top, &s_, A, r, c, NAME))
#define BI_TRBS(NAME, TY, ctxt, scope, top, uplo, diag, m, n, A, lda)                        \
    BI_CALL(NAME, TY, ctxt, 1, uplo, 4, diag, 5, m, n, lda, 6, 'b', scope, top, -1, -1,      \
            bi_bcast_send(ctxt, scope, top, &s_, A, NAME))
#define BI_TRBR(NAME, TY, ctxt, scope, top, uplo, diag, m, n, A, lda, r, c)                  \
    BI_CALL(NAME, TY, ctxt, 1, uplo, 4, diag, 5, m, n, lda, 6, 'r', scope, top, r, c,        \
            bi_bcast_recv(ctxt, scope, top, &s_, A, r, c, NAME))
#define BI_GSUM(NAME, TY, ctxt, scope, top, m, n, A, lda, r, c)                              \
    BI_CALL(NAME, TY, ctxt, 0, NULL, 0, NULL, 0, m, n, lda, 4, 'c', scope, top, r, c,        \
            bi_combine(ctxt, scope, top, BI_SUM, &s_, A, NULL, NULL, -1, r, c, NAME))
#define BI_GAMX(NAME, OP, TY, ctxt, scope, top, m, n, A, lda, ra, ca, ldia, r, c)            \
    BI_CALL(NAME, TY, ctxt, 0, NULL, 0, NULL, 0, m, n, lda, 4, 'c', scope, top, r, c,        \
            bi_combine(ctxt, scope, top, OP, &s_, A, ra, ca, ldia, r, c, NAME))

/* vTUOP2D(ICTXT, SCOPE, TOP, UPLO, DIAG, M, N, A, LDA, RDEST, CDEST, INIT,
 * OP, POST): LAWN 73 7.1.3's user-defined combine; UPLO 'G' = general */
#define BI_TUOP(NAME, TY, ctxt, scope, top, uplo, diag, m, n, A, lda, r, c, init, op, post)   \
    BI_CALL(NAME, TY, ctxt, bi_up(uplo) != 'G', uplo, 4, diag, 5, m, n, lda, 6, 'c', scope,     \
            top, r, c,                                                                       \
            bi_tuop(ctxt, scope, top, &s_, A, r, c, (bi_ufn)init, (bi_ufn)op, (bi_ufn)post, NAME))

#endif
