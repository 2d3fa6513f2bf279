/*
 * t_offmpi.c -- locally blocking for real: sends and broadcast sources
 * return while their receivers are outside MPI, and the data of a long
 * message reaches a receiver that waits for it while its source is outside
 * MPI.  The processes wait for each other with signals outside MPI (files
 * in a directory all of them share), never with an MPI call, so a send that
 * waits for its receiver, or data that moves only while its source is
 * inside MPI, is a hang here; a deadline turns it into a failure that says
 * which.  Every received matrix is checked, with guard zones.
 *
 *   t_offmpi sends K ELEMS    process 0 sends K messages of ELEMS doubles
 *                             to process 1, then signals; 1 waits for the
 *                             signal outside MPI, then receives them all;
 *                             and again with 1 computing 1 s instead:
 *                             0's sends must take well under that
 *   t_offmpi swap ELEMS       processes 0 and 1 each send one message to
 *                             the other before receiving
 *   t_offmpi bcast TOP SCOPE ELEMS NPROW NPCOL
 *                             {0,0} broadcasts ELEMS doubles on the grid
 *                             and then waits outside MPI for a signal from
 *                             each receiver of the scope; the receivers
 *                             come 0.2 s late, receive, check, signal
 *   t_offmpi send ELEMS [ELEMS2]
 *                             the same with one point-to-point message;
 *                             with ELEMS2, 0 sends a second message of
 *                             ELEMS2 doubles after the first, and 1 takes
 *                             it 0.1 s after the first (outside MPI in
 *                             between), so that a receive that follows a
 *                             long message, whose receiver tells the source
 *                             it is there (p2p.c, words), comes while the
 *                             source has long been outside MPI
 *   t_offmpi sum ELEMS NPROW NPCOL [SCOPE RDEST CDEST [TOP]]
 *                             a leave-on-one DGSUM2D (SCOPE A,
 *                             destination {0,0} and TOP ' ' unless given; in a row or
 *                             column scope every row or column sums to its
 *                             own process of column CDEST or row RDEST); the
 *                             destinations come 0.2 s late, every other
 *                             process returns and waits outside MPI for its
 *                             destination's signal
 *   t_offmpi exit TOP ELEMS [LATE]
 *                             {0,0} broadcasts ELEMS doubles on the 1 x NP
 *                             grid and leaves at once (GRIDEXIT, then
 *                             BLACS_EXIT(1), no call between); the
 *                             receivers come LATE s (0.2) late, receive,
 *                             check and leave the same way.  With BLACS_DEBUG=3
 *                             every member sends the others a description
 *                             of its call: a receiver's comes after its
 *                             source has left, and no BLACS_EXIT may wait
 *                             for it forever (nor longer than EXIT_WAIT)
 * A source whose call takes longer than STALL seconds (far more than the
 * transfer, far less than the receivers' delay) is a failure: it waited for
 * a receiver.  The time the machine took (the process's threads queued
 * for a CPU, steal, disk stalls: runq.h) is left out: on a machine busy
 * with other test runs an 8 MB send took 0.134 s with no receiver to wait
 * for.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "runq.h"
#include "tutil.h"

#define DEADLINE 20.0 /* s: a signal later than this is a hang */
#define LATE 0.2      /* s: how late the receivers come */
/* s: a send or source call longer than this waited (under valgrind, whose
 * runner sets VALGRIND, everything is some 50 times slower) */
#define STALL (getenv("VALGRIND") ? 5.0 : 0.1)
/* s: the longest a BLACS_EXIT may take in 'exit' (it may give the
 * library's own messages a moment, not its peers' whole computation) */
#define EXIT_WAIT (getenv("VALGRIND") ? 30.0 : 5.0)

static char dir[256];
static blacs_int ctxt, nprow, npcol, myrow, mycol;
static int me, np;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* outside MPI: sleep, or compute (a busy loop the compiler keeps) */
static void away(double s, int busy)
{
    if (!busy) {
        struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        while (nanosleep(&t, &t) && errno == EINTR) {}
        return;
    }
    volatile double x = 1;
    for (double t0 = now(); now() - t0 < s;) x = x * 1.0000001 + 1e-9;
}

