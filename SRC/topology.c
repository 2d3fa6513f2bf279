/*
 * topology.c -- the one table: TOP letter -> broadcast algorithm, combine
 * algorithm, the cost model of each (LAWN 73 table 9, 4.3, 5.4; LAWN 29;
 * van de Geijn's slides; the models themselves are in model_bcast.c and
 * model_comb.c), and the restrictions under which an entry runs the tree
 * instead.  The library's plans (plan.c), TIMING's predictions and the
 * hybrid choices all read this table.  Also here, as table knowledge: the
 * parameter a letter stands for (rings, branches, paths; BLACS_SET 11-14)
 * and what 'A' picks by the models (Watts 15.1: hybrid selection by the
 * models).  Nothing here communicates or runs an algorithm.
 *
 * Letters of the reference BLACS: ' ' I D S M H F T 1-9.  Ours, on letters
 * the reference does not use: C P (broadcast), R B Y (combine), A (both).
 */
#include <stdatomic.h>
#include "topology.h"
#include "topo_algs.h"

const bi_topo bi_topos[] = {
    /* top name                                bcast            tags model             comb             tags model,
     * then the restrictions (BI_TOP_*, topology.h) of the broadcast and the combine */
    {' ', "MPI collective",                    bi_bcast_mpi,       0, bi_model_bcast_mpi,   bi_comb_mpi,    0, bi_model_comb_mpi, BI_TOP_MPI, BI_TOP_MPI},
    {'I', "increasing ring",                   bi_bcast_iring,     1, bi_model_bcast_ring,  bi_comb_mring,  2, bi_model_comb_mring, BI_TOP_PIECES, 0},
    {'D', "decreasing ring",                   bi_bcast_dring,     1, bi_model_bcast_ring,  bi_comb_mring,  2, bi_model_comb_mring, BI_TOP_PIECES, 0},
    {'S', "split ring",                        bi_bcast_sring,     1, bi_model_bcast_sring, bi_comb_mring,  2, bi_model_comb_mring, BI_TOP_PIECES, 0},
    {'M', "multiring",                         bi_bcast_mring,     1, bi_model_bcast_mring, bi_comb_mring,  2, bi_model_comb_mring, BI_TOP_PIECES, 0},
    {'H', "hypercube / bidirectional exchange",bi_bcast_hypercube, 2, bi_model_bcast_hcube, bi_comb_bidir,  2, bi_model_comb_bidir, BI_TOP_POW2, BI_TOP_EXCHANGE},
    {'F', "fully connected",                   bi_bcast_fully,     1, bi_model_bcast_fully, bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'T', "general tree (BLACS_SET branches)", bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'1', "tree, 1 branch",                    bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'2', "tree, 2 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'3', "tree, 3 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'4', "tree, 4 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'5', "tree, 5 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'6', "tree, 6 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'7', "tree, 7 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'8', "tree, 8 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'9', "tree, 9 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree, 0, 0},
    {'C', "scatter then collect (allgather)",  bi_bcast_scatcol,   2, bi_model_bcast_scatcol, NULL,         0, NULL, BI_TOP_LONG | BI_TOP_PEERS, 0},
    {'P', "pipelined (segmented) ring",        bi_bcast_pipe,      1, bi_model_bcast_pipe,  NULL,           0, NULL, BI_TOP_NSEG, 0},
    {'R', "recursive halving + doubling (LAWN 29 v3)", NULL,       0, NULL,                 bi_comb_rhd,    2, bi_model_comb_rhd, 0, 0},
    {'B', "bucket reduce-scatter + collect",   NULL,               0, NULL,                 bi_comb_bucket, 2, bi_model_comb_bucket, 0, 0},
    {'Y', "hybrid, Theorem 1 switch (LAWN 29 v4)", NULL,           0, NULL,                 bi_comb_hybrid, 2, bi_model_comb_hybrid, 0, BI_TOP_HALVE},
    {'A', "automatic: cheapest by cost model", bi_topo_auto,       2, bi_model_bcast_auto,  bi_topo_auto,   2, bi_model_comb_auto, BI_TOP_AUTO, BI_TOP_AUTO},
};
const int bi_ntopos = (int)(sizeof bi_topos / sizeof bi_topos[0]);

/* 'A' has no algorithm of its own: the plan (plan.c) replaces it by what
 * the models pick, so this only marks the letter as a broadcast and a
 * combine topology; it is never run */
void bi_topo_auto(bi_coll *c)
{
    (void)c;
    BI_ERROR(-1, "internal: TOP 'A' run without a plan");
}

const bi_topo *bi_topo_find(char top)
{
    if (top >= 'a' && top <= 'z') top = (char)(top - 32);
    for (int i = 0; i < bi_ntopos; i++)
        if (bi_topos[i].top == top) return &bi_topos[i];
    return NULL;
}

static int clampi(Int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : (int)v; }

int bi_bcast_param(const bi_topo *t, const bi_ctx *c, int np)
{
    int most = np > 2 ? np - 1 : 1;
    switch (t->top) {
    case 'M': { /* BLACS_SET 11: signed ring count (sign: direction), |nr| <= Np-1 */
        Int nr = c ? c->rings_bs : 1;
        if (nr == 0) nr = 1;
        return nr < 0 ? -clampi(-nr, 1, most) : clampi(nr, 1, most);
    }
    case 'T': return clampi(c ? c->branches_bs : 1, 1, np > 1 ? np : 1); /* BLACS_SET 12 */
    case 'F': return most;                  /* multipath with Np-1 paths */
    default:
        if (t->top >= '1' && t->top <= '9') return t->top - '0';
        return 0;
    }
}

