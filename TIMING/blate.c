/*
 * blate.c -- the late-source timer of `make bench`: how long a receiver
 * waits for a long message whose source computes outside MPI right after
 * its call, as ScaLAPACK's panel sources do (they broadcast, then update
 * their part of the matrix for a long time).  Built, like bench.c, against
 * this library, the reference BLACS (TIMING_REF) and Intel MKL's BLACS
 * (TIMING_MKL); 2 processes, a 1 x 2 grid.
 *
 *   blate [trials] [compute_ms] [late_ms] [nmax]
 *
 * For each operation -- Cdgebs2d/Cdgebr2d with TOP ' ', '1', 'S', 'I', and
 * Cdgesd2d/Cdgerv2d ("send") -- and n = 10^4, 10^5, 10^6 doubles (up to
 * nmax), two
 * cases after a barrier:
 *   ontime  the receiver calls at once; the source calls, then computes
 *           compute_ms (default 100) outside MPI;
 *   late    the receiver computes late_ms (default 20) before its call; the
 *           source the same as above.
 * BLATE_SLEEP=1: the source sleeps instead of computing, which leaves its
 * core to its progress thread (on a machine with fewer cores than threads
 * a computing source competes with it).
 * Measured with MPI_Wtime on one node (one clock): the source's call (from
 * entry to return) and the receiver's wait (from its call to its return,
 * i.e. until the data is in).  A receiver whose data moves only while the
 * source is in MPI waits for the source's whole computation.  Medians over
 * the trials (default 5); the data are checked every time.
 *
 * Output, rank 0, one line per (operation, n, case):
 *   late,<lib>,<op>,<n>,<case>,<source_us>,<recv_wait_us>,<check>
 */
#include <time.h>
#include "tcommon.h"

static blacs_int ctxt;
static int me;

/* one trial: returns the source's call time (rank 0) or the receiver's wait
 * (rank 1), seconds; *bad counts wrong elements at the receiver */
static double trial(const char *top, long n, double *A, double compute, double late, int seed,
                    long *bad)
{
    blacs_int m = (blacs_int)n;
    tsync();
    if (me == 0) {
        for (long i = 0; i < n; i++) A[i] = (double)((i * 7 + seed) % 1013);
        double t0 = twall();
        if (top) Cdgebs2d(ctxt, "All", (char *)top, m, 1, A, m);
        else Cdgesd2d(ctxt, m, 1, A, m, 0, 1);
        double t = twall() - t0;
        A[0] = -1; /* A is the caller's again */
        if (getenv("BLATE_SLEEP")) { /* outside MPI without a core of its own */
            struct timespec ts = {(time_t)compute, (long)(1e9 * (compute - (double)(time_t)compute))};
            nanosleep(&ts, NULL);
        } else {
            tbusy(compute);
        }
        return t;
    }
    for (long i = 0; i < n; i++) A[i] = -2;
    if (late > 0) tbusy(late);
    double t0 = twall();
    if (top) Cdgebr2d(ctxt, "All", (char *)top, m, 1, A, m, 0, 0);
    else Cdgerv2d(ctxt, m, 1, A, m, 0, 0);
    double t = twall() - t0;
    for (long i = 0; i < n; i++) *bad += A[i] != (double)((i * 7 + seed) % 1013);
    return t;
}

int main(int argc, char **argv)
{
    int trials = argc > 1 ? atoi(argv[1]) : 5;
    double compute = 1e-3 * (argc > 2 ? atof(argv[2]) : 100);
    double late = 1e-3 * (argc > 3 ? atof(argv[3]) : 20);
    long nmax = argc > 4 ? atol(argv[4]) : 1000000;
    if (nmax > 1000000) nmax = 1000000;
    if (trials < 1 || trials > 99) trials = 5;
    blacs_int iam, np;
    Cblacs_pinfo(&iam, &np);
    me = (int)iam;
    if (np != 2) {
        if (me == 0) fprintf(stderr, "blate: run on 2 processes\n");
        Cblacs_exit(0);
        return 2;
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    static const char *tops[] = {" ", "1", "S", "I", NULL};
    static const char *names[] = {"bcast' '", "bcast'1'", "bcast'S'", "bcast'I'", "send"};
    double *A = malloc(1000000 * sizeof *A);
    for (int op = 0; op < 5; op++)
        for (long n = 10000; n <= nmax; n *= 10)
            for (int c = 0; c < 2; c++) {
                double t[99], other[99];
                long bad = 0;
                (void)trial(tops[op], n, A, 0.002, 0, 1, &bad); /* warm: buffers, connections */
                bad = 0;
                for (int k = 0; k < trials; k++) t[k] = trial(tops[op], n, A, compute, c ? late : 0, k, &bad);
                double mine = tmedian(t, trials);
                long badall = 0;
                MPI_Reduce(&bad, &badall, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
                if (me == 1) MPI_Send(&mine, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
                else {
                    MPI_Recv(other, 1, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    printf("late,%s,%s,%ld,%s,%.1f,%.1f,%s\n", TLIB, names[op], n, c ? "late" : "ontime",
                           1e6 * mine, 1e6 * other[0], badall ? "WRONG" : "ok");
                    fflush(stdout);
                }
            }
    free(A);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
