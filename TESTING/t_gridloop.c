/*
 * t_gridloop.c -- grids are cheap to make and unmake: create and exit
 * 100,000 grids (argument: count), checking each works, and that the
 * number of live grids returns to 0 (BLACS_GET WHAT=22, ours).  The
 * reference holds four MPI communicators per grid; MPICH runs out of
 * context ids long before this loop ends if any leak.
 */
#include "tutil.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    long count = argc > 1 ? atol(argv[1]) : 100000;
    blacs_int me, np, sys, live;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &sys);
    long bad = 0;
    for (long k = 0; k < count; k++) {
        blacs_int ctxt = sys, nr, nc, r, c;
        Cblacs_gridinit(&ctxt, k % 2 ? "C" : "R", 1, np);
        Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
        if (nr != 1 || nc != np) bad++;
        if (k % 1000 == 0) { /* and the grid still carries messages */
            blacs_int v = k + c, w = -1;
            Cigesd2d(ctxt, 1, 1, &v, 1, 0, (c + 1) % np);
            Cigerv2d(ctxt, 1, 1, &w, 1, 0, (c + np - 1) % np);
            if (w != k + (c + np - 1) % np) bad++;
        }
        Cblacs_gridexit(ctxt);
    }
    Cblacs_get(0, 22, &live);
    TU_CHECK(bad == 0 && live == 0, "%ld bad grids, %ld live after the loop", bad, (long)live);
    /* many grids alive at once give a warning, not a failure */
    enum { ALIVE = 1000 };
    blacs_int *h = malloc(ALIVE * sizeof *h);
    for (int k = 0; k < ALIVE; k++) {
        h[k] = sys;
        Cblacs_gridinit(&h[k], "R", 1, np);
    }
    Cblacs_get(0, 22, &live);
    TU_CHECK(live == ALIVE, "%ld live grids", (long)live);
    for (int k = 0; k < ALIVE; k++) Cblacs_gridexit(h[k]);
    free(h);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
