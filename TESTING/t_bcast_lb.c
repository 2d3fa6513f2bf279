/*
 * t_bcast_lb.c -- a broadcast source returns without waiting for its
 * receivers, whatever the machine parameters (BLACS_ALPHA, BLACS_SEND_ALPHA,
 * BLACS_BETA), for long messages too.  Three processes in a 1 x 3 grid,
 * source column 0, N doubles (default 100,000: 800 KB, far past any eager
 * limit), for each TOP letter given:
 *   children  for the letters whose source sends to both others itself:
 *             one receiver first waits for a point-to-point message that the
 *             other sends only after its broadcast/receive has returned,
 *             each way round (column 1 waits on 2, then 2 on 1).  A source
 *             that waits for its first send before posting the second hangs.
 *   source    every letter: the source sends each receiver a point-to-point
 *             message after its broadcast/send, and the receivers take it
 *             before their broadcast/receive.  A source that waits for its
 *             receivers at all hangs.  TOP ' ' (in the list by default,
 *             last) runs in scope 'All', MPI_Ibcast's (bcast_mpi.c).
 *   order=before|after  only this: the split ring 'S', whose source sends
 *             to column 1 (+1) and then to column 2 (-1).  Column 2, once it
 *             has its data, tells column 1 (MPI_COMM_WORLD, tag 99); column
 *             1 looks for that word for 0.5 s before it posts its receive.
 *             "before": column 2 had its data first (the source did not keep
 *             its order for a receiver that was not there: BLACS_SOURCE_WAIT
 *             0, or its bound spent); "after": the source waited for its
 *             first send before posting the second (a bound past 0.5 s).
 * A hang is a failure by the runner's timeout (TESTING/run_tests.sh); every
 * received vector is checked element by element.
 *   t_bcast_lb [children=TOPS] [source=TOPS] [n=N] [order=before|after]
 */
#include "tutil.h"

static long check(const double *a, long n, int k)
{
    long bad = 0;
    for (long i = 0; i < n; i++)
        if (a[i] != (double)k * 1e6 + (double)i) bad++;
    return bad;
}

static void fill(double *a, long n, int k)
{
    for (long i = 0; i < n; i++) a[i] = (double)k * 1e6 + (double)i;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *kids = "FS123T", *srcs = "IDSMHFT123P ", *order = NULL;
    long n = 100000;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "children=", 9)) kids = argv[i] + 9;
        else if (!strncmp(argv[i], "source=", 7)) srcs = argv[i] + 7;
        else if (!strncmp(argv[i], "n=", 2)) n = atol(argv[i] + 2);
        else if (!strncmp(argv[i], "order=", 6)) order = argv[i] + 6;
    }
    if (order) kids = srcs = "";
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 3);
    if (ctxt >= 0) {
        Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
        double *a = malloc((size_t)n * sizeof *a), tok[4];
        int k = 0;
        for (const char *t = kids; *t; t++)
            for (int waiter = 1; waiter <= 2; waiter++, k++) {
                char top[2] = {*t, 0};
                const int other = 3 - waiter;
                if (c == 0) {
                    fill(a, n, k);
                    Cdgebs2d(ctxt, "R", top, (blacs_int)n, 1, a, (blacs_int)n);
                    a[0] = -1; /* A is the caller's again */
                } else if (c == waiter) {
                    Cdgerv2d(ctxt, 4, 1, tok, 4, 0, other);
                    memset(a, 0, (size_t)n * sizeof *a);
                    Cdgebr2d(ctxt, "R", top, (blacs_int)n, 1, a, (blacs_int)n, 0, 0);
                    TU_CHECK(check(a, n, k) == 0, "TOP '%c', column %d waiting on %d", *t, waiter, other);
                    TU_CHECK(tok[0] == other, "token from column %d", other);
                } else {
                    memset(a, 0, (size_t)n * sizeof *a);
                    Cdgebr2d(ctxt, "R", top, (blacs_int)n, 1, a, (blacs_int)n, 0, 0);
                    TU_CHECK(check(a, n, k) == 0, "TOP '%c', column %ld waited on", *t, (long)c);
                    tok[0] = (double)c;
                    Cdgesd2d(ctxt, 4, 1, tok, 4, 0, waiter);
                }
            }
        for (const char *t = srcs; *t; t++, k++) {
            char top[2] = {*t, 0};
            char scope[2] = {*t == ' ' ? 'A' : 'R', 0}; /* ' ': MPI's own, on the grid's */
            if (c == 0) {
                fill(a, n, k);
                Cdgebs2d(ctxt, scope, top, (blacs_int)n, 1, a, (blacs_int)n);
                a[0] = -1;
                tok[0] = 7;
                Cdgesd2d(ctxt, 4, 1, tok, 4, 0, 1);
                Cdgesd2d(ctxt, 4, 1, tok, 4, 0, 2);
            } else {
                Cdgerv2d(ctxt, 4, 1, tok, 4, 0, 0);
                memset(a, 0, (size_t)n * sizeof *a);
                Cdgebr2d(ctxt, scope, top, (blacs_int)n, 1, a, (blacs_int)n, 0, 0);
                TU_CHECK(check(a, n, k) == 0, "TOP '%c', source sending on first", *t);
                TU_CHECK(tok[0] == 7, "token from the source");
            }
        }
        if (order) {
            int got = 0, word = 0;
            blacs_int pcol1 = Cblacs_pnum(ctxt, 0, 1), pcol2 = Cblacs_pnum(ctxt, 0, 2);
            if (c == 0) {
                fill(a, n, 5);
                Cdgebs2d(ctxt, "R", "S", (blacs_int)n, 1, a, (blacs_int)n);
                a[0] = -1;
            } else if (c == 1) {
                double t0 = MPI_Wtime();
                while (!got && MPI_Wtime() - t0 < 0.5)
                    MPI_Iprobe((int)pcol2, 99, MPI_COMM_WORLD, &got, MPI_STATUS_IGNORE);
                memset(a, 0, (size_t)n * sizeof *a);
                Cdgebr2d(ctxt, "R", "S", (blacs_int)n, 1, a, (blacs_int)n, 0, 0);
                TU_CHECK(check(a, n, 5) == 0, "TOP 'S', column 1");
                MPI_Recv(&word, 1, MPI_INT, (int)pcol2, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                TU_CHECK(word == 2, "the word from column 2");
                const char *seen = got ? "before" : "after";
                TU_CHECK(!strcmp(seen, order), "column 2 had its data %s column 1 posted its "
                         "receive, where %s was expected", seen, order);
            } else {
                memset(a, 0, (size_t)n * sizeof *a);
                Cdgebr2d(ctxt, "R", "S", (blacs_int)n, 1, a, (blacs_int)n, 0, 0);
                TU_CHECK(check(a, n, 5) == 0, "TOP 'S', column 2");
                word = 2;
                MPI_Send(&word, 1, MPI_INT, (int)pcol1, 99, MPI_COMM_WORLD);
            }
        }
        free(a);
        Cblacs_gridexit(ctxt);
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