static void signal_to(int to, const char *what)
{
    char f[320];
    snprintf(f, sizeof f, "%s/%s.%d.%d", dir, what, me, to);
    FILE *fp = fopen(f, "w");
    if (fp) fclose(fp);
    TU_CHECK(fp != NULL, "cannot create %s", f);
}

/* wait outside MPI for what from process from; 0 if it never came */
static int wait_for(int from, const char *what)
{
    char f[320];
    struct stat st;
    snprintf(f, sizeof f, "%s/%s.%d.%d", dir, what, from, me);
    for (double t0 = now(); now() - t0 < DEADLINE;) {
        if (stat(f, &st) == 0) return 1;
        away(0.0005, 0);
    }
    fprintf(stderr, "[rank %d] HANG: no signal '%s' from process %d within %g s\n", me, what, from,
            DEADLINE);
    return 0;
}

static void fill(double *a, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++) a[i] = tu_val(seed, (blacs_int)(i % 1000), (blacs_int)(i / 1000));
}

static tu_mat recv_mat(blacs_int m)
{
    tu_mat a;
    tu_mat_alloc(&a, sizeof(double), m, 1, m);
    tu_mat_pad(&a, 0x5A);
    return a;
}

static void check_mat(tu_mat *a, int seed, const char *what)
{
    double *want = malloc((size_t)a->m * sizeof *want + 1);
    fill(want, (size_t)a->m, seed);
    long bad = 0;
    for (blacs_int i = 0; i < a->m; i++) bad += ((double *)a->a)[i] != want[i];
    unsigned char *g = a->mem;
    for (size_t i = 0; i < TU_GUARD * a->esz; i++) bad += g[i] != 0x5A;
    g = (unsigned char *)a->a + (size_t)a->m * a->esz;
    for (size_t i = 0; i < TU_GUARD * a->esz; i++) bad += g[i] != 0x5A;
    TU_CHECK(bad == 0, "%s: %ld bad elements or guard bytes", what, bad);
    free(want);
}

static void sends(long k, blacs_int m)
{
    for (int busy = 0; busy < 2; busy++) {
        if (me == 0) {
            double *a = malloc((size_t)m * sizeof *a + 8);
            double t0 = now(), q0 = runq_wait();
            for (long i = 0; i < k; i++) {
                fill(a, (size_t)m, (int)i + busy * 7919);
                Cdgesd2d(ctxt, m, 1, a, m, 0, 1);
                a[0] = -1; /* A may be reused at once */
            }
            double t = now() - t0 - (runq_wait() - q0);
            TU_CHECK(t < STALL * (1 + 0.1 * (double)k / 100),
                     "%ld sends of %ld doubles took %.3f s while the receiver was %s", k, (long)m, t,
                     busy ? "computing" : "outside MPI");
            if (!busy) signal_to(1, "sent");
            free(a);
        } else if (me == 1) {
            if (busy) away(1.0, 1);
            else if (!wait_for(0, "sent")) exit(3);
            for (long i = 0; i < k; i++) {
                tu_mat a = recv_mat(m);
                Cdgerv2d(ctxt, m, 1, a.a, m, 0, 0);
                check_mat(&a, (int)i + busy * 7919, "message");
                tu_mat_free(&a);
            }
        }
        Cblacs_barrier(ctxt, "A");
    }
}

static void swap(blacs_int m)
{
    if (me > 1) return;
    double *a = malloc((size_t)m * sizeof *a + 8);
    fill(a, (size_t)m, 11 + me);
    Cdgesd2d(ctxt, m, 1, a, m, 0, 1 - me);
    tu_mat r = recv_mat(m);
    Cdgerv2d(ctxt, m, 1, r.a, m, 0, 1 - me);
    check_mat(&r, 12 - me, "swapped message");
    tu_mat_free(&r);
    free(a);
}

/* the grid rank of the destination (or source) {RD,CD} as seen by process
 * (r, c) in scope: its own row's or column's for 'R' and 'C'; the members
 * of a scope are the processes that see the same one */
static int scope_dest(char scope, blacs_int rd, blacs_int cd, blacs_int r, blacs_int c)
{
    if (scope == 'R') rd = r;
    else if (scope == 'C') cd = c;
    return (int)(rd * npcol + cd);
}

