/*
 * t_mpierr.c MODE [TOP] -- collectives whose processes disagree on the
 * element count, an error MPI (or our transport) detects.  The library must
 * stop the job with a BLACS error that names the BLACS routine and carries
 * MPI's error string; the runner checks the message and the non-zero exit
 * (and its timeout catches a hang).  If every call returns, this program
 * says so and exits 0, and the test fails.
 *
 *   bcast    process {0,0} broadcasts a 10x10 matrix (DGEBS2D), the others
 *            receive 5x5 (DGEBR2D), scope All, topology TOP (default ' ')
 *   bcast_tr the same with trapezoids (DTRBS2D/DTRBR2D): the non-contiguous
 *            path through a BLACS buffer
 *   comb     DGSUM2D leave-on-all, process 0 with 10x10, the others 5x5
 *   comb1    DGAMX2D leave-on-one to {0,0}, same counts, RA/CA wanted
 *   barrier  BLACS_BARRIER on a row scope (made on first use) after the
 *            grid's communicator ... works: prints "barrier ok" (checks that
 *            the scope communicator path runs clean)
 */
#include "tutil.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "";
    char *top = argc > 2 ? argv[2] : " ";
    /* process 0's matrix is BIG x BIG, the others' SMALL x SMALL */
    blacs_int big = argc > 3 ? atol(argv[3]) : 10, small = argc > 4 ? atol(argv[4]) : 5;
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    blacs_int mx = big > small ? big : small, n = (me == 0) ? big : small;
    double *a = calloc((size_t)(mx * mx), sizeof *a);
    blacs_int *ra = calloc((size_t)(mx * mx), sizeof *ra), *ca = calloc((size_t)(mx * mx), sizeof *ca);
    for (blacs_int i = 0; i < mx * mx; i++) a[i] = (double)(i + 1);
#define IS(x) (strcmp(mode, x) == 0)
    if (IS("bcast")) {
        if (me == 0) Cdgebs2d(ctxt, "All", top, big, big, a, big);
        else Cdgebr2d(ctxt, "All", top, small, small, a, small, 0, 0);
    } else if (IS("bcast_tr")) {
        if (me == 0) Cdtrbs2d(ctxt, "All", top, "U", "N", big, big, a, big);
        else Cdtrbr2d(ctxt, "All", top, "U", "N", small, small, a, small, 0, 0);
    } else if (IS("comb")) {
        Cdgsum2d(ctxt, "All", top, n, n, a, n, -1, -1);
    } else if (IS("comb1")) {
        Cdgamx2d(ctxt, "All", top, n, n, a, n, ra, ca, n, 0, 0);
    } else if (IS("barrier")) {
        Cblacs_barrier(ctxt, "Row");
        Cblacs_barrier(ctxt, "All");
        if (me == 0) printf("barrier ok\n");
        free(a);
        Cblacs_exit(0);
        return 0;
    } else {
        fprintf(stderr, "t_mpierr: unknown mode '%s'\n", mode);
        return 2;
    }
    /* a process whose call returned waits for the others' verdict */
    Cblacs_barrier(ctxt, "All");
    printf("t_mpierr: '%s' with TOP '%s' returned on process %d\n", mode, top, (int)me);
    free(a);
    Cblacs_exit(0);
    return 0;
}
