/*
 * plan.h -- the selection step (plan.c): what one broadcast or combine
 * runs, made from the call alone before anything moves.
 */
#ifndef BI_PLAN_H
#define BI_PLAN_H
#include "topology.h"
#pragma GCC visibility push(hidden)

/* the call a plan is made for */
typedef struct {
    const bi_topo *t;  /* TOP's table entry */
    const bi_ctx *ctx; /* BLACS_SET 11-14: rings and branches */
    int np;            /* scope size */
    int has_coll;      /* the scope has MPI collectives of its own (bi_scope_has_coll) */
    int root;          /* source, or destination scope rank; -1 leave-on-all */
    size_t count, isize;
    int repeat, coherent; /* BLACS_SET 15, 16: 0 or 1, as the flags below */
    int ordered;       /* combine: its result depends on the order of operations
                          (real and complex sums, user combines) */
    int user;          /* combine: a user combine (vTUOP2D) */
    int onenode;       /* every member of the scope on one node (bi_scope.nnodes 1) */
    int first_alone;   /* combine: bi_scope.first_alone where BI_REDUCE_LONE, else 0 */
} bi_call_in;

bi_plan bi_bcast_plan(const bi_call_in *in, const bi_machine *m);
bi_plan bi_comb_plan(const bi_call_in *in, const bi_machine *m);

#pragma GCC visibility pop
#endif
