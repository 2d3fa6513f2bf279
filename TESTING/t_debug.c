/*
 * t_debug.c MODE -- the debug and statistics levels (LAWN 73 7.1.4) on 2
 * processes.  Modes that are programming errors must end, in seconds, with
 * a message saying what each process waits in (BLACS_DEBUG=2) or what
 * differs between them (BLACS_DEBUG=3); the runner checks the message.
 *   recvfirst   both processes receive first (a hang without the BLACS' help)
 *   recvlater   one exchange of 3 x 1 doubles (0 sends first), then both
 *               receive: the hang report names the call each completed
 *               last, the send (process 1) or the receive (process 0)
 *   br_vs_sum   one process broadcasts-receives, the other combines (TOP from argv[2])
 *   count       broadcast whose receiver's M*N differs from the sender's
 *   selfsrc     a broadcast receiver names itself as the source (BLACS_DEBUG=1)
 *   stats       some traffic; BLACS_STATS=1 prints the table at BLACS_EXIT
 * The long-wait warning (BLACS_WAIT_WARN, SRC/watch.c), checked here since
 * the runner can only see that a line is there, not that it is alone:
 *   slow WHAT   process 0 sleeps 3 s outside the BLACS, then sends (WHAT
 *               p2p), broadcasts (bcast) or sums (sum: MPI's reduction, with
 *               BLACS_SET 16; sumx: the exchange), TOP ' '; process 1
 *               waits for it.  With BLACS_WAIT_WARN below 3 s process 1
 *               prints exactly one warning naming the routine and the
 *               message, process 0 none; otherwise (0: off, unset: 300 s)
 *               nobody prints one.  The data must arrive either way.
 *               restart: p2p, BLACS_EXIT(1), BLACS_PINFO, p2p again.
 *   thread [finalize]  the watchdog thread runs after BLACS_PINFO (unless
 *               BLACS_WAIT_WARN=0) and is gone after BLACS_EXIT(1), after
 *               BLACS_EXIT(0), or, with finalize, after MPI_Finalize alone
 */
#include <dirent.h>
#include <time.h>
#include <unistd.h>
#include "tutil.h"

/* between capture() and release() stderr goes to a temporary file;
 * release() copies it to the real stderr and returns it (free it) */
static FILE *cap;
static int cap_saved = -1;

static void capture(void)
{
    fflush(stderr);
    cap = tmpfile();
    cap_saved = dup(2);
    if (!cap || cap_saved < 0 || dup2(fileno(cap), 2) < 0) {
        perror("t_debug: capturing stderr");
        exit(2);
    }
}

static char *release(void)
{
    fflush(stderr);
    dup2(cap_saved, 2);
    close(cap_saved);
    fseek(cap, 0, SEEK_END); /* written through fd 2, not through cap */
    long n = ftell(cap);
    char *text = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(cap);
    if (n > 0 && fread(text, 1, (size_t)n, cap) != (size_t)n) text[0] = 0;
    fclose(cap);
    fputs(text, stderr);
    return text;
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++) n++;
    return n;
}

static double warn_limit(void)
{
    const char *v = getenv("BLACS_WAIT_WARN");
    return v && *v ? atof(v) : 300;
}

static void slow(blacs_int ctxt, blacs_int c, const char *what)
{
    const int expect = c == 1 && warn_limit() > 0 && warn_limit() < 3;
    double a[4] = {0};
    char want[400] = "";
    capture();
    if (c == 0) {
        struct timespec t = {3, 0};
        nanosleep(&t, NULL);
        for (int i = 0; i < 4; i++) a[i] = i + 1;
    }
    if (!strcmp(what, "p2p")) {
        if (c == 0) Cdgesd2d(ctxt, 2, 2, a, 2, 0, 1);
        else {
            snprintf(want, sizeof want, "in Cdgerv2d (point-to-point receive, context %ld, "
                     "scope '-', topology '-', 4 elements, source {0,0}) waiting for a message "
                     "from rank 0 of the grid, message ID %ld, 32 bytes; still waiting",
                     (long)ctxt, (long)Ckrecvid(ctxt, 0, 0));
            Cdgerv2d(ctxt, 2, 2, a, 2, 0, 0);
        }
    } else if (!strcmp(what, "bcast")) {
        if (c == 0) Cdgebs2d(ctxt, "All", " ", 2, 2, a, 2);
        else Cdgebr2d(ctxt, "All", " ", 2, 2, a, 2, 0, 0);
        /* a short ' ' broadcast is the binomial tree (SRC/plan.c); at
         * BLACS_DEBUG=3 the receiver first waits for the source's
         * cross-check description, a message of its own (SRC/entry_debug.c):
         * either way a message from the source */
        const char *d = getenv("BLACS_DEBUG");
        snprintf(want, sizeof want, "in Cdgebr2d (broadcast receive, context %ld, scope 'a', "
                 "topology ' ', %s4 elements, source {0,0}) waiting for a message "
                 "from rank 0 of the grid", (long)ctxt,
                 d && atoi(d) >= 3 ? "" : "running '1', ");
    } else {
        /* sum: with BLACS_SET 16 (coherent) ' ' on two processes is MPI's
         * reduction; sumx: without it, the exchange 'H' (SRC/plan.c) */
        const int mpi = !strcmp(what, "sum");
        blacs_int coh = mpi, was = 0;
        Cblacs_get(ctxt, 16, &was);
        Cblacs_set(ctxt, 16, &coh);
        if (c == 1)
            for (int i = 0; i < 4; i++) a[i] = 10 * (i + 1);
        Cdgsum2d(ctxt, "All", " ", 2, 2, a, 2, -1, -1);
        Cblacs_set(ctxt, 16, &was);
        if (mpi)
            snprintf(want, sizeof want, "in Cdgsum2d (combine, context %ld, scope 'a', topology "
                     "' ', 4 elements, destination {-1,-1}) waiting for the other processes of "
                     "the scope in an MPI collective", (long)ctxt);
        else
            snprintf(want, sizeof want, "in Cdgsum2d (combine, context %ld, scope 'a', topology "
                     "' ', running 'H', 4 elements, destination {-1,-1}) waiting for a message "
                     "from rank 0 of the grid", (long)ctxt);
    }
    char *text = release();
    int n = count_of(text, "BLACS WARNING");
    TU_CHECK(n == expect, "%s: %d warnings on process %ld, expected %d", what, n, (long)c, expect);
    if (expect) TU_CHECK(strstr(text, want) != NULL, "%s: the warning does not say\n  %s", what, want);
    free(text);
    double f = !strncmp(what, "sum", 3) ? 11 : 1;
    for (int i = 0; i < 4; i++)
        TU_CHECK(a[i] == f * (i + 1), "%s: element %d is %g, expected %g", what, i, a[i], f * (i + 1));
}