/* does process (r, c) take part in a broadcast of scope from {0,0}? */
static int in_scope(char scope, blacs_int r, blacs_int c)
{
    return scope_dest(scope, 0, 0, r, c) == 0;
}

static void bcast(const char *top, char scope, blacs_int m)
{
    char sc[2] = {scope, 0};
    if (!in_scope(scope, myrow, mycol)) return;
    if (me == 0) {
        double *a = malloc((size_t)m * sizeof *a + 8);
        fill(a, (size_t)m, 5);
        double t0 = now(), q0 = runq_wait();
        Cdgebs2d(ctxt, sc, (char *)top, m, 1, a, m);
        double t = now() - t0 - (runq_wait() - q0);
        a[0] = -1;
        TU_CHECK(t < STALL, "TOP '%s' broadcast source took %.3f s for %ld doubles", top, t,
                 (long)m);
        for (int v = 1; v < np; v++)
            if (in_scope(scope, v / npcol, v % npcol) && !wait_for(v, "got")) exit(3);
        free(a);
    } else {
        away(LATE, 1);
        tu_mat a = recv_mat(m);
        Cdgebr2d(ctxt, sc, (char *)top, m, 1, a.a, m, 0, 0);
        check_mat(&a, 5, "broadcast");
        tu_mat_free(&a);
        signal_to(0, "got");
    }
}

/* 'exit': the broadcast, then straight out; the caller finishes */
static void bcast_exit(const char *top, blacs_int m, double late)
{
    double *a = malloc((size_t)m * sizeof *a + 8);
    if (me == 0) {
        fill(a, (size_t)m, 6);
        Cdgebs2d(ctxt, "A", (char *)top, m, 1, a, m);
    } else {
        away(late, 1);
        tu_mat r = recv_mat(m);
        Cdgebr2d(ctxt, "A", (char *)top, m, 1, r.a, m, 0, 0);
        check_mat(&r, 6, "broadcast");
        tu_mat_free(&r);
    }
    free(a);
    Cblacs_gridexit(ctxt);
    tu_watchdog("t_offmpi exit: BLACS_EXIT", (unsigned)(3 * EXIT_WAIT));
    const double t0 = now();
    Cblacs_exit(1);
    const double t = now() - t0;
    TU_CHECK(t < EXIT_WAIT, "BLACS_EXIT took %.3f s on process %d", t, me);
}

static void send1(blacs_int m, blacs_int m2)
{
    const blacs_int len[2] = {m, m2};
    const int nmsg = m2 > 0 ? 2 : 1;
    if (me == 0) {
        for (int k = 0; k < nmsg; k++) {
            double *a = malloc((size_t)len[k] * sizeof *a + 8);
            fill(a, (size_t)len[k], 9 + k);
            double t0 = now(), q0 = runq_wait();
            Cdgesd2d(ctxt, len[k], 1, a, len[k], 0, 1);
            double t = now() - t0 - (runq_wait() - q0);
            a[0] = -1;
            TU_CHECK(t < STALL, "send of %ld doubles took %.3f s", (long)len[k], t);
            free(a);
        }
        if (!wait_for(1, "got")) exit(3);
    } else if (me == 1) {
        away(LATE, 1);
        for (int k = 0; k < nmsg; k++) {
            if (k) away(0.1, 0);
            tu_mat a = recv_mat(len[k]);
            Cdgerv2d(ctxt, len[k], 1, a.a, len[k], 0, 0);
            check_mat(&a, 9 + k, k ? "second message" : "message");
            tu_mat_free(&a);
        }
        signal_to(0, "got");
    }
}

