/*
 * topo_algs.h -- the algorithms and cost models the topology table names.
 * Broadcast algorithms: the root (c->me == c->root) sends c->buf, every other
 * process receives into c->buf.  Combine algorithms: c->buf holds my items
 * and receives the result (on c->root, or on everyone when c->root == -1).
 * Both post their sends through bi_isend/bi_send (transport.c) with tags
 * c->tag .. c->tag + ntags - 1 and leave posted sends in c->reqs.
 */
#ifndef TOPO_ALGS_H
#define TOPO_ALGS_H
#include "bi.h"
#pragma GCC visibility push(hidden)

/* broadcasts: bcast_mpi.c, bcast_ring.c, bcast_hypercube.c, bcast_tree.c,
 * bcast_scatcol.c, bcast_pipe.c, bcast_auto.c */
void bi_bcast_mpi(bi_coll *c);
/* TOP ' ' takes a non-contiguous shape in place through its datatype
 * (c->shape) rather than packed (bcast_mpi.c says when) */
void bi_bcast_iring(bi_coll *c);
void bi_bcast_dring(bi_coll *c);
void bi_bcast_sring(bi_coll *c);
void bi_bcast_mring(bi_coll *c);
void bi_bcast_fully(bi_coll *c);
void bi_bcast_hypercube(bi_coll *c);
void bi_bcast_tree(bi_coll *c);
void bi_bcast_scatcol(bi_coll *c);
void bi_bcast_pipe(bi_coll *c);
void bi_bcast_auto(bi_coll *c);
double bi_model_bcast_mpi(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_ring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_sring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_mring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_hcube(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_tree(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_scatcol(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_pipe(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_auto(const bi_machine *m, int np, double bytes, int param, double *root);

/* combines: comb_mpi.c, comb_tree.c, comb_bidir.c, comb_mring.c, comb_rhd.c,
 * comb_bucket.c, comb_hybrid.c, comb_auto.c */
void bi_comb_mpi(bi_coll *c);
void bi_comb_tree(bi_coll *c);
void bi_comb_bidir(bi_coll *c);
void bi_comb_mring(bi_coll *c);
void bi_comb_rhd(bi_coll *c);
void bi_comb_bucket(bi_coll *c);
void bi_comb_hybrid(bi_coll *c);
void bi_comb_auto(bi_coll *c);
double bi_model_comb_mpi(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_tree(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_bidir(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_mring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_rhd(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_bucket(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_hybrid(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_auto(const bi_machine *m, int np, double bytes, int param, double *root);

#pragma GCC visibility pop
#endif
