/*
 * t_msgid.c -- the message-ID scheme where it matters (LAWN 73 6.1): a
 * fan-in that receives from any source within one scoped operation never
 * takes a message of the next operation.  Non-destination processes leave
 * a combine as soon as they have sent, so they race into the following
 * ones; the destination's any-source receives must still only match its
 * own operation.  200 back-to-back combines with changing destinations and
 * values, TOP 'F' (everyone sends straight to the destination) and '1'.
 *
 * "pair": the narrowest ID range (64 IDs) on two processes, where the IDs
 * of every class come back after a few operations.  Process 0 races ahead
 * through stretches of sends (broadcasts it sources, point-to-point sends,
 * leave-on-one combines to process 1) while process 1 sleeps outside MPI;
 * between the stretches come the two-process exchange (' ' leave-on-all,
 * SRC/plan.c) and 'H' combines, and crossed pairs (a send, then a
 * broadcast, taken in the other order).  Every operation carries values of its
 * own, so a receive that took a message of another operation with a
 * reused ID shows as a wrong value.
 */
#include <time.h>
#include "tutil.h"

static double pv(int k, int who, int i) { return 1e6 * k + 1e3 * who + i; }

static int pair(void)
{
    blacs_int me, np, ctxt, nr, nc, r, c, range[2] = {0, 63};
    Cblacs_pinfo(&me, &np);
    TU_CHECK(np == 2, "t_msgid pair runs on 2 processes, not %ld", (long)np);
    if (np != 2) return tu_finish();
    Cblacs_set(-1, 1, range);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const blacs_int lens[] = {1, 3, 700, 40000}; /* short to long-protocol */
    static double v[40000];
    long bad = 0, ops = 0, sends = 0, badid = 0;
    unsigned seed = 12345; /* the same sequence on both processes */
    /* the point-to-point IDs, 32 of the 64, are two subranges of 16, one
     * per sender: process 0's n-th message to 1 carries ID n mod 16, on
     * both ends (KSENDID, KRECVID), however often they wrap */
#define P2P_ID_CHECK()                                                                            \
    do {                                                                                         \
        blacs_int id_ = c == 0 ? Cksendid(ctxt, 0, 1) : Ckrecvid(ctxt, 0, 0);                   \
        badid += id_ != sends % 16;                                                              \
        sends++;                                                                                 \
    } while (0)
    for (int k = 0; k < 400; k++) {
        seed = seed * 1103515245u + 12345u;
        int kind = (int)((seed >> 16) % 9);
        blacs_int n = lens[(seed >> 8) % 4];
        if (k % 40 == 0 && c == 1) { /* process 1 away while 0 sends */
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
        }
        if (kind == 8) { /* crossed: 0 sends, then broadcasts; 1 takes the
                          * broadcast first (the classes keep them apart) */
            double w[3];
            for (blacs_int i = 0; i < n; i++) v[i] = c == 0 ? pv(k, 0, (int)i) : -1;
            for (int i = 0; i < 3; i++) w[i] = c == 0 ? pv(k, 1, i) : -1;
            P2P_ID_CHECK();
            if (c == 0) {
                Cdgesd2d(ctxt, n, 1, v, n, 0, 1);
                Cdgebs2d(ctxt, "All", "1", 3, 1, w, 3);
            } else {
                Cdgebr2d(ctxt, "All", "1", 3, 1, w, 3, 0, 0);
                Cdgerv2d(ctxt, n, 1, v, n, 0, 0);
            }
            for (blacs_int i = 0; i < n; i++) bad += v[i] != pv(k, 0, (int)i);
            for (int i = 0; i < 3; i++) bad += w[i] != pv(k, 1, i);
        } else if (kind <= 2) { /* process 0's broadcast: a send for it */
            char *top = kind == 0 ? " " : kind == 1 ? "1" : "S";
            for (blacs_int i = 0; i < n; i++) v[i] = c == 0 ? pv(k, 0, (int)i) : -1;
            if (c == 0) Cdgebs2d(ctxt, "All", top, n, 1, v, n);
            else Cdgebr2d(ctxt, "All", top, n, 1, v, n, 0, 0);
            for (blacs_int i = 0; i < n; i++) bad += v[i] != pv(k, 0, (int)i);
        } else if (kind <= 4) { /* a point-to-point send from 0 to 1 */
            P2P_ID_CHECK();
            if (c == 0) {
                for (blacs_int i = 0; i < n; i++) v[i] = pv(k, 0, (int)i);
                Cdgesd2d(ctxt, n, 1, v, n, 0, 1);
            } else {
                Cdgerv2d(ctxt, n, 1, v, n, 0, 0);
                for (blacs_int i = 0; i < n; i++) bad += v[i] != pv(k, 0, (int)i);
            }
        } else { /* combines: leave-on-one to 1 (0 only sends), the
                  * exchange, 'H' leave-on-all */
            const char *top = kind == 7 ? "H" : " ";
            blacs_int rd = kind == 5 ? 0 : -1, cd = kind == 5 ? 1 : -1;
            for (blacs_int i = 0; i < n; i++) v[i] = pv(k, (int)c, (int)i);
            Cdgsum2d(ctxt, "All", (char *)top, n, 1, v, n, rd, cd);
            if (kind != 5 || c == 1)
                for (blacs_int i = 0; i < n; i++) bad += v[i] != pv(k, 0, (int)i) + pv(k, 1, (int)i);
        }
        ops++;
    }
    TU_CHECK(bad == 0, "%ld wrong values in %ld operations on a 64-ID range: a receive took a "
             "message of another operation", bad, ops);
    TU_CHECK(badid == 0 && sends > 32,
             "%ld of %ld point-to-point IDs not the message's count mod 16", badid, sends);
#undef P2P_ID_CHECK
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int me, np, ctxt, nr, nc, r, c;
    if (argc > 1 && !strcmp(argv[1], "pair")) return pair();
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
