/*
 * model_comb.c -- the cost models of the combine topologies (LAWN 73 5.4,
 * LAWN 29, the slides), and what a combine's plan takes from them before it
 * runs: the halving steps of the hybrid 'Y' (LAWN 29 Theorem 1).  Each
 * bi_model_comb_* returns the leave-on-all time and stores the destination's
 * leave-on-one time in *root.  Pure functions, as model_bcast.c.
 */
#include <math.h>
#include "model.h"

/* one of the two times of a combine model: leave-on-all or leave-on-one */
double bi_comb_model(bi_model_fn f, const bi_machine *m, int np, double bytes, int param, int all)
{
    double one = 0, t = f(m, np, bytes, param, &one);
    return all ? t : one;
}

/* LAWN 73 5.4.1's receiver, one contribution at a time in the order
 * bi_comb_recv takes them: one ready to be sent at `ready` arrives T_c
 * later, or -- as the next receive is posted when the previous one has
 * arrived -- T_c after that arrival when contributions are long
 * (bi_serial_bytes: one at a time) and T_s after it when they are posted
 * together; each is combined (T_o) once it is there and the previous one is
 * done.  N_b contributions ready together cost
 * T_c + N_b T_o + (N_b - 1) max(0, T_c - T_o): the paper's N_b T_c + T_o
 * when T_o < T_c, T_c + N_b T_o when T_o >= T_c. */
typedef struct { double arrive, done; int any; } fanin_t;

static void fanin_one(const bi_machine *m, double bytes, double ready, fanin_t *f)
{
    const double tc = bi_tc(m, bytes), x = bytes >= bi_serial_bytes(m) ? tc : bi_ts(m, bytes);
    double a = ready + tc;
    if (f->any && f->arrive + x > a) a = f->arrive + x;
    f->arrive = a;
    f->done = (a > f->done ? a : f->done) + bi_to(m, bytes);
    f->any = 1;
}

double bi_model_fanin(const bi_machine *m, double bytes, int k, double t_rest, double t_last)
{
    fanin_t f = {0, 0, 0};
    for (int j = 0; j < k; j++) fanin_one(m, bytes, j == k - 1 ? t_last : t_rest, &f);
    return f.done;
}

/* When the destination of the radix-r fan-in over n processes has combined
 * everything: its children at level i (sizes i, ready when their own fan-in
 * is done, full[k] for size r^k) in bi_comb_fanin's order; the top level's
 * last child may have a smaller subtree. */
static double tree_done(const bi_machine *m, double bytes, long n, long r, const double *full)
{
    if (n < 2) return 0;
    long ht = 0, pw = 1;
    while (pw < n) pw *= r, ht++;
    const long below = pw / r;
    fanin_t f = {0, 0, 0};
    for (long i = 1, k = 0; i < below; i *= r, k++)
        for (long j = 1; j < r; j++) fanin_one(m, bytes, full[k], &f);
    for (long j = 1; j * below < n; j++) {
        long sz = n - j * below < below ? n - j * below : below;
        fanin_one(m, bytes, sz == below ? full[ht - 1] : tree_done(m, bytes, sz, r, full), &f);
    }
    return f.done;
}

/* The tree of radix r = N_b + 1 over Np processes, height H_t =
 * ceil(log_r Np): H_t - 1 levels of N_b contributions and N_is =
 * ceil(Np / r^(H_t-1)) - 1 at the top (LAWN 73 5.4.1, about
 * H_t (N_b T_c + T_o); here level by level with the receiver above, each
 * child ready when its own subtree is done); leave-on-all adds the binomial
 * broadcast, ceil(log2 Np) T_c. */
double bi_model_comb_tree(const bi_machine *m, int np, double bytes, int param, double *root)
{
    if (np < 2) {
        if (root) *root = 0;
        return 0;
    }
    long r = param > 0 ? param + 1 : 2, lg = 0;
    if (r > np) r = np;
    while ((1L << lg) < np) lg++;
    double full[64] = {0}; /* full[k]: a subtree of r^k processes */
    for (long k = 1, pw = r; pw < np && k < 64; k++, pw *= r) full[k] = tree_done(m, bytes, pw, r, full);
    double one = tree_done(m, bytes, np, r, full);
    if (root) *root = one;
    return one + (double)lg * bi_tc(m, bytes);
}

/* 5.4.2 with simultaneous send and receive: log2(Np) (T_c + T_o) for a
 * power of two; otherwise T_c + T_o + T_s + floor(log2 Np)(T_c + T_o) inside
 * the power of two and 2 T_c + T_o + floor(log2 Np)(T_c + T_o) beyond it.
 * Leave-on-one is the radix-2 tree. */
