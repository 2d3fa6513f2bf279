/*
 * bcast_pipe.c -- TOP 'P' (ours): the increasing ring of LAWN 73 4.3.1 with
 * the message cut into k segments that follow each other down the ring, so
 * the pipelining the paper observes across consecutive ring broadcasts
 * (4.3.1, "Pipelining") happens inside one long broadcast (Watts 6: the
 * pipelined long-vector primitive; his DOPL broadcast on one dimension).
 * Time (Np-2+k)(alpha + n beta/k), least for k = sqrt((Np-2) n beta / alpha)
 * (Watts' k_i).  Each process keeps two receives posted.
 */
#include <math.h>
#include <stdlib.h>
#include "topo_algs.h"
#include "model.h"

#define PIPE_MAXSEG 4096

double bi_pipe_segment(void)
{
    static double seg = -1; /* BLACS_PIPE_SEGMENT: segment bytes, 0 = model */
    if (seg < 0) {
        seg = bi_env_number("BLACS_PIPE_SEGMENT", 0, 0, HUGE_VAL, 0);
    }
    return seg;
}

size_t bi_pipe_nseg(const bi_machine *m, int np, size_t count, size_t isize)
{
    const double seg = bi_pipe_segment();
    double n = (double)count * (double)isize, k;
    if (seg > 0) k = ceil(n / seg);
    else if (np <= 2 || n <= 0) k = 1;
    else if (m->tc.a <= 0) k = PIPE_MAXSEG;
    else k = floor(sqrt((np - 2) * n * m->tc.b / m->tc.a) + 0.5);
    if (k > PIPE_MAXSEG) k = PIPE_MAXSEG;
    if (k > (double)count) k = (double)count;
    return k < 1 ? 1 : (size_t)k;
}

void bi_bcast_pipe(bi_coll *c)
{
    int np = c->np, d = (c->me - c->root + np) % np;
    int next = (c->me + 1) % np, prev = (c->me + np - 1) % np;
    size_t k = bi_pipe_nseg(bi_machine_default(), np, c->count, c->isize);
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

/* (Np-2+k)(alpha + n beta/k) with the k the algorithm uses; the root posts
 * k sends of n/k bytes */
double bi_model_bcast_pipe(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    if (np < 2) return bi_model_none(root);
    double k = (double)bi_pipe_nseg(m, np, bytes > 0 ? (size_t)bytes : 0, 1);
    if (root) *root = k * bi_ts(m, bytes / k);
    return (np - 2 + k) * bi_tc(m, bytes / k);
}
