/*
 * t_plan.c -- the selection step as a pure function (SRC/plan.c): for calls
 * described by value, the plan names what runs, with which parameter and
 * message IDs, and the run-time quantities of 'P', 'Y' and the fan-ins,
 * before anything moves.  One process; no communication.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tutil.h"
#include "bi.h"
#include "topo_algs.h"

static bi_call_in call(char top, int np, size_t count, size_t isize, int root)
{
    bi_call_in in = {.t = bi_topo_find(top), .np = np, .has_coll = 1, .root = root,
                     .count = count, .isize = isize};
    return in;
}

/* The posting cost (BLACS_POST_ALPHA): a source posts sends whose transfer
 * is under 1% of T_c(0) together, and then its sends are spaced by the
 * larger of T_p and their bytes on its link, not by T_s.  Run as
 * `t_plan post` under an SMPI-like machine (BLACS_ALPHA = BLACS_SEND_ALPHA
 * = 1, BLACS_POST_ALPHA = 0, BLACS_BETA = 8e-5: a waited send costs a whole
 * T_c, posting costs nothing), where 'A' must take 'F' for one and ten
 * doubles on 256 processes (simulated: 1.49 and 2.93 T_c against 8.0 for
 * the trees 'A' took when every send cost T_s) and not from 100 doubles,
 * where the source waits for each send. */
static void post_cost(const bi_machine *m)
{
    TU_CHECK(m->tp == 0 && m->ts.a == 1 && m->tc.a == 1, "machine: T_p %g T_s(0) %g T_c(0) %g",
             m->tp, m->ts.a, m->tc.a);
    const double b = m->tc.b;
    /* 'F' on 256: the last of 255 one-hop paths */
    for (int n = 1; n <= 1000; n *= 10) {
        const double bytes = 8.0 * n;
        const int together = bytes * b < 0.01;
        TU_CHECK(bi_posted_together(m, bytes) == together, "%d doubles: together %d", n,
                 bi_posted_together(m, bytes));
        const double sp = together ? (bytes * b > 0 ? bytes * b : 0) : 1 + bytes * b;
        const double want = 254 * sp + 1 + bytes * b;
        double root = 0;
        double t = bi_model_bcast_fully(m, 256, bytes, 255, &root);
        TU_CHECK(fabs(t - want) <= 1e-9 * want, "'F' on 256, %d doubles: model %g, want %g", n,
                 t, want);
        TU_CHECK(fabs(root - 255 * sp) <= 1e-9 * (1 + root), "'F' source %g, want %g", root,
                 255 * sp);
        int param = 0;
        const bi_topo *a = bi_bcast_choose(256, bytes, &param);
        if (together)
            TU_CHECK(a->top == 'F', "'A' on 256, %d doubles: '%c', not 'F'", n, a->top);
        else
            TU_CHECK(a->top != 'F', "'A' on 256, %d doubles: 'F' with the source's waits", n);
        bi_call_in in = call('A', 256, (size_t)n, 8, 0);
        bi_plan p = bi_bcast_plan(&in, m);
        TU_CHECK(p.top == a->top && (p.ord_cap == 0) == together,
                 "'A' plan on 256, %d doubles: '%c', source wait cap %g", n, p.top, p.ord_cap);
    }
    /* the binomial tree: the source posts its 8 sends and returns; its
     * children are spaced by their bytes on its link */
    double root = 0, t = bi_model_bcast_tree(m, 256, 8.0, 1, &root);
    TU_CHECK(root == 8 * 0.0 + 8.0 * m->tm.b, "'1' source on 256, one double: %g", root);
    TU_CHECK(t > 8 && t < 8 * (1 + 8 * b) + 7 * 8 * b + 1e-9 && t < 8.01,
             "'1' on 256, one double: %g T_c", t);
}

/* the kept plans (plan.c): a call with a grid and the built-in machine gets
 * the plan a fresh one would be (made for a copy of the machine, which
 * keeps nothing), whatever came before it.  Each call below differs from
 * the one before it in one input of the plan: in the first pass a field of
 * the call or the grid's ring or branch count (BLACS_SET 11-14), letter by
 * letter; in the second the letter, step by step.  So a key that missed an
 * input would hand out the plan of the call before. */
#if defined(__x86_64__) || defined(__aarch64__)
/* same_plan names bi_plan's 18 fields one by one: a field added to it
 * changes its size, and this stops the build until same_plan compares it */
