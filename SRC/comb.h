/*
 * comb.h -- what the combine files share (private to combine.c, ops.c and
 * comb_*.c): the element operations, the building blocks several combine
 * topologies reuse (fan-in tree, broadcasts back, recursive halving and
 * doubling), and the cost-model helper for leave-on-one or leave-on-all.
 *
 * Every algorithm sees c->count items of c->isize bytes in c->buf and
 * combines partner data into it with c->op->fn (mine op= received).  For
 * AMX/AMN with RA/CA wanted, each item is the value followed by an int32
 * owner key (LAWN 73 5.3.1: one contiguous result buffer, sent without
 * copies); algorithms never look inside items.
 */
#ifndef COMB_H
#define COMB_H
#include "bi.h"
#include "topo_algs.h"
#include "model.h"
#pragma GCC visibility push(hidden)


/* attribute of the combine item datatypes holding their bi_op (combine.c) */
extern int bi_comb_keyval;

/* INIT or POST of a user combine on n items of isize bytes at x (ops.c) */
void bi_uop_apply(bi_ufn f, size_t n, void *x, size_t isize);

/* work buffer of n items for partner data; release with bi_buf_release */
bi_buf *bi_comb_work(const bi_coll *c, size_t items);

/* comb_tree.c: tree gather (fan-in) of radix r >= 2 to scope rank dest,
 * LAWN 73 5.4.1; contributions combined as they arrive unless c->repeat */
void bi_comb_fanin(bi_coll *c, int dest, int radix, int tag);
/* one contribution from each of the n scope ranks from[] combined into
 * c->buf, every receive naming its source; arrival order unless c->repeat */
void bi_comb_recv(bi_coll *c, const int *from, int n, int tag);
/* the model of bi_comb_recv: when the last of k contributions is combined,
 * k-1 of them ready to be sent at t_rest, the last (received last) at t_last */
double bi_model_fanin(const bi_machine *m, double bytes, int k, double t_rest, double t_last);
/* binomial redistribution of c->buf from scope rank root */
void bi_comb_bcast_binomial(bi_coll *c, int root, int tag);

/* comb_rhd.c: LAWN 29 Figures 4/6 for any p.  After folding the ranks
 * beyond the largest power of two p2 in (LAWN 73 5.4.2), the first `halve`
 * of the log2(p2) dimensions halve the vector (Version 3), the others
 * exchange (leave-on-all, Version 2) or fan in (leave-on-one) the whole
 * remaining piece; the halves are then collected back.  halve < 0: all. */
void bi_comb_rhd_core(bi_coll *c, int halve);
/* halving steps of the optimal hybrid (Theorem 1, Note 3, section 6) */
int bi_comb_hybrid_halvings(const bi_machine *m, int np, double bytes);

/* comb_mpi.c: every process of the scope learns whether all pass c->count
 * items (one short MPI reduction); if not, a count-mismatch error on each */
void bi_comb_count_check(const bi_coll *c);

/* cost models: each bi_model_comb_* returns the leave-on-all time (every
 * process finishes about together) and stores the leave-on-one time of the
 * destination in *root; this helper gives one of the two. */
double bi_comb_model(bi_model_fn f, const bi_machine *m, int np, double bytes, int param,
                     int all);

#pragma GCC visibility pop
#endif
