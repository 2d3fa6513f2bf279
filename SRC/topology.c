/*
 * topology.c -- the one table: TOP letter -> broadcast algorithm, combine
 * algorithm, and the cost model of each (LAWN 73 table 9, 4.3, 5.4; LAWN 29;
 * van de Geijn's slides).  The library, TIMING's predictions and the
 * hybrid choices all read this table.
 *
 * Letters of the reference BLACS: ' ' I D S M H F T 1-9.  Ours, on letters
 * the reference does not use: C P (broadcast), R B Y (combine), A (both).
 */
#include "bi.h"
#include "topo_algs.h"

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
    {'A', "automatic: cheapest by cost model", bi_bcast_auto,      2, bi_model_bcast_auto,  bi_comb_auto,   2, bi_model_comb_auto},
};
const int bi_ntopos = (int)(sizeof bi_topos / sizeof bi_topos[0]);

const bi_topo *bi_topo_find(char top)
{
    if (top >= 'a' && top <= 'z') top = (char)(top - 32);
    for (int i = 0; i < bi_ntopos; i++)
        if (bi_topos[i].top == top) return &bi_topos[i];
    return NULL;
}
