/*
 * bcast_tree.c -- TOP '1'..'9' and 'T': the general tree of LAWN 73 4.3.2
 * (table 10) with N_b branches, radix r = N_b + 1, any Np.  Let i0 be the
 * largest power of r below Np.  In distances d from the root, the root
 * sends at levels i = i0, i0/r, ..., 1 to d = j*i (j = 1..r-1, d < Np):
 * furthest first.  A process receives at the largest level i dividing its
 * d, from d - ((d/i) mod r) i, then sends to d + j*i' for every lower level
 * i'.  With N_b = 1 it is the binomial tree.  A process that received sends
 * to its children one after the other, the furthest (deepest subtree)
 * first, as the model assumes; the source posts its sends together and
 * returns (bi_fwd, transport.c).
 */
#include <math.h>
#include "topo_algs.h"

void bi_bcast_tree(bi_coll *c)
{
    long np = c->np, r = (long)c->param + 1;
    if (r < 2) r = 2;
    if (r > np) r = np;
    long i0 = 1;
    while (i0 * r < np) i0 *= r;
    long d = (c->me - c->root + np) % np, lvl = i0 * r;
    if (d) {
        lvl = i0;
        while (d % lvl) lvl /= r;
        long from = d - (d / lvl) % r * lvl;
        bi_recv(c, (int)((from + c->root) % np), c->buf, c->count, c->tag);
    }
    for (long i = lvl / r; i >= 1; i /= r)
        for (long j = 1; j < r && d + j * i < np; j++)
            bi_fwd(c, (int)((d + j * i + c->root) % np), c->buf, c->count, c->tag);
}

/* With height H_t = ceil(log_{N_b+1} Np) and N_is = ceil(Np/(N_b+1)^(H_t-1)) - 1
 * initial sends, the source posts N_b (H_t-1) + N_is sends (LAWN 73 4.3.2).
 * The paper lets them go one after the other, the first child served
 * first; ours go together (the source does not wait), so on a shared link
 * every child of the source has its data after all of the source's bytes,
 * T_c + (sends - 1) n beta.  Below, each process forwards one child after
 * the other, the paper's (N_b - 1) T_s + T_c per level along the path
 * through a last-served child of the widest subtree.  The source returns
 * after posting its sends and copying A (T_m). */
double bi_model_bcast_tree(const bi_machine *m, int np, double bytes, int param, double *root)
{
    if (np < 2) {
        if (root) *root = 0;
        return 0;
    }
    long nb = param < 1 ? 1 : param > np - 1 ? np - 1 : param, r = nb + 1;
    long ht = 0, pw = 1; /* pw = r^ht */
    while (pw < np) {
        pw *= r;
        ht++;
    }
    long below = pw / r; /* (N_b+1)^(H_t-1) */
    long nis = (np + below - 1) / below - 1, sends = nb * (ht - 1) + nis;
    double Ts = m->ts.a + bytes * m->ts.b, Tc = m->tc.a + bytes * m->tc.b;
    if (root) *root = (double)sends * m->ts.a + bytes * m->tm.b;
    return Tc + (double)(sends - 1) * bytes * m->tc.b + (double)(ht - 1) * ((double)(nb - 1) * Ts + Tc);
}
