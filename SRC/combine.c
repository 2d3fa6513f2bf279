/*
 * combine.c -- xGSUM2D, xGAMX2D, xGAMN2D and vTUOP2D behind the entry
 * points: destination, result buffer, owner keys, topology, and the copy
 * back with the effective LDA.
 *
 * Buffers (LAWN 73 5.3.1): the result buffer is contiguous so partial
 * results are sent from it without copies -- A itself when A is contiguous
 * and no owners travel, else a BLACS buffer; the algorithms get a second
 * buffer for partner data.  With RA/CA wanted, each item carries an owner
 * key after its value, of 2 bytes as the reference's (4 in a scope of more
 * than 65,536 processes: bi_okey_bytes): the owner's distance (rank - dest)
 * mod Np for leave-on-one, its scope rank for leave-on-all; on equal
 * values the smaller key wins (ops.c).  (Keys of 4 bytes everywhere made a
 * long DGAMX2D with RA/CA move a fifth more bytes than the reference's, an
 * IGAMX2D a third: over 1 Gbit/s, 1,000-10^6 items, 1.13-1.20 and
 * 1.22-1.33 times the reference's time; 0.95-1.00 with 2 bytes.)
 */
#include <string.h>
#include "bi.h"

/* The owner loops below run once per item, so their element size is a
 * constant in each expansion (4, 8 or 16 bytes: plain moves, no memcpy
 * call, no size test per item); BI_ES_SWITCH(es, body) expands the body with
 * ES bound to each. */
#define BI_ES_SWITCH(es, ...)                               \
    switch (es) {                                           \
    case 4: { enum { ES = 4 }; __VA_ARGS__; } break;       \
    case 8: { enum { ES = 8 }; __VA_ARGS__; } break;       \
    default: { enum { ES = 16 }; __VA_ARGS__; } break;     \
    }

/* owner key of every item: value, then the key in kw bytes (2 or 4) */
static void pack_owned(const bi_shape *s, const char *A, char *buf, size_t isize, int kw,
                       uint32_t key)
{
    BI_ES_SWITCH(bi_types[s->type].size, {
        for (Int j = 0; j < s->n; j++) {
            const char *a = A + (size_t)j * (size_t)s->lda * ES;
            for (Int i = 0; i < s->m; i++, a += ES, buf += isize) {
                memcpy(buf, a, ES);
                bi_okey_put(buf + ES, kw, key);
            }
        }
    })
}

/* the result back into A, and each item's owner into RA/CA, in one pass
 * over the buffer.  tab maps a key to coordinates; with inorder, tab
 * holds the items' own owners, item by item, and the keys are not read */
static void unpack_owned(const bi_shape *s, const char *p, size_t isize, int kw, char *A,
                         const Int *tab, int inorder, Int *rA, Int *cA, Int ldi)
{
    uint32_t item = 0;
    BI_ES_SWITCH(bi_types[s->type].size, {
        for (Int j = 0; j < s->n; j++) {
            char *a = A + (size_t)j * (size_t)s->lda * ES;
            Int *r = rA + (size_t)j * (size_t)ldi, *c = cA + (size_t)j * (size_t)ldi;
            for (Int i = 0; i < s->m; i++, a += ES, p += isize) {
                uint32_t key;
                memcpy(a, p, ES);
                if (inorder) key = item++;
                else key = bi_okey_get(p + ES, kw);
                r[i] = tab[2 * key];
                c[i] = tab[2 * key + 1];
            }
        }
    })
}

/* grid coordinates of scope rank k */
static inline void owner_coords(const bi_ctx *ctx, char scope, int k, Int *r, Int *col)
{
    if (scope == 'r') *r = ctx->myrow, *col = k;
    else if (scope == 'c') *r = k, *col = ctx->mycol;
    else *r = k / ctx->npcol, *col = k % ctx->npcol;
}

