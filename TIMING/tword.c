/*
 * tword.c -- a long point-to-point message whose receiver comes a little
 * after its sender: what the sender's call costs, and when the receiver
 * has the data.  On one node this library's sender copies A while it
 * looks for the receiver's word that it waits (SRC/p2p.c): a word that
 * comes during the copy, or after it within BLACS_MEMCPY_BETA x bytes,
 * makes it send A whole and wait for it; later, it has sent its copy and
 * left, and the receiver takes the copy as MPI moves it.  The sweep of
 * delays shows both sides of that line.  Built, like blate.c, against
 * this library and the reference BLACS (TIMING_REF); 2 processes, 1 x 2.
 *
 *   tword [n] [reps] [delay_us ...]
 *
 * n doubles (default 32768, 256 KB), reps trials per delay (default 101,
 * medians), delays in us (default 0 5 10 15 20 30 40 60).  Each trial:
 * a barrier; process 0 calls Cdgesd2d, then computes 300 us outside MPI;
 * process 1 computes delay us, then calls Cdgerv2d and checks the data.
 * The message before each trial is as long, so every one after the first
 * has a word.  Times from the barrier's exit, on one node (one clock).
 * Then the same trials with MPI alone, in the same run: process 0 posts
 * MPI_Isend of A, computes 300 us, waits; process 1 calls MPI_Recv.
 * TWORD_WRITE=1: process 0 writes all of A before each send, as a process
 * that has just computed what it sends (a ScaLAPACK panel); otherwise A
 * stays as written once, clean in memory, which favours a send from A
 * over a send from a fresh copy (the receiver of data just written on
 * another core reads it from that core's cache, 10-20 us more for 256 KB
 * on this machine).
 *
 * Output, process 0, two lines per delay:
 *   word,<lib>,<n>,<delay_us>,<send_us>,<recv_done_us>
 *   word,mpi,<n>,<delay_us>,<send_us>,<recv_done_us>
 * send_us: the sender's call (MPI: MPI_Isend); recv_done_us: the delay
 * plus the receiver's call, i.e. when it has the data.
 */
#include "tcommon.h"

int main(int argc, char **argv)
{
    blacs_int me, np, ctxt;
    long n = argc > 1 ? atol(argv[1]) : 32768;
    int reps = argc > 2 ? atoi(argv[2]) : 101;
    static double defd[] = {0, 5, 10, 15, 20, 30, 40, 60};
    double *delay = defd;
    int nd = argc > 3 ? argc - 3 : (int)(sizeof defd / sizeof defd[0]);
    Cblacs_pinfo(&me, &np);
    if (np != 2 || n < 1 || n > 100000000 || reps < 1 || reps > 100000) {
        if (me == 0) fprintf(stderr, "tword [n] [reps] [delay_us ...]: on 2 processes\n");
        Cblacs_exit(0);
        return 2;
    }
    if (argc > 3) {
        delay = malloc(sizeof *delay * (size_t)nd);
        for (int i = 0; i < nd; i++) delay[i] = atof(argv[3 + i]);
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    double *A = malloc(sizeof *A * (size_t)n), *t = malloc(sizeof *t * (size_t)reps);
    const char *wenv = getenv("TWORD_WRITE");
    const int write = wenv && atoi(wenv) != 0;
    long bad = 0;
    for (long i = 0; i < n; i++) A[i] = (double)i;
    if (me == 0) Cdgesd2d(ctxt, (blacs_int)n, 1, A, (blacs_int)n, 0, 1); /* warm: buffers, words */
    else Cdgerv2d(ctxt, (blacs_int)n, 1, A, (blacs_int)n, 0, 0);
    for (int di = 0; di < nd; di++) {
        const double d = 1e-6 * delay[di];
        for (int mpi = 0; mpi < 2; mpi++) {
            for (int k = 0; k < reps; k++) {
                if (me == 0 && write) /* before the barrier; volatile: every store is made */
                    for (long i = 0; i < n - 1; i++) ((volatile double *)A)[i] = (double)i;
                tsync();
                if (me == 0) {
                    A[n - 1] = (double)k;
                    MPI_Request r;
                    const double t0 = twall();
                    if (mpi) MPI_Isend(A, (int)n, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD, &r);
                    else Cdgesd2d(ctxt, (blacs_int)n, 1, A, (blacs_int)n, 0, 1);
                    t[k] = twall() - t0;
                    if (!mpi) A[n - 1] = -1; /* A is the caller's again */
                    tbusy(300e-6);
                    if (mpi) MPI_Wait(&r, MPI_STATUS_IGNORE);
                } else {
                    tbusy(d);
                    const double t0 = twall();
                    if (mpi) MPI_Recv(A, (int)n, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    else Cdgerv2d(ctxt, (blacs_int)n, 1, A, (blacs_int)n, 0, 0);
                    t[k] = twall() - t0 + d;
                    bad += A[n - 1] != (double)k || A[0] != 0;
                }
            }
            double other, mine = tmedian_pair(t, reps, (int)me, &other);
            if (me == 0) {
                printf("word,%s,%ld,%g,%.1f,%.1f\n", mpi ? "mpi" : TLIB, n, delay[di], 1e6 * mine,
                       1e6 * other);
                fflush(stdout);
            }
        }
    }
    const long badall = tbad_all(bad, (int)me, "tword", "wrong messages");
    free(A);
    free(t);
    if (delay != defd) free(delay);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return badall ? 1 : 0;
}
