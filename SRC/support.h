/* support.h -- the support routines' core, shared by the C (entry_support.c)
 * and Fortran (FORTRAN/fentry_support.c) entry points.  Internal. */
#ifndef SUPPORT_H
#define SUPPORT_H
#include "bi.h"
#pragma GCC visibility push(hidden)
void bi_gridinit(Int *ctxt, MPI_Comm sys, const char *order, Int nprow, Int npcol,
                 const char *routine);
void bi_pinfo(Int *mypnum, Int *nprocs);
/* fortran != 0: system contexts are Fortran communicator handles */
void bi_get(Int ctxt, Int what, Int *val, int fortran);
void bi_set(Int ctxt, Int what, const Int *val);
void bi_freebuff(Int ctxt, Int wait);
void bi_abort(Int ctxt, Int errnum);
void bi_exit(Int cont);
void bi_gridinfo(Int ctxt, Int *nprow, Int *npcol, Int *myrow, Int *mycol);
Int bi_pnum(Int ctxt, Int prow, Int pcol);
void bi_pcoord(Int ctxt, Int pnum, Int *prow, Int *pcol);
void bi_barrier(Int ctxt, const char *scope, const char *routine);
Int bi_ksendid(Int ctxt, Int rdest, Int cdest, const char *routine);
Int bi_krecvid(Int ctxt, Int rsrc, Int csrc, const char *routine);
Int bi_kbsid(Int ctxt, const char *scope, const char *routine);
Int bi_kbrid(Int ctxt, const char *scope, Int rsrc, Int csrc, const char *routine);
double bi_cputime(void);
double bi_walltime(void);
void bi_lastsrc(Int ctxt, Int *rsrc, Int *csrc);
#pragma GCC visibility pop
#endif
