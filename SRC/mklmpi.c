/*
 * mklmpi.c -- MKLMPI_Get_wrappers, the one more name Intel MKL's ScaLAPACK
 * needs from a BLACS library besides the BLACS and Cdsendrecv.
 *
 * MKL's ScaLAPACK and Cluster FFT do not call MPI directly: at run time
 * libmkl_core looks up MKLMPI_Get_wrappers in the process and calls MPI
 * through the table of wrappers it returns (MKL's own MPI abstraction, with
 * handles of its own; MKL's BLACS libraries carry it, one per MPI ABI).
 * Without it MKL stops with "Intel MKL FATAL ERROR: Cannot load symbol
 * MKLMPI_Get_wrappers".  That table is MPI plumbing, not BLACS: we hand out
 * the one of MKL's BLACS library built for our MPI, loaded privately
 * (RTLD_LOCAL, so none of its BLACS routines can be called: every BLACS
 * name still binds to ours).  BLACS_MKLMPI_LIB names another library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include "bi.h"

#if defined(OPEN_MPI)
#define MKL_FLAVOUR "openmpi"
#else
#define MKL_FLAVOUR "intelmpi" /* MPICH's ABI (Intel MPI, MPICH, MVAPICH) */
#endif
#ifdef BLACS_ILP64
#define MKL_INTS "ilp64"
#else
#define MKL_INTS "lp64"
#endif

BI_API void *MKLMPI_Get_wrappers(void)
{
    static void *table;
    if (table) return table;
    const char *lib = bi_env_text(BI_SET_MKLMPI_LIB);
    if (!lib || !*lib) lib = "libmkl_blacs_" MKL_FLAVOUR "_" MKL_INTS ".so";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    void *(*get)(void) = NULL;
    if (h) *(void **)&get = dlsym(h, "MKLMPI_Get_wrappers");
    if (!get)
        bi_error(-1, -1, "MKLMPI_Get_wrappers",
                 "Intel MKL asks for its MPI wrappers; they come from %s (MKL's BLACS for this "
                 "MPI, e.g. Debian's libmkl-blacs-" MKL_FLAVOUR "-" MKL_INTS
                 "; BLACS_MKLMPI_LIB names another), which could not be used: %s",
                 lib, h ? "no MKLMPI_Get_wrappers in it" : dlerror());
    table = get();
    return table;
}
