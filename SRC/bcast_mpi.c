/*
 * bcast_mpi.c -- TOP ' ' (the default): MPI's own broadcast on the scope's
 * communicator, no message ID.  Only scopes that have one get here; in a
 * row or column that is the whole grid the selection step runs the tree
 * instead (topology.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "topo_algs.h"

static void bcast(const bi_coll *c, MPI_Comm comm, void *p, int n, MPI_Datatype dt, size_t bytes)
{
    if (bi_g.debug >= 2 || bi_g.stats) {
        /* non-blocking, so BLACS_DEBUG=2 notices a hang */
        MPI_Request r;
        BI_MPI(MPI_Ibcast(p, n, dt, c->root, comm, &r), "MPI_Ibcast");
        bi_wait(&r, MPI_STATUS_IGNORE, 'c', -1, -1, bytes);
    } else {
        bi_watch_begin('c', -1, -1, bytes);
        BI_MPI(MPI_Bcast(p, n, dt, c->root, comm), "MPI_Bcast");
        bi_watch_end();
    }
}


/* c's data as the (count, datatype) of one MPI call: a non-contiguous
 * shape in place through its kept datatype (shape.c), else the run of
 * items (past INT_MAX items a derived type, freed by bi_mpicount_free) */
static bi_mpicount data_of(const bi_coll *c)
{
    if (c->shape) return (bi_mpicount){1, bi_shape_mpitype_cached(c->shape), 0};
    return bi_mpicount_of(c->count, c->dt);
}

/* Element counts must agree (as for every broadcast).  MPICH checks every broadcast's
 * bytes and reports the difference as an MPI error, whichever way it goes
 * (BI_MPI names the routine); other MPIs need not -- Open MPI fills what
 * arrives and returns success when a receiver expects more -- so elsewhere
 * the count travels with the data: a 16-byte header (count, ~count) in
 * front of short broadcasts (one copy each way), a broadcast of its own
 * before long ones.  SimGrid's SMPI is left as MPICH, so that simulated
 * times stay those of the plain broadcast.  A non-contiguous shape (c->shape)
 * is packed straight behind the header when short -- the header costs that
 * copy anyway, and a second collective would cost more than it -- and goes
 * in place through its datatype after the count's broadcast when long. */
#if defined(MPICH_VERSION) || defined(SMPI_H)
#define BI_MPI_CHECKS_BCAST 1
#else
#define BI_MPI_CHECKS_BCAST 0

static void check_header(const bi_coll *c, const int64_t *h)
{
    if (h[1] == ~h[0] && h[0] == (int64_t)c->count) return;
    bi_count_mismatch("broadcast", c->count, h[1] == ~h[0] ? (long long)h[0] : -1, "at the source",
                      "the shapes must be the same everywhere");
}

static void bcast_counted(const bi_coll *c, MPI_Comm comm)
{
    const size_t nb = c->count * c->isize;
    const int src = c->me == c->root;
    int64_t h[2] = {(int64_t)c->count, ~(int64_t)c->count};
    if (nb <= BI_CNT_HDR_MAX) {
        bi_buf *w = bi_buf_get(BI_CNT_HDR + nb);
        char *d = w->data + BI_CNT_HDR;
        if (src) {
            memcpy(w->data, h, BI_CNT_HDR);
            if (c->shape) bi_pack(c->shape, c->buf, d);
            else if (nb) memcpy(d, c->buf, nb);
        }
        bcast(c, comm, w->data, (int)(BI_CNT_HDR + nb), MPI_BYTE, BI_CNT_HDR + nb);
        if (!src) {
            memcpy(h, w->data, BI_CNT_HDR);
            check_header(c, h);
            if (c->shape) bi_unpack(c->shape, d, c->buf);
            else if (nb) memcpy(c->buf, d, nb);
        }
        bi_buf_release(w);
        return;
    }
    bcast(c, comm, h, 2, MPI_INT64_T, BI_CNT_HDR);
    if (!src) check_header(c, h);
    bi_mpicount k = data_of(c);
    bcast(c, comm, c->buf, k.n, k.dt, nb);
    bi_mpicount_free(&k);
}
#endif

void bi_bcast_mpi(bi_coll *c)
{
    MPI_Comm comm = bi_scope_comm(c->sc);
#if !BI_MPI_CHECKS_BCAST
    bcast_counted(c, comm);
#else
    if (!c->count) {
        /* an empty broadcast still happens (as in the reference); with one byte, as MPI
         * skips empty ones: a process whose shape is not empty then gets an
         * error instead of waiting forever */
        char token = 0;
        bcast(c, comm, &token, 1, MPI_BYTE, 1);
        return;
    }
    bi_mpicount k = data_of(c);
    bcast(c, comm, c->buf, k.n, k.dt, c->count * c->isize);
    bi_mpicount_free(&k);
#endif
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
