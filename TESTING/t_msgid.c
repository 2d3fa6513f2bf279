/*
 * t_msgid.c -- the message-ID scheme where it matters (LAWN 73 6.1): a
 * fan-in that receives from any source within one scoped operation never
 * takes a message of the next operation.  Non-destination processes leave
 * a combine as soon as they have sent, so they race into the following
 * ones; the destination's any-source receives must still only match its
 * own operation.  200 back-to-back combines with changing destinations and
 * values, TOP 'F' (everyone sends straight to the destination) and '1'.
 */
#include "tutil.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    if (argc > 1 && !strcmp(argv[1], "mismatch")) {
        /* processes of one grid given different ID ranges: a clear error
         * when the grid is made, not a hang at the first operation */
        blacs_int v[2] = {0, 255};
        if (me == np - 1) Cblacs_set(-1, 1, v);
        Cblacs_get(0, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "R", 1, np);
        return tu_finish(); /* not reached */
    }
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const char *tops[] = {"F", "1", "F", "T"};
    long bad = 0;
    for (int k = 0; k < 200; k++) {
        blacs_int dest = (k / 20) % np; /* stretches with one destination */
        double v[3];
        for (int i = 0; i < 3; i++) v[i] = (double)(1000 * k + 10 * c + i);
        /* the destination is slow: the others get far ahead */
        if (c == dest && k % 10 == 0) {
            volatile double x = 0;
            for (int i = 0; i < 200000; i++) x += i;
        }
        Cdgsum2d(ctxt, "Row", (char *)tops[k % 4], 3, 1, v, 3, 0, dest);
        if (c == dest)
            for (int i = 0; i < 3; i++) {
                double want = 0;
                for (blacs_int p = 0; p < np; p++) want += (double)(1000 * k + 10 * p + i);
                if (v[i] != want) bad++;
            }
    }
    TU_CHECK(bad == 0, "%ld wrong sums: a fan-in took a message of another operation", bad);
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
