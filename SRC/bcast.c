/*
 * bcast.c -- broadcast/send and broadcast/receive (xGEBS2D, xGEBR2D,
 * xTRBS2D, xTRBR2D) behind the entry points.  LAWN 73 4.1: the source
 * issues BS, everyone else in the scope BR naming the source; shapes may
 * differ as long as the element count agrees.  This file only resolves
 * scope and source, asks for the plan (plan.c), takes its message IDs, and
 * puts the data into one contiguous run of items; the algorithm the plan
 * names (bcast_*.c) moves those items between scope ranks.  The source of every
 * topology returns without waiting for its receivers: it sends from a copy
 * of A left on the buffer queue (a long ' ' broadcast whose receivers have
 * all said they are there goes straight from A: bcast_mpi.c).  TOP ' ' may be the exception to the one
 * run at the receivers (bcast_mpi.c says when): MPI_Ibcast takes a
 * non-contiguous shape as it lies, through its datatype, and MPI matches
 * type signatures, so shapes of equal count still agree with the source's
 * packed copy; the others forward pieces of one run, so they always get it
 * packed.
 */
#include <limits.h>
#include <string.h>
#include "bi.h"

static const bi_topo *bcast_topo(Int ctxt, const char *top, const char *routine)
{
    const bi_topo *t = bi_topo_find(bi_up(top));
    if (!t || !t->bcast)
        bi_argerr(ctxt, routine, 3, "TOP", "Unknown topology '%c'", top ? *top : ' ');
    return t;
}

/* the common part of BS and BR; root is the source's scope rank */
static void bcast(bi_ctx *cx, bi_scope *sc, const bi_topo *t, const bi_shape *s, void *A,
                  int root)
{
    bi_coll c = {0};
    c.sc = sc;
    c.np = sc->np;
    c.me = sc->me;
    c.root = root;
    c.count = bi_shape_count(s);
    c.isize = bi_types[s->type].size;
    c.repeat = cx->repeat != 0;
    c.coherent = cx->coherent != 0;
    const bi_call_in in = {.t = t, .ctx = cx, .np = c.np, .has_coll = bi_scope_has_coll(sc),
                           .root = root, .count = c.count, .isize = c.isize,
                           .repeat = c.repeat, .coherent = c.coherent,
                           .onenode = sc->nnodes == 1};
    c.plan = bi_bcast_plan(&in, bi_machine_default());
    if (c.plan.top != t->top) bi_cur.ran = c.plan.top; /* reports name both */
    if (!c.plan.run) return; /* one-process scope: nothing to do, no message ID */
    c.dt = bi_mpitype(s->type);
    /* the message IDs (LAWN 73 6.1.2) */
    if (c.plan.ntags > 0) c.tag = bi_msgid_scoped(sc, root, c.plan.ntags, 1) + c.plan.first;
    if (bi_g.trace) bi_trace_plan(&c, 'b');
    int sender = sc->me == root, contig = bi_shape_contig(s);
    bi_buf *b = NULL;
    /* the source sends from a copy, so that it returns without waiting
     * for its receivers, long messages included (LAWN 73 4.1 and 6.2.2):
     * a BLACS topology's sends are queued with that copy (bi_coll_finish),
     * MPI_Ibcast's request likewise (TOP ' ', bcast_mpi.c, which makes the
     * copy itself, its count header in front where it has one, so A goes
     * to it as it lies).  The algorithm that runs decides, not the letter:
     * a ' ' that the plan made the tree (a whole-grid row or column) is
     * a BLACS topology like '1'. */
    /* a long broadcast of the library's own letters goes straight from A
     * to the receivers that have said they are there (plan.direct,
     * transport.c): those sends are waited for (bi_coll_finish) */
    const int words = c.plan.direct && !c.plan.mpi;
    MPI_Request said = MPI_REQUEST_NULL, *rest = NULL;
    if (words && !sender) said = bi_word_say(&c);
    if (contig && !sender) {
        c.buf = A;  /* straight into user memory */
    } else if (c.plan.mpi && (sender || bi_bcast_mpi_inplace())) {
        c.buf = A;  /* a receiver's shape moved by MPI through its datatype */
        c.shape = contig ? NULL : s;
    } else if (words && sender && c.plan.direct == 2 &&
               (contig || (!s->tr && bi_inplace(sc->nnodes > 1, c.count * c.isize, 0) &&
                           c.count * c.isize <= INT_MAX))) {
        /* each send goes from A when its receiver's word is in, else from
         * the copy made while the source looked for it (transport.c); a
         * GE shape through its datatype, where MPI moves it as fast as we
         * copy: to another node, on one node with MPIs other than MPICH,
         * and with MPICH from 96 KiB (shape.c, bi_inplace; else from the
         * copy) */
        b = bi_buf_get(c.count * c.isize);
        c.buf = b->data;
        c.owner = b;
        c.from = A;
        c.fromshape = contig ? NULL : s;
        bi_words_each(&c);
    } else if (words && sender) {
        /* a contiguous A is copied while the words are waited for */
        b = bi_buf_get(c.count * c.isize);
        const int allin = bi_words_in(&c, contig ? c.plan.ready_wait : 0, b->data,
                                      contig ? A : NULL, c.count * c.isize, &rest);
        /* every receiver there: the source may finish its sends (transport.c,
         * bi_source_settle); 'C' too, whose receivers wait for each other,
         * since each of them waits only for sends of the steps before its
         * own (bcast_scatcol.c), all posted before the source settles */
        c.allthere = allin;
        if (allin && contig) {
            bi_buf_release(b); /* the source, its receivers all there */
            b = NULL;
            c.buf = A;
        } else {
            if (!contig) bi_pack(s, A, b->data);
            c.buf = b->data;
            c.owner = b;
            bi_words_queue(&c, b, rest); /* words still to come (none if all came) */
        }
    } else {
        b = bi_buf_get(c.count * c.isize);
        /* a contiguous A is copied as it is sent (bi_isend): LAWN 73's
         * source latency is then the copy of one piece, not of the vector */
        if (sender && contig && !c.plan.mpi) c.from = A;
        else if (sender) bi_pack(s, A, b->data);
        c.buf = b->data;
        c.owner = b;
        /* a receiver that passes nothing on may take it straight into A
         * (bi_recv_vector), and then has nothing to unpack */
        if (!sender && !c.plan.mpi && c.count * c.isize <= INT_MAX) {
            c.into = A;
            c.intoshape = s;
        }
    }
    c.plan.run(&c);
    /* c.into became NULL where the vector went straight into A */
    if (b && !sender && !(c.intoshape && !c.into)) bi_unpack(s, b->data, A);
    bi_buf_adopt(&said); /* not waited for: the source may be outside MPI (buffer.c) */
#if defined(BI_FAULT) && BI_FAULT == 3
    /* planted fault 3 (TESTING/planted_faults.sh): one element past A */
    if (!sender && c.count)
        memset((char *)A + (size_t)s->lda * (size_t)s->n * c.isize, 0x3c, c.isize);
#endif
    bi_coll_finish(&c);
}

