/*
 * t_rev_ctx.c MODE -- grids, scopes and their settings: legal programs that
 * must get the right data, and settings that must be agreed on or refused
 * when the grid is made.  A hang is reported by a watchdog, not a timeout.
 *
 *   scopes R|C [counts]  (2, 3) a 1 x P (R) or P x 1 (C) grid, whose row
 *                (column) scope is the whole grid.  {0,0} broadcasts with
 *                TOP ' ' in that scope (value 1), then in 'All' (value 2);
 *                the others receive 'All' first, then the scope.  Each
 *                scope is a stream of its own, so every value must arrive
 *                where it was sent.  counts: the two broadcasts have 1 and
 *                2 doubles.
 *   barrier R|C  (2, 3) the same grids: {0,0} broadcasts in 'All' and then
 *                waits in the whole-grid scope's barrier; the others wait
 *                in that barrier first, then receive
 *   syshandle    (any) the C handle of BLACS_GET WHAT=10 is freed by the
 *                program, which gets the slot back from Csys2blacs_handle
 *                for a communicator of its own; BLACS_GRIDEXIT of the first
 *                grid must leave that handle alone: a grid made on it works
 *   bufmax       (2) under BLACS_BUFMAX=600K, a 100 x 60 double message
 *                received into LDA 120 (packed sends and scratch receives
 *                far below the cap) arrives whole
 *   p2p          (2) 100,000 doubles then 3 each way, every value checked
 *                (run with BLACS_P2P_SCHEDULE different on the two ranks)
 *   pipe         (any) TOP 'P' broadcast of 200,000 doubles from {0,0},
 *                checked (run with BLACS_PIPE_SEGMENT or BLACS_ALPHA
 *                different on rank 0: the grid must refuse)
 *   sum          (any) a ' ' sum of 100,000 doubles, checked (run with
 *                BLACS_COUNT_LIMIT different on rank 0: the grid must
 *                refuse)
 */
#include <signal.h>
#include <unistd.h>
#include "tutil.h"

static void watchdog(unsigned s) { tu_watchdog("t_rev_ctx", s); }

static blacs_int grid(blacs_int nprow, blacs_int npcol)
{
    blacs_int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
    return ctxt;
}

/* ---- scopes / barrier ------------------------------------------------------ */
/* a grid whose row (R) or column (C) scope is all of it */
static blacs_int whole_scope_grid(const char *orient, char *scope)
{
    blacs_int me, np;
    Cblacs_pinfo(&me, &np);
    int row = orient[0] == 'R';
    *scope = row ? 'R' : 'C';
    return row ? grid(1, np) : grid(np, 1);
}

static void scopes(const char *orient, int counts)
{
    char sc[2] = {0, 0};
    blacs_int ctxt = whole_scope_grid(orient, sc), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const blacs_int n1 = 1, n2 = counts ? 2 : 1;
    double s[2] = {1, 1}, a[2] = {2, 2}, gs[2] = {-1, -1}, ga[2] = {-1, -1};
    watchdog(60);
    if (r == 0 && c == 0) {
        Cdgebs2d(ctxt, sc, " ", n1, 1, s, n1);
        Cdgebs2d(ctxt, "All", " ", n2, 1, a, n2);
    } else {
        Cdgebr2d(ctxt, "All", " ", n2, 1, ga, n2, 0, 0);
        Cdgebr2d(ctxt, sc, " ", n1, 1, gs, n1, 0, 0);
        TU_CHECK(ga[0] == 2 && (n2 < 2 || ga[1] == 2) && gs[0] == 1,
                 "%ldx%ld grid {%ld,%ld}: 'All' got %g %g, '%s' got %g (want 2 2, 1)", (long)nr,
                 (long)nc, (long)r, (long)c, ga[0], n2 < 2 ? 2.0 : ga[1], sc, gs[0]);
    }
    alarm(0);
    Cblacs_gridexit(ctxt);
}

static void barrier(const char *orient)
{
    char sc[2] = {0, 0};
    blacs_int ctxt = whole_scope_grid(orient, sc), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    double a = 5, got = -1;
    watchdog(60);
    if (r == 0 && c == 0) {
        Cdgebs2d(ctxt, "All", " ", 1, 1, &a, 1);
        Cblacs_barrier(ctxt, sc);
    } else {
        Cblacs_barrier(ctxt, sc);
        Cdgebr2d(ctxt, "All", " ", 1, 1, &got, 1, 0, 0);
        TU_CHECK(got == 5, "{%ld,%ld}: 'All' got %g after the '%s' barrier", (long)r, (long)c,
                 got, sc);
    }
    alarm(0);
    Cblacs_gridexit(ctxt);
}

