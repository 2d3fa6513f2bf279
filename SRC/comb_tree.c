/*
 * comb_tree.c -- TOP '1'..'9', 'T' and 'F': general tree gather (fan-in,
 * LAWN 73 5.4.1) of radix r = branches + 1 ('F': r = Np, everyone sends
 * straight to the destination), then for leave-on-all the result goes back
 * out from scope rank 0 along a binomial tree (spec 8.3).  Every receive
 * names its source (bi_comb_recv).
 */
#include <stdlib.h>
#include "comb.h"

/* Receives of a fan-in: one contribution from each of the n scope ranks
 * from[], combined into c->buf.  Each receive names its source, which is
 * what makes message IDs safe to reuse at any scale (msgid.c): a process
 * running many operations ahead can never have its contribution taken by
 * an earlier operation.  Up to BI_FANIN_WINDOW receives are posted at once,
 * each into its own slot of one work buffer (at most BI_FANIN_BYTES in
 * all), and contributions are combined as they arrive (LAWN 73 5.3.2: no
 * artificial order) -- or in the order given when the result must be
 * repeatable (spec 8.4), and under BLACS_DEBUG=2 / BLACS_STATS, whose
 * waits watch one request at a time. */
#define BI_FANIN_WINDOW 8
#define BI_FANIN_BYTES ((size_t)8 << 20)

void bi_comb_recv(bi_coll *c, const int *from, int n, int tag)
{
    if (n <= 0) return;
    const size_t bytes = c->count * c->isize;
    int w = n < BI_FANIN_WINDOW ? n : BI_FANIN_WINDOW;
    if (bytes && (size_t)w * bytes > BI_FANIN_BYTES)
        w = BI_FANIN_BYTES / bytes > 1 ? (int)(BI_FANIN_BYTES / bytes) : 1;
    const int ordered = c->repeat || bi_g.debug >= 2 || bi_g.stats;
    bi_buf *wb = bi_comb_work(c, c->count * (size_t)w);
    MPI_Request req[BI_FANIN_WINDOW];
    int next = 0;
    MPI_Errhandler uh = bi_errh_return(MPI_COMM_WORLD); /* request errors: error.c */
    for (; next < w; next++)
        req[next] = bi_irecv(c, from[next], wb->data + (size_t)next * bytes, c->count, tag);
    for (int done = 0; done < n; done++) {
        int s = done % w;
        MPI_Status st;
        if (ordered)
            bi_wait(&req[s], &st, c->sc->ctx->comm, bi_scope_commrank(c->sc, from[done]), tag,
                    bytes);
        else
            BI_MPI(MPI_Waitany(w, req, &s, &st), "MPI_Waitany");
        bi_recv_check(c, &st, c->count); /* a short contribution is an error */
        c->op->fn(c->buf, wb->data + (size_t)s * bytes, c->count, c->op);
        if (next < n) {
            /* in order: contribution k always lands in slot k mod w */
            req[s] = bi_irecv(c, from[next], wb->data + (size_t)s * bytes, c->count, tag);
            next++;
        }
    }
    bi_errh_restore(MPI_COMM_WORLD, uh);
    bi_buf_release(wb);
}

void bi_comb_fanin(bi_coll *c, int dest, int radix, int tag)
{
    const int np = c->np;
    const long x = (c->me - dest + np) % np; /* distance from the destination */
    int small[64] = {0}, *kids = small, n = 0;
    if (np - 1 > 64) kids = malloc((size_t)(np - 1) * sizeof *kids);
    long i = 1;
    for (; i < np; i *= radix) {
        long xs = x / i; /* scaled distance at level i; x is a multiple of i here */
        if (xs % radix) break; /* not a receiver at this level: my turn to send */
        /* children of this level, nearest first (the fixed order of spec 8.3) */
        for (long j = 1; j < radix && (xs + j) * i < np; j++) kids[n++] = (int)((c->me + j * i) % np);
    }
    bi_comb_recv(c, kids, n, tag);
    if (i < np) bi_isend(c, (int)((dest + (x / i - (x / i) % radix) * i) % np), c->buf, c->count, tag);
    if (kids != small) free(kids);
}

void bi_comb_bcast_binomial(bi_coll *c, int root, int tag)
{
    const int np = c->np, x = (c->me - root + np) % np;
    int top = 1;
    while (top < np) top <<= 1;
    for (int h = top >> 1; h >= 1; h >>= 1) {
        if (x % (2 * h) == 0) {
            if (x + h < np) bi_isend(c, (c->me + h) % np, c->buf, c->count, tag);
        } else if (x % (2 * h) == h) {
            bi_waitall(c); /* my partial result may still be on its way up */
            bi_recv(c, (c->me - h + np) % np, c->buf, c->count, tag);
        }
    }
}

void bi_comb_tree(bi_coll *c)
{
    int radix = c->param > 0 ? c->param + 1 : 2;
    if (radix > c->np) radix = c->np; /* 'F' and trees wider than the scope */
    if (radix < 2) radix = 2;
    bi_comb_fanin(c, c->root < 0 ? 0 : c->root, radix, c->tag);
    if (c->root < 0) bi_comb_bcast_binomial(c, 0, c->tag + 1);
}

/* LAWN 73 5.4.1: the destination spends about ceil(log_r Np) levels of
 * (r-1) T_c + T_o (receives serialised, the operation overlapping the next
 * receive); leave-on-all adds the binomial broadcast, ceil(log2 Np) T_c. */
double bi_model_comb_tree(const bi_machine *m, int np, double bytes, int param, double *root)
{
    int r = param > 0 ? param + 1 : 2;
    if (r > np) r = np;
    int levels = 0, lg = 0;
    for (long i = 1; i < np; i *= r > 1 ? r : 2) levels++;
    while ((1 << lg) < np) lg++;
    double one = levels * ((r - 1) * bi_tc(m, bytes) + bi_to(m, bytes));
    if (root) *root = one;
    return one + lg * bi_tc(m, bytes);
}
