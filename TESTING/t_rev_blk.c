/*
 * t_rev_blk.c MODE ... -- a broadcast source that never waits for its
 * receivers, at every debug level, and bad input that stops the job with a
 * BLACS error instead of going on silently or dying inside MPI.
 *
 *   lb TOPS LENS   (any np, 1 x np grid) for every TOP letter in TOPS ('_'
 *                  stands for ' ') and every length in LENS (doubles, comma
 *                  separated): column 0 broadcasts, then sends each other
 *                  column a point-to-point message; the others take that
 *                  message first and the broadcast after it.  A source that
 *                  waits for its receivers (in a collect phase, or in a
 *                  cross-check of BLACS_DEBUG=3) hangs: the watchdog stops
 *                  the test with a message.  Every element is checked.
 *   mpi SCOPE LENS  TOP ' ' with a scope that has a communicator of its own:
 *                  'All' on a 1 x np grid, or on 4 processes a 2 x 2 grid
 *                  and SCOPE 'All', 'Row' or 'Column'.  The same program as
 *                  lb (the scope's first member broadcasts, then sends each
 *                  other member a message, which they take first), for each
 *                  length both as one column and strided (two columns, LDA
 *                  three past M).  MPI_Bcast hangs here: MPICH's root waits
 *                  for its receivers.
 *   barrier SCOPE  Cblacs_barrier with that scope: an unknown one is an error
 *   fbarrier SCOPE the same through the Fortran BLACS_BARRIER
 *   p2p            column 0 sleeps 0.3 s, then sends to column 1: with
 *                  BLACS_DEBUG=2 this is no hang (BLACS_HANG_TIMEOUT default)
 *   envuse         one call of each kind that reads a BLACS_* variable when
 *                  first needed (TOP 'A', 'P', 'Y', a strided ' ' broadcast,
 *                  long messages): run with a bad value, the error names it
 *   gridinit H, gridmap H    Cblacs_gridinit/Cblacs_gridmap with system
 *                  handle H (one never handed out)
 *   fgridinit H, fgridmap H  the Fortran BLACS_GRIDINIT/BLACS_GRIDMAP with
 *                  ICONTXT H (a number BLACS_GET never set)
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "tutil.h"

/* ---- a watchdog: a hang is a failure with a message, not a timeout ----- */
static void watchdog(unsigned s) { tu_watchdog("t_rev_blk", s); }

/* the Fortran entry points (gfortran's mangling, hidden string lengths) */
void blacs_gridinit_(blacs_int *ctxt, const char *order, blacs_int *nprow, blacs_int *npcol,
                     size_t len);
void blacs_gridmap_(blacs_int *ctxt, blacs_int *map, blacs_int *ldup, blacs_int *nprow,
                    blacs_int *npcol);
void blacs_barrier_(blacs_int *ctxt, const char *scope, size_t len);

static blacs_int row_grid(blacs_int *np, blacs_int *mycol)
{
    blacs_int me, ctxt, nr, nc, r;
    Cblacs_pinfo(&me, np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, *np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, mycol);
    return ctxt;
}

static double val(int k, long i) { return (double)k * 1e6 + (double)i; }

/* ---- lb ----------------------------------------------------------------- */
static void lb(const char *tops, const char *lens)
{
    blacs_int np, c, ctxt = row_grid(&np, &c);
    watchdog(90);
    int k = 0;
    for (const char *t = tops; *t; t++)
        for (const char *l = lens; *l;) {
            char *end;
            long n = strtol(l, &end, 10);
            l = *end == ',' ? end + 1 : end;
            char top[2] = {*t == '_' ? ' ' : *t, 0};
            double *a = malloc((size_t)n * sizeof *a), tok[2] = {0, 0};
            k++;
            if (c == 0) {
                for (long i = 0; i < n; i++) a[i] = val(k, i);
                Cdgebs2d(ctxt, "R", top, (blacs_int)n, 1, a, (blacs_int)n);
                a[0] = -1; /* A is the caller's again */
                tok[0] = k;
                for (blacs_int d = 1; d < np; d++) Cdgesd2d(ctxt, 2, 1, tok, 2, 0, d);
            } else {
                Cdgerv2d(ctxt, 2, 1, tok, 2, 0, 0);
                memset(a, 0, (size_t)n * sizeof *a);
                Cdgebr2d(ctxt, "R", top, (blacs_int)n, 1, a, (blacs_int)n, 0, 0);
                long bad = 0;
                for (long i = 0; i < n; i++) bad += a[i] != val(k, i);
                TU_CHECK(bad == 0, "TOP '%s', %ld doubles on %ld: %ld wrong elements", top, n,
                         (long)np, bad);
                TU_CHECK(tok[0] == k, "TOP '%s', %ld doubles: token %g", top, n, tok[0]);
            }
            free(a);
        }
    alarm(0);
    Cblacs_gridexit(ctxt);
}

