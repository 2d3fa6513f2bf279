/*
 * msgid.c -- message identifiers, as LAWN 73 section 6.1 describes them.
 *
 * An ID still says what the paper has it say: the kind of traffic
 * (point-to-point, or an operation of the row, column or all scope), the
 * process it belongs to (the sender of a point-to-point message; the root
 * of a scoped operation: broadcast source, combine destination, 0 for
 * leave-on-all) and a count of that process's messages or operations.
 * The ID range [idlo, idhi] (BLACS_SET WHAT=1, default 0..MPI_TAG_UB) is
 * cut into four disjoint classes: the first half for point-to-point, the
 * rest but its last ID in three equal parts, one per scope.  That last ID
 * carries Intel MKL's Cdsendrecv (sendrecv.c): a stream of its own between
 * two processes, which vGERV2D never takes, as in MKL's BLACS.  Each class is cut into
 * "groups" subranges of "width" IDs; process k uses subrange k mod groups,
 * and inside it the next ID of its count (mod width).  With a wide range
 * every process has its own subrange, exactly the paper's scheme; with a
 * narrow one (64 IDs and 100,000 processes) processes share subranges and
 * IDs come back quickly.
 *
 * Why reuse is harmless (the scheme's guarantee at any scale): every
 * receive of the library names its source (transport.c, p2p.c; the
 * wildcard receive probes each candidate with that source's next ID).
 * Between one sender and one receiver, all members of a scope run the same
 * sequence of operations with the same message pattern, so the receiver
 * expects the sender's messages of a class in the order they were sent;
 * MPI delivers messages of one sender that match the same receive in
 * order (non-overtaking), so a receive always takes the oldest unreceived
 * message of that sender and class, which is the one it is waiting for,
 * whatever ID a later operation reuses.  What the classes keep apart is
 * traffic whose order is not shared: a point-to-point message and a
 * broadcast between the same two processes, or a row and a column
 * operation.  The IDs are MPI tags on the grid's private communicator
 * (grid.c), so user traffic never meets them.
 */
#include <stdlib.h>
#include "core.h"

/* width per group when a class of w IDs serves np processes, each
 * operation taking up to n consecutive IDs */
static void carve(bi_idclass *k, long base, long w, int np, int n)
{
    long g = w / n < np ? w / n : np;
    k->base = (int)base;
    k->groups = (int)(g > 0 ? g : 1);
    k->width = (int)(w / k->groups);
}

const char *bi_msgid_layout(long lo, long hi, int nprow, int npcol, bi_idlayout *l)
{
    long n = hi - lo + 1;
    if (lo < 0 || n < BI_MIN_IDS) return "fewer IDs than the 16 the four classes need";
    /* the last ID of the range is Cdsendrecv's (sendrecv.c), the scopes
     * share what is left after the point-to-point half */
    long half = n / 2, third = (n - half - 1) / 3;
    long np = (long)nprow * npcol;
    l->sendrecv = (int)hi;
    carve(&l->p2p, lo, half, (int)np, 1);
    carve(&l->row, lo + half, third, npcol, 2);
    carve(&l->col, lo + half + third, third, nprow, 2);
    carve(&l->all, lo + half + 2 * third, third, (int)(np < third ? np : third), 2);
    return NULL;
}

int bi_msgid_id(const bi_idclass *k, int who, unsigned count)
{
    return k->base + (who % k->groups) * k->width + (int)(count % (unsigned)k->width);
}

static unsigned *counters(int n)
{
    unsigned *p = bi_alloc(NULL, (size_t)n * sizeof(unsigned), "BLACS_GRIDINIT/BLACS_GRIDMAP",
                           "message-ID counters");
    memset(p, 0, (size_t)n * sizeof(unsigned));
    return p;
}

void bi_msgid_setup(bi_ctx *c)
{
    bi_idlayout l;
    const char *why = bi_msgid_layout(bi_g.idlo, bi_g.idhi, c->nprow, c->npcol, &l);
    if (why)
        bi_error(c->handle, __LINE__, __FILE__, "message-ID range [%d,%d]: %s", bi_g.idlo,
                 bi_g.idhi, why);
    c->p2p = l.p2p;
    c->row.ids = l.row;
    c->col.ids = l.col;
    c->all.ids = l.all;
    c->sendrecv_id = l.sendrecv;
    c->sndcount = counters(c->np);
    c->rcvcount = counters(c->np);
    c->p2pbase = bi_alloc(NULL, (size_t)c->np * sizeof(int), "BLACS_GRIDINIT/BLACS_GRIDMAP",
                          "message-ID counters");
    for (int v = 0; v < c->np; v++) c->p2pbase[v] = bi_msgid_id(&l.p2p, v, 0);
    c->lastlong = bi_alloc(NULL, 2 * (size_t)c->np, "BLACS_GRIDINIT/BLACS_GRIDMAP", "message-ID counters");
    memset(c->lastlong, 0, 2 * (size_t)c->np);
    c->row.count = counters(l.row.groups);
    c->col.count = counters(l.col.groups);
    c->all.count = counters(l.all.groups);
}

void bi_msgid_free(bi_ctx *c)
{
    free(c->sndcount);
    free(c->rcvcount);
    free(c->lastlong);
    c->lastlong = NULL;
    free(c->p2pbase);
    c->p2pbase = NULL;
    free(c->row.count);
    free(c->col.count);
    free(c->all.count);
    c->sndcount = c->rcvcount = c->row.count = c->col.count = c->all.count = NULL;
}

unsigned bi_msgid_next(unsigned count, int n, int width)
{
    unsigned w = (unsigned)width;
    /* the n IDs of one operation never straddle the end of the subrange */
    return count % w + (unsigned)n > w ? count + (w - count % w) : count;
}

int bi_msgid_scoped(bi_scope *s, int root, int n, int advance)
{
    unsigned *cnt = &s->count[root % s->ids.groups];
    unsigned k = bi_msgid_next(*cnt, n, s->ids.width);
    if (advance) *cnt = k + (unsigned)n;
    return bi_msgid_id(&s->ids, root, k);
}