/* parameter a TOP letter stands for: branches of a tree, rings of a multiring */
int bi_comb_param(char t, const bi_ctx *ctx, int np)
{
    switch (t) {
    case 'T': return ctx && ctx->branches_comb > 0 ? (int)ctx->branches_comb : 1;
    case 'F': return np - 1;
    case 'H': return 1;
    case 'I': return 1;
    case 'D': return -1;
    case 'S': return 2;
    case 'M': return ctx && ctx->rings_comb ? (int)ctx->rings_comb : 1;
    default: return (t >= '1' && t <= '9') ? t - '0' : 0;
    }
}

/* ---- 'A' -------------------------------------------------------------------
 * Broadcasts: the one the cost models predict to be fastest (slowest
 * process) on the default machine (machine.c).  The choice depends on (Np,
 * bytes) and the environment only, so every process of the scope makes the
 * same one.  Candidates: every BLACS broadcast whose parameter is fixed by
 * its letter (not ' ', 'M', 'T'); ties go to the earlier table entry. */
const bi_topo *bi_bcast_choose(int np, double bytes, int *param)
{
    const bi_machine *m = bi_machine_default();
    const bi_topo *best = NULL;
    double tbest = 0;
    for (int i = 0; i < bi_ntopos; i++) {
        const bi_topo *c = &bi_topos[i];
        if (!c->bcast || !c->bcast_model || (c->bcast_flags & (BI_TOP_AUTO | BI_TOP_MPI)) ||
            c->top == 'M' || c->top == 'T')
            continue;
        int p = bi_bcast_param(c, NULL, np);
        double v = c->bcast_model(m, np, bytes, p, NULL);
        if (!best || v < tbest) {
            best = c;
            tbest = v;
            *param = p;
        }
    }
    return best;
}

/* Short TOP ' ' broadcasts (1 to BI_BCAST_SHORT bytes, plan.c): the tree,
 * '1' to '9', whose model on the default machine sums lowest over the short
 * range, each length's time taken over the binomial tree's: 8 bytes, 512
 * and 4 KB (a process's INFO, a pivot row, a small panel's part); ties go
 * to fewer branches.  Not a choice by length as 'A' makes: it depends on Np
 * and the environment alone, so processes that disagree on a broadcast's
 * length still run one pattern, and the long ones' mark goes down the same
 * tree (bcast_mpi.c), and they get the count error rather than wait for
 * each other.  Kept per Np up to SHORT_MEMO, and for the last Np past it
 * (relaxed atomics: threads may compute it at once, and compute the same;
 * the last one is one word, Np and tree together). */
#define SHORT_MEMO 4096
const bi_topo *bi_bcast_short_tree(int np)
{
    static _Atomic signed char memo[SHORT_MEMO];
    static _Atomic long long last; /* past SHORT_MEMO: the last Np * 16 + tree */
    if (np < 3) return bi_topo_find('1'); /* on 2 or 3 every tree is the source sending to each */
    if (np < SHORT_MEMO) {
        const int k = atomic_load_explicit(&memo[np], memory_order_relaxed);
        if (k) return bi_topo_find((char)('0' + k));
    } else {
        const long long l = atomic_load_explicit(&last, memory_order_relaxed);
        if (l >> 4 == np) return bi_topo_find((char)('0' + (l & 15)));
    }
    static const double len[] = {8.0, 512.0, 4096.0};
    const bi_machine *m = bi_machine_default();
    double base[3];
    for (int i = 0; i < 3; i++) base[i] = bi_model_bcast_tree(m, np, len[i], 1, NULL);
    int best = 1;
    double sbest = 3;
    for (int k = 2; k <= 9; k++) {
        double s = 0;
        for (int i = 0; i < 3; i++) s += bi_model_bcast_tree(m, np, len[i], k, NULL) / base[i];
        if (s < sbest - 1e-9) {
            best = k;
            sbest = s;
        }
    }
    if (np < SHORT_MEMO)
        atomic_store_explicit(&memo[np], (signed char)best, memory_order_relaxed);
    else
        atomic_store_explicit(&last, (long long)np * 16 + best, memory_order_relaxed);
    return bi_topo_find((char)('0' + best));
}

/* the model of the algorithm 'A' picks (on the default machine), on machine m */
double bi_model_bcast_auto(const bi_machine *m, int np, double bytes, int param, double *root)
{
    const bi_topo *b = bi_bcast_choose(np, bytes, &param);
    return b->bcast_model(m, np, bytes, param, root);
}

/* Combines: the cheapest of the radix-2 tree, the bidirectional exchange
 * (leave-on-all), 'R', 'B' and 'Y' by their cost models, evaluated on
 * machine m.  The choice depends only on (Np, bytes, leave-on-all,
 * coherence flag) and the environment, so every process of the scope makes
 * the same one without communicating.  All candidates combine in a fixed
 * order, so 'A' is repeatable. */
char bi_comb_choose(const bi_machine *m, int np, double bytes, int all, int coherent)
{
    static const char cand[] = {'1', 'H', 'Y', 'R', 'B'};
    char best = '1';
    double bt = 0;
    for (size_t i = 0; i < sizeof cand; i++) {
        if (cand[i] == 'H' && (!all || coherent)) continue; /* 'H' is the tree then */
        const bi_topo *t = bi_topo_find(cand[i]);
        double v = bi_comb_model(t->comb_model, m, np, bytes, 1, all);
        if (i == 0 || v < bt) best = cand[i], bt = v;
    }
    return best;
}

double bi_model_comb_auto(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    char t1 = bi_comb_choose(m, np, bytes, 0, 0), ta = bi_comb_choose(m, np, bytes, 1, 0);
    if (root) *root = bi_comb_model(bi_topo_find(t1)->comb_model, m, np, bytes, 1, 0);
    return bi_comb_model(bi_topo_find(ta)->comb_model, m, np, bytes, 1, 1);
}
