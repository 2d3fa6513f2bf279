/*
 * fname.h -- Fortran-callable symbol names.  Every entry point is defined
 * once, as lower_ (gfortran's default), and exported under every other
 * spelling a Fortran compiler produces as an alias of that one definition,
 * so a program links whatever convention it was compiled with (as against
 * Intel MKL's BLACS):
 *     lower     -fno-underscoring, IBM XL, HP, old Cray
 *     lower_    gfortran, ifort/ifx, flang, nvfortran (default)
 *     lower__   -fsecond-underscore, g77, f2c: only names holding an '_'
 *     UPPER     Cray CCE/CVF-style upper case
 *     UPPER_    upper case with an underscore
 * F_DEF(ret, lower, UPPER, (params)) defines a name without an underscore,
 * F_DEFU(...) one with an underscore (five spellings instead of four).
 * The INSTALL probes still record which spelling this build's compiler uses
 * (blacs_config.h, BI_F77_*) for the project's own Fortran programs.
 */
#ifndef FNAME_H
#define FNAME_H
#include "bi.h"

#define BI_FALIAS(def, name) \
    extern __typeof__(def) name __attribute__((alias(#def), visibility("default")));
#define BI_FNAMES(l, U) BI_FALIAS(l##_, l) BI_FALIAS(l##_, U) BI_FALIAS(l##_, U##_)
#define BI_FNAMES_U(l, U) BI_FNAMES(l, U) BI_FALIAS(l##_, l##__)

#define F_DEF(ret, l, U, params) BI_API ret l##_ params; BI_FNAMES(l, U) BI_API ret l##_ params
#define F_DEFU(ret, l, U, params) BI_API ret l##_ params; BI_FNAMES_U(l, U) BI_API ret l##_ params

/* hidden lengths of CHARACTER arguments trail the argument list; like the
 * reference we read only the first character and ignore them */
typedef BI_F77_CHARLEN_T bi_flen;
#endif
