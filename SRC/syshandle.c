/*
 * syshandle.c -- system contexts: the C handles of Csys2blacs_handle (a
 * table of MPI communicators; handles stay stable when others are freed)
 * and the Fortran ones (any Fortran communicator handle).
 */
#include <stdlib.h>
#include "core.h"

static MPI_Comm *syscomms; /* C system-context handles; world is 0 */
static int nsys;

Int bi_sys_handle(MPI_Comm comm)
{
    bi_init();
    if (comm == MPI_COMM_NULL)
        bi_error(-1, __LINE__, __FILE__, "Cannot define a BLACS system handle based on MPI_COMM_NULL");
    if (nsys == 0) {
        nsys = 8;
        syscomms = bi_alloc(NULL, (size_t)nsys * sizeof *syscomms, "Csys2blacs_handle",
                            "the system-context table");
        for (int i = 0; i < nsys; i++) syscomms[i] = MPI_COMM_NULL;
        syscomms[0] = MPI_COMM_WORLD;
    }
    for (int i = 0; i < nsys; i++)
        if (syscomms[i] == comm) return i;
    for (int i = 1; i < nsys; i++)
        if (syscomms[i] == MPI_COMM_NULL) {
            syscomms[i] = comm;
            return i;
        }
    int n = 2 * nsys;
    syscomms = bi_alloc(syscomms, (size_t)n * sizeof *syscomms, "Csys2blacs_handle",
                        "the system-context table");
    for (int i = nsys; i < n; i++) syscomms[i] = MPI_COMM_NULL;
    syscomms[nsys] = comm;
    nsys = n;
    return n / 2;
}

MPI_Comm bi_sys_comm(Int h, const char *routine, const char *argname)
{
    bi_init();
    if (h == 0) return MPI_COMM_WORLD;
    if (h < 0 || h >= nsys || syscomms[h] == MPI_COMM_NULL)
        bi_argerr(-1, routine, 1, argname,
                  "%ld is not a BLACS system context handle (BLACS_GET WHAT=0 or "
                  "Csys2blacs_handle gives them)", (long)h);
    return syscomms[h];
}

/* A Fortran system context is any Fortran communicator handle of the
 * user's, so there is no table to look it up in.  MPI_Comm_f2c of a number
 * that is none (an ICONTXT that BLACS_GET never set) makes a handle that
 * MPI rejects at its first use, deep inside GRIDINIT, with MPI's own
 * message naming no BLACS routine.  Asking MPI about it would report to the
 * handler of MPI_COMM_WORLD (or MPI_COMM_SELF), which is the user's and
 * never switched (error.c), so the handle's form is checked instead: in
 * MPICH a communicator handle carries its object kind (bits 26-29, 1 for a
 * communicator) and a non-zero handle kind (bits 30-31); Open MPI's
 * MPI_Comm_f2c gives NULL for an index that names no communicator.  A
 * well-formed handle of a freed communicator still reaches MPI. */
static int fcomm_plausible(Int h, MPI_Comm comm)
{
    if ((Int)(MPI_Fint)h != h || comm == MPI_COMM_NULL) return 0;
#if defined(MPICH_VERSION) && !defined(SMPI_H)
    unsigned u = (unsigned)(MPI_Fint)h;
    return ((u >> 30) & 3u) != 0 && ((u >> 26) & 15u) == 1;
#else
    return (void *)comm != NULL;
#endif
}

MPI_Comm bi_sys_fcomm(Int h, const char *routine)
{
    bi_init();
    MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)h);
    if (!fcomm_plausible(h, comm))
        bi_argerr(-1, routine, 1, "ICONTXT",
                  "%ld is not a system context (a Fortran MPI communicator handle, as BLACS_GET "
                  "WHAT=0 gives)", (long)h);
    return comm;
}

void bi_sys_free(Int h, int quiet)
{
    if (h == 0) return;
    if (h < 0 || h >= nsys || syscomms[h] == MPI_COMM_NULL) {
        if (!quiet) BI_WARN(-1, "Trying to free non-existent system context handle %ld", (long)h);
        return;
    }
    syscomms[h] = MPI_COMM_NULL;
}

void bi_sys_release(Int h, MPI_Comm comm)
{
    if (h > 0 && h < nsys && syscomms[h] == comm) syscomms[h] = MPI_COMM_NULL;
}

void bi_sys_reset(void)
{
    free(syscomms);
    syscomms = NULL;
    nsys = 0;
}
