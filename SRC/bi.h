/*
 * bi.h -- the interface of the dispatchers (bcast.c, combine.c, p2p.c) to
 * the entry points (SRC/entry_*.c, FORTRAN/), and the
 * umbrella those include: the core (core.h) and the selection step
 * (plan.h).  The layers and which header each includes: SRC/layers.txt.
 */
#ifndef BI_H
#define BI_H
#include "core.h"
#include "plan.h"
#pragma GCC visibility push(hidden)

/* ---- the entry points' bracket (entry_debug.c; LAWN 73 7.1.4) ------------
 * every communication entry point brackets its work with bi_enter/bi_leave */
void bi_enter(const char *routine, Int ctxt, char kind, const char *scope, const char *top,
              const bi_shape *s, Int rr, Int rc);
void bi_leave(void);

/* ---- operations behind the entry points ---------------------------------- */
void bi_p2p_send(Int ctxt, const bi_shape *s, const void *A, Int rdest, Int cdest,
                 const char *routine);
void bi_p2p_recv(Int ctxt, const bi_shape *s, void *A, Int rsrc, Int csrc,
                 const char *routine);
void bi_bcast_send(Int ctxt, const char *scope, const char *top, const bi_shape *s,
                   const void *A, const char *routine);
void bi_bcast_recv(Int ctxt, const char *scope, const char *top, const bi_shape *s, void *A,
                   Int rsrc, Int csrc, const char *routine);
void bi_combine(Int ctxt, const char *scope, const char *top, int opkind, const bi_shape *s,
                void *A, Int *rA, Int *cA, Int ldia, Int rdest, Int cdest,
                const char *routine);
/* Intel MKL's Cdsendrecv (sendrecv.c, through p2p.c's path): argument
 * numbers as in the C call */
void bi_p2p_sendrecv(Int ctxt, const bi_shape *ss, const void *A, Int rdest, Int cdest,
                     const bi_shape *rs, void *B, Int rsrc, Int csrc, const char *routine);
void bi_mkl_sendrecv(Int ctxt, Int m, Int n, const double *A, Int lda, Int rdest, Int cdest,
                     Int m2, Int n2, double *B, Int ldb, Int rsrc, Int csrc, const char *routine);
/* vTUOP2D: a user-defined combine on a general (UPLO 'G') or trapezoidal shape */
void bi_tuop(Int ctxt, const char *scope, const char *top, const bi_shape *s, void *A,
             Int rdest, Int cdest, bi_ufn init, bi_ufn op, bi_ufn post, const char *routine);

/* argument decoding shared by the entry points (entry_check.c) */
/* builds and checks a shape: argument numbers of M (N, LDA follow), UPLO and DIAG (0: none) */
void bi_make_shape(bi_shape *s, Int ctxt, const char *routine, int type, int tr,
                   const char *uplo, int argu, const char *diag, int argd,
                   Int m, Int n, Int lda, int argm);

#pragma GCC visibility pop
#endif
