/*
 * model.h -- the model layer (SRC/layers.txt): the machine the cost models are
 * fed (machine.c), the cost model of every topology (model_bcast.c,
 * model_comb.c: LAWN 73 table 9, 4.3, 5.4; LAWN 29; the slides), and the
 * run-time quantities a plan takes from them (pieces of the rings, segments of 'P', halvings of
 * 'Y', when a fan-in receives one contribution at a time).  Pure functions:
 * no MPI, no library state, nothing above the ground layer.  The selection
 * step (topology.c, plan.c) and TIMING's analysis call them; no algorithm
 * does.  Times in microseconds, lengths in bytes.
 */
#ifndef BI_MODEL_H
#define BI_MODEL_H
#include "base.h"
#include "intmath.h"
#pragma GCC visibility push(hidden)

/* machine parameters: T(n) = a + b*n */
typedef struct { double a, b; } bi_lin;
typedef struct {
    bi_lin tc, ts;     /* complete communication, send (LAWN 73 3.3) */
    bi_lin to, tm;     /* operation, memory copy per byte */
    double tp;         /* posting a send that is not waited for */
} bi_machine;
/* cost model: returns the maximum time any process spends, and the
 * source/destination time through *root_time when non-NULL */
typedef double (*bi_model_fn)(const bi_machine *m, int np, double bytes, int param,
                              double *root_time);

/* ---- the machine (machine.c) ---------------------------------------------
 * Machine parameters assumed when nothing was measured: read once from
 * BLACS_ALPHA, BLACS_SEND_ALPHA, BLACS_BETA, BLACS_GAMMA, BLACS_MEMCPY_BETA,
 * BLACS_POST_ALPHA (microseconds, microseconds per byte), defaults for a current cluster.
 * Every process must see the same values: plans are made from them locally
 * (the grid's creation checks that they agree, agree.c). */
const bi_machine *bi_machine_default(void);
/* message length in bytes from which a fan-in receives its contributions
 * one at a time instead of all at once */
double bi_serial_bytes(const bi_machine *m);
double bi_pipe_segment(void); /* BLACS_PIPE_SEGMENT in bytes, 0: not set */
double bi_comb_nshort(void);  /* BLACS_COMB_NSHORT in bytes, 0: not set */
double bi_source_wait(void);  /* BLACS_SOURCE_WAIT in us (10000), 0: never */

/* ---- terms (LAWN 73 3.3): complete communication, send, operation --------- */
static inline double bi_tc(const bi_machine *m, double b) { return m->tc.a + m->tc.b * b; }
static inline double bi_ts(const bi_machine *m, double b) { return m->ts.a + m->ts.b * b; }
static inline double bi_to(const bi_machine *m, double b) { return m->to.a + m->to.b * b; }
/* A send whose transfer is under 1% of the start-up T_c(0) is all latency:
 * a broadcast source posts such sends together instead of waiting for each
 * in turn (plan.c, transport.c). */
static inline int bi_posted_together(const bi_machine *m, double b)
{
    return b * m->tc.b < 0.01 * m->tc.a;
}
/* The time between a broadcast source's consecutive sends of b bytes.  One
 * after the other: T_s(b).  Posted together: the larger of what posting one
 * costs, T_p, and the time the source's link takes for its bytes, which all
 * of them share (in SMPI, where posting is free, 255 sends of one double
 * from one source reach their receivers within 1.5 T_c). */
static inline double bi_ts_source(const bi_machine *m, double b)
{
    if (!bi_posted_together(m, b)) return bi_ts(m, b);
    return m->tp > b * m->tc.b ? m->tp : b * m->tc.b;
}
/* the model of a scope with nothing to send (Np < 2) */
static inline double bi_model_none(double *root)
{
    if (root) *root = 0;
    return 0;
}

/* ---- broadcasts (model_bcast.c) ------------------------------------------ */
double bi_model_bcast_mpi(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_ring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_sring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_mring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_fully(const bi_machine *m, int np, double bytes, int param, double *root);
/* the multipath broadcast ('I', 'D', 'M', 'F'; the multiring combine's way
 * back) of |nr| paths with the vector in k pieces */
double bi_model_paths(const bi_machine *m, int np, double bytes, int nr, double k, double *root);
double bi_model_bcast_hcube(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_tree(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_scatcol(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_bcast_pipe(const bi_machine *m, int np, double bytes, int param, double *root);
/* 'C' on a vector this short is the binomial tree */
int bi_bcast_scatcol_short(int np, double bytes);
/* segments of the pipelined ring 'P' for count items of isize bytes:
 * BLACS_PIPE_SEGMENT bytes if set, else the model optimum */
size_t bi_pipe_nseg(const bi_machine *m, int np, size_t count, size_t isize);
/* ceil(bytes / most) pieces of count items of isize bytes, at most 4096 and
 * count, at least one */
size_t bi_pieces_upto(size_t count, size_t isize, double most);
/* pieces of ring top ('I', 'D', 'S', 'M'; param as bi_bcast_param) for
 * count items of isize bytes on np processes: BLACS_PIPE_SEGMENT bytes if
 * set, else the k that minimises the topology's model, with pieces of
 * BI_RING_MINPIECE bytes at least, so that a short vector is one message */
#define BI_RING_MINPIECE 8192
size_t bi_ring_nseg(const bi_machine *m, char top, int np, int param, size_t count, size_t isize);

/* ---- combines (model_comb.c) ----------------------------------------------
 * each returns the leave-on-all time and stores the leave-on-one time of the
 * destination in *root; bi_comb_model gives one of the two */
double bi_model_comb_mpi(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_tree(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_bidir(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_mring(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_rhd(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_bucket(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_model_comb_hybrid(const bi_machine *m, int np, double bytes, int param, double *root);
double bi_comb_model(bi_model_fn f, const bi_machine *m, int np, double bytes, int param,
                     int all);
/* the model of a fan-in's receiver (bi_comb_recv): when the last of k
 * contributions is combined, k-1 of them ready to be sent at t_rest, the
 * last (received last) at t_last */
double bi_model_fanin(const bi_machine *m, double bytes, int k, double t_rest, double t_last);
/* halving steps of the optimal hybrid 'Y' (LAWN 29 Theorem 1, Note 3, 6) */
int bi_comb_hybrid_halvings(const bi_machine *m, int np, double bytes);

#pragma GCC visibility pop
#endif
