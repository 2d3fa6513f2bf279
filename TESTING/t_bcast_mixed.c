/*
 * t_bcast_mixed.c -- 200 operations back to back, no synchronisation:
 * broadcasts of random topology, scope, source, size, type and shape
 * (different rows may even use different topologies, and BLACS_SET 11/12
 * change between them), interleaved with point-to-point traffic.  Every
 * message must land in its own operation (LAWN 73 6.1: scoped and
 * point-to-point message IDs), so every receiver checks its data.
 * Run on 4 (2x2) or 6 (2x3) processes.   t_bcast_mixed [ops] [seed]
 */
#include "tutil.h"

static unsigned long rng;
static unsigned rnd(unsigned n) /* the same sequence on every process */
{
    rng = rng * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)((rng >> 33) % n);
}

static const char TOPS[] = " IDSMHFT1239CPA";

static void fill(double *a, long m, long n, long lda, int seed)
{
    for (long j = 0; j < n; j++)
        for (long i = 0; i < m; i++) a[j * lda + i] = seed * 1000.0 + (double)(j * m + i);
}

/* k-th element of the m x n sender matrix lands at position k of mine */
static long check(const double *a, long m, long n, long lda, long total, int seed)
{
    long bad = 0;
    for (long k = 0; k < total; k++) {
        long j = k / lda, i = k % lda;
        int in = j < n && i < m;
        double want = in ? seed * 1000.0 + (double)(j * m + i) : -7.0;
        if (a[k] != want) bad++;
    }
    return bad;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int nops = argc > 1 ? atoi(argv[1]) : 200;
    rng = argc > 2 ? strtoul(argv[2], NULL, 10) : 12345;
    blacs_int me, np, ctxt, nprow, npcol, myr, myc;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 2, np / 2);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    double *a = malloc(4096 * sizeof *a);
    int nb = 0, np2p = 0;
    for (int op = 0; op < nops; op++) {
        unsigned kind = rnd(4);
        int seed = op + 1;
        if (kind < 3) { /* broadcast */
            char scope = "RCA"[rnd(3)];
            char tops[3] = {TOPS[rnd(sizeof TOPS - 1)], TOPS[rnd(sizeof TOPS - 1)], 0};
            blacs_int rs = rnd((unsigned)nprow), cs = rnd((unsigned)npcol);
            long m = rnd(60), n = 1 + rnd(5), lda = m + rnd(3), mr = m, nr = n, ldr = lda;
            if (rnd(2) && m % 2 == 0) { /* receive reshaped */
                mr = m / 2;
                nr = 2 * n;
                ldr = mr + rnd(2);
            }
            blacs_int rings = rnd(2) ? -(blacs_int)(1 + rnd(3)) : (blacs_int)(1 + rnd(3));
            blacs_int branches = 1 + rnd(4);
            Cblacs_set(ctxt, 11, &rings);
            Cblacs_set(ctxt, 12, &branches);
            /* in a row scope, odd rows use the second topology */
            char top[2] = {scope == 'R' && myr % 2 ? tops[1] : tops[0], 0}, sc[2] = {scope, 0};
            blacs_int sr = scope == 'R' ? myr : rs, scl = scope == 'C' ? myc : cs;
            if (myr == sr && myc == scl) {
                fill(a, m, n, lda, seed);
                Cdgebs2d(ctxt, sc, top, (blacs_int)m, (blacs_int)n, a, (blacs_int)lda);
            } else {
                long total = ldr * nr + 3;
                for (long k = 0; k < total; k++) a[k] = -7.0;
                Cdgebr2d(ctxt, sc, top, (blacs_int)mr, (blacs_int)nr, a, (blacs_int)ldr, sr, scl);
                /* the sender's k-th element lands at my (k mod mr, k / mr) */
                long bad = 0;
                for (long k = 0; k < mr * nr; k++) {
                    double want = seed * 1000.0 + (double)k;
                    if (a[(k / (mr ? mr : 1)) * ldr + k % (mr ? mr : 1)] != want) bad++;
                }
                for (long j = 0; j < nr; j++)
                    for (long i = mr; i < ldr; i++) bad += a[j * ldr + i] != -7.0;
                for (long k = ldr * nr; k < total; k++) bad += a[k] != -7.0;
                TU_CHECK(bad == 0, "op %d: bcast '%c' scope %c %ldx%ld from {%ld,%ld}: %ld bad", op,
                         top[0], scope, m, n, (long)sr, (long)scl, bad);
            }
            nb++;
        } else { /* point to point: everyone to the process k ahead */
            long m = rnd(40), lda = m + rnd(2);
            if (lda < 1) lda = 1;
            blacs_int k = 1 + rnd((unsigned)(np - 1));
            blacs_int to = (me + k) % np, from = (me - k + np) % np;
            fill(a, m, 2, lda, seed * 10 + (int)me);
            Cdgesd2d(ctxt, (blacs_int)m, 2, a, (blacs_int)lda, to / npcol, to % npcol);
            for (long q = 0; q < 2 * lda + 3; q++) a[q] = -7.0;
            Cdgerv2d(ctxt, (blacs_int)m, 2, a, (blacs_int)lda, from / npcol, from % npcol);
            long bad = check(a, m, 2, lda, 2 * lda + 3, seed * 10 + (int)from);
            TU_CHECK(bad == 0, "op %d: p2p from %ld: %ld bad", op, (long)from, bad);
            np2p++;
        }
    }
    if (tu_rank == 0) printf("%d broadcasts, %d point-to-point rounds\n", nb, np2p);
    free(a);
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