/* threads of this process named blacs_watch (Linux) */
static int watch_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char p[300], name[32] = "";
        if (e->d_name[0] == '.') continue;
        snprintf(p, sizeof p, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(p, "r");
        if (!f) continue;
        if (fgets(name, sizeof name, f) && !strncmp(name, "blacs_watch", 11)) n++;
        fclose(f);
    }
    closedir(d);
    return n;
}

static int thread_mode(int finalize)
{
    const int on = warn_limit() > 0;
    blacs_int me, np, ctxt, nr, nc, r, c;
    TU_CHECK(watch_threads() == 0, "a watchdog thread before BLACS_PINFO");
    Cblacs_pinfo(&me, &np);
    TU_CHECK(watch_threads() == on, "%d watchdog threads after BLACS_PINFO, expected %d",
             watch_threads(), on);
    Cblacs_pinfo(&me, &np);
    TU_CHECK(watch_threads() == on, "%d watchdog threads after a second BLACS_PINFO", watch_threads());
    Cblacs_exit(1);
    TU_CHECK(watch_threads() == 0, "the watchdog thread outlives BLACS_EXIT(1)");
    Cblacs_pinfo(&me, &np);
    TU_CHECK(watch_threads() == on, "%d watchdog threads after BLACS_PINFO again", watch_threads());
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    double v = 1 + (double)c;
    Cdgsum2d(ctxt, "All", " ", 1, 1, &v, 1, -1, -1);
    TU_CHECK(v == 3, "sum %g", v);
    int rc = tu_finish();
    if (finalize) MPI_Finalize(); /* the BLACS never exited: MPI_Finalize stops the thread */
    else Cblacs_exit(0);
    if (watch_threads() != 0) {
        fprintf(stderr, "[rank %d] the watchdog thread outlives %s\n", tu_rank,
                finalize ? "MPI_Finalize" : "BLACS_EXIT(0)");
        rc = 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "stats";
    char *top = argc > 2 ? argv[2] : " ";
    if (!strcmp(mode, "thread")) return thread_mode(argc > 2 && !strcmp(argv[2], "finalize"));
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    double a[16] = {0};
    if (!strcmp(mode, "recvfirst")) {
        Cdgerv2d(ctxt, 2, 2, a, 2, 0, 1 - c);
        Cdgesd2d(ctxt, 2, 2, a, 2, 0, 1 - c);
    } else if (!strcmp(mode, "recvlater")) {
        if (c == 0) {
            Cdgesd2d(ctxt, 3, 1, a, 3, 0, 1);
            Cdgerv2d(ctxt, 3, 1, a, 3, 0, 1);
        } else {
            Cdgerv2d(ctxt, 3, 1, a, 3, 0, 0);
            Cdgesd2d(ctxt, 3, 1, a, 3, 0, 0);
        }
        Cdgerv2d(ctxt, 2, 2, a, 2, 0, 1 - c);
    } else if (!strcmp(mode, "br_vs_sum")) {
        if (c == 0) Cdgsum2d(ctxt, "All", top, 2, 2, a, 2, -1, -1);
        else Cdgebr2d(ctxt, "All", top, 2, 2, a, 2, 0, 0);
    } else if (!strcmp(mode, "count")) {
        if (c == 0) Cdgebs2d(ctxt, "Row", top, 2, 3, a, 2);
        else Cdgebr2d(ctxt, "Row", top, 2, 2, a, 2, 0, 0);
    } else if (!strcmp(mode, "selfsrc")) {
        if (c == 0) Cdgebs2d(ctxt, "Row", top, 1, 1, a, 1);
        else Cdgebr2d(ctxt, "Row", top, 1, 1, a, 1, 0, c);
    } else if (!strcmp(mode, "slow")) {
        const char *what = argc > 2 ? argv[2] : "p2p";
        slow(ctxt, c, !strcmp(what, "restart") ? "p2p" : what);
        if (!strcmp(what, "restart")) {
            Cblacs_gridexit(ctxt);
            Cblacs_exit(1);
            Cblacs_pinfo(&me, &np);
            Cblacs_get(0, 0, &ctxt);
            Cblacs_gridinit(&ctxt, "R", 1, np);
            slow(ctxt, c, "p2p");
        }
    } else {
        for (int k = 0; k < 10; k++) {
            if (c == 0) Cdgesd2d(ctxt, 4, 4, a, 4, 0, 1);
            if (c == 1) Cdgerv2d(ctxt, 4, 4, a, 4, 0, 0);
            Cdgsum2d(ctxt, "All", "1", 2, 2, a, 2, -1, -1);
        }
        tu_pass++;
    }
    int rc = tu_finish();
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return rc;
}
