/*
 * bt_comb.c -- combine families SUM, AMX, AMN: for every grid,
 * scope, topology, matrix, destination, repeat flag and coherence flag
 * (BLACS_SET 15/16; 'M' also every ring count via SET 13, 'T' every branch
 * count via SET 14) every process of the scope combines its own generated
 * matrix.  Leave-on-all when RDEST or CDEST is -1 (then every process of the
 * grid takes part, each in its own scope).
 *
 * Every process can compute the exact answer itself, since the data of
 * process (r,c) in test t are a function of (t, r, c, i, j).  Destinations
 * check A (SUM within 2*eps*Np*max(sum of positives, -sum of negatives), per
 * part for complex, exact for integers; AMX/AMN the exact value including
 * the reference's tie rules) and RA/CA with their guards; every
 * process checks the guards of A, and that RA/CA are untouched where no
 * result lands or when RCFLAG = -1.
 */
#include "bt.h"
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
    int op;                    /* '+', '>', '<' */
    int t, test;
    char scope;                /* 'r', 'c', 'a' */
    blacs_int p, q, myrow, mycol;
    int np, droot, all;        /* scope size, destination scope rank, leave-on-all */
    int range;
} comb_t;

/* grid coordinates of scope rank k of my scope */
static void member(const comb_t *c, int k, blacs_int *r, blacs_int *col)
{
    if (c->scope == 'r') { *r = c->myrow; *col = k; }
    else if (c->scope == 'c') { *r = k; *col = c->mycol; }
    else { *r = k / c->q; *col = k % c->q; }
}

static void value(const comb_t *c, int k, blacs_int i, blacs_int j, double v[2])
{
    blacs_int r, col;
    member(c, k, &r, &col);
    int proc = (int)(r * bt_np + col);
    v[0] = bt_gen(c->test, proc, i, j, 0, c->range);
    v[1] = (c->t == BT_C || c->t == BT_Z) ? bt_gen(c->test, proc, i, j, 1, c->range) : 0;
}

/* AMX/AMN answer for element (i,j): value, owner scope rank (RCFLAG != -1 rule
 * when byowner, else the value rule) */
static int extreme(const comb_t *c, blacs_int i, blacs_int j, int byowner, double res[2])
{
    int best = -1;
    double bkey = 0, bv[2] = {0, 0};
    int bdist = 0;
    for (int k = 0; k < c->np; k++) {
        double v[2];
        value(c, k, i, j, v);
        double key = fabs(v[0]) + fabs(v[1]);
        int dist = c->all ? k : (k - c->droot + c->np) % c->np;
        int better;
        if (best < 0) better = 1;
        else if (key != bkey) better = c->op == '>' ? key > bkey : key < bkey;
        else if (byowner) better = dist < bdist;
        else better = v[0] > bv[0] || (v[0] == bv[0] && v[1] > bv[1]);
        if (better) {
            best = k;
            bkey = key;
            bv[0] = v[0];
            bv[1] = v[1];
            bdist = dist;
        }
    }
    res[0] = bv[0];
    res[1] = bv[1];
    return best;
}

static void combpad(int t, int iam, double *re, double *im)
{
    /* depends on the process (the reference's -0.81*IAM idea), never data */
    if (t == BT_I) { *re = -9110 - iam; *im = 0; }
    else { *re = -0.81 - iam; *im = -0.71 - iam; }
}

