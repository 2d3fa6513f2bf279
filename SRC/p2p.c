/*
 * p2p.c -- point-to-point: vGESD2D/vGERV2D/vTRSD2D/vTRRV2D (LAWN 73
 * section 3, spec sections 5-6).
 *
 * Sends are locally blocking for any size and any number of outstanding
 * sends: the shape is copied once into a buffer (buffer.c) and sent with
 * MPI_Isend, so the caller may reuse A at once.  Receives land directly in
 * A (a derived datatype describes the shape), with no copy.  Messages of a
 * pair arrive in order: the IDs of msgid.c count per pair.  RSRC = -1
 * and/or CSRC = -1 receive from any process of the grid (resp. of the
 * column or row): LAWN 73 7.1.2's wildcard receive; Cblacs_lastsrc tells
 * who sent.
 */
#include "bi.h"

int bi_vpid(bi_ctx *c, Int r, Int col, Int ctxt, const char *routine, int argno,
            const char *name)
{
    if (r < 0 || r >= c->nprow || col < 0 || col >= c->npcol)
        bi_argerr(ctxt, routine, argno, name, "{%ld,%ld} is not in the %dx%d grid", (long)r,
                  (long)col, c->nprow, c->npcol);
    return (int)(r * c->npcol + col);
}

void bi_p2p_send(Int ctxt, const bi_shape *s, const void *A, Int rdest, Int cdest,
                 const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    int argr = s->tr ? 8 : 6;
    int dest = bi_vpid(c, rdest, cdest, ctxt, routine, argr, s->tr ? "RDEST/CDEST" : "RDEST/CDEST");
    size_t n = bi_shape_count(s), es = bi_types[s->type].size;
    bi_buf *b = bi_buf_get(n * es);
    bi_pack(s, A, b->data);
    int tag = bi_msgid_p2p_send(c, dest, 1);
    MPI_Request *r = bi_buf_req(b, c->world[dest]);
    bi_mpicount k = bi_mpicount_of(n, bi_mpitype(s->type));
#if defined(BI_FAULT) && BI_FAULT == 5
    /* planted fault 5: a send that blocks until it is received */
    BI_MPI_IN(MPI_Issend(b->data, k.n, k.dt, dest, tag, c->comm, r), "MPI_Issend", ctxt, routine);
    bi_wait(r, MPI_STATUS_IGNORE, c->comm, dest, tag, n * es);
    b->nreq = 0;
#else
    BI_MPI_IN(MPI_Isend(b->data, k.n, k.dt, dest, tag, c->comm, r), "MPI_Isend", ctxt, routine);
#endif
    bi_mpicount_free(&k);
    bi_buf_post(b);
}

/* wildcard receive: the next message of any allowed source is the one with
 * that source's next ID; poll the candidates until one is there */
static int any_source(bi_ctx *c, Int rsrc, Int csrc, int *tag)
{
    double t0 = MPI_Wtime();
    for (;;) {
        for (int v = 0; v < c->np; v++) {
            if ((rsrc >= 0 && v / c->npcol != rsrc) || (csrc >= 0 && v % c->npcol != csrc)) continue;
            int t = bi_msgid_p2p_recv(c, v, 0), flag = 0;
            BI_MPI(MPI_Iprobe(v, t, c->comm, &flag, MPI_STATUS_IGNORE), "MPI_Iprobe");
            if (flag) {
                *tag = t;
                return v;
            }
        }
        bi_poll();
        if (bi_g.debug >= 2 && MPI_Wtime() - t0 > bi_g.hang_timeout)
            bi_hang(c->comm, MPI_ANY_SOURCE, -1, 0, MPI_Wtime() - t0);
    }
}

void bi_p2p_recv(Int ctxt, const bi_shape *s, void *A, Int rsrc, Int csrc, const char *routine)
{
    bi_ctx *c = bi_ctx_get(ctxt, routine);
    int argr = s->tr ? 8 : 6, src, tag;
    if (rsrc == -1 || csrc == -1) {
        if (rsrc < -1 || rsrc >= c->nprow || csrc < -1 || csrc >= c->npcol)
            bi_vpid(c, rsrc, csrc, ctxt, routine, argr, "RSRC/CSRC");
        src = any_source(c, rsrc, csrc, &tag);
    } else {
        src = bi_vpid(c, rsrc, csrc, ctxt, routine, argr, "RSRC/CSRC");
        tag = bi_msgid_p2p_recv(c, src, 0);
    }
    bi_msgid_p2p_recv(c, src, 1);
    MPI_Status st;
    int rc;
    bi_mpicount k = {1, MPI_DATATYPE_NULL, 1};
    if (bi_shape_contig(s)) k = bi_mpicount_of(bi_shape_count(s), bi_mpitype(s->type));
    else k.dt = bi_shape_mpitype(s);
    if (bi_g.debug >= 2 || bi_g.stats) {
        MPI_Request r;
        rc = MPI_Irecv(A, k.n, k.dt, src, tag, c->comm, &r);
        if (rc == MPI_SUCCESS)
            rc = bi_wait(&r, &st, c->comm, src, tag, bi_shape_count(s) * bi_types[s->type].size);
    } else {
        rc = MPI_Recv(A, k.n, k.dt, src, tag, c->comm, &st);
    }
    bi_mpicount_free(&k);
    if (rc != MPI_SUCCESS) {
        int cls;
        MPI_Error_class(rc, &cls);
        if (cls == MPI_ERR_TRUNCATE)
            bi_error(ctxt, -1, routine,
                     "message from {%d,%d} is longer than the %zu elements of the receiving shape (M=%ld, N=%ld)",
                     src / c->npcol, src % c->npcol, bi_shape_count(s), (long)s->m, (long)s->n);
        BI_MPI_IN(rc, "MPI_Recv", ctxt, routine);
    }
    c->lastsrc = src;
    bi_poll();
}
