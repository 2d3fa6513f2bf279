/*
 * comb_mpi.c -- TOP ' ': MPI's own reduction on the scope communicator
 * (spec 8.3): MPI_Reduce to the destination, MPI_Allreduce for
 * leave-on-all.  Sums use the predefined MPI_SUM on the element type (MPI
 * knows the complex types too); AMX/AMN use one commutative user operation,
 * created on first use and freed at BLACS_EXIT, which finds its bi_op
 * through an attribute of the item datatype (combine.c).
 */
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

void bi_comb_mpi(bi_coll *c)
{
    MPI_Comm comm = bi_scope_comm(c->sc);
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
    /* MPI's predefined operations take predefined datatypes only, and user
     * operations an int length: counts past INT_MAX go in pieces */
    bi_buf *tmp = c->root >= 0 && c->me == c->root
                      ? bi_buf_get(bi_count_piece(c->count) * c->isize) : NULL;
    size_t off = 0;
    do {
        int n = (int)bi_count_piece(c->count - off);
        char *p = c->buf + off * c->isize;
        size_t nb = (size_t)n * c->isize;
        if (bi_g.debug >= 2 || bi_g.stats) {
            /* non-blocking, so that BLACS_DEBUG=2 notices a hang and the
             * statistics see the waiting time */
            MPI_Request r;
            if (c->root < 0) MPI_Iallreduce(MPI_IN_PLACE, p, n, dt, mop, comm, &r);
            else MPI_Ireduce(p, tmp ? tmp->data : NULL, n, dt, mop, c->root, comm, &r);
            bi_wait(&r, MPI_STATUS_IGNORE, comm, -1, -1, nb);
        } else if (c->root < 0) {
            MPI_Allreduce(MPI_IN_PLACE, p, n, dt, mop, comm);
        } else {
            /* not MPI_IN_PLACE at the root: MPICH 4.0.2 crashes in MPI_Reduce
             * with an in-place root on sub-communicators from about 1000
             * doubles on */
            MPI_Reduce(p, tmp ? tmp->data : NULL, n, dt, mop, c->root, comm);
        }
        if (tmp) memcpy(p, tmp->data, nb);
        off += (size_t)n;
    } while (off < c->count);
    if (tmp) bi_buf_release(tmp);
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
