/*
 * model_bcast.c -- the cost models of the broadcast topologies (LAWN 73
 * table 9, 4.3; the slides and Watts for 'C', 'P' and the rings' pieces),
 * and the quantities derived from them that a broadcast's plan fixes before
 * it runs: the pieces of the rings and the segments of 'P', whether a vector is too short for
 * scatter/collect.  Pure functions of the machine (machine.c), the scope
 * size and the length: no MPI, no state.  The selection step (plan.c) and
 * TIMING's analysis call them; no algorithm does.
 */
#include <math.h>
#include "model.h"

/* ---- cost models (LAWN 73 table 9 and 4.3.1) ---------------------------- */

/* The rings forward long vectors in k pieces (bcast_ring.c): a process
 * passes piece j on while piece j+1 arrives, so a path of L hops delivers
 * its last byte after (L - 1 + k) T_c(n/k) rather than L T_c(n), and the
 * source, which posts k sends per path, spends k T_s(n/k) on each path.
 * k = 1 (short vectors) gives LAWN 73 table 9's formulas back.  k is the
 * one the plan takes (bi_ring_nseg: the k that minimises the model below). */

/* split ring in k pieces: the source sends its k pieces up, then (Np > 2)
 * k down; up floor(Np/2) hops, down Np-1-floor(Np/2) after the source's
 * k T_s(n/k) (bi_ts_source) */
static double sring_k(const bi_machine *m, int np, double bytes, double k, double *root)
{
    int half = np / 2, low = np - 1 - half;
    double tc = bi_tc(m, bytes / k), ts = bi_ts_source(m, bytes / k);
    double up = (half - 1 + k) * tc, down = k * ts + (low - 1 + k) * tc;
    if (root) *root = (np > 2 ? 2 : 1) * k * ts;
    return low > 0 && down > up ? down : up;
}

/* ring topology top ('I' 'D' 'S' 'M') in k pieces: the split ring, or
 * |param| paths ('I', 'D': one) */
static double ring_time(const bi_machine *m, char top, int np, double bytes, int param, double k,
                        double *root)
{
    if (top == 'S') return sring_k(m, np, bytes, k, root);
    return bi_model_paths(m, np, bytes, top == 'M' ? param : 1, k, root);
}

static double ring_model(const bi_machine *m, char top, int np, double bytes, int param,
                         double *root)
{
    if (np < 2) return bi_model_none(root);
    double k = (double)bi_ring_nseg(m, top, np, param, bytes > 0 ? (size_t)bytes : 0, 1);
    return ring_time(m, top, np, bytes, param, k, root);
}

/* unidirectional ring: source k T_s(n/k), last process (Np-2+k) T_c(n/k) */
double bi_model_bcast_ring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    return ring_model(m, 'I', np, bytes, param, root);
}

double bi_model_bcast_sring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    return ring_model(m, 'S', np, bytes, param, root);
}

/* the multipath broadcast of |nr| paths in k pieces: path i (nearest first)
 * starts after the source's i k T_s(n/k) and takes (L_i - 1 + k) T_c(n/k);
 * the slowest is the last long path or the last one.  Source nr k T_s(n/k).
 * With k = 1: the last of equal rings waits ((Np-1)/N_r) T_c + (N_r-1) T_s,
 * the last long ring ceil((Np-1)/N_r) T_c + ((Np-1) mod N_r - 1) T_s
 * (LAWN 73 table 9).  The source's T_s is bi_ts_source: for a vector short
 * enough to be posted together, the posting cost or its link's share, so
 * that 'F' on 256 processes costs about one T_c at one double, as in SMPI,
 * not 255. */
double bi_model_paths(const bi_machine *m, int np, double bytes, int nr, double k, double *root)
{
    if (np < 2) return bi_model_none(root);
    nr = bi_npaths(nr, np);
    int len = (np - 1) / nr, nlong = (np - 1) % nr;
    double tc = bi_tc(m, bytes / k), ts = bi_ts_source(m, bytes / k);
    double t = (nr - 1) * k * ts + (len - 1 + k) * tc;
    if (nlong) {
        double tl = (nlong - 1) * k * ts + (len + k) * tc;
        if (tl > t) t = tl;
    }
    if (root) *root = nr * k * ts;
    return t;
}

/* multiring 'M' */
double bi_model_bcast_mring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    return ring_model(m, 'M', np, bytes, param, root);
}

