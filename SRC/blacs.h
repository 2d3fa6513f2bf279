/*
 * blacs.h -- C interface of the BLACS (Basic Linear Algebra Communication
 * Subprograms), BLACS 1.1 calling sequences (the ones Reference ScaLAPACK
 * and Intel MKL export), plus the extensions of this library (marked).
 *
 * Scalars that are inputs are passed by value; outputs and arrays by
 * pointer; character arguments as char * of which only the first character
 * is read.  Complex data are interleaved (re,im) float/double pairs.
 *
 * BLACS integers are C int, or 64-bit when the library was built with
 * INTSIZE=8 (define BLACS_ILP64 before including, pkg-config does it).
 */
#ifndef BLACS_H
#define BLACS_H

#include <mpi.h>
#include <stdint.h>

#ifndef BLACS_INT
#  ifdef BLACS_ILP64
#    define BLACS_INT int64_t
#  else
#    define BLACS_INT int
#  endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef BLACS_INT blacs_int;

/* ---- support routines ------------------------------------------------ */
void Cblacs_pinfo(blacs_int *mypnum, blacs_int *nprocs);
void Cblacs_setup(blacs_int *mypnum, blacs_int *nprocs);
void Cblacs_get(blacs_int ConTxt, blacs_int what, blacs_int *val);
void Cblacs_set(blacs_int ConTxt, blacs_int what, blacs_int *val);
void Cblacs_gridinit(blacs_int *ConTxt, char *order, blacs_int nprow, blacs_int npcol);
void Cblacs_gridmap(blacs_int *ConTxt, blacs_int *usermap, blacs_int ldup,
                    blacs_int nprow, blacs_int npcol);
void Cblacs_freebuff(blacs_int ConTxt, blacs_int Wait);
void Cblacs_gridexit(blacs_int ConTxt);
void Cblacs_abort(blacs_int ConTxt, blacs_int ErrNo);
void Cblacs_exit(blacs_int NotDone);
void Cblacs_gridinfo(blacs_int ConTxt, blacs_int *nprow, blacs_int *npcol,
                     blacs_int *myrow, blacs_int *mycol);
blacs_int Cblacs_pnum(blacs_int ConTxt, blacs_int prow, blacs_int pcol);
void Cblacs_pcoord(blacs_int ConTxt, blacs_int nodenum, blacs_int *prow, blacs_int *pcol);
void Cblacs_barrier(blacs_int ConTxt, char *scope);
blacs_int Cksendid(blacs_int ConTxt, blacs_int rdest, blacs_int cdest);
blacs_int Ckrecvid(blacs_int ConTxt, blacs_int rsrc, blacs_int csrc);
blacs_int Ckbsid(blacs_int ConTxt, char *scope);
blacs_int Ckbrid(blacs_int ConTxt, char *scope, blacs_int rsrc, blacs_int csrc);
double Cdcputime00(void);
double Cdwalltime00(void);
blacs_int Csys2blacs_handle(MPI_Comm SysCtxt);
MPI_Comm Cblacs2sys_handle(blacs_int BlacsCtxt);
void Cfree_blacs_system_handle(blacs_int ISysCtxt);

/* ---- communication routines: one prototype set per type --------------- */
#define BLACS_H_COMM_PROTOS(v, T)                                              \
void C##v##gesd2d(blacs_int ConTxt, blacs_int m, blacs_int n, T *A,            \
                  blacs_int lda, blacs_int rdest, blacs_int cdest);            \
void C##v##gerv2d(blacs_int ConTxt, blacs_int m, blacs_int n, T *A,            \
                  blacs_int lda, blacs_int rsrc, blacs_int csrc);              \
void C##v##trsd2d(blacs_int ConTxt, char *uplo, char *diag, blacs_int m,       \
                  blacs_int n, T *A, blacs_int lda, blacs_int rdest,           \
                  blacs_int cdest);                                            \
void C##v##trrv2d(blacs_int ConTxt, char *uplo, char *diag, blacs_int m,       \
                  blacs_int n, T *A, blacs_int lda, blacs_int rsrc,            \
                  blacs_int csrc);                                             \
void C##v##gebs2d(blacs_int ConTxt, char *scope, char *top, blacs_int m,       \
                  blacs_int n, T *A, blacs_int lda);                           \