/* ---- mpi ---------------------------------------------------------------- */
static void mpi(const char *scope, const char *lens)
{
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", np == 4 ? 2 : 1, np == 4 ? 2 : np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const char s = scope[0];
    /* the source is the scope's first member; a member is in my scope if
     * it shares my row (R), my column (C), or always (A) */
    const blacs_int sr = s == 'R' ? r : 0, sc = s == 'C' ? c : 0;
    watchdog(120);
    int k = 0;
    for (const char *l = lens; *l;) {
        char *end;
        long n = strtol(l, &end, 10);
        l = *end == ',' ? end + 1 : end;
        for (int strided = 0; strided < 2; strided++) {
            const blacs_int m = strided ? (blacs_int)(n / 2) : (blacs_int)n, cols = strided ? 2 : 1;
            const blacs_int lda = strided ? m + 3 : m;
            double *a = malloc((size_t)lda * (size_t)cols * sizeof *a), tok[2] = {0, 0};
            k++;
            if (r == sr && c == sc) {
                for (long i = 0; i < (long)lda * cols; i++) a[i] = val(k, i);
                Cdgebs2d(ctxt, (char *)scope, " ", m, cols, a, lda);
                a[0] = -1; /* A is the caller's again */
                tok[0] = k;
                for (blacs_int i = 0; i < nr; i++)
                    for (blacs_int j = 0; j < nc; j++)
                        if ((i != r || j != c) && (s == 'A' || (s == 'R' ? i == r : j == c)))
                            Cdgesd2d(ctxt, 2, 1, tok, 2, i, j);
            } else {
                Cdgerv2d(ctxt, 2, 1, tok, 2, sr, sc);
                for (long i = 0; i < (long)lda * cols; i++) a[i] = -2;
                Cdgebr2d(ctxt, (char *)scope, " ", m, cols, a, lda, sr, sc);
                long bad = 0;
                for (long j = 0; j < cols; j++)
                    for (long i = 0; i < lda; i++)
                        bad += a[j * lda + i] != (i < m ? val(k, j * lda + i) : -2);
                TU_CHECK(bad == 0, "scope '%s', %ld doubles%s on %ld: %ld wrong elements", scope,
                         (long)m * cols, strided ? " strided" : "", (long)np, bad);
                TU_CHECK(tok[0] == k, "scope '%s', %ld doubles: token %g", scope, n, tok[0]);
            }
            free(a);
        }
    }
    alarm(0);
    Cblacs_gridexit(ctxt);
}

/* ---- p2p: a short wait is no hang ----------------------------------------- */
static void p2p(void)
{
    blacs_int np, c, ctxt = row_grid(&np, &c);
    double a[4] = {1, 2, 3, 4};
    watchdog(60);
    if (c == 0) {
        struct timespec t = {0, 300000000};
        nanosleep(&t, NULL);
        Cdgesd2d(ctxt, 4, 1, a, 4, 0, 1);
    } else if (c == 1) {
        memset(a, 0, sizeof a);
        Cdgerv2d(ctxt, 4, 1, a, 4, 0, 0);
        TU_CHECK(a[3] == 4, "element 3 is %g", a[3]);
    }
    alarm(0);
    Cblacs_gridexit(ctxt);
}

/* ---- envuse ----------------------------------------------------------------- */
static void envuse(void)
{
    blacs_int np, c, ctxt = row_grid(&np, &c);
    enum { N = 4000 };
    static double a[2 * N + 8];
    watchdog(60);
    const char *tops[] = {"A", "P", " "};
    for (int t = 0; t < 3; t++) {
        for (int i = 0; i < 2 * N + 8; i++) a[i] = i;
        /* strided: the ' ' broadcast asks BLACS_BCAST_DATATYPE */
        if (c == 0) Cdgebs2d(ctxt, "R", (char *)tops[t], N, 2, a, N + 4);
        else Cdgebr2d(ctxt, "R", (char *)tops[t], N, 2, a, N + 4, 0, 0);
        TU_CHECK(a[N + 4] == N + 4, "TOP '%s': %g", tops[t], a[N + 4]);
    }
    Cdgsum2d(ctxt, "R", "Y", N, 1, a, N, -1, -1);
    Cdgsum2d(ctxt, "R", "A", N, 1, a, N, -1, -1);
    TU_CHECK(a[1] > 0, "sums");
    alarm(0);
    Cblacs_gridexit(ctxt);
}

/* ---- system contexts never handed out ------------------------------------- */
static void badsys(const char *mode, blacs_int h)
{
    blacs_int me, np, one = 1, map[1] = {0};
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = h;
    watchdog(60);
    if (!strcmp(mode, "gridinit")) Cblacs_gridinit(&ctxt, "R", 1, 1);
    else if (!strcmp(mode, "gridmap")) Cblacs_gridmap(&ctxt, map, 1, 1, 1);
    else if (!strcmp(mode, "fgridinit")) blacs_gridinit_(&ctxt, "R", &one, &one, 1);
    else blacs_gridmap_(&ctxt, map, &one, &one, &one);
    alarm(0);
    TU_CHECK(0, "%s with system context %ld returned (context %ld)", mode, (long)h, (long)ctxt);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "";
    if (!strcmp(mode, "lb")) {
        lb(arg, argc > 3 ? argv[3] : "1000");
    } else if (!strcmp(mode, "mpi")) {
        mpi(arg, argc > 3 ? argv[3] : "1000");
    } else if (!strcmp(mode, "barrier") || !strcmp(mode, "fbarrier")) {
        blacs_int np, c, ctxt = row_grid(&np, &c);
        watchdog(60);
        if (mode[0] == 'f') blacs_barrier_(&ctxt, arg, strlen(arg));
        else Cblacs_barrier(ctxt, (char *)arg);
        alarm(0);
        TU_CHECK(strchr("RrCcAa", arg[0] ? arg[0] : '?') != NULL,
                 "a barrier with scope '%s' returned", arg);
        Cblacs_gridexit(ctxt);
    } else if (!strcmp(mode, "p2p")) {
        p2p();
    } else if (!strcmp(mode, "envuse")) {
        envuse();
    } else if (strstr(mode, "grid")) {
        badsys(mode, (blacs_int)atol(arg));
    } else {
        fprintf(stderr, "t_rev_blk: unknown mode '%s'\n", mode);
        return 2;
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
