/*
 * bt_bsbr.c -- broadcast family: for every grid, scope,
 * topology, shape, matrix and source, the source broadcasts its generated
 * matrix to its scope and every other process of that scope receives it
 * with its own LDA and checks elements and guards; the source checks that
 * its buffer is untouched.  TOP 'M' is repeated for every ring count
 * -(Np-1)..Np-1 except 0 (BLACS_SET 11), 'T' for every branch count
 * 1..Np-1 (BLACS_SET 12), each as a test of its own.
 */
#include "bt.h"
#include <ctype.h>

/* scope size and whether I take part in an operation rooted at (r,c) */
static blacs_int scope_np(char scope, blacs_int p, blacs_int q)
{
    scope = (char)tolower((unsigned char)scope);
    return scope == 'r' ? q : scope == 'c' ? p : p * q;
}

static int in_scope(char scope, blacs_int myrow, blacs_int mycol, blacs_int r, blacs_int c)
{
    scope = (char)tolower((unsigned char)scope);
    if (myrow < 0) return 0;
    return scope == 'r' ? myrow == r : scope == 'c' ? mycol == c : 1;
}

void bt_bsbr(const bt_deck *d, int t)
{
    bt_family f;
    bt_grids g;
    bt_family_begin(&f, "BSBR", t);
    bt_grids_make(d, &g);
    for (int ig = 0; ig < d->ngrid; ig++) {
        if (!g.ok[ig]) continue;
        blacs_int ctxt = g.ctxt[ig], p = d->nprow[ig], q = d->npcol[ig];
        blacs_int myrow, mycol;
        bt_grid_coords(ctxt, &myrow, &mycol);
        for (int isc = 0; isc < d->nscope; isc++) {
            char scope[2] = {d->scope[isc], 0};
            blacs_int np = scope_np(scope[0], p, q);
            for (int it = 0; it < d->ntop; it++) {
                char top[2] = {d->top[it], 0};
                char tu = (char)toupper((unsigned char)top[0]);
                /* parameter values: rings for 'M', branches for 'T', else one pass */
                blacs_int pv[2 * BT_MAXL + 2];
                int npv = 0;
                if (tu == 'M')
                    for (blacs_int k = -(np - 1); k <= np - 1; k++) { if (k) pv[npv++] = k; }
                else if (tu == 'T')
                    for (blacs_int k = 1; k <= np - 1; k++) pv[npv++] = k;
                if (npv > 2 * BT_MAXL) npv = 2 * BT_MAXL;
                if (npv == 0) pv[npv++] = 0;           /* default setting */
                for (int is = 0; is < d->nshape; is++) {
                    bt_shape sh;
                    char shn[40], uplo[2] = {d->uplo[is], 0}, diag[2] = {d->diag[is], 0};
                    bt_shape_from(&sh, d->uplo[is], d->diag[is]);
                    bt_shapename(&sh, shn, sizeof shn);
                    for (int im = 0; im < d->nmat; im++) {
                        blacs_int m = d->m[im], n = d->n[im], ldas = d->ldas[im],
                                  ldad = d->ldad[im];
                        for (int ip = 0; ip < d->npair; ip++) {
                            blacs_int rs = d->rsrc[ip], cs = d->csrc[ip];
                            int skip = rs < 0 || rs >= p || cs < 0 || cs >= q;
                            for (int iv = 0; iv < npv; iv++) {
                                char pdesc[32] = "";
                                if (pv[iv]) snprintf(pdesc, sizeof pdesc, " %s=%ld",
                                                     tu == 'M' ? "nrings" : "nbranches", (long)pv[iv]);
                                int test = bt_test_new(&f, skip,
                                    "grid %ldx%ld scope '%c' top '%c'%s %s M=%ld N=%ld "
                                    "LDASRC=%ld LDADEST=%ld src {%ld,%ld}",
                                    (long)p, (long)q, scope[0], top[0], pdesc, shn, (long)m,
                                    (long)n, (long)ldas, (long)ldad, (long)rs, (long)cs);
                                if (skip || !in_scope(scope[0], myrow, mycol, rs, cs)) {
                                    bt_test_end(&f, test);
                                    continue;
                                }
                                if (pv[iv]) {
                                    blacs_int v = pv[iv];
                                    bt->set(ctxt, tu == 'M' ? 11 : 12, &v);
                                }
                                int issrc = myrow == rs && mycol == cs;
                                bt_genarg ga = {test, (int)(rs * bt_np + cs), 999};
                                double pr, pi;
                                bt_mat a;
                                bt_p2p_pad(t, !issrc, &pr, &pi);
                                bt_watch("BSBR", test);
                                bt_mat_alloc(&a, t, m, n, issrc ? ldas : ldad);
                                bt_mat_pad(&a, pr, pi);
                                if (issrc) {
                                    bt_mat_fill(&a, &sh, bt_want_gen, &ga);
                                    if (sh.tr)
                                        bt->trbs(t, ctxt, scope, top, uplo, diag, m, n, a.a, ldas);
                                    else
                                        bt->gebs(t, ctxt, scope, top, m, n, a.a, ldas);
                                } else {
                                    if (sh.tr)
                                        bt->trbr(t, ctxt, scope, top, uplo, diag, m, n, a.a, ldad,
                                                 rs, cs);
                                    else
                                        bt->gebr(t, ctxt, scope, top, m, n, a.a, ldad, rs, cs);
                                }
                                bt_mat_check(&a, &sh, bt_want_gen, &ga, pr, pi, test,
                                             issrc ? BT_R_SRC : BT_R_A);
                                bt_mat_free(&a);
                                bt_unwatch();
                                if (pv[iv]) {
                                    blacs_int one = 1;
                                    bt->set(ctxt, tu == 'M' ? 11 : 12, &one);
                                }
                                bt_test_end(&f, test);
                            }
                        }
                    }
                }
            }
        }
    }
    bt_grids_free(&g);
    bt_family_end(&f);
}
