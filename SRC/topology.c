/*
 * topology.c -- the one table: TOP letter -> broadcast algorithm, combine
 * algorithm, and the cost model of each (LAWN 73 table 9, 4.3, 5.4; LAWN 29;
 * van de Geijn's slides).  The library, TIMING's predictions and the
 * hybrid choices all read this table.  Then the selection step: what a
 * call of a letter runs, where that is not simply the table's algorithm.
 *
 * Letters of the reference BLACS: ' ' I D S M H F T 1-9.  Ours, on letters
 * the reference does not use: C P (broadcast), R B Y (combine), A (both).
 */
#include <limits.h>
#include "bi.h"
#include "topo_algs.h"
#include "model.h"

const bi_topo bi_topos[] = {
    /* top name                                bcast            tags model             comb             tags model */
    {' ', "MPI collective",                    bi_bcast_mpi,       0, bi_model_bcast_mpi,   bi_comb_mpi,    0, bi_model_comb_mpi},
    {'I', "increasing ring",                   bi_bcast_iring,     1, bi_model_bcast_ring,  bi_comb_mring,  2, bi_model_comb_mring},
    {'D', "decreasing ring",                   bi_bcast_dring,     1, bi_model_bcast_ring,  bi_comb_mring,  2, bi_model_comb_mring},
    {'S', "split ring",                        bi_bcast_sring,     1, bi_model_bcast_sring, bi_comb_mring,  2, bi_model_comb_mring},
    {'M', "multiring",                         bi_bcast_mring,     1, bi_model_bcast_mring, bi_comb_mring,  2, bi_model_comb_mring},
    {'H', "hypercube / bidirectional exchange",bi_bcast_hypercube, 2, bi_model_bcast_hcube, bi_comb_bidir,  2, bi_model_comb_bidir},
    {'F', "fully connected",                   bi_bcast_fully,     1, bi_model_bcast_mring, bi_comb_tree,   2, bi_model_comb_tree},
    {'T', "general tree (BLACS_SET branches)", bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'1', "tree, 1 branch",                    bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'2', "tree, 2 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'3', "tree, 3 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'4', "tree, 4 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'5', "tree, 5 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'6', "tree, 6 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'7', "tree, 7 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'8', "tree, 8 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'9', "tree, 9 branches",                  bi_bcast_tree,      1, bi_model_bcast_tree,  bi_comb_tree,   2, bi_model_comb_tree},
    {'C', "scatter then collect (allgather)",  bi_bcast_scatcol,   2, bi_model_bcast_scatcol, NULL,         0, NULL},
    {'P', "pipelined (segmented) ring",        bi_bcast_pipe,      1, bi_model_bcast_pipe,  NULL,           0, NULL},
    {'R', "recursive halving + doubling (LAWN 29 v3)", NULL,       0, NULL,                 bi_comb_rhd,    2, bi_model_comb_rhd},
    {'B', "bucket reduce-scatter + collect",   NULL,               0, NULL,                 bi_comb_bucket, 2, bi_model_comb_bucket},
    {'Y', "hybrid, Theorem 1 switch (LAWN 29 v4)", NULL,           0, NULL,                 bi_comb_hybrid, 2, bi_model_comb_hybrid},
    {'A', "automatic: cheapest by cost model", bi_topo_auto,       2, bi_model_bcast_auto,  bi_topo_auto,   2, bi_model_comb_auto},
};
const int bi_ntopos = (int)(sizeof bi_topos / sizeof bi_topos[0]);

/* 'A' has no algorithm of its own (bi_bcast_select, bi_comb_select) */
void bi_topo_auto(bi_coll *c)
{
    (void)c;
    BI_ERROR(-1, "internal: TOP 'A' run without the selection step");
}

const bi_topo *bi_topo_find(char top)
{
    if (top >= 'a' && top <= 'z') top = (char)(top - 32);
    for (int i = 0; i < bi_ntopos; i++)
        if (bi_topos[i].top == top) return &bi_topos[i];
    return NULL;
}

/* TOP ' ' is MPI's collective on the scope's communicator.  A scope that
 * has none (a row or column that is the whole grid: bi_scope_has_coll)
 * runs the binomial tree, '1', instead, on the message IDs of its class,
 * which keep it apart from the 'All' scope's MPI collectives on the same
 * communicator; every member makes the same choice, from the grid's shape
 * alone.  The tree is fixed-order, so a repeatable combine (BLACS_SET
 * WHAT=15) needs nothing more, and its leave-on-all is coherent.  The
 * trace names '1', the algorithm that ran, as for a combine's 'A'.  This
 * is the one place ' ' is replaced for that reason; the broadcast and the
 * combine selections both begin with it. */
static const bi_topo *scope_topo(const bi_topo *t, bi_coll *c)
{
    if (t->top != ' ' || bi_scope_has_coll(c->sc)) return t;
    c->top = '1';
    return bi_topo_find('1');
}

bi_alg bi_bcast_select(const bi_topo *t, const bi_ctx *cx, bi_coll *c, int *ntags, int *first)
{
    t = scope_topo(t, c);
    const int np = c->np;
    const double bytes = (double)c->count * (double)c->isize;
    /* MPICH's (4.0) MPI_Ibcast, which TOP ' ' uses so that its source never
     * waits (bcast_mpi.c), fails on messages past 2^31 bytes ("Invalid
     * communicator" at the receivers; Open MPI's moves them): the binomial
     * tree moves those; every process has the same count, so all decide
     * alike */
#if defined(MPICH_VERSION)
    if (t->bcast == bi_bcast_mpi && np > 1 && bytes > (double)INT_MAX) {
        c->top = '1';
        t = bi_topo_find('1');
    }
#endif
    const int hcube = t->bcast == bi_bcast_hypercube;
    *ntags = t->bcast_ntags;
    *first = 0;
    c->param = bi_bcast_param(t, cx, np);
    /* 'A' runs what the models pick, within the two IDs it reserves */
    if (t->bcast == bi_topo_auto) t = bi_bcast_choose(np, bytes, &c->param);
    /* 'H' needs a power of two (LAWN 73 4.3.2); otherwise the 1-branch
     * tree, on the second of the two IDs reserved */
    if (t->bcast == bi_bcast_hypercube && !bi_ispow2(np)) {
        c->param = 1;
        *first = 1;
        return bi_bcast_tree;
    }
    if (hcube) *ntags = 1; /* TOP 'H' takes its second ID only for the tree */
    /* 'C' cannot fill its blocks from a short vector: the binomial tree */
    if (t->bcast == bi_bcast_scatcol && bi_bcast_scatcol_short(np, bytes)) {
        c->param = 1;
        return bi_bcast_tree;
    }
    return t->bcast;
}

bi_alg bi_comb_select(const bi_topo *t, const bi_ctx *cx, bi_coll *c, int *ntags)
{
    t = scope_topo(t, c);
    *ntags = t->comb_ntags; /* 'A' keeps the two it reserves whatever it picks */
    c->param = bi_comb_param(t->top, cx, c->np);
    /* 'A' runs the letter the models pick (with the parameter they were
     * evaluated with), and the trace names that letter */
    if (t->comb == bi_topo_auto) {
        c->top = bi_comb_choose(bi_machine_default(), c->np, (double)(c->count * c->isize),
                                c->root < 0, c->coherent);
        c->param = 1;
        t = bi_topo_find(c->top);
    }
    /* 'H' exchanges only for leave-on-all without the coherence flag
     * (LAWN 73 5.4.2); otherwise it is the radix-2 tree */
    if (t->comb == bi_comb_bidir && (c->root >= 0 || c->coherent)) {
        c->param = 1;
        return bi_comb_tree;
    }
    return t->comb;
}
