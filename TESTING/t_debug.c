/*
 * t_debug.c MODE -- the debug and statistics levels (LAWN 73 7.1.4) on 2
 * processes.  Modes that are programming errors must end, in seconds, with
 * a message saying what each process waits in (BLACS_DEBUG=2) or what
 * differs between them (BLACS_DEBUG=3); the runner checks the message.
 *   recvfirst   both processes receive first (a hang without the BLACS' help)
 *   br_vs_sum   one process broadcasts-receives, the other combines (TOP from argv[2])
 *   count       broadcast whose receiver's M*N differs from the sender's
 *   selfsrc     a broadcast receiver names itself as the source (BLACS_DEBUG=1)
 *   stats       some traffic; BLACS_STATS=1 prints the table at BLACS_EXIT
 */
#include "tutil.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "stats";
    char *top = argc > 2 ? argv[2] : " ";
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    double a[16] = {0};
    if (!strcmp(mode, "recvfirst")) {
        Cdgerv2d(ctxt, 2, 2, a, 2, 0, 1 - c);
        Cdgesd2d(ctxt, 2, 2, a, 2, 0, 1 - c);
    } else if (!strcmp(mode, "br_vs_sum")) {
        if (c == 0) Cdgsum2d(ctxt, "All", top, 2, 2, a, 2, -1, -1);
        else Cdgebr2d(ctxt, "All", top, 2, 2, a, 2, 0, 0);
    } else if (!strcmp(mode, "count")) {
        if (c == 0) Cdgebs2d(ctxt, "Row", top, 2, 3, a, 2);
        else Cdgebr2d(ctxt, "Row", top, 2, 2, a, 2, 0, 0);
    } else if (!strcmp(mode, "selfsrc")) {
        if (c == 0) Cdgebs2d(ctxt, "Row", top, 1, 1, a, 1);
        else Cdgebr2d(ctxt, "Row", top, 1, 1, a, 1, 0, c);
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
