/*
 * model_bcast.c -- the cost models of the broadcast topologies (LAWN 73
 * table 9, 4.3; the slides and Watts for 'C' and 'P'), and the quantities
 * derived from them that a broadcast's plan fixes before it runs: the
 * segments of the pipelined ring, whether a vector is too short for
 * scatter/collect.  Pure functions of the machine (machine.c), the scope
 * size and the length: no MPI, no state.  The selection step (plan.c) and
 * TIMING's analysis call them; no algorithm does.
 */
#include <math.h>
#include "model.h"

/* ---- cost models (LAWN 73 table 9 and 4.3.1) ---------------------------- */

/* unidirectional ring: source T_s, last process (Np-1) T_c */
double bi_model_bcast_ring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    if (root) *root = np > 1 ? bi_ts(m, bytes) : 0;
    return np > 1 ? (np - 1) * bi_tc(m, bytes) : 0;
}

/* split ring: source 2 T_s, longest wait about floor(Np/2) T_c */
double bi_model_bcast_sring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    if (np < 2) return bi_model_none(root);
    int half = np / 2;
    double up = half * bi_tc(m, bytes), down = bi_ts(m, bytes) + (np - 1 - half) * bi_tc(m, bytes);
    if (root) *root = (np > 2 ? 2 : 1) * bi_ts(m, bytes);
    return np > 2 && down > up ? down : up;
}

/* multiring: source N_r T_s; the last of equal rings waits
 * ((Np-1)/N_r) T_c + (N_r-1) T_s, the last long ring
 * ceil((Np-1)/N_r) T_c + ((Np-1) mod N_r - 1) T_s; we take the larger. */
double bi_model_bcast_mring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    if (np < 2) return bi_model_none(root);
    int nr = bi_npaths(param, np), len = (np - 1) / nr, nlong = (np - 1) % nr;
    double t = (nr - 1) * bi_ts(m, bytes) + len * bi_tc(m, bytes);
    if (nlong) {
        double tl = (nlong - 1) * bi_ts(m, bytes) + (len + 1) * bi_tc(m, bytes);
        if (tl > t) t = tl;
    }
    if (root) *root = nr * bi_ts(m, bytes);
    return t;
}

/* Every process, the source included, sends to its children one after the
 * other, as the paper has it (LAWN 73 4.3.2): its k-th child (from 0,
 * furthest first) has the data k T_s + T_c after it.  (The source keeps
 * that order with bounded waits, transport.c; forwarders wait outright.)
 * The time is that of the last process to receive, found by walking the
 * schedule of bi_bcast_tree: a subtree that Np does not cut is the same at
 * every node of its level (sub[], one value per level), so only the nodes
 * along the cut are visited, O(N_b log^2 Np).  (The paper's closed form,
 * (H_t - 1) ((N_b - 1) T_s + T_c), takes every level as full and
 * overestimates a tree that Np cuts: 9 T_c against 7 for N_b = 8 on 16
 * processes.)  The source returns after copying A (T_m), waiting for each
 * send but the last (T_s each) and posting the last. */
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
    /* the source's children, one after the other like everyone's */
    long sends = 0;
    double t = 0;
    int h = h0;
    for (long i = i0; i >= 1; i /= w.r, h--)
        for (long j = 1; j < w.r && j * i < np; j++, sends++) {
            double v = (double)sends * w.ts + w.tc + subtree(&w, j * i, i, h);
            if (v > t) t = v;
        }
    if (root) *root = (double)(sends - 1) * w.ts + m->ts.a + bytes * m->tm.b;
    return t;
}

/* a power-of-two hypercube is the binomial tree: its model (LAWN 73 4.3.2) */
double bi_model_bcast_hcube(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    return bi_model_bcast_tree(m, np, bytes, 1, root);
}

#define BI_SCATCOL_MIN 16

int bi_bcast_scatcol_short(int np, double bytes) { return bytes < (double)BI_SCATCOL_MIN * np; }

/* slides / Watts: scatter ceil(log p) alpha + (p-1)/p n beta, then the
 * collect ceil(log p) alpha + (p-1)/p n beta among the receivers (the
 * source's collect messages replace the ones it used to exchange, so the
 * slowest receiver's time is unchanged).  The source copies the vector and
 * posts its sends -- one per scatter and one per collect step -- and
 * returns.  Short vectors: the binomial tree's model. */
double bi_model_bcast_scatcol(const bi_machine *m, int np, double bytes, int param,
                              double *root)
{
    (void)param;
    if (bi_bcast_scatcol_short(np, bytes)) return bi_model_bcast_tree(m, np, bytes, 1, root);
    if (np < 2) return bi_model_none(root);
    double t = 2 * bi_log2c(np) * m->tc.a + 2.0 * (np - 1) / np * bytes * m->tc.b;
    if (root) *root = 2 * bi_log2c(np) * m->ts.a + bytes * m->tm.b;
    return t;
}

/* What a good MPI does: the better of the binomial tree,
 * ceil(log p)(alpha + n beta), and scatter + allgather (slides). */
double bi_model_bcast_mpi(const bi_machine *m, int np, double bytes, int param, double *root)
{
    double lg = np > 1 ? ceil(log2(np)) : 0;
    double t = lg * (m->tc.a + bytes * m->tc.b);
    double sc = bi_model_bcast_scatcol(m, np, bytes, param, NULL);
    if (sc < t) t = sc;
    if (root) *root = t;
    return t;
}

#define PIPE_MAXSEG 4096

size_t bi_pipe_nseg(const bi_machine *m, int np, size_t count, size_t isize)
{
    const double seg = bi_pipe_segment();
    double n = (double)count * (double)isize, k;
    if (seg > 0) k = ceil(n / seg);
    else if (np <= 2 || n <= 0) k = 1;
    else if (m->tc.a <= 0) k = PIPE_MAXSEG;
    else k = floor(sqrt((np - 2) * n * m->tc.b / m->tc.a) + 0.5);
    if (k > PIPE_MAXSEG) k = PIPE_MAXSEG;
    if (k > (double)count) k = (double)count;
    return k < 1 ? 1 : (size_t)k;
}
/* (Np-2+k)(alpha + n beta/k) with the k the algorithm uses; the root posts
 * k sends of n/k bytes */
double bi_model_bcast_pipe(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    if (np < 2) return bi_model_none(root);
    double k = (double)bi_pipe_nseg(m, np, bytes > 0 ? (size_t)bytes : 0, 1);
    if (root) *root = k * bi_ts(m, bytes / k);
    return (np - 2 + k) * bi_tc(m, bytes / k);
}
