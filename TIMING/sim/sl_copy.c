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
 *   - the reference's loops BI_?mvcopy and BI_?vmcopy: sl_refcost.c;
 *   - MPI's packing of a datatype with gaps (below): the reference sends and
 *     receives a non-contiguous A through its MPI datatype.
 * A copy inside a charged copy (GCC may turn a loop into memcpy) is not
 * charged again.  MPI's own copy of a contiguous message is not charged
 * here: the simulated link's transfer stands for it, for both BLACS alike.
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

/* MPI's copies of a datatype with gaps.  The reference BLACS is built as
 * Reference ScaLAPACK ships it, with MpiBuffGood (BLACS/SRC/Bconfig.h): it
 * sends and receives a non-contiguous A in place, through an MPI derived
 * type, where we pack.  SimGrid packs such a type for free; MPICH does not:
 * its datatype engine (yaksa, MPICH 4.0.2 here) packs ScaLAPACK's 448 x 64
 * panel (LDA 512) in 10.5 us against 3.5 us for a memcpy per column, and
 * the contiguous message's own copy is what the simulated link stands for.
 * MPICH packs blocks of 16 KiB or more at memcpy speed (a 2048 x 64 panel:
 * 1.05 times the memcpy loop's time; 2047 x 64: 2.05; 1024 x 64: 2.84).
 * So a datatype with gaps in blocks under 16 KiB costs each end at least
 * one copy of its bytes,
 * charged here as above (the sender before its send, the receiver after a
 * blocking receive, at the post of a non-blocking one).  Our library sends
 * such types where MPI packs as fast as we do (not under MPICH or SMPI) and,
 * in its broadcasts, between two nodes (shape.c), and is charged alike; a
 * contiguous type costs nothing.  Charged whole, as a copy before the send
 * or after the receive, where MPI packs piece by piece as the bytes move:
 * over a network the real copy hides behind the transfer, here it does not. */
#define FAST_BLOCK 16384 /* bytes; 2047 doubles a column: 2.05 times, 2048: 1.05 */

/* the type's average block: its size over the blocks its constructor made
 * (the reference's GE types are vectors, its TR types indexed) */
static double block_bytes(MPI_Datatype t, int size)
{
    int ni = 0, na = 0, nd = 0, comb = 0;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (ni < 1 || ni > 4096 || na > 4096 || nd > 64) return 0.0;
    int ints[4096];
    MPI_Aint addrs[4096];
    MPI_Datatype types[64];
    switch (comb) {
    case MPI_COMBINER_VECTOR: case MPI_COMBINER_HVECTOR: case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: case MPI_COMBINER_INDEXED_BLOCK: case MPI_COMBINER_STRUCT:
        MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
        for (int i = 0; i < nd; i++) {
            int c2 = 0, a, b, d;
            MPI_Type_get_envelope(types[i], &a, &b, &d, &c2);
            if (c2 != MPI_COMBINER_NAMED) MPI_Type_free(&types[i]);
        }
        return ints[0] > 0 ? (double)size / ints[0] : 0.0;
    default:
        return 0.0; /* unknown: charged as small blocks */
    }
}

static double gap_bytes(int n, MPI_Datatype t)
{
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    if (!sl_in_blacs || n <= 0 || t == MPI_DATATYPE_NULL) return 0.0;
    MPI_Type_size(t, &size);
    MPI_Type_get_true_extent(t, &lb, &extent);
    if ((MPI_Aint)size == extent || block_bytes(t, size) >= FAST_BLOCK) return 0.0;
    return (double)size * n;
}

static void charge_gaps(int n, MPI_Datatype t)
{
    double b = gap_bytes(n, t);
    if (b > 0.0) sl_copy_end(sl_copy_begin(b));
}

int __real_MPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int __wrap_MPI_Send(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c);
int __wrap_MPI_Send(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    charge_gaps(n, t);
    return __real_MPI_Send(buf, n, t, dest, tag, c);
}

int __real_MPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int __wrap_MPI_Isend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r);
int __wrap_MPI_Isend(const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    charge_gaps(n, t);
    return __real_MPI_Isend(buf, n, t, dest, tag, c, r);
}

int __real_MPI_Recv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
int __wrap_MPI_Recv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st);
int __wrap_MPI_Recv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    int rc = __real_MPI_Recv(buf, n, t, src, tag, c, st);
    charge_gaps(n, t);
    return rc;
}

int __real_MPI_Irecv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int __wrap_MPI_Irecv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *r);
int __wrap_MPI_Irecv(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    charge_gaps(n, t);
    return __real_MPI_Irecv(buf, n, t, src, tag, c, r);
}

int __real_MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm);
int __wrap_MPI_Bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm c);
int __wrap_MPI_Bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    int me = 0;
    MPI_Comm_rank(c, &me);
    if (me == root) charge_gaps(n, t);
    int rc = __real_MPI_Bcast(buf, n, t, root, c);
    if (me != root) charge_gaps(n, t);
    return rc;
}

int __real_MPI_Ibcast(void *, int, MPI_Datatype, int, MPI_Comm, MPI_Request *);
int __wrap_MPI_Ibcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *r);
int __wrap_MPI_Ibcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *r)
{
    charge_gaps(n, t);
    return __real_MPI_Ibcast(buf, n, t, root, c, r);
}
