/*
 * bench.c -- the timer of `make bench`: each BLACS operation
 * next to MPI's own primitive, in one program on 2 processes, so that both
 * see the same machine at the same moment.  Built twice from this source,
 * like the LAWN 73 timers: against this library and (TIMING_REF) against
 * the reference BLACS; TIMING/bench.sh alternates the two binaries and takes
 * medians over the runs.
 *
 *   bench [rounds] [nmax]
 *
 * Operations (n elements, one column, LDA = n, scope "All" of the 1 x 2
 * grid, TOP ' '), each with its MPI peer on MPI_COMM_WORLD:
 *   tc      echo, Cdgesd2d + Cdgerv2d        MPI_Send + MPI_Recv   (T_c: half a round trip)
 *   tcbuf   echo written in MPI as any       MPI_Send + MPI_Recv
 *           locally-blocking send must do it (tc's floor; n <= 1000, below)
 *   bcast   Cdgebs2d / Cdgebr2d from rank 0  MPI_Bcast
 *   gsum    Cdgsum2d leave-on-all            MPI_Allreduce(MPI_SUM), in place
 *   gamx    Cdgamx2d leave-on-all, RA/CA     MPI_Allreduce(MPI_MAX), in place
 *   igamx   Cigamx2d leave-on-all, RA/CA     MPI_Allreduce(MPI_MAX) on the BLACS integer
 * for n = 1, 10, 100, 1000, 4096 (a 64 x 64 block), 10^4, ... nmax (default 10^6).
 *
 * Method: per (operation, n), `rounds` rounds (default 5); a round is a
 * barrier and a timed loop of reps operations of the BLACS, then a barrier
 * and a timed loop of its MPI peer (the order swaps every round, so a slow
 * spell of the machine hits both alike).  A loop's time is the slower of the
 * two processes'; the time of an operation is the median over the rounds.
 * reps is chosen so a loop lasts about 2 ms on this kind of machine.  The
 * data are checked once per (operation, n) after the timing (a wrong
 * result is reported, never timed as if right).
 *
 * Output, rank 0, one line per (operation, n):
 *   <lib>,<op>,<n>,<reps>,<blacs_us>,<mpi_us>,<check>
 * lib: ours, reference or mkl (Intel MKL's BLACS, TIMING_MKL); times in microseconds
 * per operation; check ok or WRONG.
 */
#include "tcommon.h"
#include "tpingpong.h"

enum { OP_TC, OP_TCBUF, OP_BCAST, OP_GSUM, OP_DAMX, OP_IAMX, NOPS };
static const char *opname[NOPS] = {"tc", "tcbuf", "bcast", "gsum", "gamx", "igamx"};
#define TCBUF_NMAX 1000

static blacs_int ctxt;
static int me;
static double *A;
static blacs_int *IA, *rA, *cA;
static MPI_Datatype mpi_int;

static void fill(int op, long n, int round)
{
    for (long i = 0; i < n; i++) {
        long v = (i * 7 + me * 3 + round) % 11 - 5;
        if (op == OP_IAMX) IA[i] = (blacs_int)v;
        else if (op == OP_GSUM) A[i] = 0.0; /* sums stay 0: no overflow, no denormals */
        else A[i] = (double)v;
    }
}

/* tcbuf: the floor of a send that never waits for its receiver (issue 39),
 * in MPI alone -- what such a send cannot do without: a copy of A into a
 * buffer of its own, MPI_Isend from it, MPI_Request_get_status, and
 * MPI_Wait once that says complete (a send still in flight keeps its
 * buffer until the buffer's next turn; two buffers take turns).  The
 * library does this and its own bookkeeping (SRC/p2p.c); the distance
 * between tc and tcbuf is what the bookkeeping costs. */
static double *fbuf[2];
static MPI_Request freq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
static int fturn;

static void floor_send(int n, int peer)
{
    const int i = fturn;
    fturn ^= 1;
    if (freq[i] != MPI_REQUEST_NULL) MPI_Wait(&freq[i], MPI_STATUS_IGNORE);
    memcpy(fbuf[i], A, sizeof *A * (size_t)n);
    MPI_Isend(fbuf[i], n, MPI_DOUBLE, peer, 8, MPI_COMM_WORLD, &freq[i]);
    int done = 0;
    MPI_Request_get_status(freq[i], &done, MPI_STATUS_IGNORE);
    if (done) MPI_Wait(&freq[i], MPI_STATUS_IGNORE);
}

