/*
 * bt_sdrv.c -- point-to-point family: for every grid,
 * shape (GE, TR with each UPLO/DIAG), matrix (M, N, LDASRC, LDADEST) and
 * source/destination pair, the source sends its generated matrix and the
 * destination (possibly the source itself) receives it with its own LDA.
 * The receiver checks every element and every guard; the sender checks
 * that sending left its own buffer untouched.  Pairs outside the grid are
 * skipped.
 */
#include "bt.h"

void bt_sdrv(const bt_deck *d, int t)
{
    bt_family f;
    bt_grids g;
    bt_family_begin(&f, "SDRV", t);
    bt_grids_make(d, &g);
    for (int ig = 0; ig < d->ngrid; ig++) {
        if (!g.ok[ig]) continue;
        blacs_int ctxt = g.ctxt[ig], p = d->nprow[ig], q = d->npcol[ig];
        blacs_int myrow, mycol;
        bt_grid_coords(ctxt, &myrow, &mycol);
        for (int is = 0; is < d->nshape; is++) {
            bt_shape sh;
            char shn[40], uplo[2] = {d->uplo[is], 0}, diag[2] = {d->diag[is], 0};
            bt_shape_from(&sh, d->uplo[is], d->diag[is]);
            bt_shapename(&sh, shn, sizeof shn);
            for (int im = 0; im < d->nmat; im++) {
                blacs_int m = d->m[im], n = d->n[im], ldas = d->ldas[im], ldad = d->ldad[im];
                for (int ip = 0; ip < d->npair; ip++) {
                    blacs_int rs = d->rsrc[ip], cs = d->csrc[ip], rd = d->rdest[ip],
                              cd = d->cdest[ip];
                    int skip = rs < 0 || rs >= p || cs < 0 || cs >= q || rd < 0 || rd >= p ||
                               cd < 0 || cd >= q;
                    int test = bt_test_new(&f, skip,
                                           "grid %ldx%ld %s M=%ld N=%ld LDASRC=%ld LDADEST=%ld "
                                           "src {%ld,%ld} dest {%ld,%ld}",
                                           (long)p, (long)q, shn, (long)m, (long)n, (long)ldas,
                                           (long)ldad, (long)rs, (long)cs, (long)rd, (long)cd);
                    if (skip || ctxt < 0) { bt_test_end(&f, test); continue; }
                    int issrc = myrow == rs && mycol == cs, isdst = myrow == rd && mycol == cd;
                    bt_genarg ga = {test, (int)(rs * bt_np + cs), 999};
                    bt_mat sa, da;
                    double spr, spi, rpr, rpi;
                    bt_p2p_pad(t, 0, &spr, &spi);
                    bt_p2p_pad(t, 1, &rpr, &rpi);
                    bt_watch("SDRV", test);
                    if (issrc) {
                        bt_mat_alloc(&sa, t, m, n, ldas);
                        bt_mat_pad(&sa, spr, spi);
                        bt_mat_fill(&sa, &sh, bt_want_gen, &ga);
                        if (sh.tr) bt->trsd(t, ctxt, uplo, diag, m, n, sa.a, ldas, rd, cd);
                        else bt->gesd(t, ctxt, m, n, sa.a, ldas, rd, cd);
                    }
                    if (isdst) {
                        bt_mat_alloc(&da, t, m, n, ldad);
                        bt_mat_pad(&da, rpr, rpi);
                        if (sh.tr) bt->trrv(t, ctxt, uplo, diag, m, n, da.a, ldad, rs, cs);
                        else bt->gerv(t, ctxt, m, n, da.a, ldad, rs, cs);
                        bt_mat_check(&da, &sh, bt_want_gen, &ga, rpr, rpi, test, BT_R_A);
                        bt_mat_free(&da);
                    }
                    if (issrc) {
                        bt_mat_check(&sa, &sh, bt_want_gen, &ga, spr, spi, test, BT_R_SRC);
                        bt_mat_free(&sa);
                    }
                    bt_unwatch();
                    bt_test_end(&f, test);
                }
            }
        }
    }
    bt_grids_free(&g);
    bt_family_end(&f);
}
