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

/* The source posts its N_b (H_t-1) + N_is sends (LAWN 73 4.3.2) together
 * (it does not wait), so on a shared link every child of the source has
 * its data after all of the source's bytes, T_c + (sends - 1) n beta.
 * Below, each process forwards one child after the other, as the paper
 * has it: its k-th child (from 0, furthest first) has the data k T_s + T_c
 * after it.  The time is that of the last process to receive, found by
 * walking the schedule of bi_bcast_tree: a subtree that Np does not cut is
 * the same at every node of its level (sub[], one value per level), so only
 * the nodes along the cut are visited, O(N_b log^2 Np).  (The paper's
 * closed form, (H_t - 1) ((N_b - 1) T_s + T_c) below the source, takes every
 * level as full and overestimates a tree that Np cuts: 9 T_c against 7 for
 * N_b = 8 on 16 processes.)  The source returns after posting its sends and
 * copying A (T_m). */
typedef struct {
    long np, r;
    double ts, tc, sub[64]; /* sub[h]: an uncut subtree below a process of level r^h */
} tree_walk;

/* time from the moment process d (of level lvl = r^h) has the data until
 * the last process of its subtree has it */
static double subtree(const tree_walk *w, long d, long lvl, int h)
{
    if (d + lvl <= w->np) return w->sub[h];
    double t = 0;
    long k = 0;
    for (long i = lvl / w->r; i >= 1; i /= w->r, h--)
        for (long j = 1; j < w->r && d + j * i < w->np; j++, k++) {
            double v = (double)k * w->ts + w->tc + subtree(w, d + j * i, i, h - 1);
            if (v > t) t = v;
        }
    return t;
}

double bi_model_bcast_tree(const bi_machine *m, int np, double bytes, int param, double *root)
{
    if (np < 2) return bi_model_none(root);
    tree_walk w = {.np = np, .r = param < 1 ? 2 : param + 1 > np ? np : param + 1};
    w.ts = m->ts.a + bytes * m->ts.b, w.tc = m->tc.a + bytes * m->tc.b;
    long i0 = 1;
    int h0 = 0;
    while (i0 * w.r < np) i0 *= w.r, h0++;
    /* uncut subtrees, bottom up: a process of level r^h sends to j r^g,
     * g = h-1 .. 0, j = 1 .. r-1, in that order */
    w.sub[0] = 0;
    for (int h = 1; h <= h0; h++) {
        double t = 0;
        long k = 0;
        for (int g = h - 1; g >= 0; g--)
            for (long j = 1; j < w.r; j++, k++) {
                double v = (double)k * w.ts + w.tc + w.sub[g];
                if (v > t) t = v;
            }
        w.sub[h] = t;
    }
    /* the source's children: all at once, after all of its bytes */
    long sends = 0;
    double t = 0;
    int h = h0;
    for (long i = i0; i >= 1; i /= w.r, h--)
        for (long j = 1; j < w.r && j * i < np; j++, sends++) {
            double v = subtree(&w, j * i, i, h);
            if (v > t) t = v;
        }
    if (root) *root = (double)sends * m->ts.a + bytes * m->tm.b;
    return w.tc + (double)(sends - 1) * bytes * m->tc.b + t;
}
