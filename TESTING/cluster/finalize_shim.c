/*
 * finalize_shim.c -- for MPICH jobs on the test bed only (cluster.sh run
 * preloads it unless CLUSTER_FINALIZE=mpi): Debian's MPICH 4.0.2 over UCX
 * 1.13's tcp transport hangs in MPI_Finalize in about one job of three,
 * after every result is out, one rank spinning in UCX's endpoint close and
 * the others in the launcher's barrier (openucx/ucx#8738).  A timer that
 * ends the stuck rank does not help: the launcher then fails the whole job.
 *
 * So here MPI_Finalize waits for every rank (a barrier: no message is still
 * on its way), then tells the launcher's proxy that this process is done
 * with MPI (the PMI-1 "finalize" of hydra's wire protocol on the PMI_FD
 * socket), and returns; the process's exit ends MPI, with the status the
 * program chose.  Without that PMI step the proxy takes the socket closing
 * at exit for a process that died, and kills the other processes it runs on
 * that host -- a program still running after MPI_Finalize (a wrapper script,
 * or one just slower to exit) then ends with signal 9.  Nothing else of MPI
 * is touched, so a program's verdict stays its own.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

/* hydra's PMI-1: "cmd=finalize\n", answered by "cmd=finalize_ack\n" */
static void pmi_finalize(void)
{
    const char *e = getenv("PMI_FD");
    if (!e || !*e) return;
    int fd = atoi(e);
    static const char cmd[] = "cmd=finalize\n";
    size_t off = 0;
    while (off < sizeof cmd - 1) {
        ssize_t w = write(fd, cmd + off, sizeof cmd - 1 - off);
        if (w <= 0) return;
        off += (size_t)w;
    }
    char c;
    while (read(fd, &c, 1) == 1 && c != '\n') {}
    shutdown(fd, SHUT_RDWR);
    close(fd);
}

int MPI_Finalize(void)
{
    int rc = PMPI_Barrier(MPI_COMM_WORLD);
    pmi_finalize();
    return rc;
}
