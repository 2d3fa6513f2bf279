/*
 * kid94.c -- message-ID functions of the 1994 BLACS interface (LAWN 73
 * appendix C): KSENDID, KRECVID, KBSID(SCOPE), KBRID(SCOPE, RSRC, CSRC).
 *
 * In its own object file: these names are also BLACS 1.1 names (with an
 * ICONTXT first argument) defined in libblacs.a, so a program that calls
 * them must find this object first (libblacs94.a before libblacs.a).
 *
 * KSENDID(RDEST, CDEST) and KRECVID(RSRC, CSRC) return the ID the next
 * point-to-point message to / from that grid position will carry (LAWN 73
 * section 6.1 scheme of this library).  (The scanned appendix C prints
 * "KSENDID ( RSRC, CSRC, RDEST, CDEST )"; the sender's own coordinates are
 * implied, so we take the destination only, matching KRECVID.)
 */
#include "b94.h"

B94_EXPORT blacs_int B94F(ksendid, KSENDID)(blacs_int *rdest, blacs_int *cdest)
{
    return Cksendid(b94_ctxt("KSENDID"), *rdest, *cdest);
}

B94_EXPORT blacs_int B94F(krecvid, KRECVID)(blacs_int *rsrc, blacs_int *csrc)
{
    return Ckrecvid(b94_ctxt("KRECVID"), *rsrc, *csrc);
}

B94_EXPORT blacs_int B94F(kbsid, KBSID)(char *scope)
{
    return Ckbsid(b94_ctxt("KBSID"), scope);
}

B94_EXPORT blacs_int B94F(kbrid, KBRID)(char *scope, blacs_int *rsrc, blacs_int *csrc)
{
    return Ckbrid(b94_ctxt("KBRID"), scope, *rsrc, *csrc);
}
