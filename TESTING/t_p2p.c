/*
 * t_p2p.c -- point-to-point through the C interface: every type, GE and TR
 * (both UPLO, both DIAG, M>N, M<N, M=N), LDA > M on either side, differing
 * receive shapes with the same count, sends to oneself, zero-size messages,
 * ordering between a pair, grids in both orders; guard zones everywhere.
 * Run on 2-4 processes.
 */
#include "tutil.h"

#define T tu_p2p_types

static int seedno;

/* src sends an (m x n, ldas) matrix to dst, which receives as (mr x nr, ldad) */
static void one(blacs_int ctxt, int ti, const char *uplo, const char *diag, blacs_int m,
                blacs_int n, blacs_int ldas, blacs_int mr, blacs_int nr, blacs_int ldad,
                blacs_int sr, blacs_int sc, blacs_int dr, blacs_int dc)
{
    blacs_int nprow, npcol, me_r, me_c;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &me_r, &me_c);
    int seed = ++seedno * 7;
    tu_tr tr = {uplo ? uplo[0] : 'G', diag ? diag[0] : 'N', m, n};
    if (me_r == sr && me_c == sc) {
        tu_mat a;
        tu_mat_alloc(&a, T[ti].esz, m, n, ldas);
        tu_mat_pad(&a, 0xA5);
        tu_mat_fill(&a, T[ti].t, seed, uplo ? tu_in_tr : NULL, &tr);
        if (uplo) T[ti].trsd(ctxt, (char *)uplo, (char *)diag, m, n, a.a, ldas, dr, dc);
        else T[ti].gesd(ctxt, m, n, a.a, ldas, dr, dc);
        /* locally blocking: A may be overwritten at once */
        tu_mat_pad(&a, 0x00);
        tu_mat_free(&a);
    }
    if (me_r == dr && me_c == dc) {
        tu_mat b;
        tu_mat_alloc(&b, T[ti].esz, mr, nr, ldad);
        tu_mat_pad(&b, 0x5A);
        if (uplo) T[ti].trrv(ctxt, (char *)uplo, (char *)diag, mr, nr, b.a, ldad, sr, sc);
        else T[ti].gerv(ctxt, mr, nr, b.a, ldad, sr, sc);
        long bad;
        if (mr == m && nr == n) {
            bad = tu_mat_check(&b, T[ti].t, seed, uplo ? tu_in_tr : NULL, &tr, 0x5A, "p2p");
        } else { /* reshaped GE receive: element k of the sender lands at k */
            tu_mat ref;
            tu_mat_alloc(&ref, T[ti].esz, m, n, m);
            tu_mat_fill(&ref, T[ti].t, seed, NULL, NULL);
            bad = 0;
            for (blacs_int k = 0; k < m * n; k++)
                if (memcmp(tu_el(&b, k % mr, k / mr), tu_el(&ref, k % m, k / m), T[ti].esz)) bad++;
            tu_mat_free(&ref);
        }
        TU_CHECK(bad == 0, "type %c uplo %s diag %s %ldx%ld lda %ld/%ld from {%ld,%ld}: %ld bad",
                 T[ti].t, uplo ? uplo : "G", diag ? diag : "-", (long)m, (long)n, (long)ldas,
                 (long)ldad, (long)sr, (long)sc, bad);
        tu_mat_free(&b);
    }
}

static void shapes(blacs_int ctxt, blacs_int sr, blacs_int sc, blacs_int dr, blacs_int dc)
{
    static const blacs_int mn[][2] = {{5, 3}, {3, 5}, {4, 4}, {1, 1}, {0, 3}, {3, 0}, {7, 2}};
    static const char *ul[] = {"U", "L", "u", "l"}, *dg[] = {"N", "U", "n", "u"};
    for (int ti = 0; ti < 5; ti++)
        for (size_t k = 0; k < sizeof mn / sizeof mn[0]; k++) {
            blacs_int m = mn[k][0], n = mn[k][1];
            one(ctxt, ti, NULL, NULL, m, n, m, m, n, m, sr, sc, dr, dc);
            one(ctxt, ti, NULL, NULL, m, n, m + 3, m, n, m + 1, sr, sc, dr, dc);
            for (int u = 0; u < 4; u++)
                for (int d = 0; d < 2; d++)
                    one(ctxt, ti, ul[u], dg[d + (u >= 2) * 2], m, n,
                        m + 2, m, n, m + 1, sr, sc, dr, dc);
        }
    /* reshaped receive: 2x6 sent, 3x4 and 12x1 received */
    for (int ti = 0; ti < 5; ti++) {
        one(ctxt, ti, NULL, NULL, 2, 6, 4, 3, 4, 5, sr, sc, dr, dc);
        one(ctxt, ti, NULL, NULL, 2, 6, 2, 12, 1, 12, sr, sc, dr, dc);
    }
}

/* messages between a pair arrive in order, whatever their sizes */
static void ordering(blacs_int ctxt, blacs_int dr, blacs_int dc)
{
    blacs_int nprow, npcol, r, c;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
    enum { K = 50 };
    if (r == 0 && c == 0) {
        for (int k = 0; k < K; k++) {
            blacs_int len = (k % 7) * 1000 + 1;
            double *v = malloc((size_t)len * sizeof *v);
            for (blacs_int i = 0; i < len; i++) v[i] = k + 0.5 * (double)i;
            Cdgesd2d(ctxt, len, 1, v, len, dr, dc);
            free(v);
        }
    }
    if (r == dr && c == dc) {
        int good = 1;
        for (int k = 0; k < K; k++) {
            blacs_int len = (k % 7) * 1000 + 1;
            double *v = malloc((size_t)len * sizeof *v);
            Cdgerv2d(ctxt, len, 1, v, len, 0, 0);
            for (blacs_int i = 0; i < len; i++)
                if (v[i] != k + 0.5 * (double)i) good = 0;
            free(v);
        }
        TU_CHECK(good, "messages out of order between {0,0} and {%ld,%ld}", (long)dr, (long)dc);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int me, np, ctxt, nprow, npcol, r, c;
    Cblacs_pinfo(&me, &np);
    const char *orders[] = {"R", "C"};
    for (int o = 0; o < 2; o++) {
        Cblacs_get(-1, 0, &ctxt);
        blacs_int pr = np >= 4 ? 2 : 1, pc = np / pr;
        Cblacs_gridinit(&ctxt, (char *)orders[o], pr, pc);
        Cblacs_gridinfo(ctxt, &nprow, &npcol, &r, &c);
        TU_CHECK(nprow == pr && npcol == pc, "grid %ldx%ld", (long)nprow, (long)npcol);
        /* PNUM is the row-major number in the grid's own numbering */
        TU_CHECK(Cblacs_pnum(ctxt, r, c) == r * npcol + c, "pnum");
        shapes(ctxt, 0, 0, nprow - 1, npcol - 1);   /* across the grid */
        shapes(ctxt, nprow - 1, 0, nprow - 1, 0);   /* to oneself */
        ordering(ctxt, nprow - 1, npcol - 1);
        Cblacs_gridexit(ctxt);
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
