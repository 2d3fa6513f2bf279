/*
 * simmpi.c -- the simulation's MPI layer: where SimGrid's SMPI (3.32) does
 * not do what the MPI standard says, and MPICH does, it is corrected here,
 * at link time, so that the library's sources are compiled for the
 * simulator exactly as they are for MPICH (no macro, no forced include).
 * MPI_Comm_get_attr: MPI_TAG_UB is MPICH's, 2^28 - 1 (MPICH 4.0; SMPI's
 * is 2^31 - 1), so the message IDs the library spreads over [0, MPI_TAG_UB]
 * (SRC/msgid.c) are MPICH's too, not only their pattern.
 *
 * Linked into every simulated program (TIMING/simulate.mk, SIM_LAYER);
 * SMPI declares its MPI functions weak for such profiling layers, and the
 * real ones stay reachable as PMPI_*.
 *
 * MPI_Request_get_status: SMPI's sets the flag for every send, finished or
 * not (it probes for a matching incoming message, then reports success), so
 * buffer.c's poll (MPI_Request_get_status, then MPI_Wait on what is done)
 * would wait in MPI_Wait for a receiver that has not come: a locally
 * blocking send made globally blocking, in simulation only.  Here the
 * status comes from PMPI_Test on a copy of the handle.  A request that
 * test finishes is freed by SMPI, so the handle is remembered (per rank,
 * as every global of a privatised program) and the MPI_Wait or MPI_Test
 * that follows on it returns at once with MPI_REQUEST_NULL, as MPICH's do
 * on a complete request.  A request asked about again before that wait
 * (transport.c asks after a broadcast's words more than once) is found
 * in the list and reported done: testing SMPI's freed request crashed.
 * Every caller waits on a request once its status says it is done, so the
 * list stays short.
 *
 * MPI_Test, MPI_Iprobe, MPI_Probe: simulated time passes only while every
 * rank waits, and a failed test or probe costs none (smpi/test:0,
 * smpi/iprobe:0, TIMING/sim/smpi.sh), so a poll -- the library's broadcast
 * source waiting a bounded time for a send (SRC/wait.c), a receiver
 * probing for a message sent straight from A (SRC/p2p.c), the same code as
 * on MPICH -- would spin for ever; SMPI's MPI_Probe is such a loop itself.
 * Each failed test or probe of what failed last naps (simulated: smpicc
 * makes nanosleep SMPI's) for a 256th of the time since its first failure,
 * at least 1 ns, so a completion or arrival is seen at most 0.4% late.  SMPI's own
 * injected test time (smpi/test) grows linearly and costs either
 * precision (a 100-double tree broadcast 15% behind the reference's at
 * p = 16) or, fixed at MPICH's 0.018 us, tens of thousands of context
 * switches per millisecond waited (make simulate at its smallest: 9
 * minutes instead of 25 s).
 */
#include <string.h>
#include <time.h>
#include <mpi.h>

#define KEPT 2048 /* a broadcast's words from every receiver of a 1,024-rank scope fit */
static MPI_Request kept[KEPT]; /* finished by get_status's test, freed by SMPI */
static int nkept;

static int forget(MPI_Request r)
{
    for (int i = 0; i < nkept; i++)
        if (kept[i] == r) {
            kept[i] = kept[--nkept];
            return 1;
        }
    return 0;
}

int MPI_Request_get_status(MPI_Request r, int *flag, MPI_Status *s)
{
    if (r == MPI_REQUEST_NULL) return PMPI_Request_get_status(r, flag, s);
    for (int i = 0; i < nkept; i++)
        if (kept[i] == r) { /* asked again: done, and already freed by SMPI */
            *flag = 1;
            if (s != MPI_STATUS_IGNORE) memset(s, 0, sizeof *s);
            return MPI_SUCCESS;
        }
    MPI_Request c = r;
    int rc = PMPI_Test(&c, flag, s);
    if (rc == MPI_SUCCESS && *flag && c == MPI_REQUEST_NULL) {
        if (nkept == KEPT) { /* a caller that never waits: the oldest is stale */
            memmove(kept, kept + 1, (KEPT - 1) * sizeof *kept);
            nkept--;
        }
        kept[nkept++] = r;
    }
    return rc;
}

int MPI_Wait(MPI_Request *r, MPI_Status *s)
{
    if (nkept && forget(*r)) {
        *r = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    return PMPI_Wait(r, s);
}

/* the poll in progress: what failed last (a request, or a probe's source,
 * tag and communicator) and the simulated time of its first failure */
static struct { MPI_Request r; int src, tag; MPI_Comm comm; double since; } cur = {MPI_REQUEST_NULL, -9, -9, MPI_COMM_NULL, 0};

static void nap(MPI_Request r, int src, int tag, MPI_Comm comm)
{
    const double now = MPI_Wtime();
    if (r != cur.r || src != cur.src || tag != cur.tag || comm != cur.comm)
        cur.r = r, cur.src = src, cur.tag = tag, cur.comm = comm, cur.since = now;
    double d = (now - cur.since) / 256;
    if (d < 1e-9) d = 1e-9;
    struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9) + 1};
    nanosleep(&ts, NULL);
}

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *s)
{
    if (nkept && forget(*r)) {
        *r = MPI_REQUEST_NULL;
        *flag = 1;
        return MPI_SUCCESS;
    }
    const MPI_Request was = *r;
    int rc = PMPI_Test(r, flag, s);
    if (rc == MPI_SUCCESS && !*flag) nap(was, -9, -9, MPI_COMM_NULL);
    return rc;
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *s)
{
    int rc = PMPI_Iprobe(src, tag, comm, flag, s);
    if (rc == MPI_SUCCESS && !*flag) nap(MPI_REQUEST_NULL, src, tag, comm);
    return rc;
}

/* SMPI's MPI_Probe is a loop of free probes: a message still in flight
 * would never arrive */
int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *s)
{
    int flag = 0, rc;
    while ((rc = MPI_Iprobe(src, tag, comm, &flag, s)) == MPI_SUCCESS && !flag)
        ;
    return rc;
}

static int tag_ub = 268435455;

int MPI_Comm_get_attr(MPI_Comm comm, int key, void *val, int *flag)
{
    int rc = PMPI_Comm_get_attr(comm, key, val, flag);
    if (rc == MPI_SUCCESS && key == MPI_TAG_UB && *flag) *(int **)val = &tag_ub;
    return rc;
}
