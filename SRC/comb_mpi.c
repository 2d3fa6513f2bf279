/*
 * comb_mpi.c -- TOP ' ': MPI's own reduction on the scope communicator
 * (as the reference): MPI_Reduce to the destination, MPI_Allreduce for
 * leave-on-all.  Only scopes that have one get here, bi_count_agree
 * included; in a row or column that is the whole grid the plan
 * runs the tree instead (plan.c).  AMX/AMN (and short sums) use commutative user operations,
 * created on first use and freed at BLACS_EXIT, which find their bi_op
 * through an attribute of the datatype (ops.c).
 *
 * Element counts must agree across the scope, and MPI does not reliably
 * notice when they do not: MPICH's shared-memory reductions take what each
 * process offers and return success, leaving garbage.  So the count is
 * checked as part of the operation, at a cost that does not show:
 *  - short vectors (up to BI_HDR_MAX bytes) travel as ONE element of a
 *    datatype of their size class: an 8-byte header (the count and its
 *    complement, so that what is no header is noticed too), then the
 *    items, then padding.  MPI cannot cut an element in pieces, so the operation sees
 *    the header of everything it combines and compares before it combines
 *    (one copy in and out, no extra message);
 *  - longer vectors go as they are (sums with MPI_SUM, so MPI may split
 *    them, reduce-scatter style), after one MPI_Allreduce of the header
 *    with MPI_MAX (largest count, complement of the smallest): a few
 *    microseconds next to the transfer.
 * Either way a mismatch is a BLACS error naming the routine, on every
 * topology that reaches MPI, long before anything could hang.
 */
#include <string.h>
#include "comb.h"

#define BI_HDR 8                  /* header of a short vector: int32 count, ~count */
#define BI_HDR_MAX BI_CNT_HDR_MAX /* longest vector sent as one element */

static MPI_Op amop = MPI_OP_NULL, hdrop = MPI_OP_NULL;
/* the one-element type of the call in progress (hdr_type below): hdrfn
 * knows it without asking MPI */
static MPI_Datatype hdrtype = MPI_DATATYPE_NULL;
static const bi_op *hdrtype_op;
static size_t hdrtype_bytes;

static const bi_op *op_of(MPI_Datatype dt)
{
    bi_op *op = NULL;
    int found = 0;
    BI_MPI(MPI_Type_get_attr(dt, bi_comb_keyval, &op, &found), "MPI_Type_get_attr");
    if (!found || !op) /* MPI handed us a datatype that is not one of ours */
        bi_error(bi_cur.ctxt, __LINE__, __FILE__,
                 "%s: MPI's reduction called the BLACS operation on a foreign datatype",
                 bi_cur.routine ? bi_cur.routine : "BLACS");
    return op;
}

/* other negative: not known (what arrived was no header, or MPI cut the
 * message and left its buffer as it was) */
static BI_NORETURN void mismatch(long long other)
{
    bi_count_mismatch("combine", bi_cur.count, other, "at another process of the scope",
                      "M*N must be the same everywhere");
}

/* long vectors: items, MPI may hand us any run of them */
static void amfn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const bi_op *op = op_of(*dt);
    op->fn(inout, in, (size_t)*len, op);
}

/* short vectors: whole elements, header first */
static void hdrfn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    /* the type hdr_type gave this call (the usual case) needs no questions */
    const int ours = *dt == hdrtype;
    const bi_op *op = ours ? hdrtype_op : op_of(*dt);
    MPI_Aint lb, ext = (MPI_Aint)hdrtype_bytes;
    if (!ours) BI_MPI(MPI_Type_get_extent(*dt, &lb, &ext), "MPI_Type_get_extent");
    for (int k = 0; k < *len; k++) {
        char *a = (char *)inout + (size_t)k * (size_t)ext;
        const char *b = (const char *)in + (size_t)k * (size_t)ext;
        int32_t ha[2], hb[2];
        memcpy(ha, a, sizeof ha);
        memcpy(hb, b, sizeof hb);
        if (hb[1] != ~hb[0]) mismatch(-1); /* not a header: MPI cut the message */
        if (ha[1] != ~ha[0] || ha[0] != hb[0]) mismatch(hb[0]);
        op->fn(a + BI_HDR, b + BI_HDR, (size_t)ha[0], op);
    }
}

static void free_op(void)
{
    if (amop != MPI_OP_NULL) BI_MPI_IN(MPI_Op_free(&amop), "MPI_Op_free", -1, "BLACS_EXIT");
    if (hdrop != MPI_OP_NULL) BI_MPI_IN(MPI_Op_free(&hdrop), "MPI_Op_free", -1, "BLACS_EXIT");
    amop = hdrop = MPI_OP_NULL;
}

static MPI_Op user_op(MPI_Op *o, MPI_User_function *fn)
{
    if (*o == MPI_OP_NULL) {
        BI_MPI(MPI_Op_create(fn, 1, o), "MPI_Op_create");
        bi_atexit(free_op);
    }
    return *o;
}

