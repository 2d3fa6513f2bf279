/*
 * fentry_support.c -- Fortran-callable support routines.  A Fortran system
 * context is a Fortran MPI communicator handle (spec 4.1), converted with
 * MPI_Comm_f2c (what the INSTALL probe checked works).  As in the
 * reference, sys2blacs_handle_, blacs2sys_handle_ and
 * free_blacs_system_handle_ always carry one trailing underscore.
 */
#include "bi.h"
#include "support.h"
#include "fname.h"

static MPI_Comm fcomm(Int h)
{
    bi_init();
    return MPI_Comm_f2c((MPI_Fint)h);
}

BI_API void F77U(blacs_pinfo, BLACS_PINFO)(Int *mypnum, Int *nprocs) { bi_pinfo(mypnum, nprocs); }
BI_API void F77U(blacs_setup, BLACS_SETUP)(Int *mypnum, Int *nprocs) { bi_pinfo(mypnum, nprocs); }
BI_API void F77U(blacs_get, BLACS_GET)(Int *ctxt, Int *what, Int *val) { bi_get(*ctxt, *what, val, 1); }
BI_API void F77U(blacs_set, BLACS_SET)(Int *ctxt, Int *what, Int *val) { bi_set(*ctxt, *what, val); }
BI_API void F77U(blacs_gridinit, BLACS_GRIDINIT)(Int *ctxt, char *order, Int *nprow, Int *npcol)
{
    bi_gridinit(ctxt, fcomm(*ctxt), order, *nprow, *npcol, "BLACS_GRIDINIT");
}
BI_API void F77U(blacs_gridmap, BLACS_GRIDMAP)(Int *ctxt, Int *map, Int *ldup, Int *nprow, Int *npcol)
{
    bi_gridmap(ctxt, fcomm(*ctxt), map, *ldup, *nprow, *npcol, "BLACS_GRIDMAP");
}
BI_API void F77U(blacs_freebuff, BLACS_FREEBUFF)(Int *ctxt, Int *wait) { bi_freebuff(*ctxt, *wait); }
BI_API void F77U(blacs_gridexit, BLACS_GRIDEXIT)(Int *ctxt) { bi_gridexit(*ctxt, "BLACS_GRIDEXIT"); }
BI_API void F77U(blacs_abort, BLACS_ABORT)(Int *ctxt, Int *errnum) { bi_abort(*ctxt, *errnum); }
BI_API void F77U(blacs_exit, BLACS_EXIT)(Int *cont) { bi_exit(*cont); }
BI_API void F77U(blacs_gridinfo, BLACS_GRIDINFO)(Int *ctxt, Int *nprow, Int *npcol, Int *myrow, Int *mycol)
{
    bi_gridinfo(*ctxt, nprow, npcol, myrow, mycol);
}
BI_API Int F77U(blacs_pnum, BLACS_PNUM)(Int *ctxt, Int *prow, Int *pcol) { return bi_pnum(*ctxt, *prow, *pcol); }
BI_API void F77U(blacs_pcoord, BLACS_PCOORD)(Int *ctxt, Int *pnum, Int *prow, Int *pcol)
{
    bi_pcoord(*ctxt, *pnum, prow, pcol);
}
BI_API void F77U(blacs_barrier, BLACS_BARRIER)(Int *ctxt, char *scope) { bi_barrier(*ctxt, scope); }
BI_API Int F77(ksendid, KSENDID)(Int *ctxt, Int *r, Int *c) { return bi_ksendid(*ctxt, *r, *c, "KSENDID"); }
BI_API Int F77(krecvid, KRECVID)(Int *ctxt, Int *r, Int *c) { return bi_krecvid(*ctxt, *r, *c, "KRECVID"); }
BI_API Int F77(kbsid, KBSID)(Int *ctxt, char *scope) { return bi_kbsid(*ctxt, scope, "KBSID"); }
BI_API Int F77(kbrid, KBRID)(Int *ctxt, char *scope, Int *r, Int *c) { return bi_kbrid(*ctxt, scope, *r, *c, "KBRID"); }
BI_API double F77(dcputime00, DCPUTIME00)(void) { return bi_cputime(); }
BI_API double F77(dwalltime00, DWALLTIME00)(void) { return bi_walltime(); }
BI_API Int sys2blacs_handle_(Int *sysctxt) { return *sysctxt; }
BI_API Int blacs2sys_handle_(Int *ctxt) { return *ctxt; }
BI_API void free_blacs_system_handle_(Int *h) { (void)h; }
BI_API void F77U(blacs_lastsrc, BLACS_LASTSRC)(Int *ctxt, Int *rsrc, Int *csrc) { bi_lastsrc(*ctxt, rsrc, csrc); }
