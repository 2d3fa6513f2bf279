/*
 * comb.h -- what the combine algorithms share (comb_*.c): the building
 * blocks several combine topologies reuse (fan-in tree, recursive halving
 * and doubling) and their work buffers.
 *
 * Every algorithm sees c->count items of c->isize bytes in c->buf and
 * combines partner data into it with c->op->fn (mine op= received).  For
 * AMX/AMN with RA/CA wanted, each item is the value followed by an owner
 * key of 2 bytes, or 4 in a scope of more than 65,536 processes (LAWN 73
 * 5.3.1: one contiguous result buffer, sent without copies); algorithms
 * never look inside items.
 */
#ifndef BI_COMB_H
#define BI_COMB_H
#include "topo_algs.h"
#pragma GCC visibility push(hidden)

/* work buffer of n items for partner data; release with bi_buf_release.
 * Held for the call only and never sent from, so it is a receive's scratch,
 * outside the BLACS_BUFMAX cap on send buffers (a tree root's np-1
 * contributions at once could not fit a cap the program's sends fit in) */
static inline bi_buf *bi_comb_work(const bi_coll *c, size_t items)
{
    return bi_buf_scratch(items ? items * c->isize : 1);
}

/* comb_tree.c: tree gather (fan-in) of radix r >= 2 to scope rank dest,
 * LAWN 73 5.4.1; contributions combined as they arrive unless c->repeat */
void bi_comb_fanin(bi_coll *c, int dest, int radix, int tag);
/* one contribution from each of the n scope ranks from[] combined into
 * c->buf, every receive naming its source; arrival order unless c->repeat,
 * one at a time from c->plan.serial bytes on */
void bi_comb_recv(bi_coll *c, const int *from, int n, int tag);

/* comb_rhd.c: LAWN 29 Figures 4/6 for any p.  After folding the ranks
 * beyond the largest power of two p2 in (LAWN 73 5.4.2), the first `halve`
 * of the log2(p2) dimensions halve the vector (Version 3), the others
 * exchange (leave-on-all, Version 2) or fan in (leave-on-one) the whole
 * remaining piece; the halves are then collected back.  halve < 0: all. */
void bi_comb_rhd_core(bi_coll *c, int halve);

#pragma GCC visibility pop
#endif
