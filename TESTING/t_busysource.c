/*
 * t_busysource.c -- a long broadcast reaches a receiver that waits for it
 * while its source computes outside MPI, in a program that starts MPI with
 * MPI_Init (so no progress thread), as most ScaLAPACK programs do.  Over
 * TCP MPICH moves a long message only while its sender is inside MPI: a
 * source that returned with its data still queued makes its receiver wait
 * for the whole computation.  The source bounds its wait for its last send
 * and the bound learns the link (SRC/transport.c, bi_source_settle); make
 * test runs this across two hosts of the bed, links held to 1 Gbit/s
 * (TESTING/cluster/cluster_smoke.sh busysource), where the built-in
 * machine (10 GB/s) makes the first bounds 85 times too short.
 *
 *   t_busysource ELEMS ROUNDS COMPUTE_MS [LATE_MS [ge|vec [TOPS]]]
 *
 * On a 1 x 2 grid, for TOP 'S' (PDGETRF's row broadcasts), ' ' and '1'
 * (TOPS, a string of letters, names others: "S 1C" adds 'C'):
 * ROUNDS rounds; in each both processes meet (MPI_Barrier), process 0
 * broadcasts ELEMS doubles rowwise and computes COMPUTE_MS outside MPI,
 * process 1 sleeps LATE_MS (default 0) and receives into a guarded matrix,
 * checks it and records how long it waited.  A receiver a few ms late
 * misses the source's wait for its word (what a copy costs) and arrives
 * while the source waits for its copy's send; a send longer than
 * BLACS_SOURCE_WAIT then still finishes, since the source sees the word.  Data that waited for the computation waits nearly
 * all of it, so the check is: after the first two rounds of a TOP (the
 * learning), no receiver waits more than half of COMPUTE_MS.  The
 * first rounds are reported, not checked, and so is a round whose receiver
 * came later than BLACS_SOURCE_WAIT after the source's call (a machine
 * busy with other jobs can hold it back that long): the source may have
 * left by then, and without a progress thread the data waits for its next
 * MPI call, the documented trade (doc/topologies.md).  Before the bound learned the
 * link every round waited the whole computation here.
 *   A negative LATE_MS makes the source that much late instead (it sleeps
 * before its call), so its receiver's word is in before it sends: then no
 * learning is needed and every round is checked, the first two too.  'ge'
 * broadcasts the ELEMS as a GE shape of 64 columns whose LDA is 8 more
 * than its rows (a ScaLAPACK panel: not contiguous), which goes from A
 * through its datatype to a receiver on another node whose word is in,
 * else from the copy, and which the receiver takes into A through the
 * datatype either way (SRC/bcast.c, shape.c).  Such a source once took a receiver whose
 * word was in before its first send for one that was not there, and left
 * its data waiting for the computation in the first rounds
 * (ScaLAPACK's PDPOTRF over TCP, 1 x 2: 1.18 times the reference's time).
 * 'C' (scatter-collect) kept that behaviour until its source was changed
 * the same way.
 *   'P' in TOPS is a point-to-point message instead (Cdgesd2d to process
 * 1, Cdgerv2d there).  On one node under MPICH (make test, offmpi.list)
 * with 'ge': MPICH 4.0.2 with UCX moves a long message by itself (the
 * receiver reads it) only when both ends are contiguous; with a datatype
 * at either end the transfer waits for the sender's next MPI call.  A
 * receiver that took the shape in place through its datatype, behind a
 * sender that had sent its contiguous copy and gone to compute, waited
 * the whole computation (97 ms of 100 here, 'S' and 'P', the library of
 * c33f63c): receivers on one node take such a message contiguously
 * (SRC/shape.c, bi_inplace).
 */