static void check_result(const comb_t *c, bt_mat *a, blacs_int *ra, blacs_int *ca, blacs_int ldi)
{
    int cplx = c->t == BT_C || c->t == BT_Z;
    double eps = (c->t == BT_S || c->t == BT_C) ? FLT_EPSILON : DBL_EPSILON;
    for (blacs_int j = 0; j < a->n; j++)
        for (blacs_int i = 0; i < a->m; i++) {
            double got[2], want[2];
            bt_get(c->t, a->a, (size_t)j * a->lda + i, &got[0], &got[1]);
            if (c->op == '+') {
                double sum[2] = {0, 0}, pos[2] = {0, 0}, neg[2] = {0, 0};
                for (int k = 0; k < c->np; k++) {
                    double v[2];
                    value(c, k, i, j, v);
                    for (int h = 0; h < 2; h++) {
                        sum[h] += v[h];
                        if (v[h] > 0) pos[h] += v[h]; else neg[h] -= v[h];
                    }
                }
                int bad = 0;
                for (int h = 0; h < (cplx ? 2 : 1); h++) {
                    double tol = c->t == BT_I ? 0 : 2 * eps * c->np * (pos[h] > neg[h] ? pos[h] : neg[h]);
                    if (!(fabs(got[h] - sum[h]) <= tol)) bad = 1;
                }
                if (bad) bt_error(c->test, BT_E_ELEM, BT_R_A, (int)i, (int)j, got, sum);
            } else {
                int owner = extreme(c, i, j, ldi != -1, want);
                if (!bt_same(c->t, got[0], got[1], want[0], want[1]))
                    bt_error(c->test, BT_E_ELEM, BT_R_A, (int)i, (int)j, got, want);
                if (ldi != -1) {
                    blacs_int r, col;
                    member(c, owner, &r, &col);
                    size_t k = (size_t)j * (size_t)ldi + (size_t)i;
                    if (ra[k] != r) {
                        double g2[2] = {(double)ra[k], 0}, w2[2] = {(double)r, 0};
                        bt_error(c->test, BT_E_ELEM, BT_R_RA, (int)i, (int)j, g2, w2);
                    }
                    if (ca[k] != col) {
                        double g2[2] = {(double)ca[k], 0}, w2[2] = {(double)col, 0};
                        bt_error(c->test, BT_E_ELEM, BT_R_CA, (int)i, (int)j, g2, w2);
                    }
                }
            }
        }
}

