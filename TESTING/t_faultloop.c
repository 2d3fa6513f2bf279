/*
 * t_faultloop.c [-n N] [-i ITERS] [-p EVERY] [-s MS] [-g RxC] [-t TOP]
 *
 * A loop of broadcasts and combines with every value checked, for the fault
 * tests across hosts (TESTING/cluster/faults.sh): a link cut, a process
 * killed, a host held to a trickle.  Each iteration does, on an R x C grid
 * (2x2 for 4 ranks unless -g says otherwise, else 1 x P):
 *   a broadcast of N doubles over the whole grid from a root that moves,
 *   a global sum of N doubles over the whole grid (result everywhere),
 *   a broadcast of N doubles along each row from a moving column,
 *   a global sum of N doubles down each column, result to a moving row,
 *   an integer global max of N integers over the whole grid.
 * Every received or combined value is compared with what it must be; the
 * first mismatch prints "WRONG" with the operation, iteration and index and
 * ends the job (MPI_Abort, exit status non-zero).
 *   Each rank first prints "t_faultloop: rank R pid P host H" (so a script
 * can kill one), rank 0 then prints "t_faultloop: iteration K at T" every
 * EVERY iterations (T: seconds since the epoch, the clock `date +%s.%N`
 * reads), and at the end "t_faultloop: done K iterations, V values checked,
 * W s".  -s MS sleeps MS milliseconds between iterations; -t TOP is the
 * topology of every broadcast and combine (default ' ': the library's choice,
 * often an MPI collective; e.g. -t i, an increasing ring, names the peer a
 * stuck wait waits for).
 */
#include <time.h>
#include <unistd.h>
#include "tutil.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long checked;
static blacs_int me;

static void wrong(const char *op, long it, blacs_int i, double got, double want)
{
    fprintf(stderr, "t_faultloop: WRONG on rank %ld: %s iteration %ld index %ld: got %.17g, want %.17g\n",
            (long)me, op, it, (long)i, got, want);
    fflush(stderr);
    printf("WRONG\n");
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3);
}

/* exact small integers: sums over a few ranks stay exact in a double */
static double bval(long it, blacs_int i, int root) { return (double)((it * 7919 + i * 31 + root * 101) % 100003); }
static double cval(long it, blacs_int i, int who) { return (double)((it * 13 + i * 17 + who * 1009) % 65521); }
static blacs_int mval(long it, blacs_int i, int who) { return (blacs_int)((it * 3 + i * 7 + who * 11) % 997); }

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int n = 1000, pr = 0, pc = 0;
    char top[2] = " ";
    long iters = 100, every = 10, sleep_ms = 0;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "-n")) n = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "-i")) iters = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "-p")) every = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "-s")) sleep_ms = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "-t")) top[0] = argv[a + 1][0];
        else if (!strcmp(argv[a], "-g")) {
            long r, c;
            if (sscanf(argv[a + 1], "%ldx%ld", &r, &c) == 2) pr = r, pc = c;
        } else {
            fprintf(stderr, "t_faultloop: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (n < 1) n = 1;
    if (every < 1) every = 1;
    blacs_int np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    if (pr * pc != np) {
        if (np == 4) pr = 2, pc = 2;
        else pr = 1, pc = np;
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", pr, pc);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    char host[256] = "?";
    gethostname(host, sizeof host);
    printf("t_faultloop: rank %ld pid %ld host %s grid %ldx%ld at (%ld,%ld)\n", (long)me, (long)getpid(), host,
           (long)nr, (long)nc, (long)r, (long)c);
    fflush(stdout);

    double *a = malloc(n * sizeof *a);
    blacs_int *ia = malloc(n * sizeof *ia);
    if (!a || !ia) {
        fprintf(stderr, "t_faultloop: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double t0 = now();
    long it;
    for (it = 0; it < iters; it++) {
        int me_id = (int)(r * nc + c);
        /* whole grid broadcast from a moving root */
        int root = (int)(it % np), rr = root / (int)nc, rc = root % (int)nc;
        if (me_id == root) {
            for (blacs_int i = 0; i < n; i++) a[i] = bval(it, i, root);
            Cdgebs2d(ctxt, "All", top, n, 1, a, n);
        } else {
            for (blacs_int i = 0; i < n; i++) a[i] = -1;
            Cdgebr2d(ctxt, "All", top, n, 1, a, n, rr, rc);
            for (blacs_int i = 0; i < n; i++)
                if (a[i] != bval(it, i, root)) wrong("broadcast All", it, i, a[i], bval(it, i, root));
            checked += n;
        }
        /* whole grid sum, result everywhere */
        for (blacs_int i = 0; i < n; i++) a[i] = cval(it, i, me_id);
        Cdgsum2d(ctxt, "All", top, n, 1, a, n, -1, -1);
        for (blacs_int i = 0; i < n; i++) {
            double w = 0;
            for (int p = 0; p < np; p++) w += cval(it, i, p);
            if (a[i] != w) wrong("sum All", it, i, a[i], w);
        }
        checked += n;
        /* row broadcast from a moving column */
        int bc = (int)(it % nc);
        if (c == bc) {
            for (blacs_int i = 0; i < n; i++) a[i] = bval(it + 1, i, (int)r);
            Cdgebs2d(ctxt, "Row", top, n, 1, a, n);
        } else {
            for (blacs_int i = 0; i < n; i++) a[i] = -1;
            Cdgebr2d(ctxt, "Row", top, n, 1, a, n, r, bc);
            for (blacs_int i = 0; i < n; i++)
                if (a[i] != bval(it + 1, i, (int)r)) wrong("broadcast Row", it, i, a[i], bval(it + 1, i, (int)r));
            checked += n;
        }
        /* column sum to a moving row */
        int dr = (int)(it % nr);
        for (blacs_int i = 0; i < n; i++) a[i] = cval(it + 2, i, (int)r);
        Cdgsum2d(ctxt, "Column", top, n, 1, a, n, dr, c);
        if (r == dr) {
            for (blacs_int i = 0; i < n; i++) {
                double w = 0;
                for (int p = 0; p < nr; p++) w += cval(it + 2, i, p);
                if (a[i] != w) wrong("sum Column", it, i, a[i], w);
            }
            checked += n;
        }
        /* integer max over the grid, result everywhere */
        for (blacs_int i = 0; i < n; i++) ia[i] = mval(it, i, me_id);
        Cigamx2d(ctxt, "All", top, n, 1, ia, n, NULL, NULL, -1, -1, -1);
        for (blacs_int i = 0; i < n; i++) {
            blacs_int w = 0;
            for (int p = 0; p < np; p++)
                if (mval(it, i, p) > w) w = mval(it, i, p);
            if (ia[i] != w) wrong("max All", it, i, ia[i], w);
        }
        checked += n;
        if (me == 0 && (it + 1) % every == 0) {
            printf("t_faultloop: iteration %ld at %.3f\n", it + 1, now());
            fflush(stdout);
        }
        if (sleep_ms > 0) {
            struct timespec ts = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    double t1 = now();
    long total = 0;
    MPI_Allreduce(&checked, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) {
        printf("t_faultloop: done %ld iterations, %ld values checked, %.2f s\n", it, total, t1 - t0);
        fflush(stdout);
    }
    free(a);
    free(ia);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
