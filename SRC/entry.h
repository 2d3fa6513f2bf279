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

#define BI_GESD(NAME, TY, ctxt, m, n, A, lda, r, c)                                          \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 0, NULL, 0, NULL, 0, m, n, lda, 2);               \
        bi_enter(NAME, ctxt, 's', NULL, NULL, &s_, r, c);                                      \
        bi_p2p_send(ctxt, &s_, A, r, c, NAME);                                               \
        bi_leave();                                               \
    }
#define BI_GERV(NAME, TY, ctxt, m, n, A, lda, r, c)                                          \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 0, NULL, 0, NULL, 0, m, n, lda, 2);               \
        bi_enter(NAME, ctxt, 'v', NULL, NULL, &s_, r, c);                                      \
        bi_p2p_recv(ctxt, &s_, A, r, c, NAME);                                               \
        bi_leave();                                               \
    }
#define BI_TRSD(NAME, TY, ctxt, uplo, diag, m, n, A, lda, r, c)                              \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 1, uplo, 2, diag, 3, m, n, lda, 4);               \
        bi_enter(NAME, ctxt, 's', NULL, NULL, &s_, r, c);                                      \
        bi_p2p_send(ctxt, &s_, A, r, c, NAME);                                               \
        bi_leave();                                               \
    }
#define BI_TRRV(NAME, TY, ctxt, uplo, diag, m, n, A, lda, r, c)                              \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 1, uplo, 2, diag, 3, m, n, lda, 4);               \
        bi_enter(NAME, ctxt, 'v', NULL, NULL, &s_, r, c);                                      \
        bi_p2p_recv(ctxt, &s_, A, r, c, NAME);                                               \
        bi_leave();                                               \
    }
#define BI_GEBS(NAME, TY, ctxt, scope, top, m, n, A, lda)                                    \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 0, NULL, 0, NULL, 0, m, n, lda, 4);               \
        bi_enter(NAME, ctxt, 'b', scope, top, &s_, -1, -1);                                    \
        bi_bcast_send(ctxt, scope, top, &s_, A, NAME);                                       \
        bi_leave();                                       \
    }
#define BI_GEBR(NAME, TY, ctxt, scope, top, m, n, A, lda, r, c)                              \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 0, NULL, 0, NULL, 0, m, n, lda, 4);               \
        bi_enter(NAME, ctxt, 'r', scope, top, &s_, r, c);                                      \
        bi_bcast_recv(ctxt, scope, top, &s_, A, r, c, NAME);                                 \
        bi_leave();                                 \
    }
#define BI_TRBS(NAME, TY, ctxt, scope, top, uplo, diag, m, n, A, lda)                        \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 1, uplo, 4, diag, 5, m, n, lda, 6);               \
        bi_enter(NAME, ctxt, 'b', scope, top, &s_, -1, -1);                                    \
        bi_bcast_send(ctxt, scope, top, &s_, A, NAME);                                       \
        bi_leave();                                       \
    }
#define BI_TRBR(NAME, TY, ctxt, scope, top, uplo, diag, m, n, A, lda, r, c)                  \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 1, uplo, 4, diag, 5, m, n, lda, 6);               \
        bi_enter(NAME, ctxt, 'r', scope, top, &s_, r, c);                                      \
        bi_bcast_recv(ctxt, scope, top, &s_, A, r, c, NAME);                                 \
        bi_leave();                                 \
    }
#define BI_GSUM(NAME, TY, ctxt, scope, top, m, n, A, lda, r, c)                              \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 0, NULL, 0, NULL, 0, m, n, lda, 4);               \
        bi_enter(NAME, ctxt, 'c', scope, top, &s_, r, c);                                      \
        bi_combine(ctxt, scope, top, BI_SUM, &s_, A, NULL, NULL, -1, r, c, NAME);            \
        bi_leave();            \
    }
#define BI_GAMX(NAME, OP, TY, ctxt, scope, top, m, n, A, lda, ra, ca, ldia, r, c)            \
    {                                                                                        \
        bi_shape s_;                                                                         \
        bi_make_shape(&s_, ctxt, NAME, TY, 0, NULL, 0, NULL, 0, m, n, lda, 4);               \
        bi_enter(NAME, ctxt, 'c', scope, top, &s_, r, c);                                      \
        bi_combine(ctxt, scope, top, OP, &s_, A, ra, ca, ldia, r, c, NAME);                  \
        bi_leave();                  \
    }

/* vTUOP2D(ICTXT, SCOPE, TOP, UPLO, DIAG, M, N, A, LDA, RDEST, CDEST, INIT,
 * OP, POST): LAWN 73 7.1.3's user-defined combine; UPLO 'G' = general */
#define BI_TUOP(NAME, TY, ctxt, scope, top, uplo, diag, m, n, A, lda, r, c, init, op, post)   \
    {                                                                                        \
        bi_shape s_;                                                                         \
        int tr_ = bi_up(uplo) != 'G';                                                        \
        bi_make_shape(&s_, ctxt, NAME, TY, tr_, uplo, 4, diag, 5, m, n, lda, 6);             \
        bi_enter(NAME, ctxt, 'c', scope, top, &s_, r, c);                                    \
        bi_tuop(ctxt, scope, top, &s_, A, r, c, (bi_ufn)init, (bi_ufn)op, (bi_ufn)post, NAME); \
        bi_leave();                                                                          \
    }

#endif
