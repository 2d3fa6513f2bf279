/*
 * topology.h -- the selection layer's table (topology.c): each TOP letter's
 * broadcast and combine algorithm, its cost model and message IDs, and the
 * restrictions under which it runs something else; the parameter a letter
 * stands for; what 'A' picks.  TIMING's analysis reads the table too.
 */
#ifndef BI_TOPOLOGY_H
#define BI_TOPOLOGY_H
#include "core.h"
#include "model.h"
#pragma GCC visibility push(hidden)

/* what a table entry's algorithm is, or needs (bcast_flags, comb_flags);
 * an entry whose need is not met runs the radix-2 tree, '1' (plan.c) */
enum {
    BI_TOP_MPI = 1,       /* MPI's collective on the scope communicator (TOP ' ') */
    BI_TOP_AUTO = 2,      /* no algorithm of its own: the models pick one ('A') */
    BI_TOP_POW2 = 4,      /* a power-of-two scope ('H' broadcast), else the tree
                             on the second of the entry's message IDs */
    BI_TOP_LONG = 8,      /* a vector long enough to fill every block ('C') */
    BI_TOP_EXCHANGE = 16, /* leave-on-all without the coherence flag ('H' combine) */
    BI_TOP_NSEG = 32,     /* runs in segments: the plan fixes their number ('P') */
    BI_TOP_HALVE = 64,    /* halves then exchanges: the plan fixes the halvings ('Y') */
    BI_TOP_PIECES = 128,  /* a ring that forwards long vectors in pieces: the plan
                             fixes their number for its longest path ('I' 'D' 'S' 'M') */
    BI_TOP_PEERS = 256    /* a receiver may wait for another before it has taken all the
                             source sends it ('C': the collect): a long vector goes from A
                             only with every receiver's word in (plan.direct 1) */
};

typedef struct bi_topo {
    char top;                    /* letter as documented (upper case or digit or ' ') */
    const char *name;
    bi_alg bcast;                /* NULL: not a broadcast topology */
    int bcast_ntags;
    bi_model_fn bcast_model;
    bi_alg comb;                 /* NULL: not a combine topology */
    int comb_ntags;
    bi_model_fn comb_model;
    int bcast_flags, comb_flags; /* BI_TOP_* */
} bi_topo;
extern const bi_topo bi_topos[];
extern const int bi_ntopos;
const bi_topo *bi_topo_find(char top);       /* case-insensitive; NULL if unknown */

/* rings / branches / paths that topology t means for a broadcast in a scope
 * of np processes of context c (c may be NULL: BLACS_SET defaults) */
int bi_bcast_param(const bi_topo *t, const bi_ctx *c, int np);
/* rings / branches that TOP letter t means for a combine in a scope of np
 * processes of context c (c may be NULL: BLACS_SET defaults) */
int bi_comb_param(char t, const bi_ctx *c, int np);

/* 'A': the broadcast the models pick for (np, bytes) on the default
 * machine, *param its parameter; the combine letter ('1', 'H', 'R', 'B' or
 * 'Y'; all of them fixed-order, so repeatable) for leave-on-all when
 * all != 0, without 'H' when coherent != 0 */
const bi_topo *bi_bcast_choose(int np, double bytes, int *param);
char bi_comb_choose(const bi_machine *m, int np, double bytes, int all, int coherent);
/* short TOP ' ' broadcasts (plan.c): the tree '1' to '9' for a scope of np
 * processes, a function of np and the environment alone */
const bi_topo *bi_bcast_short_tree(int np);
double bi_model_bcast_auto(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_auto(const bi_machine *m, int np, double bytes, int param, double *root);

#pragma GCC visibility pop
#endif