void bi_combine(Int ctxt, const char *scope, const char *top, int opkind, const bi_shape *s,
                void *A, Int *rA, Int *cA, Int ldia, Int rdest, Int cdest, const char *routine)
{
    bi_ctx *ctx = bi_ctx_get(ctxt, routine);
    bi_scope *sc = bi_scope_get(ctx, scope, routine, 2);
    char t = bi_up(top);
    const bi_topo *tp = bi_topo_find(t);
    if (!tp || !tp->comb)
        bi_error(ctxt, -1, routine, "Unknown topology '%c'", top ? *top : ' ');
    const int amx = opkind == BI_AMX || opkind == BI_AMN, user = opkind == BI_USER;
    const int argr = amx ? 11 : user ? 10 : 8; /* positions of RDEST and CDEST */

    /* destination: -1 in either coordinate means leave-on-all */
    int all = rdest == -1 || cdest == -1, root = -1;
    if (!all) {
        if (sc->id != 'r' && (rdest < 0 || rdest >= ctx->nprow))
            bi_argerr(ctxt, routine, argr, "RDEST", "destination row %ld outside the %dx%d grid",
                      (long)rdest, ctx->nprow, ctx->npcol);
        if (sc->id != 'c' && (cdest < 0 || cdest >= ctx->npcol))
            bi_argerr(ctxt, routine, argr + 1, "CDEST",
                      "destination column %ld outside the %dx%d grid", (long)cdest, ctx->nprow,
                      ctx->npcol);
        root = bi_scope_rank(sc, rdest, cdest);
    }
    /* RCFLAG: -1 means RA/CA are not referenced */
    const int owners = amx && ldia != -1;
    Int ldi = ldia > s->m ? ldia : s->m;
    /* like LDA: RA/CA columns would overlap, so it cannot be what was meant */
    if (owners && (ldia < -1 || (ldia < s->m && s->n > 1)))
        bi_argerr(ctxt, routine, 10, "LDIA", "LDIA=%ld is smaller than M=%ld", (long)ldia,
                  (long)s->m);
    if (owners && bi_g.debug > 0 && ldia >= 0 && ldia < s->m)
        bi_warn(ctxt, -1, routine, "LDIA too small (LDIA=%ld, M=%ld); using M", (long)ldia,
                (long)s->m);

    const int np = sc->np, me = sc->me;
    const size_t count = bi_shape_count(s);
    int lands = all || me == root;

    bi_coll c = {.sc = sc, .np = np, .me = me, .root = root, .count = count,
                 .repeat = ctx->repeat != 0, .coherent = ctx->coherent != 0};
    const int kw = owners ? bi_okey_bytes(np) : 0; /* the owner key's bytes */
    c.op = bi_op_for(opkind, s->type, kw, &c.dt);
    c.isize = c.op->isize;

    const bi_call_in in = {.t = tp, .ctx = ctx, .np = np, .has_coll = bi_scope_has_coll(sc),
                           .root = root, .count = count, .isize = c.isize,
                           .repeat = c.repeat, .coherent = c.coherent,
                           .ordered = user || s->type != BI_I, .user = user,
                           .first_alone = BI_REDUCE_LONE && sc->first_alone,
                           .onenode = sc->nnodes == 1};
    c.plan = bi_comb_plan(&in, bi_machine_default());
    if (c.plan.top != tp->top) bi_cur.ran = c.plan.top; /* reports name both */
    if (c.plan.agree) {
        /* the plan depends on M*N (a repeatable ' ', or a leave-on-one ' '
         * where MPICH's reduction is wrong, leaves MPI's reduction for the
         * fixed-order algorithm the models pick for its length), so
         * the scope first agrees on it (one short reduction): a process
         * whose count differs would otherwise take another algorithm and
         * wait for messages nobody sends.  Empty data then needs nothing
         * more.  (Without WHAT=15, empty data goes to MPI like any other:
         * its count header finds a process that passes another M*N.)  Only
         * a scope with collectives of its own gets here (plan.c). */
        bi_count_agree(&c);
        if (!count) return;
    }

    /* result buffer; a lone process without owners has nothing to do */
    bi_buf *bb = NULL;
    if (!c.plan.run && !owners && !user) return;
    if (!owners && bi_shape_contig(s)) c.buf = A;
    else {
        bb = bi_buf_get(count ? count * c.isize : 1);
        c.buf = bb->data;
        c.owner = bb;
        if (owners)
            pack_owned(s, A, c.buf, c.isize, kw, (uint32_t)(all ? me : (me - root + np) % np));
        else bi_pack(s, A, c.buf);
    }

#if defined(BI_FAULT) && BI_FAULT == 2
    /* planted fault 2: the last process of the scope is left out of sums */
    if (opkind == BI_SUM && np > 1 && me == np - 1 && count) memset(c.buf, 0, count * c.isize);
#endif
    if (user && bi_cur_uop.init) bi_uop_apply(bi_cur_uop.init, count, c.buf, c.isize);
    if (c.plan.run) {
        c.tag = c.plan.ntags ? bi_msgid_scoped(sc, root < 0 ? 0 : root, c.plan.ntags, 1) : 0;
        if (bi_g.trace) bi_trace_plan(&c, 'c');
        c.plan.run(&c);
    }
    if (user && lands && bi_cur_uop.post) {
        /* the result may still be on its way to other processes (the
         * broadcast back of a leave-on-all): POST rewrites it in place, so
         * those sends must be out first, or a receiver gets POST's output
         * and applies POST once more */
        bi_waitall(&c);
        bi_uop_apply(bi_cur_uop.post, count, c.buf, c.isize);
    }

    if (lands && count) {
        if (owners) {
            /* owner key -> scope rank -> coordinates: through a table of
             * the np keys (a division per item costs as much as the
             * combine itself); with fewer items than keys, a table of the
             * items' own owners, in item order.  c.buf itself must not
             * change: a leave-on-all may still be sending it. */
            const size_t nt = count < (size_t)np ? count : (size_t)np;
            const int inorder = nt < (size_t)np;
            bi_buf *tb = bi_buf_scratch(nt * 2 * sizeof(Int)); /* for the call only */
            Int *tab = (Int *)(void *)tb->data;
            for (size_t k = 0; k < nt; k++) {
                const int key = inorder ? (int)bi_okey_get(c.buf + k * c.isize +
                                                           bi_types[s->type].size, kw)
                                        : (int)k;
                owner_coords(ctx, sc->id, all ? key : (key + root) % np, &tab[2 * k],
                             &tab[2 * k + 1]);
            }
            unpack_owned(s, c.buf, c.isize, kw, A, tab, inorder, rA, cA, ldi);
            bi_buf_release(tb);
        } else if (c.buf != A) bi_unpack(s, c.buf, A);
    }
    bi_coll_finish(&c);
}

void bi_tuop(Int ctxt, const char *scope, const char *top, const bi_shape *s, void *A,
             Int rdest, Int cdest, bi_ufn init, bi_ufn op, bi_ufn post, const char *routine)
{
    if (!op) bi_argerr(ctxt, routine, 13, "OP", "the combine operation is missing (NULL)");
    bi_cur_uop = (bi_uop){init, op, post};
    bi_combine(ctxt, scope, top, BI_USER, s, A, NULL, NULL, -1, rdest, cdest, routine);
}