static void floor_echo(int n)
{
    if (me == 0) floor_send(n, 1);
    MPI_Recv(A, n, MPI_DOUBLE, 1 - me, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me == 1) floor_send(n, 0);
}

static void floor_drain(void)
{
    MPI_Wait(&freq[0], MPI_STATUS_IGNORE);
    MPI_Wait(&freq[1], MPI_STATUS_IGNORE);
}

static void blacs_op(int op, long n)
{
    blacs_int m = (blacs_int)n, ld = tld(n);
    switch (op) {
    case OP_TC:
        if (me == 0) {
            Cdgesd2d(ctxt, m, 1, A, ld, 0, 1);
            Cdgerv2d(ctxt, m, 1, A, ld, 0, 1);
        } else {
            Cdgerv2d(ctxt, m, 1, A, ld, 0, 0);
            Cdgesd2d(ctxt, m, 1, A, ld, 0, 0);
        }
        break;
    case OP_TCBUF: floor_echo((int)n); break;
    case OP_BCAST:
        if (me == 0) Cdgebs2d(ctxt, "All", " ", m, 1, A, ld);
        else Cdgebr2d(ctxt, "All", " ", m, 1, A, ld, 0, 0);
        break;
    case OP_GSUM: Cdgsum2d(ctxt, "All", " ", m, 1, A, ld, -1, -1); break;
    case OP_DAMX: Cdgamx2d(ctxt, "All", " ", m, 1, A, ld, rA, cA, ld, -1, -1); break;
    default: Cigamx2d(ctxt, "All", " ", m, 1, IA, ld, rA, cA, ld, -1, -1); break;
    }
}

static void mpi_op(int op, long n)
{
    int k = (int)n;
    switch (op) {
    case OP_TC:
    case OP_TCBUF: mpi_echo(A, k, MPI_DOUBLE, me, 7); break;
    case OP_BCAST: MPI_Bcast(A, k, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
    case OP_GSUM: MPI_Allreduce(MPI_IN_PLACE, A, k, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    case OP_DAMX: MPI_Allreduce(MPI_IN_PLACE, A, k, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); break;
    default: MPI_Allreduce(MPI_IN_PLACE, IA, k, mpi_int, MPI_MAX, MPI_COMM_WORLD); break;
    }
}

/* a timed loop: the slower process's time per operation, us */
static double timed(int op, long n, long reps, int blacs)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long j = 0; j < reps; j++) {
        if (blacs) blacs_op(op, n);
        else mpi_op(op, n);
    }
    double t = (MPI_Wtime() - t0) * 1e6 / (double)reps, mx;
    if (blacs && op == OP_TCBUF) floor_drain();
    if (op == OP_TC || op == OP_TCBUF) t /= 2;
    MPI_Allreduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return mx;
}

