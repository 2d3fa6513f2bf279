/*
 * t_comb_repeat.c -- repeatability (BLACS_SET WHAT=15) and coherence
 * (WHAT=16) of the combines.  Data of widely different
 * magnitudes make the floating sum depend on the combination order; ranks
 * sleep a little at random before each call so that arrival order changes.
 *   repeat: 20 calls per topology (short and long vectors, leave-on-one and
 *           leave-on-all, D and C) must give identical bits each time;
 *   coherent: every process of a leave-on-all must hold the same bits.
 *   t_comb_repeat NPROW NPCOL [TOPS]
 */
#include <math.h>
#include <time.h>
#include "tutil.h"

static void nap(unsigned *seed)
{
    struct timespec ts = {0, (long)(rand_r(seed) % 300) * 1000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int iam, np, ctxt, nprow, npcol, myrow, mycol;
    Cblacs_pinfo(&iam, &np);
    nprow = argc > 1 ? atoi(argv[1]) : 2;
    npcol = argc > 2 ? atoi(argv[2]) : np / nprow;
    const char *tops = argc > 3 ? argv[3] : " 123456789TFHIDSMRBYA";
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    blacs_int one = 1, three = 3;
    Cblacs_set(ctxt, 15, &one);
    Cblacs_set(ctxt, 16, &one);
    Cblacs_set(ctxt, 13, &three);
    unsigned seed = 1234u + (unsigned)iam * 77u;
    const int lens[2] = {37, 1001};
    for (const char *t = tops; *t; t++)
        for (int li = 0; li < 2; li++)
            for (int cplx = 0; cplx < 2; cplx++)
                for (int dest = -1; dest <= 1; dest += 2) { /* -1: all; 1: leave on (0,1) */
                    const int n = lens[li], nd = cplx ? 2 * n : n;
                    const char *scope = (li + cplx) % 2 ? "All" : "Row";
                    char top[2] = {*t, 0};
                    double *x0 = malloc(sizeof(double) * (size_t)nd), *x = malloc(sizeof(double) * (size_t)nd),
                           *first = malloc(sizeof(double) * (size_t)nd), *other = malloc(sizeof(double) * (size_t)nd);
                    float *f0 = malloc(sizeof(float) * (size_t)nd), *f = malloc(sizeof(float) * (size_t)nd);
                    for (int i = 0; i < nd; i++) {
                        double mag = pow(10.0, (double)((i * 7 + (int)iam * 5) % 17 - 8));
                        x0[i] = mag * (1.0 + 0.123456789 * (double)((i + (int)iam) % 11)) * ((i + (int)iam) % 3 ? 1 : -1);
                        f0[i] = (float)x0[i];
                    }
                    int lands = dest < 0 || (scope[0] == 'R' ? mycol == 1 % npcol : (myrow == 0 && mycol == 1 % npcol));
                    int diff = 0;
                    for (int rep = 0; rep < 20; rep++) {
                        nap(&seed);
                        if (cplx) {
                            memcpy(f, f0, sizeof(float) * (size_t)nd);
                            Ccgsum2d(ctxt, (char *)scope, top, n, 1, f, n, dest < 0 ? -1 : 0, 1 % npcol);
                            for (int i = 0; i < nd; i++) x[i] = f[i];
                        } else {
                            memcpy(x, x0, sizeof(double) * (size_t)nd);
                            Cdgsum2d(ctxt, (char *)scope, top, n, 1, x, n, dest < 0 ? -1 : 0, 1 % npcol);
                        }
                        if (!lands) continue;
                        if (rep == 0) memcpy(first, x, sizeof(double) * (size_t)nd);
                        else if (memcmp(first, x, sizeof(double) * (size_t)nd)) diff++;
                    }
                    TU_CHECK(diff == 0, "top '%c' %s n=%d %s dest %d: %d of 19 repetitions differ in bits",
                             *t, scope, n, cplx ? "C" : "D", dest, diff);
                    if (dest < 0) {
                        /* coherence: compare with the scope's first process (world rank of
                         * (myrow,0) for Row, 0 for All) through plain MPI */
                        MPI_Comm sub;
                        MPI_Comm_split(MPI_COMM_WORLD, scope[0] == 'R' ? (int)myrow : 0,
                                       scope[0] == 'R' ? (int)mycol : (int)iam, &sub);
                        memcpy(other, first, sizeof(double) * (size_t)nd);
                        MPI_Bcast(other, nd, MPI_DOUBLE, 0, sub);
                        MPI_Comm_free(&sub);
                        TU_CHECK(!memcmp(other, first, sizeof(double) * (size_t)nd),
                                 "top '%c' %s n=%d %s: leave-on-all results differ between processes",
                                 *t, scope, n, cplx ? "C" : "D");
                    }
                    free(x0), free(x), free(first), free(other), free(f0), free(f);
                }
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