void C##v##gebr2d(blacs_int ConTxt, char *scope, char *top, blacs_int m,       \
                  blacs_int n, T *A, blacs_int lda, blacs_int rsrc,            \
                  blacs_int csrc);                                             \
void C##v##trbs2d(blacs_int ConTxt, char *scope, char *top, char *uplo,        \
                  char *diag, blacs_int m, blacs_int n, T *A, blacs_int lda);  \
void C##v##trbr2d(blacs_int ConTxt, char *scope, char *top, char *uplo,        \
                  char *diag, blacs_int m, blacs_int n, T *A, blacs_int lda,   \
                  blacs_int rsrc, blacs_int csrc);                             \
void C##v##gsum2d(blacs_int ConTxt, char *scope, char *top, blacs_int m,       \
                  blacs_int n, T *A, blacs_int lda, blacs_int rdest,           \
                  blacs_int cdest);                                            \
void C##v##gamx2d(blacs_int ConTxt, char *scope, char *top, blacs_int m,       \
                  blacs_int n, T *A, blacs_int lda, blacs_int *rA,             \
                  blacs_int *cA, blacs_int ldia, blacs_int rdest,              \
                  blacs_int cdest);                                            \
void C##v##gamn2d(blacs_int ConTxt, char *scope, char *top, blacs_int m,       \
                  blacs_int n, T *A, blacs_int lda, blacs_int *rA,             \
                  blacs_int *cA, blacs_int ldia, blacs_int rdest,              \
                  blacs_int cdest);

BLACS_H_COMM_PROTOS(i, blacs_int)
BLACS_H_COMM_PROTOS(s, float)
BLACS_H_COMM_PROTOS(d, double)
BLACS_H_COMM_PROTOS(c, float)
BLACS_H_COMM_PROTOS(z, double)
#undef BLACS_H_COMM_PROTOS

/* ---- extensions of this library (not in the reference BLACS) ---------- */

/* vTUOP2D: trapezoidal user-defined combine (LAWN 73 7.1.3).  UPLO 'G' is
 * a general M x N matrix, 'U'/'L' a trapezoid as in vTRSD2D (DIAG 'U'/'N').
 * init(n, x) is applied to each process's contribution (may be NULL),
 * op(n, in, inout) sets inout(i) = inout(i) op in(i) (associative and
 * commutative), post(n, x) to the result where it lands (may be NULL).  n is
 * passed by reference so Fortran routines can be used directly.  Scopes,
 * topologies, RDEST/CDEST (-1: leave on all) as in vGSUM2D. */
#define BLACS_H_TUOP_PROTO(v, T)                                                              \
void C##v##tuop2d(blacs_int ConTxt, char *scope, char *top, char *uplo, char *diag,            \
                  blacs_int m, blacs_int n, T *A, blacs_int lda, blacs_int rdest,              \
                  blacs_int cdest, void (*init)(blacs_int *, T *),                             \
                  void (*op)(blacs_int *, T *, T *), void (*post)(blacs_int *, T *));
BLACS_H_TUOP_PROTO(i, blacs_int)
BLACS_H_TUOP_PROTO(s, float)
BLACS_H_TUOP_PROTO(d, double)
BLACS_H_TUOP_PROTO(c, float)
BLACS_H_TUOP_PROTO(z, double)
#undef BLACS_H_TUOP_PROTO

/* Grid coordinates of the sender of the last message received by this
 * process in context ConTxt (useful after a wildcard receive, RSRC = -1). */
void Cblacs_lastsrc(blacs_int ConTxt, blacs_int *rsrc, blacs_int *csrc);

/* Intel MKL's extension (its PBLAS transposes call it): send the M x N
 * matrix A to {rdest,cdest} and receive the M2 x N2 matrix B from
 * {rsrc,csrc} at the same time, as MPI_Sendrecv; two processes exchanging
 * do not deadlock.  Fortran: DSENDRECV, arguments by reference. */
void Cdsendrecv(blacs_int ConTxt, blacs_int m, blacs_int n, double *A, blacs_int lda,
                blacs_int rdest, blacs_int cdest, blacs_int m2, blacs_int n2, double *B,
                blacs_int ldb, blacs_int rsrc, blacs_int csrc);

#ifdef __cplusplus
}
#endif
#endif /* BLACS_H */
