/*
 * comb_mpi.c -- TOP ' ': MPI's own reduction on the scope communicator
 * (spec 8.3): MPI_Reduce to the destination, MPI_Allreduce for
 * leave-on-all.  Sums use the predefined MPI_SUM on the element type (MPI
 * knows the complex types too); AMX/AMN use one commutative user operation,
 * created on first use and freed at BLACS_EXIT, which finds its bi_op
 * through an attribute of the item datatype (combine.c).
 */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "comb.h"

static MPI_Op amop = MPI_OP_NULL;

static void amfn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    bi_op *op = NULL;
    int found = 0;
    MPI_Type_get_attr(*dt, bi_comb_keyval, &op, &found);
    if (found && op) op->fn(inout, in, (size_t)*len, op);
}

static void free_op(void)
{
    if (amop != MPI_OP_NULL) MPI_Op_free(&amop);
    amop = MPI_OP_NULL;
}

/* AMX/AMN of real types as MPI's own MAXLOC/MINLOC: each item becomes the
 * pair (|x|, index) of a predefined pair type, so MPI reduces it with its
 * built-in code and picks its algorithms as for MPI_MAX (a user operation
 * on a derived type gets neither).  The index carries what ops.c's ties
 * need: MAXLOC/MINLOC keep the smaller index on equal keys, so with owners
 * index = 2*owner + sign (the smaller owner key wins, the winner's sign is
 * recovered), without owners index = sign (the positive value wins, the
 * larger one).  Exactly the result of the user operation, for any order. */
#define AM_PAIR_FNS(tl, ET, VT, KEY, NEG)                                                         \
    static void to_##tl(const bi_coll *c, VT *q)                                                  \
    {                                                                                             \
        const char *p = c->buf;                                                                   \
        ET x;                                                                                     \
        int32_t k;                                                                                \
        if (c->op->owners)                                                                        \
            for (size_t i = 0; i < c->count; i++, p += c->isize, q += 2) {                        \
                memcpy(&x, p, sizeof x);                                                          \
                memcpy(&k, p + sizeof x, 4);                                                      \
                q[0] = (VT)(KEY);                                                                 \
                q[1] = (VT)(2 * k + (NEG));                                                       \
            }                                                                                     \
        else                                                                                      \
            for (size_t i = 0; i < c->count; i++, p += sizeof x, q += 2) {                        \
                memcpy(&x, p, sizeof x);                                                          \
                q[0] = (VT)(KEY);                                                                 \
                q[1] = (VT)(NEG);                                                                 \
            }                                                                                     \
    }                                                                                             \
    static void from_##tl(bi_coll *c, const VT *q)                                                \
    {                                                                                             \
        char *p = c->buf;                                                                         \
        for (size_t i = 0; i < c->count; i++, p += c->isize, q += 2) {                            \
            int32_t ix = (int32_t)q[1], k = ix >> 1;                                              \
            ET x = (ET)(ix & 1 ? -q[0] : q[0]);                                                   \
            memcpy(p, &x, sizeof x);                                                              \
            if (c->op->owners) memcpy(p + sizeof x, &k, 4);                                       \
        }                                                                                         \
    }
AM_PAIR_FNS(d, double, double, fabs(x), signbit(x) != 0)
AM_PAIR_FNS(s, float, float, fabsf(x), signbit(x) != 0)
AM_PAIR_FNS(i, Int, double, fabs((double)x), x < 0)

/* the pair type of a real element type, or MPI_DATATYPE_NULL: contiguous
 * pairs of one type (MPICH packs the C pair types element by element: they
 * have a hole), exact for the key and the index -- so doubles for D and
 * 32-bit integers, floats for S (indices below 2^24); complex and 64-bit
 * integers keep the user operation (the key is not the value's magnitude,
 * |x| does not fit a double) */
static MPI_Datatype pair_type(int type, size_t *psize)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (type == BI_D || (type == BI_I && sizeof(Int) == 4)) {
        t = MPI_2DOUBLE_PRECISION;
        *psize = 2 * sizeof(double);
    } else if (type == BI_S) {
        t = MPI_2REAL;
        *psize = 2 * sizeof(float);
    }
    int sz = 0;
    if (t != MPI_DATATYPE_NULL && (MPI_Type_size(t, &sz) != MPI_SUCCESS || (size_t)sz != *psize))
        t = MPI_DATATYPE_NULL; /* an MPI without the Fortran pair types */
    return t;
}

