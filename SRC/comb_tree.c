/*
 * comb_tree.c -- TOP '1'..'9', 'T' and 'F': general tree gather (fan-in,
 * LAWN 73 5.4.1) of radix r = branches + 1 ('F': r = Np, everyone sends
 * straight to the destination), then for leave-on-all the result goes back
 * out from scope rank 0 along a binomial tree, as the reference does.  Every receive
 * names its source (bi_comb_recv).
 */
#include <stdlib.h>
#include "comb.h"

/* Receives of a fan-in: one contribution from each of the n scope ranks
 * from[], combined into c->buf.  Each receive names its source, which is
 * what makes message IDs safe to reuse at any scale (msgid.c): a process
 * running many operations ahead can never have its contribution taken by
 * an earlier operation.
 *   Short contributions (below c->plan.serial, bi_serial_bytes in machine.c): up to
 * BI_FANIN_WINDOW receives are posted at once, each into its own slot of
 * one work buffer (at most BI_FANIN_BYTES in all), and contributions are
 * combined as they arrive (LAWN 73 5.3.2: no artificial order) -- or in the
 * order given when the result must be repeatable (BLACS_SET 15), and under
 * BLACS_DEBUG=2 / BLACS_STATS, whose waits watch one request at a time.
 *   Long ones: one at a time in the order given, as LAWN 73 5.4.1 assumes
 * ("a processor can receive only one message at a time"), the next receive
 * posted as soon as the current one has arrived, so that it travels while
 * the current one is combined (two slots, whatever their size).  Posting
 * them all at once would share the destination's port among every sender:
 * all would arrive together at the end, and nothing would overlap the
 * operations. */
#define BI_FANIN_WINDOW 8
#define BI_FANIN_BYTES ((size_t)8 << 20)

void bi_comb_recv(bi_coll *c, const int *from, int n, int tag)
{
    if (n <= 0) return;
    const size_t bytes = c->count * c->isize;
    const int serial = n > 1 && (double)bytes >= c->plan.serial;
    int w = serial ? 2 : n < BI_FANIN_WINDOW ? n : BI_FANIN_WINDOW;
    if (!serial && bytes && (size_t)w * bytes > BI_FANIN_BYTES)
        w = BI_FANIN_BYTES / bytes > 1 ? (int)(BI_FANIN_BYTES / bytes) : 1;
    const int ordered = serial || c->repeat || bi_g.debug >= 2 || bi_g.stats;
    bi_buf *wb = bi_comb_work(c, c->count * (size_t)w);
    MPI_Request req[BI_FANIN_WINDOW];
    int next = 0;
    /* in order, contribution k lands in slot k mod w; otherwise a new receive
     * takes the slot Waitany just freed */
#define POST(slot) (req[slot] = bi_irecv(c, from[next], wb->data + (size_t)(slot) * bytes, \
                                         c->count, tag), next++)
    for (int first = serial ? 1 : w; next < first;) POST(next);
    for (int done = 0; done < n; done++) {
        int s = done % w;
        if (ordered) bi_irecv_wait(c, &req[s], from[done], c->count, tag);
        else {
            MPI_Status st;
            bi_watch_begin('r', MPI_ANY_SOURCE, tag, bytes); /* any of the window's sources */
            BI_MPI(MPI_Waitany(w, req, &s, &st), "MPI_Waitany");
            bi_watch_end();
            bi_recv_check(c, &st, c->count); /* a short contribution is an error */
        }
        if (serial && next < n) POST(next % w); /* the other slot, combined last time */
        c->op->fn(c->buf, wb->data + (size_t)s * bytes, c->count, c->op);
        if (!serial && next < n) POST(s);
    }
#undef POST
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
        /* children of this level, nearest first (the reference's fixed order) */
        for (long j = 1; j < radix && (xs + j) * i < np; j++) kids[n++] = (int)((c->me + j * i) % np);
    }
    bi_comb_recv(c, kids, n, tag);
    if (i < np) bi_isend(c, (int)((dest + (x / i - (x / i) % radix) * i) % np), c->buf, c->count, tag);
    if (kids != small) free(kids);
}

void bi_comb_tree(bi_coll *c)
{
    int radix = c->plan.param > 0 ? c->plan.param + 1 : 2;
    if (radix > c->np) radix = c->np; /* 'F' and trees wider than the scope */
    if (radix < 2) radix = 2;
    bi_comb_fanin(c, c->root < 0 ? 0 : c->root, radix, c->tag);
    if (c->root < 0) bi_bcast_tree_from(c, 0, 2, c->tag + 1); /* the binomial tree */
}
