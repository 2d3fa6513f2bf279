/*
 * bcast_ring.c -- the ring family of LAWN 73 4.3.1: increasing 'I' and
 * decreasing 'D' rings, split ring 'S', multiring 'M', fully connected 'F',
 * and our pipelined ring 'P'.  I, D, M, F and P are one algorithm, the
 * multipath broadcast: the Np-1 non-root processes, ordered by distance
 * from the root in the ring direction, are cut into |nr| consecutive paths,
 * the first (Np-1) mod |nr| one longer; the root sends to the head of each
 * path, nearest path first, and every node forwards to its successor on
 * the path.  'I' is one path in increasing rank order, 'D' one in
 * decreasing order, 'F' Np-1 paths of one process each.
 *
 * Pieces: a long vector travels in the k pieces the plan fixes
 * (c->plan.nseg: model_bcast.c's bi_ring_nseg for I D S M, bi_pipe_nseg
 * for P; BLACS_PIPE_SEGMENT overrides both), consecutive blocks of items.
 * A forwarder passes piece j on while piece j+1 arrives (the pipelining
 * the paper observes across consecutive ring broadcasts, 4.3.1, inside one
 * broadcast; Watts 6), keeping two receives posted; the root sends all k
 * pieces of a path before the next path's.  So who sends to whom, in which
 * order, is the reference's, each message cut into k; a short vector is
 * one piece, the reference's messages exactly.
 */
#include "topo_algs.h"

/* scope rank at distance d from root in direction dir (+1 / -1) */
static int at(int np, int root, int dir, int d) { return ((root + dir * d) % np + np) % np; }

/* pieces of this broadcast (the multiring combine's way back: one) */
static size_t npieces(const bi_coll *c)
{
    size_t k = c->plan.nseg ? c->plan.nseg : 1;
    if (k > c->count) k = c->count ? c->count : 1;
    return k;
}

/* first item of piece s: the plan's pieces of xpiece items, the last one
 * shorter (pair_pieces, plan.c), or k equal blocks */
static size_t first_item(const bi_coll *c, size_t k, size_t s)
{
    if (!c->plan.xpiece) return bi_block_first(c->count, k, s);
    return bi_piece_first(c->count, c->plan.xpiece, s);
}
#define FIRST(s) first_item(c, k, (s))
#define PIECE(s) c->buf + FIRST(s) * c->isize, FIRST((s) + 1) - FIRST(s)

/* the source: the whole vector to scope rank to, in k pieces */
static void send_pieces(bi_coll *c, int to, int tag)
{
    const size_t k = npieces(c);
    for (size_t s = 0; s < k; s++) bi_isend(c, to, PIECE(s), tag);
}

/* a path's node: the vector from scope rank from, passed on piece by piece
 * to scope rank to (none if to < 0).  One piece is one blocking receive,
 * but for 'P' (ahead != 0), which always posts its receives ahead */
static void relay(bi_coll *c, int from, int to, int tag, int ahead)
{
    const size_t k = npieces(c);
    if (k == 1 && !ahead) {
        bi_recv_vector(c, from, tag, to < 0);
        if (to >= 0) bi_isend(c, to, c->buf, c->count, tag);
        return;
    }
    if (c->plan.xpiece && to < 0) {
        /* two processes' pieces (pair_pieces, plan.c): one MPI_Recv each, so
         * that a piece longer than its receive is the BLACS error, not
         * MPICH's abort in MPI_Wait */
        for (size_t s = 0; s < k; s++) bi_recv(c, from, PIECE(s), tag);
        return;
    }
    MPI_Request rq[2];
    rq[0] = bi_irecv(c, from, PIECE(0), tag);
    for (size_t s = 0; s < k; s++) {
        if (s + 1 < k) rq[(s + 1) & 1] = bi_irecv(c, from, PIECE(s + 1), tag);
        bi_irecv_wait(c, &rq[s & 1], from, FIRST(s + 1) - FIRST(s), tag);
        if (to >= 0) bi_isend(c, to, PIECE(s), tag);
    }
}
#undef PIECE
#undef FIRST

static void paths(bi_coll *c, int root, int nr, int tag, int ahead)
{
    const int np = c->np, dir = nr < 0 ? -1 : 1, n = np - 1;
    nr = bi_npaths(nr, np);
    const int len = n / nr, nlong = n % nr;
    if (c->me == root) { /* path p: indices from p*len + min(p,nlong), nearest path first */
        for (int p = 0; p < nr; p++) {
            int head = (int)bi_block_first((size_t)n, (size_t)nr, (size_t)p);
            send_pieces(c, at(np, root, dir, 1 + head), tag);
        }
        return;
    }
    int k = (dir * (c->me - root) % np + np) % np - 1; /* my index, 0..np-2 */
    int head, plen;
    if (k < nlong * (len + 1)) {
        head = k - k % (len + 1);
        plen = len + 1;
    } else {
        head = k - (k - nlong * (len + 1)) % len;
        plen = len;
    }
    relay(c, k == head ? root : at(np, root, dir, k), k + 1 < head + plen ? at(np, root, dir, k + 2) : -1,
          tag, ahead);
}

void bi_bcast_paths(bi_coll *c, int root, int nr, int tag) { paths(c, root, nr, tag, 0); }

void bi_bcast_iring(bi_coll *c) { bi_bcast_paths(c, c->root, 1, c->tag); }
void bi_bcast_dring(bi_coll *c) { bi_bcast_paths(c, c->root, -1, c->tag); }
void bi_bcast_mring(bi_coll *c) { bi_bcast_paths(c, c->root, c->plan.param, c->tag); }
void bi_bcast_fully(bi_coll *c) { bi_bcast_paths(c, c->root, c->np - 1, c->tag); }
/* 'P' (ours): the increasing ring with the model's segments for the whole
 * ring, (Np-2+k)(alpha + n beta/k) least for k = sqrt((Np-2) n beta / alpha)
 * (Watts' k_i; bi_pipe_nseg), down to single items */
void bi_bcast_pipe(bi_coll *c) { paths(c, c->root, 1, c->tag, 1); }

/* split ring: root sends up, then (Np > 2) down; with half = floor(Np/2) a
 * process at distance d < half forwards up, d > half+1 forwards down. */
void bi_bcast_sring(bi_coll *c)
{
    const int np = c->np, half = np / 2, r = c->root;
    if (c->me == r) {
        send_pieces(c, at(np, r, 1, 1), c->tag);
        if (np > 2) send_pieces(c, at(np, r, -1, 1), c->tag);
        return;
    }
    int d = (c->me - r + np) % np;
    relay(c, at(np, r, 1, d <= half ? d - 1 : d + 1),
          d < half ? at(np, r, 1, d + 1) : d > half + 1 ? at(np, r, 1, d - 1) : -1, c->tag, 0);
}
