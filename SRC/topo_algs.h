/*
 * topo_algs.h -- the algorithm layer (SRC/layers.txt): the broadcast and
 * combine algorithms the topology table names.
 * Broadcast algorithms: the root (c->me == c->root) sends c->buf, every other
 * process receives into c->buf.  Combine algorithms: c->buf holds my items
 * and receives the result (on c->root, or on everyone when c->root == -1).
 * Both post their sends through bi_isend/bi_fwd (transport.c) with
 * tags c->tag .. and leave posted sends in c->reqs.  An algorithm reads
 * only its descriptor and its plan (c->plan: parameter, segments,
 * halvings, serial receives), settled before it starts (plan.c); it calls
 * no model, no machine and no dispatcher.
 */
#ifndef BI_TOPO_ALGS_H
#define BI_TOPO_ALGS_H
#include "core.h"
#include "intmath.h"
#pragma GCC visibility push(hidden)

/* broadcasts: bcast_mpi.c, bcast_ring.c, bcast_hypercube.c, bcast_tree.c,
 * bcast_scatcol.c (bcast_ring.c also has 'P').  TOP ' ' takes a non-contiguous shape in place through
 * its datatype (c->shape) rather than packed (bcast_mpi.c says when) */
void bi_bcast_mpi(bi_coll *c);
void bi_bcast_iring(bi_coll *c);
void bi_bcast_dring(bi_coll *c);
void bi_bcast_sring(bi_coll *c);
void bi_bcast_mring(bi_coll *c);
void bi_bcast_fully(bi_coll *c);
void bi_bcast_hypercube(bi_coll *c);
void bi_bcast_tree(bi_coll *c);
void bi_bcast_scatcol(bi_coll *c);
void bi_bcast_pipe(bi_coll *c);
/* the tree broadcast of radix r from scope rank root on message ID tag
 * (bcast_tree.c): '1'-'9', 'T', and the way back of the tree combines */
void bi_bcast_tree_from(bi_coll *c, int root, int radix, int tag);
/* the multipath broadcast of 'I', 'D', 'M', 'F' from scope rank root on
 * message ID tag (bcast_ring.c): |nr| paths (capped at Np-1), the ring
 * direction the sign of nr; also the way back of the multiring combine */
void bi_bcast_paths(bi_coll *c, int root, int nr, int tag);
/* the 'A' entries of the table (topology.c): never run */
void bi_topo_auto(bi_coll *c);

/* combines: comb_mpi.c, comb_tree.c, comb_bidir.c, comb_mring.c, comb_rhd.c,
 * comb_bucket.c, comb_hybrid.c */
void bi_comb_mpi(bi_coll *c);
void bi_comb_tree(bi_coll *c);
void bi_comb_bidir(bi_coll *c);
void bi_comb_mring(bi_coll *c);
void bi_comb_rhd(bi_coll *c);
void bi_comb_bucket(bi_coll *c);
void bi_comb_hybrid(bi_coll *c);

#pragma GCC visibility pop
#endif
