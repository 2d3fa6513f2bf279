/*
 * model.h -- what the cost models, the automatic choice ('A'), the
 * pipelined ring's segment choice ('P') and TIMING share besides the
 * topology table: the default machine and the topology parameter a TOP
 * letter stands for.  (Candidates for bi.h; kept apart so the broadcast
 * files do not touch the core's header.)
 */
#ifndef MODEL_H
#define MODEL_H
#include "bi.h"
#pragma GCC visibility push(hidden)

/* Machine parameters assumed when nothing was measured (machine.c): read
 * once from BLACS_ALPHA, BLACS_SEND_ALPHA, BLACS_BETA, BLACS_GAMMA,
 * BLACS_MEMCPY_BETA (microseconds, microseconds per byte), defaults for a
 * current cluster.  Every process must see the same values: 'A' and 'P'
 * decide from them locally. */
const bi_machine *bi_machine_default(void);

/* message length in bytes from which a fan-in receives its contributions
 * one at a time instead of all at once (machine.c) */
double bi_serial_bytes(const bi_machine *m);

/* rings / branches / paths that topology t means for a broadcast in a scope
 * of np processes of context c (c may be NULL: BLACS_SET defaults) */
int bi_bcast_param(const bi_topo *t, const bi_ctx *c, int np);

/* rings / branches that TOP letter t means for a combine in a scope of np
 * processes of context c (c may be NULL: BLACS_SET defaults) (combine.c) */
int bi_comb_param(char t, const bi_ctx *c, int np);

/* the element operation of a combine (ops.c) */
void bi_op_setup(bi_op *op, int kind, int type, int owners);

/* number of segments of the pipelined ring for count items of isize bytes
 * (bcast_pipe.c): BLACS_PIPE_SEGMENT bytes if set, else the model optimum */
size_t bi_pipe_nseg(const bi_machine *m, int np, size_t count, size_t isize);
double bi_pipe_segment(void); /* BLACS_PIPE_SEGMENT in bytes, 0: not set */
/* BLACS_COMB_NSHORT in bytes, 0: not set (comb_hybrid.c) */
double bi_comb_nshort(void);

#pragma GCC visibility pop
#endif