static void sum(blacs_int m, char scope, blacs_int rd, blacs_int cd, char *top)
{
    char sc[2] = {scope, 0};
    if (myrow < 0) return; /* not in the grid */
    const int ng = (int)(nprow * npcol), dest = scope_dest(scope, rd, cd, myrow, mycol);
    double *a = malloc((size_t)m * sizeof *a + 8);
    for (blacs_int i = 0; i < m; i++) a[i] = (double)(me + 1) * (double)(i % 97);
    if (me == dest) {
        away(LATE, 1);
        Cdgsum2d(ctxt, sc, top, m, 1, a, m, rd, cd);
        double f = 0; /* the sum of (k + 1) over the members k of the scope */
        for (int k = 0; k < ng; k++)
            if (scope_dest(scope, rd, cd, k / npcol, k % npcol) == dest) f += k + 1;
        long bad = 0;
        for (blacs_int i = 0; i < m; i++) bad += a[i] != f * (double)(i % 97);
        TU_CHECK(bad == 0, "sum to {%d,%d}: %ld wrong elements", dest / (int)npcol,
                 dest % (int)npcol, bad);
        for (int v = 0; v < ng; v++)
            if (v != dest && scope_dest(scope, rd, cd, v / npcol, v % npcol) == dest)
                signal_to(v, "summed");
    } else {
        Cdgsum2d(ctxt, sc, top, m, 1, a, m, rd, cd);
        /* a combine is globally blocking along its tree: only the leaves
         * of the destination may return before it comes; nobody may hang */
        if (!wait_for(dest, "summed")) exit(3);
    }
    free(a);
}

/* every process done: the signals' directory goes, and the counts */
static int finish(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd)) {}
    }
    return tu_finish();
}

int main(int argc, char **argv)
{
    blacs_int me_, np_;
    static char blank[] = " "; /* TOP ' ' */
    Cblacs_pinfo(&me_, &np_); /* the library starts MPI: MPI_THREAD_MULTIPLE, the progress thread */
    tu_init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: t_offmpi sends K ELEMS | swap ELEMS | bcast TOP SCOPE ELEMS NPROW NPCOL | send ELEMS [ELEMS2] | sum ELEMS NPROW NPCOL [SCOPE RDEST CDEST [TOP]] | exit TOP ELEMS [LATE]\n");
        return 2;
    }
    tu_watchdog("t_offmpi", 120);
    blacs_int ictxt;
    me = (int)me_;
    np = (int)np_;
    const char *what = argv[1];
    nprow = 1;
    npcol = np;
    if (!strcmp(what, "bcast") && argc >= 7) nprow = atol(argv[5]), npcol = atol(argv[6]);
    if (!strcmp(what, "sum") && argc >= 5) nprow = atol(argv[3]), npcol = atol(argv[4]);
    if (me == 0) {
        /* OFFMPI_DIR: where the cases that must end in an error (their
         * processes killed before they remove it) leave it */
        const char *base = getenv("OFFMPI_DIR") ? getenv("OFFMPI_DIR") : getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/t_offmpi.XXXXXX", base ? base : "/tmp");
        if (!mkdtemp(dir)) dir[0] = 0;
    }
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!dir[0]) {
        fprintf(stderr, "t_offmpi: no directory for the signals\n");
        return 2;
    }
    Cblacs_get(0, 0, &ictxt);
    ctxt = ictxt;
    Cblacs_gridinit(&ctxt, "R", nprow, npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (!strcmp(what, "exit") && argc >= 4) {
        bcast_exit(argv[2], atol(argv[3]), argc >= 5 ? atof(argv[4]) : LATE);
        int rc = finish();
        MPI_Finalize();
        return rc;
    }
    if (!strcmp(what, "sends") && argc >= 4) sends(atol(argv[2]), atol(argv[3]));
    else if (!strcmp(what, "swap")) swap(atol(argv[2]));
    else if (!strcmp(what, "bcast") && argc >= 7) bcast(argv[2], argv[3][0], atol(argv[4]));
    else if (!strcmp(what, "send")) send1(atol(argv[2]), argc >= 4 ? atol(argv[3]) : 0);
    else if (!strcmp(what, "sum") && argc >= 8)
        sum(atol(argv[2]), argv[5][0], atol(argv[6]), atol(argv[7]), argc >= 9 ? argv[8] : blank);
    else if (!strcmp(what, "sum")) sum(atol(argv[2]), 'A', 0, 0, blank);
    else {
        fprintf(stderr, "t_offmpi: unknown case %s\n", what);
        return 2;
    }
    Cblacs_gridexit(ctxt);
    int rc = finish();
    Cblacs_exit(0);
    return rc;
}
