/*
 * t_exit.c -- BLACS_EXIT(CONTINUE).  The user starts MPI; BLACS grids come
 * and go; BLACS_EXIT(1) leaves MPI up and the BLACS usable again (a new
 * grid works, the user's own MPI calls work); finally BLACS_EXIT(0)
 * finalises MPI as the reference does.
 */
#include "tutil.h"

static int use_grid(blacs_int np)
{
    blacs_int ctxt, nr, nc, r, c;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    double v = (double)c, w = -1;
    Cdgesd2d(ctxt, 1, 1, &v, 1, 0, (c + 1) % np);
    Cdgerv2d(ctxt, 1, 1, &w, 1, 0, (c + np - 1) % np);
    return w == (double)((c + np - 1) % np);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv); /* the user initialises MPI */
    tu_init(&argc, &argv);
    blacs_int me, np;
    Cblacs_pinfo(&me, &np);
    TU_CHECK(me == tu_rank, "PINFO rank %ld", (long)me);
    TU_CHECK(use_grid(np), "first life");
    Cblacs_exit(1);
    int fin = 1, up = 0;
    MPI_Finalized(&fin);
    MPI_Initialized(&up);
    TU_CHECK(up && !fin, "MPI still up after BLACS_EXIT(1)");
    int x = 1, s = 0;
    MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    TU_CHECK(s == (int)np, "user MPI after BLACS_EXIT(1)");
    TU_CHECK(use_grid(np), "second life");
    blacs_int h;
    Cblacs_get(0, 0, &h);
    TU_CHECK(h == 0, "world system handle %ld", (long)h);
    int rc = tu_finish();
    Cblacs_exit(0);
    MPI_Finalized(&fin);
    if (!fin) {
        printf("MPI not finalised by BLACS_EXIT(0)\n");
        return 1;
    }
    return rc;
}