/* fully connected 'F': Np-1 paths of one hop, nothing to pipeline */
double bi_model_bcast_fully(const bi_machine *m, int np, double bytes, int param, double *root)
{
    return bi_model_paths(m, np, bytes, param, 1, root);
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
 * send but the last (T_s each) and posting the last; a vector so short that
 * its sends are posted together (bi_posted_together) spaces the source's
 * children by bi_ts_source instead, and the source returns after posting
 * them (T_p each).  Forwarders wait outright whatever the length. */
typedef struct {
    long np, r;
    double ts, tc, sub[64]; /* sub[h]: an uncut subtree below a process of level r^h */
    double tsrc;            /* the source's T_s (bi_ts_source) */
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
    w.tsrc = bi_ts_source(m, bytes);
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
            double v = (double)sends * w.tsrc + w.tc + subtree(&w, j * i, i, h);
            if (v > t) t = v;
        }
    if (root)
        *root = (bi_posted_together(m, bytes) ? (double)sends * m->tp
                                               : (double)(sends - 1) * w.ts + m->ts.a) +
                bytes * m->tm.b;
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

/* Pieces (segments) of a vector of count items of isize bytes sent down a
 * path of hops hops, each process passing piece j on while piece j+1
 * arrives: ceil(bytes / BLACS_PIPE_SEGMENT) if that is set, else the k that
 * minimises (hops-1+k)(alpha + n beta/k), k = sqrt((hops-1) n beta / alpha)
 * (Watts' k_i), rounded, and no more than leave minbytes a piece.  At most
 * PIPE_MAXSEG and count pieces, at least one. */
static size_t nseg(const bi_machine *m, int hops, size_t count, size_t isize, double minbytes)
{
    const double seg = bi_pipe_segment();
    if (seg > 0) return bi_pieces_upto(count, isize, seg);
    double n = (double)count * (double)isize, k;
    if (hops <= 1 || n <= 0) k = 1;
    else {
        k = m->tc.a <= 0 ? PIPE_MAXSEG : floor(sqrt((hops - 1) * n * m->tc.b / m->tc.a) + 0.5);
        if (minbytes > 0 && k > floor(n / minbytes)) k = floor(n / minbytes);
    }
    if (k > PIPE_MAXSEG) k = PIPE_MAXSEG;
    if (k > (double)count) k = (double)count;
    return k < 1 ? 1 : (size_t)k;
}

/* pieces of at most most bytes: ceil(bytes / most), at most PIPE_MAXSEG
 * and count, at least one */
size_t bi_pieces_upto(size_t count, size_t isize, double most)
{
    double k = ceil((double)count * (double)isize / most);
    if (k > PIPE_MAXSEG) k = PIPE_MAXSEG;
    if (k > (double)count) k = (double)count;
    return k < 1 ? 1 : (size_t)k;
}

/* 'P' cuts the whole increasing ring, Np-1 hops, down to single items */
size_t bi_pipe_nseg(const bi_machine *m, int np, size_t count, size_t isize)
{
    return nseg(m, np - 1, count, isize, 0);
}

/* 'I', 'D', 'S', 'M': no piece under BI_RING_MINPIECE bytes, so a short
 * vector is one message, as in the reference.  Within that, the k that
 * minimises the topology's own model, not the longest path's alone: every
 * path's time is a + b k + c / k, convex in k, and so is the slowest path's,
 * so an integer ternary search finds it (about 40 evaluations, made once
 * per plan and only for vectors of two pieces or more).  Where the source
 * feeds several paths, its link carries them all: the split ring's source
 * sends n up and n down, so on 4 processes (one hop up after the first,
 * none down) pieces cannot shorten the 2 n beta the source's link takes
 * and only add start-ups -- k = 1, as the reference sends it; Watts' k for
 * the upward path alone, sqrt((hops-1) n beta / alpha), was 5 for 512 KB
 * (ScaLAPACK's PDPOTRF panels on a 4 x 4 grid).  With BLACS_PIPE_SEGMENT
 * set, ceil(n / segment) as for 'P'. */
/* ... and no more pieces than delay the first hop by RING_NEAR of its one
 * message's T_c(n): each piece past the first adds a start-up there.  A
 * ring is chosen where the nearest process needs the vector first: the
 * next panel's owner in ScaLAPACK (PDGETRF's and PDPOTRF's 'S'),
 * whose consecutive broadcasts pipeline by themselves (LAWN 73 4.3.1), so
 * the first hop is on the critical path and the last is not.  Simulated
 * PDPOTRF, 16 x 16 on nodes of 16, N = 4096 (panels of 128 KB, 7 pieces by
 * the model alone): 1.054 times the reference's time with the pieces,
 * 1.004 in one piece (make bench-scalapack, flops).  With the built-in
 * machine (alpha 2 us, beta 1e-4 us a byte) a vector goes in one piece up
 * to 180 KB, in two at most up to 380 KB, in six at most at 1 MB.  (Under
 * MPICH the plan takes pieces MPICH sends eagerly instead, up to 128 KB:
 * plan.c's eager_pieces.) */
#define RING_NEAR 0.1

size_t bi_ring_nseg(const bi_machine *m, char top, int np, int param, size_t count, size_t isize)
{
    const double n = (double)count * (double)isize;
    if (bi_pipe_segment() > 0 || np < 3) return nseg(m, np - 1, count, isize, BI_RING_MINPIECE);
    double kmax = floor(n / BI_RING_MINPIECE);
    if (kmax > PIPE_MAXSEG) kmax = PIPE_MAXSEG;
    if (kmax > (double)count) kmax = (double)count;
    /* the nearest receiver: k pieces reach it after k T_c(n/k) = T_c(n) +
     * (k-1) alpha (no bound with alpha 0: the quotient is not finite) */
    const double near = 1.0 + floor(RING_NEAR * bi_tc(m, n) / m->tc.a);
    if (near < kmax) kmax = near;
    if (kmax <= 1) return 1;
    size_t lo = 1, hi = (size_t)kmax;
    while (hi - lo > 2) {
        size_t a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
        if (ring_time(m, top, np, n, param, (double)a, NULL) <=
            ring_time(m, top, np, n, param, (double)b, NULL))
            hi = b;
        else lo = a;
    }
    size_t best = lo;
    double tb = ring_time(m, top, np, n, param, (double)lo, NULL);
    for (size_t k = lo + 1; k <= hi; k++) {
        double t = ring_time(m, top, np, n, param, (double)k, NULL);
        if (t < tb) tb = t, best = k;
    }
    return best;
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