void bi_bcast_send(Int ctxt, const char *scope, const char *top, const bi_shape *s,
                   const void *A, const char *routine)
{
    bi_ctx *cx = bi_ctx_get(ctxt, routine);
    bi_scope *sc = bi_scope_get(cx, scope, routine, 2);
    const bi_topo *t = bcast_topo(ctxt, top, routine);
    bcast(cx, sc, t, s, (void *)A, sc->me);
}

void bi_bcast_recv(Int ctxt, const char *scope, const char *top, const bi_shape *s, void *A,
                   Int rsrc, Int csrc, const char *routine)
{
    bi_ctx *cx = bi_ctx_get(ctxt, routine);
    bi_scope *sc = bi_scope_get(cx, scope, routine, 2);
    const bi_topo *t = bcast_topo(ctxt, top, routine);
    int argr = s->tr ? 10 : 8; /* position of RSRC in xTRBR2D / xGEBR2D */
    /* the coordinate a row (column) scope ignores is not checked */
    if (sc->id != 'r' && (rsrc < 0 || rsrc >= cx->nprow))
        bi_argerr(ctxt, routine, argr, "RSRC", "source row %ld is outside the %dx%d grid",
                  (long)rsrc, cx->nprow, cx->npcol);
    if (sc->id != 'c' && (csrc < 0 || csrc >= cx->npcol))
        bi_argerr(ctxt, routine, argr + 1, "CSRC", "source column %ld is outside the %dx%d grid",
                  (long)csrc, cx->nprow, cx->npcol);
    /* a receiver naming itself is caught at BLACS_DEBUG >= 1 (entry_debug.c) */
    bcast(cx, sc, t, s, A, bi_scope_rank(sc, rsrc, csrc));
}