_Static_assert(sizeof(bi_plan) == 112, "bi_plan changed: make same_plan compare every field");
#endif
static int same_plan(const bi_plan *a, const bi_plan *b)
{
    return a->run == b->run && a->top == b->top && a->param == b->param &&
           a->ntags == b->ntags && a->first == b->first && a->agree == b->agree &&
           a->mpi == b->mpi && a->nseg == b->nseg && a->xpiece == b->xpiece && a->halve == b->halve &&
           a->serial == b->serial && a->ord_a == b->ord_a && a->ord_b == b->ord_b &&
           a->ord_cap == b->ord_cap && a->direct == b->direct &&
           a->ready_wait == b->ready_wait && a->mark == b->mark && a->nodes == b->nodes;
}

enum { NSTEP = 20 };
static const char kept_tops[] = " MTIS1HAY";

/* step i of the walk for letter top: each changes one input */
static bi_call_in kept_step(char top, int i, const bi_ctx *g)
{
    bi_call_in in = call(top, 8, 20000, 8, 1);
    in.ctx = &g[0];
    if (i >= 1) in.ctx = &g[1]; /* more rings */
    if (i >= 2) in.ctx = &g[2]; /* more branches */
    if (i >= 3) in.np = 5;
    if (i >= 4) in.root = 3;
    if (i >= 5) in.isize = 12;
    if (i >= 6) in.count = 2000; /* 24 KB: straight from A on one node only */
    if (i >= 7) in.onenode = 1;
    if (i >= 8) in.count = 100;
    if (i >= 9) in.ordered = 1;
    if (i >= 10) in.repeat = 1;
    if (i >= 11) in.ordered = 0;
    if (i >= 12) in.has_coll = 0;
    if (i >= 13) in.coherent = 1;
    if (i >= 14) in.root = -1; /* combines only from here */
    if (i >= 15) in.coherent = 0;
    if (i >= 16) in.np = 2, in.has_coll = 1;
    if (i >= 17) in.user = 1;
    if (i >= 18) in.root = 1, in.np = 3, in.user = 0, in.first_alone = 1;
    if (i >= 19) in.first_alone = 0; /* the flag alone differs: in the key too */
    return in;
}

static int kept_one(const bi_machine *m, const bi_machine *fresh, const bi_call_in *in, int pass,
                    int step)
{
    int n = 0;
    for (int bc = 0; bc < 2; bc++) {
        if (!(bc ? in->t->bcast : in->t->comb)) continue;
        if (bc && in->root < 0) continue; /* a broadcast has a source */
        bi_plan k = bc ? bi_bcast_plan(in, m) : bi_comb_plan(in, m);
        bi_plan f = bc ? bi_bcast_plan(in, fresh) : bi_comb_plan(in, fresh);
        TU_CHECK(same_plan(&k, &f),
                 "kept plan of %s '%c', pass %d step %d: top '%c' param %d nseg %zu agree %d, "
                 "fresh '%c' %d %zu %d",
                 bc ? "broadcast" : "combine", in->t->top, pass, step, k.top, k.param, k.nseg,
                 k.agree, f.top, f.param, f.nseg, f.agree);
        n++;
    }
    return n;
}

