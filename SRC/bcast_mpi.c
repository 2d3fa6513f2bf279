/*
 * bcast_mpi.c -- TOP ' ' (the default): MPI's own broadcast on the scope's
 * communicator (spec 7), no message ID.
 */
#include <limits.h>
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
    char *p = c->buf;
    size_t left = c->count;
    while (left) { /* counts beyond INT_MAX go in pieces */
        int n = left > (size_t)INT_MAX ? INT_MAX : (int)left;
        bcast(c, comm, p, n, c->dt, (size_t)n * c->isize);
        left -= (size_t)n;
        p += (size_t)n * c->isize;
    }
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