/* ---- syshandle ---------------------------------------------------------------- */
static void syshandle(void)
{
    blacs_int me, np, h = -1;
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = grid(1, np);
    Cblacs_get(ctxt, 10, &h);
    Cfree_blacs_system_handle(h);
    MPI_Comm mine;
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    blacs_int h2 = Csys2blacs_handle(mine);
    /* not required, but the case this test is about */
    if (h2 != h && me == 0) printf("note: the freed slot %ld was not reused (%ld)\n", (long)h, (long)h2);
    Cblacs_gridexit(ctxt);
    TU_CHECK(Cblacs2sys_handle(h2) == mine, "handle %ld no longer stands for the program's "
             "communicator after BLACS_GRIDEXIT", (long)h2);
    blacs_int c2 = h2, nr, nc, r, c;
    Cblacs_gridinit(&c2, "Row", 1, np);
    Cblacs_gridinfo(c2, &nr, &nc, &r, &c);
    double x = 1;
    Cdgsum2d(c2, "All", " ", 1, 1, &x, 1, -1, -1);
    TU_CHECK(nr == 1 && nc == np && x == np, "a grid on the program's handle: %ldx%ld, sum %g",
             (long)nr, (long)nc, x);
    Cblacs_gridexit(c2);
    Cfree_blacs_system_handle(h2);
    MPI_Comm_free(&mine);
}

/* ---- bufmax --------------------------------------------------------------------- */
static void bufmax(void)
{
    blacs_int ctxt = grid(1, 2), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    enum { M = 100, N = 60, LDA = 120 };
    double *a = malloc(sizeof(double) * LDA * N);
    watchdog(60);
    for (int round = 0; round < 3; round++) {
        if (c == 0) {
            for (int k = 0; k < LDA * N; k++) a[k] = round * 1e5 + k;
            Cdgesd2d(ctxt, M, N, a, LDA, 0, 1);
        } else {
            for (int k = 0; k < LDA * N; k++) a[k] = -1;
            Cdgerv2d(ctxt, M, N, a, LDA, 0, 0);
            int bad = 0;
            for (int j = 0; j < N; j++)
                for (int i = 0; i < LDA; i++)
                    bad += a[j * LDA + i] != (i < M ? round * 1e5 + j * LDA + i : -1);
            TU_CHECK(bad == 0, "round %d: %d wrong elements", round, bad);
        }
    }
    alarm(0);
    free(a);
    Cblacs_gridexit(ctxt);
}

/* ---- p2p ------------------------------------------------------------------------ */
static void p2p(void)
{
    blacs_int ctxt = grid(1, 2), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const blacs_int lens[2] = {100000, 3};
    double *a = malloc(sizeof(double) * 100000);
    watchdog(60);
    for (int dir = 0; dir < 2; dir++)
        for (int k = 0; k < 2; k++) {
            blacs_int n = lens[k];
            if (c == dir) {
                for (blacs_int i = 0; i < n; i++) a[i] = 1000.0 * k + i + 0.5 * dir;
                Cdgesd2d(ctxt, n, 1, a, n, 0, 1 - dir);
            } else {
                for (blacs_int i = 0; i < n; i++) a[i] = -1;
                Cdgerv2d(ctxt, n, 1, a, n, 0, dir);
                long bad = 0, first = -1;
                for (blacs_int i = 0; i < n; i++)
                    if (a[i] != 1000.0 * k + i + 0.5 * dir) {
                        if (first < 0) first = (long)i;
                        bad++;
                    }
                TU_CHECK(bad == 0, "%ld doubles from {0,%d}: %ld wrong, the first at %ld", (long)n,
                         dir, bad, first);
            }
        }
    alarm(0);
    free(a);
    Cblacs_gridexit(ctxt);
}

/* ---- pipe / sum ------------------------------------------------------------------- */
static void pipe_bcast(void)
{
    blacs_int me, np;
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = grid(1, np), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    enum { N = 200000 };
    double *a = malloc(sizeof(double) * N);
    watchdog(60);
    if (c == 0) {
        for (int i = 0; i < N; i++) a[i] = i;
        Cdgebs2d(ctxt, "All", "P", N, 1, a, N);
    } else {
        for (int i = 0; i < N; i++) a[i] = -1;
        Cdgebr2d(ctxt, "All", "P", N, 1, a, N, 0, 0);
        long bad = 0;
        for (int i = 0; i < N; i++) bad += a[i] != i;
        TU_CHECK(bad == 0, "'P' broadcast: %ld wrong elements", bad);
    }
    alarm(0);
    free(a);
    Cblacs_gridexit(ctxt);
}

static void sum(void)
{
    blacs_int me, np;
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = grid(1, np);
    enum { N = 100000 };
    double *a = malloc(sizeof(double) * N);
    for (int i = 0; i < N; i++) a[i] = i % 13;
    watchdog(60);
    Cdgsum2d(ctxt, "All", " ", N, 1, a, N, -1, -1);
    alarm(0);
    long bad = 0;
    for (int i = 0; i < N; i++) bad += a[i] != (double)np * (i % 13);
    TU_CHECK(bad == 0, "' ' sum: %ld wrong elements", bad);
    free(a);
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "R";
    if (!strcmp(mode, "scopes")) scopes(arg, argc > 3 && !strcmp(argv[3], "counts"));
    else if (!strcmp(mode, "barrier")) barrier(arg);
    else if (!strcmp(mode, "syshandle")) syshandle();
    else if (!strcmp(mode, "bufmax")) bufmax();
    else if (!strcmp(mode, "p2p")) p2p();
    else if (!strcmp(mode, "pipe")) pipe_bcast();
    else if (!strcmp(mode, "sum")) sum();
    else {
        fprintf(stderr, "t_rev_ctx: unknown mode '%s'\n", mode);
        return 2;
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
