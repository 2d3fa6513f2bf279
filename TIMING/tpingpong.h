/*
 * tpingpong.h -- one MPI round trip between ranks 0 and 1 of
 * MPI_COMM_WORLD: MPI's own T_c, which make bench pairs with the BLACS's
 * (bench.c) and Tsim measures a setting's latency and bandwidth with
 * (tsimcal.c).  Other ranks do nothing.
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
#endif