#include <time.h>
#include "tutil.h"

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* computation outside MPI: a busy loop, as a BLAS call would be */
static volatile double sink;
static void compute(double seconds)
{
    const double end = mono() + seconds;
    double x = 1;
    while (mono() < end)
        for (int i = 0; i < 1000; i++) x = x * 1.0000001 + 1e-9;
    sink = x;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    if (argc < 4) {
        if (tu_rank == 0) fprintf(stderr, "usage: t_busysource ELEMS ROUNDS COMPUTE_MS [LATE_MS [ge|vec [TOPS]]]\n");
        return 2;
    }
    const blacs_int m = atol(argv[1]);
    const int rounds = atoi(argv[2]);
    const double comp = atof(argv[3]) * 1e-3, late = argc > 4 ? atof(argv[4]) * 1e-3 : 0;
    const int ge = argc > 5 && strcmp(argv[5], "ge") == 0;
    if (argc > 5 && !ge && strcmp(argv[5], "vec") != 0) {
        if (tu_rank == 0) fprintf(stderr, "t_busysource: the shape is ge or vec, not '%s'\n", argv[5]);
        return 2;
    }
    const blacs_int n = ge ? 64 : 1, rows = m / n, lda = ge ? rows + 8 : rows;
    if (m < n || m % n) {
        fprintf(stderr, "t_busysource: ELEMS must be a multiple of %ld\n", (long)n);
        return 2;
    }
    const char *tops = argc > 6 ? argv[6] : "S 1";
    const int ntops = (int)strlen(tops);
    tu_watchdog("t_busysource", 120);
    blacs_int me, np, ctxt, pr, pc, r, c;
    Cblacs_pinfo(&me, &np);
    if (np != 2) {
        if (me == 0) fprintf(stderr, "t_busysource: run on 2 processes\n");
        return 2;
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    Cblacs_gridinfo(ctxt, &pr, &pc, &r, &c);
    const char *sw = getenv("BLACS_SOURCE_WAIT");
    const double swait = (sw && *sw ? atof(sw) : 10000) * 1e-6;
    for (int t = 0; t < ntops; t++) {
        char top[2] = {tops[t], 0};
        double worst = 0, first[2] = {0, 0};
        int excused = 0;
        for (int k = 0; k < rounds; k++) {
            const int seed = 100 * t + k;
            tu_mat a;
            tu_mat_alloc(&a, sizeof(double), rows, n, lda);
            tu_mat_pad(&a, 0x5A);
            MPI_Barrier(MPI_COMM_WORLD);
            if (me == 0) {
                tu_mat_fill(&a, 'D', seed, NULL, NULL);
                if (late < 0) sleep_s(-late);
                const double called = mono(); /* one clock for both: the hosts share the kernel */
                if (*top == 'P') Cdgesd2d(ctxt, rows, n, a.a, lda, 0, 1);
                else Cdgebs2d(ctxt, "R", top, rows, n, a.a, lda);
                compute(comp);
                MPI_Send(&called, 1, MPI_DOUBLE, 1, 77, MPI_COMM_WORLD);
            } else {
                if (late > 0) sleep_s(late);
                const double t0 = mono();
                if (*top == 'P') Cdgerv2d(ctxt, rows, n, a.a, lda, 0, 0);
                else Cdgebr2d(ctxt, "R", top, rows, n, a.a, lda, 0, 0);
                const double w = mono() - t0;
                long bad = tu_mat_check(&a, 'D', seed, NULL, NULL, 0x5A, "broadcast");
                TU_CHECK(bad == 0, "TOP '%s' round %d: %ld wrong elements", top, k, bad);
                double called;
                MPI_Recv(&called, 1, MPI_DOUBLE, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (k < 2) first[k] = w;
                if (k >= 2 || late < 0) { /* (the learning is reported, not checked) */
                    if (t0 - called > swait) excused++;
                    else if (w > worst) worst = w;
                }
            }
            tu_mat_free(&a);
        }
        if (me == 1) {
            printf("TOP '%s': %ld doubles%s, source computing %.0f ms, receiver %.0f ms late: it waited %.1f and %.1f ms in "
                   "the first two rounds, at most %.1f ms %s (%d round%s not checked: the receiver came more than "
                   "BLACS_SOURCE_WAIT after the source's call)\n",
                   top, (long)m, ge ? " (GE, 64 columns)" : "", comp * 1e3, late * 1e3, first[0] * 1e3,
                   first[1] * 1e3, worst * 1e3, late < 0 ? "in all" : "after", excused,
                   excused == 1 ? "" : "s");
            TU_CHECK(worst < 0.5 * comp,
                     "TOP '%s': a receiver waited %.1f ms for %ld doubles while the source computed %.0f ms: "
                     "the data waited for the computation", top, worst * 1e3, (long)m, comp * 1e3);
        }
    }
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
