/*
 * msgid.c -- message identifiers, as LAWN 73 section 6.1 describes them.
 *
 * The ID range [idlo, idhi] (BLACS_SET WHAT=1, default 0..MPI_TAG_UB, read
 * when a grid is made) is split in two.  The first half is for point-to-
 * point messages and is cut into Ng = P*Q subranges, one per source virtual
 * process id (vpid = p*Q + q): a message from s to d carries
 *     p2pbase + s*p2psub + (sndcount_s[d] mod p2psub)
 * and the receiver computes the same number from its rcvcount_d[s].  The
 * second half is cut in three, one part per scope (row, column, all), and
 * each part into one subrange per member of the scope; an operation rooted
 * at scope rank r (broadcast source, combine destination, 0 for leave-on-
 * all) uses the next IDs of r's subrange, counted by count[r] on every
 * member.  Since every member of a scope takes part in the same sequence of
 * scoped operations, the counters agree without communication, and a fan-in
 * that receives from any source can never take a message of the next
 * operation (it carries the next ID).  The scalar "broadcast/sends I
 * initiated" of the paper is count[me].
 *
 * Memory per process, as in the paper: two vectors of Ng (send and receive
 * counts) plus Ng, P and Q for the three scopes.  All IDs are MPI tags on
 * the grid's single communicator, so the kinds of traffic never mix.
 */
#include <stdlib.h>
#include "bi.h"

static void scope_ids(bi_scope *s, int base, int width, Int ctxt)
{
    s->tagbase = base;
    s->tagsub = width / s->np;
    if (s->tagsub < 2)
        bi_error(ctxt, __LINE__, __FILE__,
                 "message-ID range [%d,%d] too small for a scope of %d processes", bi_g.idlo,
                 bi_g.idhi, s->np);
    s->count = calloc((size_t)s->np, sizeof(unsigned));
}

void bi_msgid_setup(bi_ctx *c)
{
    long lo = bi_g.idlo, hi = bi_g.idhi;
    long half = (hi - lo + 1) / 2;
    c->p2pbase = (int)lo;
    c->p2psub = (int)(half / c->np);
    if (c->p2psub < 1)
        bi_error(c->handle, __LINE__, __FILE__,
                 "message-ID range [%ld,%ld] too small for a grid of %d processes", lo, hi, c->np);
    c->sndcount = calloc((size_t)c->np, sizeof(unsigned));
    c->rcvcount = calloc((size_t)c->np, sizeof(unsigned));
    long third = (hi - lo + 1 - half) / 3;
    long sbase = lo + half;
    scope_ids(&c->row, (int)sbase, (int)third, c->handle);
    scope_ids(&c->col, (int)(sbase + third), (int)third, c->handle);
    scope_ids(&c->all, (int)(sbase + 2 * third), (int)third, c->handle);
}

void bi_msgid_free(bi_ctx *c)
{
    free(c->sndcount);
    free(c->rcvcount);
    free(c->row.count);
    free(c->col.count);
    free(c->all.count);
    c->sndcount = c->rcvcount = c->row.count = c->col.count = c->all.count = NULL;
}

int bi_msgid_p2p_send(bi_ctx *c, int dest, int advance)
{
    unsigned k = c->sndcount[dest];
    if (advance) c->sndcount[dest] = k + 1;
    return c->p2pbase + c->iam * c->p2psub + (int)(k % (unsigned)c->p2psub);
}

int bi_msgid_p2p_recv(bi_ctx *c, int src, int advance)
{
    unsigned k = c->rcvcount[src];
    if (advance) c->rcvcount[src] = k + 1;
    return c->p2pbase + src * c->p2psub + (int)(k % (unsigned)c->p2psub);
}

int bi_msgid_scoped(bi_scope *s, int root, int n, int advance)
{
    unsigned sub = (unsigned)s->tagsub, k = s->count[root];
    /* the n IDs of one operation never straddle the wrap-around */
    if (k % sub + (unsigned)n > sub) k += sub - k % sub;
    if (advance) s->count[root] = k + (unsigned)n;
    return s->tagbase + root * s->tagsub + (int)(k % sub);
}