double bi_model_comb_bidir(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    bi_model_comb_tree(m, np, bytes, 1, root);
    int p2 = bi_pow2_floor(np), d = bi_log2i(p2);
    double step = bi_tc(m, bytes) + bi_to(m, bytes);
    if (p2 == np) return d * step;
    double in = step + bi_ts(m, bytes) + d * step, out = 2 * bi_tc(m, bytes) + bi_to(m, bytes) + d * step;
    return in > out ? in : out;
}

/* Ring chains pipeline nothing within one call: a chain of len processes
 * hands its partial result to the destination after (len-1)(T_c + T_o);
 * the destination takes the a chains' messages one after the other, the
 * longest (the last chain, which holds the remainder) last (bi_model_fanin,
 * comb_tree.c).  Leave-on-all adds the multipath broadcast back with a paths
 * ('M', bcast_ring.c). */
double bi_model_comb_mring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    if (np < 2) return bi_model_none(root);
    int a = bi_npaths(param, np), L = (np - 1) / a, len = (np - 1) - (a - 1) * L;
    double step = bi_tc(m, bytes) + bi_to(m, bytes);
    double one = bi_model_fanin(m, bytes, a, (L - 1) * step, (len - 1) * step);
    if (root) *root = one;
    return one + bi_model_paths(m, np, bytes, a, 1, NULL); /* in one piece */
}

/* LAWN 29 3.3: 2 d alpha + (p-1)/p n (2 beta + gamma) for p = 2^d, both for
 * combine-to-all and (gather instead of doubling) combine-to-root; other Np
 * add the fold in (alpha + n (beta + gamma)) and, for all, out (alpha + n beta). */
double bi_model_comb_rhd(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    int p2 = bi_pow2_floor(np), d = bi_log2i(p2);
    double a = m->tc.a, b = m->tc.b, g = m->to.b;
    double t = 2 * d * a + (double)(p2 - 1) / p2 * bytes * (2 * b + g);
    double fold = p2 < np ? a + bytes * (b + g) : 0;
    if (root) *root = t + fold;
    return t + fold + (p2 < np ? bi_tc(m, bytes) : 0);
}

/* slides: reduce-scatter (p-1) alpha + (p-1)/p n (beta + gamma); allgather
 * (p-1) alpha + (p-1)/p n beta; gather ceil(log2 p) alpha + (p-1)/p n beta */
double bi_model_comb_bucket(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    const double a = m->tc.a, b = m->tc.b, g = m->to.b, f = (double)(np - 1) / np * bytes;
    const int lg = bi_log2c(np);
    double rs = (np - 1) * a + f * (b + g);
    if (root) *root = rs + lg * a + f * b;
    return rs + (np - 1) * a + f * b;
}

int bi_comb_hybrid_halvings(const bi_machine *m, int np, double bytes)
{
    const int d = bi_log2i(bi_pow2_floor(np));
    const double a = m->tc.a, b = m->tc.b, g = m->to.b, ns = bi_comb_nshort();
    int h = 0;
    double n = bytes;
    if (ns > 0 && bytes <= ns * (double)(1 << d)) {
        while (h < d && n > ns) n /= 2, h++;
        return h;
    }
    for (int left = d; left > 0; left--) {
        double den = (left - 1) * (b + g) + g;
        if (den > 0 && n < 2 * a / den) break;
        n /= 2;
        h++;
    }
    return h;
}
/* LAWN 29 3.4: T(S,n,d) = T(S',n/2,d-1) + 2 alpha + n beta + n/2 gamma for a
 * halving step, T(S',n,d-1) + alpha + n (beta + gamma) for a whole one
 * (Corollary 4 for the optimal S); the fold for other Np as in 'R'. */
double bi_model_comb_hybrid(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    const int p2 = bi_pow2_floor(np), d = bi_log2i(p2), h = bi_comb_hybrid_halvings(m, np, bytes);
    const double a = m->tc.a, b = m->tc.b, g = m->to.b;
    double t = 0, n = bytes;
    for (int j = 0; j < d; j++) {
        if (j < h) t += 2 * a + n * b + n / 2 * g, n /= 2;
        else t += a + n * (b + g);
    }
    double fold = p2 < np ? a + bytes * (b + g) : 0;
    if (root) *root = t + fold;
    return t + fold + (p2 < np ? bi_tc(m, bytes) : 0);
}

/* MPI's choice is its own; model it as the better of the tree and the
 * reduce-scatter family, as MPICH switches between them by length */
double bi_model_comb_mpi(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    double r1, r2;
    double a1 = bi_model_comb_tree(m, np, bytes, 1, &r1);
    double a2 = bi_model_comb_rhd(m, np, bytes, 0, &r2);
    if (root) *root = r1 < r2 ? r1 : r2;
    return a1 < a2 ? a1 : a2;
}
