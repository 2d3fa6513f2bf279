/*
 * fname.h -- Fortran-callable symbol names, from the conventions the
 * INSTALL probes found (generated blacs_config.h): F77(lower, UPPER) for
 * names without an underscore, F77U for names that contain one (f2c-style
 * compilers append two).
 */
#ifndef FNAME_H
#define FNAME_H
#include "bi.h"

#if defined(BI_F77_UPCASE)
#define F77(l, U) U
#elif defined(BI_F77_NOCHANGE)
#define F77(l, U) l
#else
#define F77(l, U) l##_
#endif

#if defined(BI_F77_UNDERSCORED_UPCASE)
#define F77U(l, U) U
#elif defined(BI_F77_UNDERSCORED_NONE)
#define F77U(l, U) l
#elif defined(BI_F77_UNDERSCORED_TWO)
#define F77U(l, U) l##__
#else
#define F77U(l, U) l##_
#endif

/* hidden lengths of CHARACTER arguments trail the argument list; like the
 * reference we read only the first character and ignore them */
typedef BI_F77_CHARLEN_T bi_flen;
#endif