/* One element, not the items: MPICH 4.0.2's MPI_Allreduce takes 0.74 us
 * for one element on 2 ranks here and 1.5 us for two or more (MPI_SUM on 3
 * doubles, the count and its square in front of one item, made DGSUM2D
 * 2.2 times MPI_Allreduce at one double, against 1.5 with this element).
 * And the element is small: up to 24 bytes it costs what one double
 * costs (0.80 us, user operation or not), at 32 bytes 0.94 us; hence a
 * header of 8 bytes, so that one or two doubles travel in 16 or 24.
 * The one element of a short vector is padded to a size class: 8, 16, ...,
 * 64 bytes of items, then four classes an octave (5/4, 6/4, 7/4 and 8/4 of
 * a power of two) up to BI_HDR_MAX, so at most a quarter more bytes travel
 * and 49 classes cover every size.  Each (operation, class) pair gets its
 * datatype once, kept in a table of its own until BLACS_EXIT: a loop over
 * any number of sizes (ScaLAPACK's shrinking panels) makes none after its
 * first pass, and never evicts the shape types typekeep.c holds. */
#define NCLASS 49
#define NOPS (4 * BI_NTYPE * 3)
static MPI_Datatype hdrtypes[NOPS][NCLASS];

static int size_class(size_t nb, size_t *padded)
{
    if (nb <= 64) {
        *padded = (nb + 7) & ~(size_t)7;
        return (int)(*padded / 8);
    }
    int k = 6;
    while (((size_t)2 << k) < nb) k++;                /* 2^k < nb <= 2^(k+1) */
    size_t q = (nb * 4 + ((size_t)1 << k) - 1) >> k; /* 5..8 quarters of 2^k */
    *padded = q << (k - 2);
    return 9 + (k - 6) * 4 + (int)(q - 5);
}

static void free_hdrtypes(void)
{
    for (int o = 0; o < NOPS; o++)
        for (int k = 0; k < NCLASS; k++)
            if (hdrtypes[o][k]) {
                BI_MPI_IN(MPI_Type_free(&hdrtypes[o][k]), "MPI_Type_free", -1, "BLACS_EXIT");
                hdrtypes[o][k] = 0;
            }
    hdrtype = MPI_DATATYPE_NULL;
    hdrtype_op = NULL;
}

/* the element type of class k for op: header + padded items bytes */
static MPI_Datatype hdr_type(const bi_op *op, int k, size_t bytes)
{
    const int o = (op->kind * BI_NTYPE + op->type) * 3 + op->owners / 2;
    MPI_Datatype *t = &hdrtypes[o][k];
    if (!*t) {
        BI_MPI(MPI_Type_contiguous((int)bytes, MPI_BYTE, t), "MPI_Type_contiguous");
        BI_MPI(MPI_Type_commit(t), "MPI_Type_commit");
        BI_MPI(MPI_Type_set_attr(*t, bi_comb_keyval, (void *)op), "MPI_Type_set_attr");
        bi_atexit(free_hdrtypes);
    }
    hdrtype = *t;
    hdrtype_op = op;
    hdrtype_bytes = bytes;
    return *t;
}

void bi_comb_mpi(bi_coll *c)
{
    MPI_Comm comm = bi_scope_comm(c->sc);
    const int all = c->root < 0, lands = all || c->me == c->root;
    const size_t nb = c->count * c->isize;
    /* not MPI_IN_PLACE at a root: MPICH 4.0.2 crashes in MPI_Reduce with
     * an in-place root on sub-communicators from about 1000 doubles on;
     * so the root receives into a second buffer */
    if (nb <= BI_HDR_MAX) {
        size_t pb;
        const int k = size_class(nb, &pb);
        const size_t eb = BI_HDR + pb;
        /* on the stack when short (MPI's reduction is done on return) */
        _Alignas(16) char st[2 * (BI_HDR + 64)];
        const size_t need = all || !lands ? eb : 2 * eb;
        bi_buf *w = need <= sizeof st ? NULL : bi_buf_scratch(need);
        char *sb = w ? w->data : st, *rb = all ? sb : lands ? sb + eb : NULL;
        int32_t h[2] = {(int32_t)c->count, ~(int32_t)c->count}; /* count <= BI_HDR_MAX */
        memcpy(sb, h, sizeof h);
        if (nb) memcpy(sb + BI_HDR, c->buf, nb);
        memset(sb + BI_HDR + nb, 0, pb - nb); /* the padding travels too */
        bi_reduce(c, comm, all, sb, rb, 1, hdr_type(c->op, k, eb), user_op(&hdrop, hdrfn));
        if (lands && nb) memcpy(c->buf, rb + BI_HDR, nb);
        bi_buf_release(w); /* NULL: nothing */
        return;
    }
    bi_count_agree(c);
    MPI_Datatype dt = c->dt;
    MPI_Op mop;
    if (c->op->kind == BI_SUM) {
        dt = bi_mpitype(c->op->type);
        mop = MPI_SUM;
    } else mop = user_op(&amop, amfn);
    /* MPI's predefined operations take predefined datatypes only, and user
     * operations an int length: counts past INT_MAX go in pieces */
    bi_buf *tmp = !all && lands ? bi_buf_scratch(bi_count_piece(c->count) * c->isize) : NULL;
    for (size_t off = 0; off < c->count;) {
        int k = (int)bi_count_piece(c->count - off);
        char *p = c->buf + off * c->isize;
        if (all) bi_reduce(c, comm, 1, p, p, k, dt, mop);
        else {
            bi_reduce(c, comm, 0, p, tmp ? tmp->data : NULL, k, dt, mop);
            if (tmp) memcpy(p, tmp->data, (size_t)k * c->isize);
        }
        off += (size_t)k;
    }
    if (tmp) bi_buf_release(tmp);
}
