/*
 * topo_algs.h -- the algorithms and cost models the topology table names,
 * and the selection step that maps a call to one of them.
 * Broadcast algorithms: the root (c->me == c->root) sends c->buf, every other
 * process receives into c->buf.  Combine algorithms: c->buf holds my items
 * and receives the result (on c->root, or on everyone when c->root == -1).
 * Both post their sends through bi_isend/bi_send (transport.c) with tags
 * c->tag .. c->tag + ntags - 1 and leave posted sends in c->reqs.  An
 * algorithm only reads its descriptor: what it runs with (c->param, the
 * fallbacks of 'H' and 'C', the choice of 'A') is settled by the selection
 * step before it starts.
 */
#ifndef TOPO_ALGS_H
#define TOPO_ALGS_H
#include "bi.h"
#pragma GCC visibility push(hidden)

typedef void (*bi_alg)(bi_coll *c);

/* ---- the selection step (topology.c) ------------------------------------
 * The algorithm that carries out a call of table entry t in context cx on
 * descriptor c (np, me, root, count, isize, coherent and top filled in):
 * sets c->param (and, for a combine 'A' or a ' ' the scope cannot give to
 * MPI, c->top to the letter chosen).  Both say how many message IDs to
 * reserve (*ntags); bi_bcast_select also at which of them the algorithm
 * starts (*first). */
bi_alg bi_bcast_select(const bi_topo *t, const bi_ctx *cx, bi_coll *c, int *ntags, int *first);
bi_alg bi_comb_select(const bi_topo *t, const bi_ctx *cx, bi_coll *c, int *ntags);
/* 'A': the broadcast the models pick for (np, bytes), *param its parameter
 * (bcast_auto.c); the combine letter ('1', 'H', 'R', 'B' or 'Y'; all of
 * them fixed-order, so repeatable) for leave-on-all when all != 0, without
 * 'H' when coherent != 0 (comb_auto.c) */
const bi_topo *bi_bcast_choose(int np, double bytes, int *param);
char bi_comb_choose(const bi_machine *m, int np, double bytes, int all, int coherent);

/* ---- integer helpers ---------------------------------------------------- */
static inline int bi_ispow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
/* largest power of two <= n, n >= 1 */
static inline int bi_pow2_floor(int n) { int p = 1; while (2 * p <= n) p *= 2; return p; }
/* floor(log2 n) and ceil(log2 n), n >= 1 */
static inline int bi_log2i(int n) { int d = 0; while ((1 << (d + 1)) <= n) d++; return d; }
static inline int bi_log2c(int n) { int d = 0; while ((1 << d) < n) d++; return d; }
/* n items cut into k blocks as evenly as possible, the first n mod k one
 * item longer: the first item of block b, 0 <= b <= k (block k starts at n) */
static inline size_t bi_block_first(size_t n, size_t k, size_t b)
{
    return b * (n / k) + (b < n % k ? b : n % k);
}

/* rings or paths that a signed count nr (its sign a direction) gives over
 * np >= 2 processes: |nr|, at least 1 and at most Np-1 */
static inline int bi_npaths(int nr, int np)
{
    if (nr < 0) nr = -nr;
    if (nr > np - 1) nr = np - 1;
    return nr < 1 ? 1 : nr;
}

/* ---- cost models ---------------------------------------------------------
 * terms (LAWN 73 3.3): complete communication, send, operation on b bytes */
static inline double bi_tc(const bi_machine *m, double b) { return m->tc.a + m->tc.b * b; }
static inline double bi_ts(const bi_machine *m, double b) { return m->ts.a + m->ts.b * b; }
static inline double bi_to(const bi_machine *m, double b) { return m->to.a + m->to.b * b; }
/* the model of a scope with nothing to send (Np < 2) */
static inline double bi_model_none(double *root)
{
    if (root) *root = 0;
    return 0;
}

/* broadcasts: bcast_mpi.c, bcast_ring.c, bcast_hypercube.c, bcast_tree.c,
 * bcast_scatcol.c, bcast_pipe.c; the models of all of them and of 'A'
 * (bcast_auto.c).  TOP ' ' takes a non-contiguous shape in place through
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
/* the multipath broadcast of 'I', 'D', 'M', 'F' from scope rank root on
 * message ID tag (bcast_ring.c): |nr| paths (capped at Np-1), the ring
 * direction the sign of nr; also the way back of the multiring combine */
void bi_bcast_paths(bi_coll *c, int root, int nr, int tag);
/* 'C' on a vector this short is the binomial tree (bcast_scatcol.c) */
int bi_bcast_scatcol_short(int np, double bytes);
/* the 'A' entries of the table (topology.c): the selection step replaces
 * 'A' by the algorithm the models pick, so this only marks the letter as a
 * broadcast and a combine topology; it is never run */
void bi_topo_auto(bi_coll *c);
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
 * comb_bucket.c, comb_hybrid.c; the models of all of them and of 'A'
 * (comb_auto.c) */
void bi_comb_mpi(bi_coll *c);
void bi_comb_tree(bi_coll *c);
void bi_comb_bidir(bi_coll *c);
void bi_comb_mring(bi_coll *c);
void bi_comb_rhd(bi_coll *c);
void bi_comb_bucket(bi_coll *c);
void bi_comb_hybrid(bi_coll *c);
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
