/*
 * tmachine.c -- the two machine times of LAWN 73 that are not
 * communication: T_m, a malloc and memory-to-memory copy (section 3.3, the
 * cost of buffering a locally-blocking send; table 7), and T_o, the
 * combine operation itself (section 5.4; table 14), "obtained by looping
 * over calls to the BLACS summation routine" -- here the library's own
 * double precision sum kernel (SRC/ops.c), on one process.
 *
 *   Tmo <len1> <lenN> <inclen> <reps> [<outfile>]
 *
 * Lengths are in bytes (operated on as len/8 doubles), inclen < 1 doubles.
 * Defaults: 0 400000 8000 50.  Output, in the style of the Tc/Ts codes:
 *   Start of 1 node 'MPICH ours' run: Tm and To, nlengths=, reps=.
 *    Message Len=<len>.
 *     length=<len>, Tm = <us> (us).
 *     length=<len>, To = <us> (us).
 *    End of tests, length=<len>.
 *   End of Run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model_api.h"
#include "tcommon.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int nargs, char *args[])
{
    long len1 = 0, lenN = 400000, inclen = 8000, reps = 50;
    const char *outfile = NULL;
    if (nargs >= 5) {
        if (!targ(args[1], &len1) || !targ(args[2], &lenN) || !targ(args[3], &inclen) ||
            !targ(args[4], &reps)) {
            fprintf(stderr, "Tmo <len1> <lenN> <inclen> <reps> [<outfile>]\n");
            return 1;
        }
        if (nargs > 5) outfile = args[5];
    } else if (nargs > 1) {
        fprintf(stderr, "Incorrect number of parameters. Should be 4 (+ outfile). Using defaults.\n");
    }
    if (len1 < 0) len1 = 0;
    if (reps < 1) reps = 1;
    FILE *fp = topen(outfile);
    if (!fp) return 1;

    size_t cap = (size_t)(lenN > 8 ? lenN : 8);
    double *a = malloc(cap), *b = malloc(cap);
    if (!a || !b) return 1;
    for (size_t i = 0; i < cap / 8; i++) a[i] = 1.0 + (double)i, b[i] = 0.5;
    bi_op op;
    bi_op_setup(&op, BI_SUM, BI_D, 0);
    volatile char sink = 0;
    const int bestof = tbestof(); /* TIMING_BEST_OF, see tcommon.h */

    fprintf(fp, "Start of 1 node '%s' run: Tm and To, nlengths=%d, reps=%ld.\n", TPLAT,
            tcount(len1, lenN, inclen), reps);
    for (long len = len1; len <= lenN; len = tnext(len, inclen)) {
        fprintf(fp, " Message Len=%ld.\n", len);
        double tm = 0, to = 0;
        size_t n = (size_t)len / 8;
        for (int k = 0; k < bestof; k++) {
            double t0 = now();
            for (long j = 0; j < reps; j++) {
                char *p = malloc((size_t)(len > 0 ? len : 1));
                if (!p) return 1;
                memcpy(p, a, (size_t)len);
                sink = (char)(sink + p[len > 0 ? len - 1 : 0] * (len > 0));
                free(p);
            }
            double t1 = now();
            for (long j = 0; j < reps; j++) op.fn(b, a, n, &op);
            double t2 = now();
            if (k == 0 || t1 - t0 < tm) tm = t1 - t0;
            if (k == 0 || t2 - t1 < to) to = t2 - t1;
        }
        tm *= 1e6 / (double)reps;
        to *= 1e6 / (double)reps;
        fprintf(fp, "  length=%ld, Tm = %8.2f (us).\n", len, tm);
        fprintf(fp, "  length=%ld, To = %8.2f (us).\n", len, to);
        fprintf(fp, " End of tests, length=%ld.\n", len);
    }
    fprintf(fp, "End of Run.\n");
    tclose(fp);
    free(a);
    free(b);
    return (int)(sink & 0);
}
