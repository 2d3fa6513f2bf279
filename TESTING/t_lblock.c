/*
 * t_lblock.c -- sends are locally blocking (LAWN 73 3.1, figure 3): two
 * processes each send before receiving.  Argument: number of messages per
 * process and their size in doubles (default: figure 3 itself, one small
 * message; the stress run sends 1,000 messages of 1 MB each way).  A
 * library whose sends block would hang here; the runner's timeout turns
 * that into a failure.  Also sends non-contiguous (LDA > M) and trapezoidal
 * data and overwrites it right after the send.
 */
#include "tutil.h"

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    long count = argc > 1 ? atol(argv[1]) : 1, len = argc > 2 ? atol(argv[2]) : 10;
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    if (ctxt >= 0) {
        Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
        blacs_int other = 1 - c;
        double *a = malloc((size_t)len * sizeof *a);
        for (long k = 0; k < count; k++) {
            for (long i = 0; i < len; i++) a[i] = (double)(c * 1000000 + k) + 1e-3 * (double)(i % 997);
            Cdgesd2d(ctxt, (blacs_int)len, 1, a, (blacs_int)len, 0, other);
            a[0] = -1; /* the buffer is ours again at once */
        }
        /* non-contiguous: 3 x 4 block of a 7-row array, then a trapezoid */
        double blk[28], tri[16];
        for (int i = 0; i < 28; i++) blk[i] = 100 + i + c;
        for (int i = 0; i < 16; i++) tri[i] = 200 + i + c;
        Cdgesd2d(ctxt, 3, 4, blk, 7, 0, other);
        Cdtrsd2d(ctxt, "U", "N", 4, 4, tri, 4, 0, other);
        memset(blk, 0, sizeof blk);
        memset(tri, 0, sizeof tri);
        long bad = 0;
        for (long k = 0; k < count; k++) {
            Cdgerv2d(ctxt, (blacs_int)len, 1, a, (blacs_int)len, 0, other);
            for (long i = 0; i < len; i++)
                if (a[i] != (double)(other * 1000000 + k) + 1e-3 * (double)(i % 997)) bad++;
        }
        TU_CHECK(bad == 0, "%ld wrong elements in %ld messages", bad, count);
        double rb[12], rt[16];
        for (int i = 0; i < 16; i++) rt[i] = -5;
        Cdgerv2d(ctxt, 3, 4, rb, 3, 0, other);
        Cdtrrv2d(ctxt, "U", "N", 4, 4, rt, 4, 0, other);
        int ok = 1;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 3; i++)
                if (rb[j * 3 + i] != 100 + j * 7 + i + other) ok = 0;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++)
                if (rt[j * 4 + i] != (i <= j ? 200 + j * 4 + i + other : -5)) ok = 0;
        TU_CHECK(ok, "non-contiguous and trapezoidal sends");
        free(a);
        Cblacs_gridexit(ctxt);
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
