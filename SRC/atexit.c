/*
 * atexit.c -- the cleanups BLACS_EXIT runs (or MPI_Finalize without it,
 * init.c): the MPI objects the library keeps (datatypes, operations,
 * keyvals), each registered once by the file that made it.  In the ground
 * layer, so that any file may register without calling up.
 */
#include "base.h"

typedef void (*cleanup_fn)(void);
#define NCLEANUPS 16 /* the library registers fewer than ten distinct ones */
static cleanup_fn cleanups[NCLEANUPS];
static int ncleanups;

void bi_atexit(void (*fn)(void))
{
    for (int i = 0; i < ncleanups; i++)
        if (cleanups[i] == fn) return;
    /* a cleanup dropped would leak MPI objects past MPI_Finalize */
    if (ncleanups == NCLEANUPS)
        bi_error(-1, __LINE__, __FILE__, "internal: more than %d BLACS_EXIT cleanups", NCLEANUPS);
    cleanups[ncleanups++] = fn;
}

void bi_run_cleanups(void)
{
    for (int i = 0; i < ncleanups; i++) cleanups[i]();
    ncleanups = 0;
}