static void to_pairs(const bi_coll *c, void *pairs)
{
    if (c->op->type == BI_D) to_d(c, pairs);
    else if (c->op->type == BI_S) to_s(c, pairs);
    else to_i(c, pairs);
}

static void from_pairs(bi_coll *c, const void *res)
{
    if (c->op->type == BI_D) from_d(c, res);
    else if (c->op->type == BI_S) from_s(c, res);
    else from_i(c, res);
}

/* one reduction: leave-on-all (root < 0) in place in rbuf, else to root */
static void reduce(bi_coll *c, MPI_Comm comm, const void *sbuf, void *rbuf, int n,
                   MPI_Datatype dt, MPI_Op mop)
{
    if (bi_g.debug >= 2 || bi_g.stats) {
        /* non-blocking, so that BLACS_DEBUG=2 notices a hang and the
         * statistics see the waiting time */
        MPI_Request r;
        if (c->root < 0) MPI_Iallreduce(MPI_IN_PLACE, rbuf, n, dt, mop, comm, &r);
        else MPI_Ireduce(sbuf, rbuf, n, dt, mop, c->root, comm, &r);
        bi_wait(&r, MPI_STATUS_IGNORE, comm, -1, -1, c->count * c->isize);
    } else if (c->root < 0) {
        MPI_Allreduce(MPI_IN_PLACE, rbuf, n, dt, mop, comm);
    } else {
        MPI_Reduce(sbuf, rbuf, n, dt, mop, c->root, comm);
    }
}

void bi_comb_mpi(bi_coll *c)
{
    MPI_Comm comm = bi_scope_comm(c->sc);
    if (c->count > (size_t)INT_MAX)
        bi_error(c->sc->ctx->handle, __LINE__, __FILE__, "combine of %zu items too large for MPI",
                 c->count);
    const int n = (int)c->count, all = c->root < 0, lands = all || c->me == c->root;
    size_t psize = 0;
    MPI_Datatype pt = c->op->kind == BI_SUM ? MPI_DATATYPE_NULL : pair_type(c->op->type, &psize);
    if (c->op->kind != BI_SUM && pt != MPI_DATATYPE_NULL) {
        /* pairs, and for leave-on-one a second half the root receives into */
        bi_buf *w = bi_buf_get((all ? 1 : 2) * c->count * psize + 1);
        char *res = all ? w->data : w->data + c->count * psize;
        to_pairs(c, w->data);
        reduce(c, comm, w->data, all ? w->data : lands ? res : NULL, n, pt,
               c->op->kind == BI_AMX ? MPI_MAXLOC : MPI_MINLOC);
        if (lands) from_pairs(c, res);
        bi_buf_release(w);
        return;
    }
    MPI_Datatype dt = c->dt;
    MPI_Op mop;
    if (c->op->kind == BI_SUM) {
        dt = bi_mpitype(c->op->type);
        mop = MPI_SUM;
    } else {
        if (amop == MPI_OP_NULL) {
            MPI_Op_create(amfn, 1, &amop);
            bi_atexit(free_op);
        }
        mop = amop;
    }
    if (all || !lands) {
        reduce(c, comm, c->buf, all ? c->buf : NULL, n, dt, mop);
        return;
    }
    /* not MPI_IN_PLACE at the root: MPICH 4.0.2 crashes in MPI_Reduce with
     * an in-place root on sub-communicators from about 1000 doubles on */
    size_t nb = c->count * c->isize;
    bi_buf *tmp = bi_buf_get(nb + 1);
    reduce(c, comm, c->buf, tmp->data, n, dt, mop);
    memcpy(c->buf, tmp->data, nb);
    bi_buf_release(tmp);
}

/* MPI's choice is its own; model it as the better of the tree and the
 * reduce-scatter family, as MPICH switches between them by length */
double bi_model_comb_mpi(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    double r1, r2;
    double a1 = bi_model_comb_tree(m, np, bytes, 1, &r1);
    double a2 = bi_model_comb_rhd(m, np, bytes, 0, &r2);
    if (root) *root = r1 < r2 ? r1 : r2;
    return a1 < a2 ? a1 : a2;
}
