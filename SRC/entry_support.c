/*
 * entry_support.c -- C entry points of the support routines (Cblacs_*,
 * Ck*id, timers, system handles): C conventions, then the shared core in
 * support.c.  C system contexts are indices into a table of MPI_Comm
 * (as the reference's Csys2blacs_handle), world at 0.
 */
#include "bi.h"
#include "support.h"

BI_API void Cblacs_pinfo(Int *mypnum, Int *nprocs) { bi_pinfo(mypnum, nprocs); }
BI_API void Cblacs_setup(Int *mypnum, Int *nprocs) { bi_pinfo(mypnum, nprocs); }
BI_API void Cblacs_get(Int ctxt, Int what, Int *val) { bi_get(ctxt, what, val, 0); }
BI_API void Cblacs_set(Int ctxt, Int what, Int *val) { bi_set(ctxt, what, val); }
BI_API void Cblacs_gridinit(Int *ctxt, char *order, Int nprow, Int npcol)
{
    bi_gridinit(ctxt, bi_sys_comm(*ctxt, "Cblacs_gridinit", "ICONTXT"), order, nprow, npcol,
                "Cblacs_gridinit");
}
BI_API void Cblacs_gridmap(Int *ctxt, Int *map, Int ldup, Int nprow, Int npcol)
{
    bi_gridmap(ctxt, bi_sys_comm(*ctxt, "Cblacs_gridmap", "ICONTXT"), map, ldup, nprow, npcol,
               "Cblacs_gridmap");
}
BI_API void Cblacs_freebuff(Int ctxt, Int wait) { bi_freebuff(ctxt, wait); }
BI_API void Cblacs_gridexit(Int ctxt) { bi_gridexit(ctxt, "Cblacs_gridexit"); }
BI_API void Cblacs_abort(Int ctxt, Int errnum) { bi_abort(ctxt, errnum); }
BI_API void Cblacs_exit(Int cont) { bi_exit(cont); }
BI_API void Cblacs_gridinfo(Int ctxt, Int *nprow, Int *npcol, Int *myrow, Int *mycol)
{
    bi_gridinfo(ctxt, nprow, npcol, myrow, mycol);
}
BI_API Int Cblacs_pnum(Int ctxt, Int prow, Int pcol) { return bi_pnum(ctxt, prow, pcol); }
BI_API void Cblacs_pcoord(Int ctxt, Int pnum, Int *prow, Int *pcol) { bi_pcoord(ctxt, pnum, prow, pcol); }
BI_API void Cblacs_barrier(Int ctxt, char *scope) { bi_barrier(ctxt, scope, "Cblacs_barrier"); }
BI_API Int Cksendid(Int ctxt, Int r, Int c) { return bi_ksendid(ctxt, r, c, "Cksendid"); }
BI_API Int Ckrecvid(Int ctxt, Int r, Int c) { return bi_krecvid(ctxt, r, c, "Ckrecvid"); }
BI_API Int Ckbsid(Int ctxt, char *scope) { return bi_kbsid(ctxt, scope, "Ckbsid"); }
BI_API Int Ckbrid(Int ctxt, char *scope, Int r, Int c) { return bi_kbrid(ctxt, scope, r, c, "Ckbrid"); }
BI_API double Cdcputime00(void) { return bi_cputime(); }
BI_API double Cdwalltime00(void) { return bi_walltime(); }
BI_API Int Csys2blacs_handle(MPI_Comm comm) { return bi_sys_handle(comm); }
BI_API MPI_Comm Cblacs2sys_handle(Int h)
{
    return bi_sys_comm(h, "Cblacs2sys_handle", "BLACSCTXT");
}
BI_API void Cfree_blacs_system_handle(Int h) { bi_sys_free(h, 0); }
BI_API void Cblacs_lastsrc(Int ctxt, Int *rsrc, Int *csrc) { bi_lastsrc(ctxt, rsrc, csrc); }
