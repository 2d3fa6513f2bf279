/*
 * bcast_mpi.c -- TOP ' ' (the default): MPI's own broadcast on the scope's
 * communicator (spec 7), no message ID.
 */
#include <math.h>
#include "topo_algs.h"

static void bcast(const bi_coll *c, MPI_Comm comm, void *p, int n, MPI_Datatype dt, size_t bytes)
{
    if (bi_g.debug >= 2 || bi_g.stats) {
        /* non-blocking, so BLACS_DEBUG=2 notices a hang */
        MPI_Request r;
        BI_MPI(MPI_Ibcast(p, n, dt, c->root, comm, &r), "MPI_Ibcast");
        bi_wait(&r, MPI_STATUS_IGNORE, comm, -1, -1, bytes);
    } else {
        BI_MPI(MPI_Bcast(p, n, dt, c->root, comm), "MPI_Bcast");
    }
}

void bi_bcast_mpi(bi_coll *c)
{
    MPI_Comm comm = bi_scope_comm(c->sc);
    if (!c->count) {
        /* an empty broadcast still happens (spec 7); with one byte, as MPI
         * skips empty ones: a process whose shape is not empty then gets an
         * error instead of waiting forever */
        char token = 0;
        bcast(c, comm, &token, 1, MPI_BYTE, 1);
        return;
    }
    bi_mpicount k = bi_mpicount_of(c->count, c->dt); /* past INT_MAX items: a derived type */
    bcast(c, comm, c->buf, k.n, k.dt, c->count * c->isize);
    bi_mpicount_free(&k);
}

/* What a good MPI does: the better of the binomial tree,
 * ceil(log p)(alpha + n beta), and scatter + allgather (slides). */
double bi_model_bcast_mpi(const bi_machine *m, int np, double bytes, int param, double *root)
{
    double lg = np > 1 ? ceil(log2(np)) : 0;
    double t = lg * (m->tc.a + bytes * m->tc.b);
    double sc = bi_model_bcast_scatcol(m, np, bytes, param, NULL);
    if (sc < t) t = sc;
    if (root) *root = t;
    return t;
}