void bt_comb(const bt_deck *d, int op, int t)
{
    bt_family f;
    bt_grids g;
    const char *fname = op == '+' ? "SUM" : op == '>' ? "AMX" : "AMN";
    bt_family_begin(&f, fname, t);
    bt_grids_make(d, &g);
    int rlo = d->repeat == 1 ? 1 : 0, rhi = d->repeat == 0 ? 0 : 1;
    int clo = d->coherent == 1 ? 1 : 0, chi = d->coherent == 0 ? 0 : 1;
    for (int ig = 0; ig < d->ngrid; ig++) {
        if (!g.ok[ig]) continue;
        blacs_int ctxt = g.ctxt[ig], p = d->nprow[ig], q = d->npcol[ig];
        blacs_int myrow, mycol;
        bt_grid_coords(ctxt, &myrow, &mycol);
        for (int isc = 0; isc < d->nscope; isc++) {
            char scope[2] = {d->scope[isc], 0};
            char sl = (char)tolower((unsigned char)scope[0]);
            int np = (int)(sl == 'r' ? q : sl == 'c' ? p : p * q);
            for (int it = 0; it < d->ntop; it++) {
                char top[2] = {d->top[it], 0};
                char tu = (char)toupper((unsigned char)top[0]);
                blacs_int pv[2 * BT_MAXL + 2];
                int npv = 0;
                if (tu == 'M')
                    for (int k = -(np - 1); k <= np - 1; k++) { if (k) pv[npv++] = k; }
                else if (tu == 'T')
                    for (int k = 1; k <= np - 1; k++) pv[npv++] = k;
                if (npv > 2 * BT_MAXL) npv = 2 * BT_MAXL;
                if (npv == 0) pv[npv++] = 0;
                for (int im = 0; im < d->nmat; im++) {
                    blacs_int m = d->m[im], n = d->n[im], ldas = d->ldas[im], ldad = d->ldad[im];
                    blacs_int ldi = op == '+' ? -1 : d->ldi[im];
                    for (int ip = 0; ip < d->npair; ip++) {
                        blacs_int rd = d->rdest[ip], cd = d->cdest[ip];
                        int all = rd == -1 || cd == -1;
                        int skip = !all && (rd < 0 || rd >= p || cd < 0 || cd >= q);
                        for (int itr = rlo; itr <= rhi; itr++)
                            for (int itc = clo; itc <= chi; itc++)
                                for (int iv = 0; iv < npv; iv++) {
                                    char pdesc[32] = "", ldid[24] = "";
                                    if (pv[iv]) snprintf(pdesc, sizeof pdesc, " %s=%ld",
                                                         tu == 'M' ? "nrings" : "nbranches", (long)pv[iv]);
                                    if (op != '+') snprintf(ldid, sizeof ldid, " LDI=%ld", (long)ldi);
                                    int test = bt_test_new(&f, skip,
                                        "grid %ldx%ld scope '%c' top '%c'%s M=%ld N=%ld LDASRC=%ld "
                                        "LDADEST=%ld%s dest {%ld,%ld} repeat=%d coherent=%d",
                                        (long)p, (long)q, scope[0], top[0], pdesc, (long)m, (long)n,
                                        (long)ldas, (long)ldad, ldid, (long)rd, (long)cd, itr, itc);
                                    int part = ctxt >= 0 && !skip &&
                                               (all || sl == 'a' || (sl == 'r' && myrow == rd) ||
                                                (sl == 'c' && mycol == cd));
                                    if (!part) { bt_test_end(&f, test); continue; }
                                    comb_t c = {op, t, test, sl, p, q, myrow, mycol, np, 0, all,
                                                op == '+' ? 999 : 3};
                                    int me = (int)(sl == 'r' ? mycol : sl == 'c' ? myrow : myrow * q + mycol);
                                    if (!all) c.droot = (int)(sl == 'r' ? cd : sl == 'c' ? rd : rd * q + cd);
                                    int isdest = all || me == c.droot;
                                    blacs_int lda = all ? (((myrow + mycol) % 2) ? ldas : ldad)
                                                        : isdest ? ldad : ldas;
                                    blacs_int v;
                                    v = itr; bt->set(ctxt, 15, &v);
                                    v = itc; bt->set(ctxt, 16, &v);
                                    if (pv[iv]) { v = pv[iv]; bt->set(ctxt, tu == 'M' ? 13 : 14, &v); }
                                    /* my matrix */
                                    bt_genarg ga = {test, (int)(myrow * bt_np + mycol), c.range};
                                    bt_shape ge = {0, 'U', 'N'};
                                    double pad[2];
                                    combpad(t, bt_iam, &pad[0], &pad[1]);
                                    bt_mat a;
                                    bt_mat_alloc(&a, t, m, n, lda);
                                    bt_mat_pad(&a, pad[0], pad[1]);
                                    bt_mat_fill(&a, &ge, bt_want_gen, &ga);
                                    /* RA, CA: guarded integer matrices, pad -7-IAM */
                                    bt_mat ram = {0}, cam = {0};
                                    double ipad[2] = {-7.0 - bt_iam, 0};
                                    blacs_int ldr = ldi == -1 ? m : ldi;
                                    if (op != '+') {
                                        bt_mat_alloc(&ram, BT_I, m, n, ldr);
                                        bt_mat_alloc(&cam, BT_I, m, n, ldr);
                                        bt_mat_pad(&ram, ipad[0], 0);
                                        bt_mat_pad(&cam, ipad[0], 0);
                                    }
                                    bt_watch(fname, test);
                                    if (op == '+')
                                        bt->gsum(t, ctxt, scope, top, m, n, a.a, lda, rd, cd);
                                    else if (op == '>')
                                        bt->gamx(t, ctxt, scope, top, m, n, a.a, lda, ram.a, cam.a,
                                                 ldi, rd, cd);
                                    else
                                        bt->gamn(t, ctxt, scope, top, m, n, a.a, lda, ram.a, cam.a,
                                                 ldi, rd, cd);
                                    bt_unwatch();
                                    /* guards of A everywhere, values where the result lands */
                                    bt_mat_check(&a, &ge, NULL, NULL, pad[0], pad[1], test, BT_R_A);
                                    if (isdest)
                                        check_result(&c, &a, ram.a, cam.a, ldi);
                                    if (op != '+') {
                                        /* RA/CA: untouched unless a result with RCFLAG != -1 landed here */
                                        int written = isdest && ldi != -1;
                                        bt_mat_check(&ram, &ge, written ? NULL : bt_want_const, ipad,
                                                     ipad[0], 0, test, BT_R_RA);
                                        bt_mat_check(&cam, &ge, written ? NULL : bt_want_const, ipad,
                                                     ipad[0], 0, test, BT_R_CA);
                                        bt_mat_free(&ram);
                                        bt_mat_free(&cam);
                                    }
                                    bt_mat_free(&a);
                                    v = 0; bt->set(ctxt, 15, &v); bt->set(ctxt, 16, &v);
                                    if (pv[iv]) { v = 1; bt->set(ctxt, tu == 'M' ? 13 : 14, &v); }
                                    bt_test_end(&f, test);
                                }
                    }
                }
            }
        }
    }
    bt_grids_free(&g);
    bt_family_end(&f);
}
