/*
 * t_tuop.c -- the user-defined combine vTUOP2D (LAWN 73 7.1.3) through the
 * C interface: a 2-norm (init squares, op adds, post takes the square
 * root), an integer exclusive OR, and a trapezoidal maximum whose guard
 * zone (the part outside the trapezoid) must stay untouched; every scope,
 * several topologies, leave-on-one and leave-on-all.
 */
#include <math.h>
#include "tutil.h"

static void sq(blacs_int *n, double *x) { for (blacs_int i = 0; i < *n; i++) x[i] *= x[i]; }
static void add(blacs_int *n, double *in, double *io) { for (blacs_int i = 0; i < *n; i++) io[i] += in[i]; }
static void root(blacs_int *n, double *x) { for (blacs_int i = 0; i < *n; i++) x[i] = sqrt(x[i]); }
static void ixor(blacs_int *n, blacs_int *in, blacs_int *io) { for (blacs_int i = 0; i < *n; i++) io[i] ^= in[i]; }
static void smax(blacs_int *n, float *in, float *io) { for (blacs_int i = 0; i < *n; i++) if (in[i] > io[i]) io[i] = in[i]; }

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 2, np / 2);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const char *tops[] = {" ", "1", "2", "H", "I", "M", "R", "B", "Y", "F"};
    const char *scopes[] = {"Row", "Column", "All"};
    int iam = (int)(r * nc + c);
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 10; t++)
            for (int all = 0; all < 2; all++) {
                blacs_int dr = all ? -1 : nr - 1, dc = all ? -1 : 0;
                int dest = all || (s == 0 ? c == dc : s == 1 ? r == dr : (r == dr && c == dc));
                /* which processes are in my scope */
                int members[16], nm = 0;
                for (int p = 0; p < np; p++) {
                    int pr = p / (int)nc, pc = p % (int)nc;
                    if (s == 2 || (s == 0 && pr == r) || (s == 1 && pc == c)) members[nm++] = p;
                }
                /* 2-norm of 3 x 2 doubles over the scope */
                double a[6], want[6];
                for (int i = 0; i < 6; i++) {
                    a[i] = (double)(iam + 1) * (i + 1);
                    want[i] = 0;
                    for (int k = 0; k < nm; k++) want[i] += (double)((members[k] + 1) * (i + 1)) * ((members[k] + 1) * (i + 1));
                    want[i] = sqrt(want[i]);
                }
                Cdtuop2d(ctxt, (char *)scopes[s], (char *)tops[t], "G", "N", 3, 2, a, 3, dr, dc, sq, add, root);
                if (dest) {
                    double err = 0;
                    for (int i = 0; i < 6; i++) err = fmax(err, fabs(a[i] - want[i]) / want[i]);
                    TU_CHECK(err < 1e-12, "2-norm scope %s top '%s' all %d: rel err %g", scopes[s], tops[t], all, err);
                }
                /* integer XOR, no init/post */
                blacs_int x[4], wx[4] = {0, 0, 0, 0};
                for (int i = 0; i < 4; i++) {
                    x[i] = (iam + 3) * 37 + i * 1001;
                    for (int k = 0; k < nm; k++) wx[i] ^= (members[k] + 3) * 37 + i * 1001;
                }
                Cituop2d(ctxt, (char *)scopes[s], (char *)tops[t], "G", "N", 4, 1, x, 4, dr, dc, NULL, ixor, NULL);
                if (dest) TU_CHECK(!memcmp(x, wx, sizeof x), "xor scope %s top '%s'", scopes[s], tops[t]);
                /* upper trapezoid 4 x 3, unit diagonal, LDA 5: maximum; the
                 * rest of the array must be untouched where the result lands */
                float f[15];
                tu_tr tr = {'U', 'U', 4, 3};
                for (int j = 0; j < 3; j++)
                    for (int i = 0; i < 5; i++)
                        f[j * 5 + i] = (i < 4 && tu_in_tr(i, j, &tr)) ? (float)((iam * 7 + i * 3 + j) % 11) : -99.0f - (float)iam;
                Cstuop2d(ctxt, (char *)scopes[s], (char *)tops[t], "Upper", "Unit", 4, 3, f, 5, dr, dc, NULL, smax, NULL);
                if (dest) {
                    int ok = 1;
                    for (int j = 0; j < 3; j++)
                        for (int i = 0; i < 5; i++) {
                            float w = -99.0f - (float)iam;
                            if (i < 4 && tu_in_tr(i, j, &tr)) {
                                w = -1;
                                for (int k = 0; k < nm; k++) w = fmaxf(w, (float)((members[k] * 7 + i * 3 + j) % 11));
                            }
                            if (f[j * 5 + i] != w) ok = 0;
                        }
                    TU_CHECK(ok, "trapezoidal max scope %s top '%s' all %d", scopes[s], tops[t], all);
                }
            }
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
