/*
 * sl_copy.c -- what a BLACS's own copies cost, in the simulations of
 * make bench-scalapack (TIMING/scalapack.mk, TIMING/sim/scalapack.sh).
 *
 * SMPI charges host code nothing unless told (smpi/simulate-computation:no
 * in the comm and flops modes), so a BLACS that copies a message into a
 * buffer and returns at once would pay nothing for the copy, while one that
 * sends straight from A and waits for the transfer pays the transfer.  On a
 * real machine the copy costs about as much as the transfer on one node.
 * Here every copy a BLACS makes inside one of its communication routines
 * (sl_wrap.c counts them, sl_in_blacs) is charged at SL_COPY_BETA us a byte
 * (scalapack.sh: 5e-5, 20 GB/s, the library's own T_m; 0 in the comp mode,
 * which measures host code, and when unset), on the rank's host:
 *   - memcpy, linked with -Wl,--wrap=memcpy: every copy of our library
 *     (buffers, pieces, bi_pack and bi_unpack), and any of the reference's;
 *   - MPI_Pack and MPI_Unpack (--wrap): the reference BLACS packs a
 *     message with them (BI_Pack, BI_Unpack) and SimGrid copies for free;
 *   - the reference's loops BI_?mvcopy and BI_?vmcopy: sl_refcost.c.
 * A copy inside a charged copy (GCC may turn a loop into memcpy) is not
 * charged again.  MPI's own copies are not charged here: the simulated
 * link's transfer stands for them, for both BLACS alike.
 */
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include "sl_wrap.h"

static double beta = -1.0; /* us a byte; per rank (privatised) */
static int charging;       /* inside a charged copy */

/* charge bytes copied, when inside a BLACS routine; returns whether the
 * caller must end the charge (sl_copy_end) */
int sl_copy_begin(double bytes)
{
    if (beta < 0.0) {
        const char *e = getenv("SL_COPY_BETA");
        beta = e && *e ? atof(e) : 0.0;
        if (!(beta > 0.0)) beta = 0.0;
    }
    if (charging) return 0;
    charging = 1;
    if (sl_in_blacs > 0 && beta > 0.0 && bytes > 0.0)
        smpi_execute_flops(bytes * beta * 1e-6 * sg_host_get_speed(sg_host_self()));
    return 1;
}

void sl_copy_end(int began)
{
    if (began) charging = 0;
}

void *__real_memcpy(void *, const void *, size_t);
void *__wrap_memcpy(void *d, const void *s, size_t n);
void *__wrap_memcpy(void *d, const void *s, size_t n)
{
    int b = sl_copy_begin((double)n);
    void *r = __real_memcpy(d, s, n);
    sl_copy_end(b);
    return r;
}

/* the bytes MPI_Pack and MPI_Unpack move are the packed ones: the change
 * of *position */
int __real_MPI_Pack(const void *, int, MPI_Datatype, void *, int, int *, MPI_Comm);
int __wrap_MPI_Pack(const void *in, int n, MPI_Datatype t, void *out, int size, int *pos, MPI_Comm c);
int __wrap_MPI_Pack(const void *in, int n, MPI_Datatype t, void *out, int size, int *pos, MPI_Comm c)
{
    int p0 = *pos, r = __real_MPI_Pack(in, n, t, out, size, pos, c);
    sl_copy_end(sl_copy_begin((double)(*pos - p0)));
    return r;
}

int __real_MPI_Unpack(const void *, int, int *, void *, int, MPI_Datatype, MPI_Comm);
int __wrap_MPI_Unpack(const void *in, int size, int *pos, void *out, int n, MPI_Datatype t, MPI_Comm c);
int __wrap_MPI_Unpack(const void *in, int size, int *pos, void *out, int n, MPI_Datatype t, MPI_Comm c)
{
    int p0 = *pos, r = __real_MPI_Unpack(in, size, pos, out, n, t, c);
    sl_copy_end(sl_copy_begin((double)(*pos - p0)));
    return r;
}