static void kept_plans(const bi_machine *m)
{
    const bi_machine fresh = *m;
    bi_ctx g[3];
    memset(g, 0, sizeof g);
    g[0].rings_bs = g[0].branches_bs = g[0].rings_comb = g[0].branches_comb = 1;
    g[1] = g[0];
    g[1].rings_bs = g[1].rings_comb = 3;
    g[2] = g[1];
    g[2].branches_bs = g[2].branches_comb = 2;
    int checked = 0;
    for (const char *tp = kept_tops; *tp; tp++)
        for (int i = 0; i < NSTEP; i++) {
            bi_call_in in = kept_step(*tp, i, g);
            checked += kept_one(m, &fresh, &in, 0, i);
        }
    for (int i = 0; i < NSTEP; i++)
        for (const char *tp = kept_tops; *tp; tp++) {
            bi_call_in in = kept_step(*tp, i, g);
            checked += kept_one(m, &fresh, &in, 1, i);
        }
    TU_CHECK(checked > 200, "kept plans: only %d calls compared", checked);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const bi_machine *m = bi_machine_default();
    bi_call_in in;
    bi_plan p;

    if (argc > 1 && !strcmp(argv[1], "post")) {
        post_cost(m);
        return tu_finish();
    }
    /* unset, the posting cost is T_s(0) */
    TU_CHECK(m->tp == m->ts.a, "BLACS_POST_ALPHA unset: %g, T_s(0) %g", m->tp, m->ts.a);

    /* straight from A (plan.direct) from 64 KB, or from 12 KB in a scope on
     * one node, where a receiver's word costs less than the copy */
    {
        const size_t n[3] = {1000, 2000, 10000}; /* 8, 16 and 80 KB */
        for (int k = 0; k < 3; k++)
            for (int node = 0; node < 2; node++) {
                in = call('1', 4, n[k], 8, 0);
                in.onenode = node;
                p = bi_bcast_plan(&in, m);
                const int want = k == 2 || (k == 1 && node);
                TU_CHECK((p.direct != 0) == want && (!want || p.ready_wait > 0),
                         "'1' on 4, %zu doubles, %s: direct %d ready_wait %g", n[k],
                         node ? "one node" : "across nodes", p.direct, p.ready_wait);
            }
    }

    /* 'I': its own algorithm, one ID, nothing to fall back to */
    in = call('I', 5, 100, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_iring && p.top == 'I' && p.ntags == 1 && p.first == 0 && !p.mpi,
             "'I': run %p top '%c' ntags %d", (void *)p.run, p.top, p.ntags);

    /* 'H' on a power of two: the hypercube, one of its two IDs */
    in = call('H', 8, 100, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_hypercube && p.top == 'H' && p.ntags == 1 && p.first == 0,
             "'H' on 8: top '%c' ntags %d first %d", p.top, p.ntags, p.first);
    /* off a power of two: the radix-2 tree on the second ID, named '1' */
    in = call('H', 6, 100, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_tree && p.top == '1' && p.param == 1 && p.ntags == 2 &&
                 p.first == 1,
             "'H' on 6: top '%c' param %d ntags %d first %d", p.top, p.param, p.ntags, p.first);

    /* 'C' too short to fill its blocks: the tree; long enough: itself */
    in = call('C', 8, 8, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_tree && p.top == '1' && p.param == 1 && p.ntags == 2,
             "'C' short: top '%c' ntags %d", p.top, p.ntags);
    in = call('C', 8, 1000, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_scatcol && p.top == 'C', "'C' long: top '%c'", p.top);

    /* ' ': short (1 to 12 KB) a tree, the same at every short length for a
     * scope size (on the default machine: the binomial tree on 2 and 3,
     * where every tree is the source sending to each, 2 branches on 4 and
     * 8, 3 on 16 and 64); longer, or empty, MPI's collective with its mark
     * down that tree on one ID, but on 2 processes the tree at every
     * length; without collectives of its own the binomial tree */
    {
        static const struct { int np; char top; } shortt[] = {
            {2, '1'}, {3, '1'}, {4, '2'}, {8, '2'}, {16, '3'}, {64, '3'}};
        for (size_t i = 0; i < sizeof shortt / sizeof shortt[0]; i++) {
            const int n = shortt[i].np;
            const char want = shortt[i].top;
            for (size_t len = 1; len <= 1536; len = len < 1536 && len * 4 > 1536 ? 1536 : len * 4) {
                in = call(' ', n, len, 8, 0);
                p = bi_bcast_plan(&in, m);
                TU_CHECK(p.run == bi_bcast_tree && !p.mpi && p.top == want &&
                             p.param == want - '0' && p.ntags == 1 && !p.mark,
                         "' ' short on %d, %zu doubles: top '%c' param %d mpi %d ntags %d mark %d, "
                         "expected '%c'", n, len, p.top, p.param, p.mpi, p.ntags, p.mark, want);
                if (len == 1536) break;
            }
            for (int l = 0; l < 4; l++) {
                const size_t len = (size_t[]){1537, 0, 100000, 300000000}[l];
                in = call(' ', n, len, 8, 0);
                p = bi_bcast_plan(&in, m);
                if (n == 2) /* on two processes the tree (one message) at every length */
                    TU_CHECK(p.run == bi_bcast_tree && !p.mpi && p.top == '1' && p.param == 1 &&
                                 p.ntags == 1 && !p.mark,
                             "' ' of %zu doubles on 2: top '%c' param %d mpi %d ntags %d mark %d, "
                             "expected the tree '1'", len, p.top, p.param, p.mpi, p.ntags, p.mark);
                else if (len <= 100000)
                    TU_CHECK(p.run == bi_bcast_mpi && p.mpi && p.mark == want - '0' + 1 &&
                                 p.ntags == 1,
                             "' ' of %zu doubles on %d: mpi %d mark %d ntags %d, expected mark %d",
                             len, n, p.mpi, p.mark, p.ntags, want - '0' + 1);
            }
            /* node phases (bcast_tree.c) for the short tree and the mark in
             * a scope across nodes only, never for the letter itself */
            for (int one = 0; one < 2; one++)
                for (int l = 0; l < 4; l++) {
                    const size_t len = (size_t[]){0, 1, 1536, 1537}[l];
                    in = call(' ', n, len, 8, 0);
                    in.onenode = one;
                    p = bi_bcast_plan(&in, m);
                    TU_CHECK(p.nodes == !one, "' ' on %d, %zu doubles, %s: nodes %d", n, len,
                             one ? "one node" : "across nodes", p.nodes);
                    in.t = bi_topo_find(want);
                    p = bi_bcast_plan(&in, m);
                    TU_CHECK(!p.nodes, "'%c' on %d, %zu doubles, %s: nodes %d", want, n, len,
                             one ? "one node" : "across nodes", p.nodes);
                }
        }
    }
    /* past the per-Np memo the last Np is kept: scopes of different sizes
     * in turn still get each its own tree */
    {
        const bi_topo *a = bi_bcast_short_tree(5000), *b = bi_bcast_short_tree(300000);
        TU_CHECK(a->top != b->top, "short tree on 5000 and 300000 both '%c'", a->top);
        for (int r = 0; r < 3; r++) {
            TU_CHECK(bi_bcast_short_tree(5000) == a && bi_bcast_short_tree(5000) == a &&
                         bi_bcast_short_tree(300000) == b,
                     "short tree past the memo changed in round %d", r);
        }
    }
    in = call(' ', 4, 100, 8, 0);
    in.has_coll = 0;
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_tree && !p.mpi && p.top == '1' && p.ntags == 1,
             "' ' whole-grid row: top '%c' mpi %d ntags %d", p.top, p.mpi, p.ntags);

    /* one process: nothing to run, no ID, except MPI's own collective */
    in = call('I', 1, 100, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(!p.run && p.ntags == 0, "'I' on 1 process runs something");
    in = call(' ', 1, 100, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_mpi, "' ' on 1 process is not MPI's");

    /* 'A': a letter of its own choosing, named, with two IDs */
    for (size_t n = 1; n <= 1000000; n *= 100) {
        in = call('A', 16, n, 8, 0);
        p = bi_bcast_plan(&in, m);
        int par = 0;
        const bi_topo *c = bi_bcast_choose(16, (double)n * 8, &par);
        TU_CHECK(p.top != 'A' && p.ntags == 2 && p.run == c->bcast && p.top == c->top &&
                     p.param == par,
                 "'A' on %zu doubles: top '%c', the models pick '%c'", n, p.top, c->top);
    }

    /* 'P': the segments fixed in the plan, as the model has them */
    in = call('P', 9, 100000, 8, 0);
    p = bi_bcast_plan(&in, m);
    TU_CHECK(p.run == bi_bcast_pipe && p.nseg == bi_pipe_nseg(m, 9, 100000, 8) && p.nseg > 1,
             "'P': %zu segments", p.nseg);

    /* the rings: the k that minimises the topology's model, no piece under
     * BI_RING_MINPIECE bytes, then no more than delay the first hop by a
     * tenth of T_c(n); short vectors one piece; 'F' (one hop) and
     * the combines' way back none.  One path ('I', 'D'): Watts' k =
     * sqrt((hops-1) n beta / alpha) rounded.  'S', 'M': the plan's k against
     * every k, by the paths' times written out here (the source feeds
     * every path through its one link) */
    {
        static const struct { char top; int np, param; } R[] = {
            {'I', 16, 1}, {'D', 16, 1}, {'S', 16, 1}, {'S', 5, 1}, {'S', 4, 1}, {'S', 9, 1},
            {'M', 16, 2}, {'M', 16, 5}, {'I', 3, 1}};
        static const size_t counts[] = {131072, 65536, 32768, 5000, 100, 131071};
        for (size_t i = 0; i < sizeof R / sizeof R[0]; i++)
            for (size_t j = 0; j < sizeof counts / sizeof counts[0]; j++) {
                const int np = R[i].np, nr = R[i].top == 'M' ? R[i].param : 1;
                in = call(R[i].top, np, counts[j], 8, 1);
                p = bi_bcast_plan(&in, m);
                const double n = 8.0 * (double)counts[j];
                /* under MPICH, up to 128 KB, the eager pieces instead (below);
                 * the model's k is then bi_ring_nseg's, checked here all the same */
                const size_t k8 = tu_eager_pieces(np, n);
                if (k8) {
                    TU_CHECK(p.nseg == k8, "'%c' on %d, %zu doubles: %zu pieces, "
                             "not MPICH's eager 8 KB", R[i].top, np, counts[j], p.nseg);
                    p.nseg = bi_ring_nseg(m, R[i].top, np, p.param, counts[j], 8);
                }
                if (R[i].top == 'M') { /* the plan's rings (BLACS_SET 11 default), then these */
                    TU_CHECK(p.nseg == bi_ring_nseg(m, 'M', np, p.param, counts[j], 8),
                             "'M' plan: %zu pieces", p.nseg);
                    p.nseg = bi_ring_nseg(m, 'M', np, nr, counts[j], 8);
                }
                double kmax = floor(n / BI_RING_MINPIECE), best = 1, tbest = HUGE_VAL;
                if (kmax < 1) kmax = 1;
                for (double k = 1; k <= kmax; k++) {
                    double tc = bi_tc(m, n / k), ts = bi_ts(m, n / k), t;
                    if (R[i].top == 'S') {
                        int half = np / 2, low = np - 1 - half;
                        double up = (half - 1 + k) * tc, down = k * ts + (low - 1 + k) * tc;
                        t = low > 0 && down > up ? down : up;
                    } else { /* nr paths, the first (np-1) mod nr one hop longer */
                        int len = (np - 1) / nr, nlong = (np - 1) % nr;
                        t = (nr - 1) * k * ts + (len - 1 + k) * tc;
                        if (nlong && (nlong - 1) * k * ts + (len + k) * tc > t)
                            t = (nlong - 1) * k * ts + (len + k) * tc;
                    }
                    if (t < tbest * (1 - 1e-12)) tbest = t, best = k;
                }
                if (nr == 1 && R[i].top != 'S') { /* one path: Watts' closed form */
                    double w = floor(sqrt((np - 2) * n * m->tc.b / m->tc.a) + 0.5);
                    if (w > kmax) w = kmax;
                    if (w < 1) w = 1;
                    TU_CHECK(best == w, "'%c' on %d, %zu doubles: best %.0f, Watts %.0f", R[i].top,
                             np, counts[j], best, w);
                }
                /* then no more than delay the first hop by a tenth of T_c(n) */
                double capped = best;
                while (capped > 1 && (capped - 1) * m->tc.a > 0.1 * bi_tc(m, n)) capped--;
                TU_CHECK(p.top == R[i].top && p.nseg == (size_t)capped,
                         "'%c' (%d) on %d, %zu doubles: %zu pieces, the model's best %.0f, capped %.0f",
                         R[i].top, nr, np, counts[j], p.nseg, best, capped);
                if (counts[j] >= 32768 && np >= 9)
                    TU_CHECK(p.nseg > 1, "'%c' on %d: %zu doubles in one piece", R[i].top, np,
                             counts[j]);
                if (counts[j] <= 100) TU_CHECK(p.nseg == 1, "short '%c': %zu", R[i].top, p.nseg);
            }
        /* the split ring on 4 (ScaLAPACK's 4 x 4 panels): the source's link
         * carries 2 n whatever k, so one piece */
        in = call('S', 4, 65536, 8, 1);
        p = bi_bcast_plan(&in, m);
        TU_CHECK(p.nseg == 1, "'S' on 4, 512 KB: %zu pieces", p.nseg);
        in = call('I', 2, 131072, 8, 0);
        p = bi_bcast_plan(&in, m);
        TU_CHECK(p.nseg == 1, "'I' on 2 (one hop): %zu pieces", p.nseg);
        /* under MPICH, with a relay (3 processes or more), up to 128 KB:
         * pieces of 8 KB, what MPICH sends eagerly on one node and between
         * hosts, whatever the model, in a scope on one node or across
         * nodes; on 2 processes, past 128 KB, and under another MPI, the
         * model's */
        {
            static const char tops[] = {'I', 'D', 'S', 'M'};
            static const int nps[] = {2, 3, 4, 16};
            static const size_t cn[] = {131072, 131071, 16384, 1025, 1024, 100};
            for (size_t a = 0; a < sizeof tops; a++)
                for (size_t b = 0; b < sizeof nps / sizeof nps[0]; b++)
                    for (size_t j = 0; j < sizeof cn / sizeof cn[0]; j++)
                        for (int node = 0; node < 2; node++) {
                            in = call(tops[a], nps[b], cn[j], 8, 1);
                            in.onenode = node;
                            p = bi_bcast_plan(&in, m);
                            const size_t k8 = tu_eager_pieces(nps[b], 8.0 * (double)cn[j]);
                            const size_t want =
                                k8 ? k8 : bi_ring_nseg(m, tops[a], nps[b], p.param, cn[j], 8);
                            TU_CHECK(p.nseg == want, "'%c' on %d %s, %zu doubles: %zu pieces, expected %zu",
                                     tops[a], nps[b], node ? "on one node" : "across nodes", cn[j],
                                     p.nseg, want);
                            if (BI_MPICH && nps[b] > 2 && cn[j] == 16384)
                                TU_CHECK(p.nseg == 16, "'%c' on %d: %zu pieces", tops[a], nps[b],
                                         p.nseg);
                        }
        }
        in = call('F', 16, 131072, 8, 0);
        p = bi_bcast_plan(&in, m);
        TU_CHECK(p.nseg == 0, "'F': %zu pieces", p.nseg);
        in = call('M', 16, 131072, 8, -1);
        p = bi_comb_plan(&in, m);
        TU_CHECK(p.nseg == 0, "'M' combine: %zu pieces on the way back", p.nseg);
        /* the models describe the pieced ring: (Np-2+k) T_c(n/k) */
        double t = bi_model_bcast_ring(m, 16, 1048576.0, 0, NULL);
        double k = (double)bi_ring_nseg(m, 'I', 16, 1, 1048576, 1);
        TU_CHECK(k > 1 && t == (14 + k) * bi_tc(m, 1048576.0 / k), "'I' model %g with k %g", t, k);
    }

    /* combines: 'H' exchanges only for leave-on-all without coherence */
    in = call('H', 8, 100, 8, -1);
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_bidir && p.top == 'H', "'H' leave-on-all: top '%c'", p.top);
    in.coherent = 1;
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_tree && p.top == '1' && p.param == 1, "'H' coherent: top '%c'",
             p.top);
    in = call('H', 8, 100, 8, 3);
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_tree && p.top == '1' && p.ntags == 2, "'H' leave-on-one: '%c'",
             p.top);

    /* the exchange in pieces MPI sends eagerly, the last one shorter --
     * empty when the count is a multiple --, so that partners passing
     * different counts fail a receive: between nodes vectors of 16 KB and 63
     * bytes to 64 KB in pieces of up to that (UCX over TCP sends them
     * eagerly; no power-of-two count is a multiple); on one node,
     * under MPICH, from 8,255 bytes to below 256 KB (where halves begin) in
     * pieces of up to 8,255 bytes (what MPICH's shared memory sends
     * eagerly), under other MPIs
     * one message; one message outside those ranges */
    {
        static const struct { size_t count, isize, k; int one; } xc[] = {
            /* between nodes: q = 16,447 / isize (16 KB and 63 bytes) */
            {2048, 8, 0, 0},  {2054, 8, 0, 0},  {2055, 8, 2, 0},  {4096, 8, 2, 0},
            {4109, 8, 2, 0},  {4110, 8, 3, 0},  {8191, 8, 4, 0},  {8192, 8, 4, 0},
            {8193, 8, 0, 0},  {4110, 4, 0, 0},  {4111, 4, 2, 0},  {16384, 4, 4, 0},
            {1026, 16, 0, 0}, {1027, 16, 2, 0}, {4096, 16, 4, 0}, {1643, 10, 0, 0},
            {1644, 10, 2, 0}, {6553, 10, 4, 0}, {6554, 10, 0, 0}, {912, 18, 0, 0},
            {913, 18, 2, 0},  {3640, 18, 4, 0}, {3641, 18, 0, 0}, {2740, 6, 0, 0},
            {2741, 6, 2, 0},  {10922, 6, 4, 0},
            /* one node: q = 8255 / isize items a piece (what MPICH sends eagerly) */
            {10, 8, 0, 1},     {1030, 8, 0, 1},   {1031, 8, 2, 1},    {1032, 8, 2, 1},
            {2061, 8, 2, 1},   {2062, 8, 3, 1},   {32767, 8, 32, 1},  {32768, 8, 0, 1},
            {824, 10, 0, 1},   {825, 10, 2, 1},   {26214, 10, 32, 1}, {26215, 10, 0, 1},
            {514, 16, 0, 1},   {515, 16, 2, 1},   {16383, 16, 32, 1}, {16384, 16, 0, 1},
            {2062, 4, 0, 1},   {2063, 4, 2, 1},   {65535, 4, 32, 1},  {65536, 4, 0, 1},
            {457, 18, 0, 1},   {458, 18, 2, 1},   {14563, 18, 32, 1}, {14564, 18, 0, 1},
        };
        for (size_t j = 0; j < sizeof xc / sizeof xc[0]; j++) {
            const char tops[] = {'H', ' '};
            const int one = xc[j].one;
            for (int t = 0; t < 2; t++) {
                in = call(tops[t], 2, xc[j].count, xc[j].isize, -1);
                in.onenode = one;
                p = bi_comb_plan(&in, m);
                const size_t want = one && !BI_MPICH ? 0 : xc[j].k,
                             q = tu_pair_piece(xc[j].isize, one);
                TU_CHECK(p.run == bi_comb_bidir && p.nseg == want,
                         "exchange '%c', %zu items of %zu bytes, onenode %d: %zu pieces, "
                         "want %zu",
                         tops[t], xc[j].count, xc[j].isize, one, p.nseg, want);
                if (want)
                    TU_CHECK(p.xpiece == q && (want - 1) * q <= xc[j].count &&
                                 xc[j].count < want * q,
                             "exchange pieces of %zu items for %zu items of %zu bytes, "
                             "onenode %d: want %zu",
                             p.xpiece, xc[j].count, xc[j].isize, one, q);
            }
        }
        /* long ones on two processes: each combines half, from 256 KB on one
         * node, 4 MB between nodes; never on more processes */
        static const struct { size_t count, isize; int one, halve; } hv[] = {
            {32767, 8, 1, 0},  {32768, 8, 1, 1},  {16384, 16, 1, 1}, {65535, 4, 1, 0},
            {26215, 10, 1, 1}, {26214, 10, 1, 0},
            {131072, 8, 0, 0}, {524287, 8, 0, 0}, {524288, 8, 0, 1}, {1000000, 10, 0, 1},
        };
        for (size_t j = 0; j < sizeof hv / sizeof hv[0]; j++) {
            in = call(' ', 2, hv[j].count, hv[j].isize, -1);
            in.onenode = hv[j].one;
            p = bi_comb_plan(&in, m);
            /* below halves on one node: pieces (MPICH; the table above) */
            const int pieced = hv[j].one && !hv[j].halve && BI_MPICH;
            TU_CHECK(p.run == bi_comb_bidir && p.halve == hv[j].halve && (p.nseg == 0) == !pieced,
                     "exchange of %zu items of %zu bytes, onenode %d: halve %d pieces %zu",
                     hv[j].count, hv[j].isize, hv[j].one, p.halve, p.nseg);
        }
        in = call('H', 4, 1000000, 8, -1);
        in.onenode = 1;
        p = bi_comb_plan(&in, m);
        TU_CHECK(p.run == bi_comb_bidir && p.halve == 0, "'H' on 4, 8 MB: halve %d", p.halve);
        /* the exchange on 8, between nodes: each step in pieces alike */
        in = call('H', 8, 4110, 8, -1);
        p = bi_comb_plan(&in, m);
        TU_CHECK(p.run == bi_comb_bidir && p.nseg == 3, "'H' on 8, 4,110 doubles: %zu pieces", p.nseg);
        /* the tree instead of the exchange: no pieces */
        in.coherent = 1;
        p = bi_comb_plan(&in, m);
        TU_CHECK(p.run == bi_comb_tree && p.nseg == 0, "'H' coherent, 32 KB: %zu pieces", p.nseg);
    }

    /* every broadcast on two processes under MPICH, whatever its letter
     * (' ' with MPI's collectives in its scope or not): from q items (what
     * MPI sends eagerly: 8,255 bytes on one node, 16,447 between nodes) to
     * 64 KB in count / q + 1 pieces of q items but a shorter last one, run by
     * 'I' from a copy (not direct), on the letter's message IDs (as many as
     * for one item); otherwise, and under other MPIs, as the letter sends it
     * (' ': the tree) */
    {
        static const struct { size_t count, isize; int one; size_t k; } pc[] = {
            {1030, 8, 1, 0},  {1031, 8, 1, 2},  {1032, 8, 1, 2},  {2062, 8, 1, 3},
            {8192, 8, 1, 8},  {8193, 8, 1, 0},  {514, 16, 1, 0},  {515, 16, 1, 2},
            {4096, 16, 1, 8}, {4097, 16, 1, 0}, {2063, 4, 1, 2},  {16384, 4, 1, 8},
            {2048, 8, 0, 0},  {2054, 8, 0, 0},  {2055, 8, 0, 2},  {4096, 8, 0, 2},
            {4110, 8, 0, 3},  {8192, 8, 0, 4},  {8193, 8, 0, 0},  {1024, 16, 0, 0},
            {1027, 16, 0, 2}, {4096, 4, 0, 0},  {4111, 4, 0, 2},  {0, 8, 1, 0},
            {1, 8, 1, 0},
        };
        static const char letters[] = "  1IDSMHFTCPA"; /* ' ' with collectives, then without */
        for (size_t l = 0; l < sizeof letters - 1; l++)
            for (size_t j = 0; j < sizeof pc / sizeof pc[0]; j++) {
                const char top = letters[l];
                in = call(top, 2, 1, pc[j].isize, 0);
                in.has_coll = l != 1;
                in.onenode = pc[j].one;
                const bi_plan one = bi_bcast_plan(&in, m);
                in.count = pc[j].count;
                p = bi_bcast_plan(&in, m);
                const size_t k = BI_MPICH ? pc[j].k : 0,
                             q = tu_pair_piece(pc[j].isize, pc[j].one);
                if (k)
                    TU_CHECK(p.top == 'I' && p.run == bi_bcast_iring && p.nseg == k &&
                                 p.xpiece == q && !p.direct && !p.mark && !p.mpi &&
                                 p.ntags == one.ntags,
                             "'%c' (coll %d) on 2, %zu items of %zu bytes, onenode %d: top '%c' "
                             "pieces %zu of %zu direct %d mark %d IDs %d, want 'I', %zu of %zu, "
                             "%d IDs",
                             top, in.has_coll, pc[j].count, pc[j].isize, pc[j].one, p.top,
                             p.nseg, p.xpiece, p.direct, p.mark, p.ntags, k, q, one.ntags);
                else
                    TU_CHECK(!p.xpiece && !p.mark && p.ntags == one.ntags &&
                                 (top != ' ' || (p.run == bi_bcast_tree && p.top == '1')),
                             "'%c' (coll %d) on 2, %zu items of %zu bytes, onenode %d: top '%c' "
                             "xpiece %zu IDs %d, want the letter's own (' ': the tree)",
                             top, in.has_coll, pc[j].count, pc[j].isize, pc[j].one, p.top,
                             p.xpiece, p.ntags);
            }
    }
    /* ' ' leave-on-all on two processes: the exchange at every length,
     * repeatable or not, in a scope with or without collectives; MPI's
     * reduction (or the tree) for leave-on-one, with the coherence flag,
     * for user combines and on three processes */
    for (size_t n = 1; n <= 10000000; n *= 100) {
        in = call(' ', 2, n, 8, -1);
        in.repeat = in.ordered = (n / 100) % 2;
        in.has_coll = n != 100;
        p = bi_comb_plan(&in, m);
        TU_CHECK(p.run == bi_comb_bidir && p.top == 'H' && !p.mpi && !p.agree &&
                     p.ntags == bi_topo_find('H')->comb_ntags,
                 "' ' on 2, %zu items: top '%c'", n, p.top);
    }
    in = call(' ', 2, 1, 8, 1);
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_mpi && p.mpi, "' ' on 2 to one: top '%c'", p.top);
    in = call(' ', 2, 1, 8, -1);
    in.coherent = 1;
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_mpi, "' ' on 2, coherent: top '%c'", p.top);
    in = call(' ', 2, 1, 8, -1);
    in.user = in.ordered = 1;
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_mpi, "' ' on 2, user combine: top '%c'", p.top);
    in = call(' ', 3, 1, 8, -1);
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_mpi, "' ' on 3: top '%c'", p.top);

    /* repeatable ' ' whose order matters: agree on the count, then a
     * fixed-order letter the models pick (never 'H'); integers stay MPI's */
    in = call(' ', 8, 100000, 8, -1);
    in.repeat = 1;
    in.ordered = 1;
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.agree && !p.mpi && p.run && strchr("1RBY", p.top) && p.ntags == 2 && p.param == 1,
             "repeatable ' ': agree %d top '%c'", p.agree, p.top);
    in.ordered = 0;
    p = bi_comb_plan(&in, m);
    TU_CHECK(!p.agree && p.mpi && p.run == bi_comb_mpi, "repeatable integer ' ' left MPI");

    /* where MPICH's MPI_Reduce is wrong (the scope's rank 0 alone on its
     * node, BI_REDUCE_LONE): leave-on-one ' ' agrees on the count, then
     * runs a fixed-order letter, integers too, at every length and root;
     * leave-on-all keeps MPI's reduction */
    for (size_t n = 1; n <= 1000000; n *= 100)
        for (int root = 0; root < 3; root++) {
            in = call(' ', 3, n, 8, root);
            in.first_alone = 1;
            p = bi_comb_plan(&in, m);
            TU_CHECK(p.agree && !p.mpi && p.run && strchr("1RBY", p.top) && p.ntags == 2,
                     "' ' to %d, %zu items, first member alone: agree %d top '%c'", root, n,
                     p.agree, p.top);
        }
    in = call(' ', 3, 100000, 8, -1);
    in.first_alone = 1;
    p = bi_comb_plan(&in, m);
    TU_CHECK(!p.agree && p.mpi && p.run == bi_comb_mpi, "' ' leave-on-all, first member alone: '%c'",
             p.top);

    /* 'Y': halvings in the plan; a coherent leave-on-all halves all the way */
    in = call('Y', 16, 100000, 8, 0);
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.run == bi_comb_hybrid && p.halve == bi_comb_hybrid_halvings(m, 16, 800000.0),
             "'Y': %d halvings", p.halve);
    in.root = -1;
    in.coherent = 1;
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.halve == -1, "'Y' coherent leave-on-all: %d halvings", p.halve);

    /* 'A' for combines: the letter the models pick, parameter 1 */
    in = call('A', 16, 1000, 8, -1);
    p = bi_comb_plan(&in, m);
    TU_CHECK(p.top == bi_comb_choose(m, 16, 8000.0, 1, 0) && p.param == 1 && p.ntags == 2,
             "combine 'A': top '%c'", p.top);
    /* every plan carries the fan-in threshold of the machine */
    TU_CHECK(p.serial == bi_serial_bytes(m), "serial bytes %g", p.serial);
    kept_plans(m);
    return tu_finish();
}
