/*
 * t_kill.c bcast|comb -- a process dies (SIGKILL) in the middle of a
 * broadcast or a combine.  The others are blocked in the operation; the job
 * must end (no hang) with a message.  MPICH's launcher notices the death
 * and stops the job; with BLACS_DEBUG=2 the survivors also report what they
 * were waiting in.  The runner's timeout turns a hang into a failure.
 */
#include <signal.h>
#include "tutil.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "bcast";
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    double a[1000] = {0};
    for (int k = 0; k < 3; k++) {
        if (k == 2 && c == np - 1) raise(SIGKILL); /* dies inside the third operation */
        if (!strcmp(mode, "bcast")) {
            if (c == 0) Cdgebs2d(ctxt, "Row", "I", 1000, 1, a, 1000);
            else Cdgebr2d(ctxt, "Row", "I", 1000, 1, a, 1000, 0, 0);
        } else {
            Cdgsum2d(ctxt, "Row", "1", 1000, 1, a, 1000, -1, -1);
        }
    }
    printf("t_kill: the operation completed although a process died\n");
    Cblacs_exit(0);
    return 0;
}
