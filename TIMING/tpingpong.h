/*
 * tpingpong.h -- one MPI round trip between ranks 0 and 1 of
 * MPI_COMM_WORLD: MPI's own T_c, which make bench pairs with the BLACS's
 * (bench.c) and Tsim measures a setting's latency and bandwidth with
 * (tsimcal.c).  Other ranks do nothing.  And a process computing outside
 * MPI (tbusy), for the timers that need one (blate.c, tsimcal.c): MPI
 * only, no BLACS, so Tsim, built without the library, has it too.
 */
#ifndef TPINGPONG_H
#define TPINGPONG_H
#include <mpi.h>

static inline void mpi_echo(void *buf, int n, MPI_Datatype dt, int me, int tag)
{
    if (me == 0) {
        MPI_Send(buf, n, dt, 1, tag, MPI_COMM_WORLD);
        MPI_Recv(buf, n, dt, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == 1) {
        MPI_Recv(buf, n, dt, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, n, dt, 0, tag, MPI_COMM_WORLD);
    }
}
/* compute outside MPI for s seconds (no sleep: a sleeping process leaves
 * its core idle, and its wake-up costs the next message) */
static inline void tbusy(double s)
{
    volatile double x = 1;
    for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < s;) x = x * 1.0000001 + 1e-9;
}

#endif
