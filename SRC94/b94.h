/*
 * b94.h -- internal header of the 1994 (context-free) BLACS interface of
 * LAWN 73 appendix C, built as LIB/libblacs94.a on top of the BLACS 1.1 C
 * interface of this library (SRC/blacs.h).
 *
 * The 1994 interface has one implicit process grid per process.  We keep it
 * as one "current" BLACS 1.1 context: BLACSINIT and GRIDMAP replace it,
 * BLACSEXIT forgets it, and every other routine passes it as ICONTXT to the
 * corresponding C routine (Cdgesd2d, Cblacs_gridinfo, ...).
 *
 * All entry points are Fortran-callable (every argument by reference,
 * CHARACTER arguments as char * whose hidden lengths are ignored, as the
 * BLACS 1.1 entry points do); the symbol names follow the Fortran naming
 * convention the INSTALL probes found (blacs_config.h).
 */
#ifndef B94_H
#define B94_H
#include "blacs_config.h"
#include "blacs.h"

#if defined(BI_F77_UPCASE)
#define B94F(l, U) U
#elif defined(BI_F77_NOCHANGE)
#define B94F(l, U) l
#else
#define B94F(l, U) l##_
#endif

#if defined(BI_F77_UNDERSCORED_UPCASE)
#define B94FU(l, U) U
#elif defined(BI_F77_UNDERSCORED_NONE)
#define B94FU(l, U) l
#elif defined(BI_F77_UNDERSCORED_TWO)
#define B94FU(l, U) l##__
#else
#define B94FU(l, U) l##_
#endif

#define B94_EXPORT __attribute__((visibility("default")))

/* the current context; aborts with a message naming `routine` when no grid
 * has been made (or this process is not in the current grid) */
blacs_int b94_ctxt(const char *routine);
/* the current context or -1, without checks */
blacs_int b94_ctxt_or_none(void);

#endif
