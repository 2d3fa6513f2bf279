/*
 * bcast_pipe.c -- TOP 'P' (ours): the increasing ring of LAWN 73 4.3.1 with
 * the message cut into k segments that follow each other down the ring, so
 * the pipelining the paper observes across consecutive ring broadcasts
 * (4.3.1, "Pipelining") happens inside one long broadcast (Watts 6: the
 * pipelined long-vector primitive; his DOPL broadcast on one dimension).
 * Time (Np-2+k)(alpha + n beta/k), least for k = sqrt((Np-2) n beta / alpha)
 * (Watts' k_i).  Each process keeps two receives posted.
 */
#include "topo_algs.h"

void bi_bcast_pipe(bi_coll *c)
{
    int np = c->np, d = (c->me - c->root + np) % np;
    int next = (c->me + 1) % np, prev = (c->me + np - 1) % np;
    size_t k = c->plan.nseg; /* from the model (model_bcast.c) or BLACS_PIPE_SEGMENT */
#define FIRST(s) bi_block_first(c->count, k, (s))
#define SEG(s) c->buf + FIRST(s) * c->isize, FIRST((s) + 1) - FIRST(s)
    if (d == 0) {
        for (size_t s = 0; s < k; s++) bi_isend(c, next, SEG(s), c->tag);
        return;
    }
    MPI_Request rq[2];
    rq[0] = bi_irecv(c, prev, SEG(0), c->tag);
    for (size_t s = 0; s < k; s++) {
        if (s + 1 < k) rq[(s + 1) & 1] = bi_irecv(c, prev, SEG(s + 1), c->tag);
        bi_irecv_wait(c, &rq[s & 1], prev, FIRST(s + 1) - FIRST(s), c->tag);
        if (d < np - 1) bi_isend(c, next, SEG(s), c->tag);
    }
#undef SEG
#undef FIRST
}