/* one BLACS operation on known data, checked on every process */
static int check(int op, long n)
{
    int bad = 0;
    fill(op, n, 0);
    if (op == OP_GSUM)
        for (long i = 0; i < n; i++) A[i] = (double)(me + 1 + i % 3);
    if ((op == OP_TC || op == OP_TCBUF || op == OP_BCAST) && me == 0)
        for (long i = 0; i < n; i++) A[i] = (double)(i % 1000 + 1);
    blacs_op(op, n); /* the echo: both end with rank 0's data */
    floor_drain();
    for (long i = 0; i < n && !bad; i++) {
        long v0 = (i * 7) % 11 - 5, v1 = (i * 7 + 3) % 11 - 5, mx, own;
        /* absolute-value maximum; ties go to the lower process */
        long a0 = v0 < 0 ? -v0 : v0, a1 = v1 < 0 ? -v1 : v1;
        if (a1 > a0) mx = v1, own = 1;
        else mx = v0, own = 0;
        switch (op) {
        case OP_TC:
        case OP_TCBUF:
        case OP_BCAST: bad = A[i] != (double)(i % 1000 + 1); break;
        case OP_GSUM: bad = A[i] != (double)(2 * (1 + i % 3) + 1); break;
        case OP_DAMX: bad = A[i] != (double)mx || cA[i] != own || rA[i] != 0; break;
        default: bad = IA[i] != (blacs_int)mx || cA[i] != own || rA[i] != 0; break;
        }
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

int main(int argc, char **argv)
{
    blacs_int iam, nnodes;
    Cblacs_pinfo(&iam, &nnodes);
    me = (int)iam;
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    long nmax = argc > 2 ? atol(argv[2]) : 1000000;
    if (rounds < 1) rounds = 1;
    if (rounds > 101) rounds = 101;
    if (nmax < 1) nmax = 1;
    if (nnodes != 2) {
        if (me == 0) fprintf(stderr, "bench: run on 2 processes (got %d)\n", (int)nnodes);
        Cblacs_exit(0);
        return 1;
    }
    mpi_int = sizeof(blacs_int) == 8 ? MPI_INT64_T : MPI_INT;
    ctxt = tgrid(nnodes);
    A = malloc(sizeof *A * (size_t)nmax);
    IA = malloc(sizeof *IA * (size_t)nmax);
    rA = malloc(sizeof *rA * (size_t)nmax);
    cA = malloc(sizeof *cA * (size_t)nmax);
    const long fmax = nmax < TCBUF_NMAX ? nmax : TCBUF_NMAX;
    fbuf[0] = malloc(sizeof *A * (size_t)fmax);
    fbuf[1] = malloc(sizeof *A * (size_t)fmax);
    if (!A || !IA || !rA || !cA || !fbuf[0] || !fbuf[1]) {
        fprintf(stderr, "bench: out of memory\n");
        Cblacs_abort(ctxt, 1);
    }
    memset(A, 0, sizeof *A * (size_t)nmax); /* page everything in */
    memset(IA, 0, sizeof *IA * (size_t)nmax);
    memset(rA, 0, sizeof *rA * (size_t)nmax);
    memset(cA, 0, sizeof *cA * (size_t)nmax);
    memset(fbuf[0], 0, sizeof *A * (size_t)fmax);
    memset(fbuf[1], 0, sizeof *A * (size_t)fmax);
    double *tb = malloc(sizeof *tb * (size_t)rounds), *tm = malloc(sizeof *tm * (size_t)rounds);

    for (int op = 0; op < NOPS; op++) {
        /* the decades, and between 10^3 and 10^4 one 64 x 64 block of
         * doubles (32 KB), the length of ScaLAPACK's NB = 64 blocks */
        for (long n = 1; n <= nmax; n = n == 1000 ? 4096 : n == 4096 ? 10000 : n * 10) {
            /* the short messages' floor: a longer message goes in pieces
             * (SRC/p2p.c), not as one copy and one rendezvous */
            if (op == OP_TCBUF && n > TCBUF_NMAX) break;
            /* about 2 ms a loop at ~2 us + 2 ns per element: 1,000 operations
             * of the short ones (a loop of 200 lasted a quarter of a
             * millisecond, where one preemption moves a ratio by 10%) */
            long reps = (long)(2000.0 / (2.0 + 0.002 * (double)n));
            if (reps < 2) reps = 2;
            /* warm-up: buffers, communicators, first-touch of MPI's paths */
            fill(op, n, 0);
            blacs_op(op, n);
            mpi_op(op, n);
            for (int r = 0; r < rounds; r++) {
                fill(op, n, r);
                if (r % 2 == 0) {
                    tb[r] = timed(op, n, reps, 1);
                    tm[r] = timed(op, n, reps, 0);
                } else {
                    tm[r] = timed(op, n, reps, 0);
                    tb[r] = timed(op, n, reps, 1);
                }
            }
            int bad = check(op, n);
            if (me == 0) {
                printf("%s,%s,%ld,%ld,%.4f,%.4f,%s\n", TLIB, opname[op], n, reps, tmedian(tb, rounds),
                       tmedian(tm, rounds), bad ? "WRONG" : "ok");
                fflush(stdout);
            }
        }
    }
    free(tb);
    free(tm);
    free(A);
    free(IA);
    free(rA);
    free(cA);
    free(fbuf[0]);
    free(fbuf[1]);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
