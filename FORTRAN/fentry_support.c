/*
 * fentry_support.c -- Fortran-callable support routines.  A Fortran system
 * context is a Fortran MPI communicator handle (as in the reference), converted with
 * MPI_Comm_f2c (what the INSTALL probe checked works).  Every name is
 * exported under all Fortran spellings (fname.h); the reference gives
 * sys2blacs_handle_, blacs2sys_handle_, free_blacs_system_handle_ only one.
 */
#include "bi.h"
#include "support.h"
#include "fname.h"

F_DEFU(void, blacs_pinfo, BLACS_PINFO, (Int *mypnum, Int *nprocs)) { bi_pinfo(mypnum, nprocs); }
F_DEFU(void, blacs_setup, BLACS_SETUP, (Int *mypnum, Int *nprocs)) { bi_pinfo(mypnum, nprocs); }
F_DEFU(void, blacs_get, BLACS_GET, (Int *ctxt, Int *what, Int *val)) { bi_get(*ctxt, *what, val, 1); }
F_DEFU(void, blacs_set, BLACS_SET, (Int *ctxt, Int *what, Int *val)) { bi_set(*ctxt, *what, val); }
F_DEFU(void, blacs_gridinit, BLACS_GRIDINIT, (Int *ctxt, char *order, Int *nprow, Int *npcol))
{
    bi_gridinit(ctxt, bi_sys_fcomm(*ctxt, "BLACS_GRIDINIT"), order, *nprow, *npcol,
                "BLACS_GRIDINIT");
}
F_DEFU(void, blacs_gridmap, BLACS_GRIDMAP, (Int *ctxt, Int *map, Int *ldup, Int *nprow, Int *npcol))
{
    bi_gridmap(ctxt, bi_sys_fcomm(*ctxt, "BLACS_GRIDMAP"), map, *ldup, *nprow, *npcol, "BLACS_GRIDMAP");
}
F_DEFU(void, blacs_freebuff, BLACS_FREEBUFF, (Int *ctxt, Int *wait)) { bi_freebuff(*ctxt, *wait); }
F_DEFU(void, blacs_gridexit, BLACS_GRIDEXIT, (Int *ctxt)) { bi_gridexit(*ctxt, "BLACS_GRIDEXIT"); }
F_DEFU(void, blacs_abort, BLACS_ABORT, (Int *ctxt, Int *errnum)) { bi_abort(*ctxt, *errnum); }
F_DEFU(void, blacs_exit, BLACS_EXIT, (Int *cont)) { bi_exit(*cont); }
F_DEFU(void, blacs_gridinfo, BLACS_GRIDINFO, (Int *ctxt, Int *nprow, Int *npcol, Int *myrow, Int *mycol))
{
    bi_gridinfo(*ctxt, nprow, npcol, myrow, mycol);
}
F_DEFU(Int, blacs_pnum, BLACS_PNUM, (Int *ctxt, Int *prow, Int *pcol)) { return bi_pnum(*ctxt, *prow, *pcol); }
F_DEFU(void, blacs_pcoord, BLACS_PCOORD, (Int *ctxt, Int *pnum, Int *prow, Int *pcol))
{
    bi_pcoord(*ctxt, *pnum, prow, pcol);
}
F_DEFU(void, blacs_barrier, BLACS_BARRIER, (Int *ctxt, char *scope)) { bi_barrier(*ctxt, scope, "BLACS_BARRIER"); }
F_DEF(Int, ksendid, KSENDID, (Int *ctxt, Int *r, Int *c)) { return bi_ksendid(*ctxt, *r, *c, "KSENDID"); }
F_DEF(Int, krecvid, KRECVID, (Int *ctxt, Int *r, Int *c)) { return bi_krecvid(*ctxt, *r, *c, "KRECVID"); }
F_DEF(Int, kbsid, KBSID, (Int *ctxt, char *scope)) { return bi_kbsid(*ctxt, scope, "KBSID"); }
F_DEF(Int, kbrid, KBRID, (Int *ctxt, char *scope, Int *r, Int *c)) { return bi_kbrid(*ctxt, scope, *r, *c, "KBRID"); }
F_DEF(double, dcputime00, DCPUTIME00, (void)) { return bi_cputime(); }
F_DEF(double, dwalltime00, DWALLTIME00, (void)) { return bi_walltime(); }
F_DEFU(Int, sys2blacs_handle, SYS2BLACS_HANDLE, (Int *sysctxt)) { return *sysctxt; }
F_DEFU(Int, blacs2sys_handle, BLACS2SYS_HANDLE, (Int *ctxt)) { return *ctxt; }
F_DEFU(void, free_blacs_system_handle, FREE_BLACS_SYSTEM_HANDLE, (Int *h)) { (void)h; }
F_DEFU(void, blacs_lastsrc, BLACS_LASTSRC, (Int *ctxt, Int *rsrc, Int *csrc)) { bi_lastsrc(*ctxt, rsrc, csrc); }
