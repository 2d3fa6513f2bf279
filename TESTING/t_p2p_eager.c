/*
 * t_p2p_eager.c -- short point-to-point messages go through a buffer
 * (SRC/p2p.c): none is sent from A with MPI_Send, whose return waits for the
 * receiver's process once MPI's queue to it is full.  On 2 processes:
 *   - which path each send takes, seen through the profiling interface
 *     (MPI_Send and MPI_Isend intercepted): contiguous messages of 1 element
 *     and more, strided and trapezoidal shapes, a message to oneself, each
 *     copied and posted with MPI_Isend from a buffer, nothing from A;
 *   - locally blocking sends: both processes send 3000 messages of 1 to 520
 *     doubles (contiguous, strided and trapezoids) to each other before
 *     either receives one, overwriting A after each send returns; then
 *     every message is received into a guarded matrix and checked.
 *   t_p2p_eager [bound]   bound: bytes that would go from A (0, the only
 *                         value BLACS_EAGER_DIRECT still accepts)
 * Sends while the receiver is outside MPI: t_offmpi.c.
 */
#include "tutil.h"

/* the library's sends: how many MPI_Send from the buffer `watch` (A), how
 * many MPI_Isend from it and how many from elsewhere (a BLACS buffer) */
static const void *watch;
static long sends_a, isends_a, isends_other;
int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    if (watch && buf == watch) sends_a++;
    return PMPI_Send(buf, count, dt, dest, tag, comm);
}
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    if (watch && count > 0) {
        if (buf == watch) isends_a++;
        else isends_other++;
    }
    return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
}

static blacs_int ctxt;
static int me;
static long bound;

/* rank 0 sends one m x n (LDA lda) double matrix, or a trapezoid when uplo;
 * rank 1 receives it; rank 0 says which path it took */
static void path(blacs_int m, blacs_int n, blacs_int lda, const char *uplo, int from_a)
{
    tu_mat a;
    int seed = (int)(m * 31 + n * 7 + lda);
    tu_tr tr = {uplo ? uplo[0] : 'G', 'N', m, n};
    tu_mat_alloc(&a, sizeof(double), m, n, lda);
    tu_mat_pad(&a, 0x5A);
    if (me == 0) {
        tu_mat_fill(&a, 'D', seed, uplo ? tu_in_tr : NULL, &tr);
        sends_a = isends_a = isends_other = 0;
        watch = a.a;
        if (uplo) Cdtrsd2d(ctxt, (char *)uplo, "N", m, n, a.a, lda, 0, 1);
        else Cdgesd2d(ctxt, m, n, a.a, lda, 0, 1);
        watch = NULL;
        long direct = sends_a + isends_a;
        TU_CHECK(direct == from_a && (from_a || isends_other == 1),
                 "%ldx%ld LDA %ld %s (%ld bytes, bound %ld): %ld sends from A, %ld from a buffer, "
                 "expected %s",
                 (long)m, (long)n, (long)lda, uplo ? "trapezoid" : "general", (long)(m * n * 8),
                 bound, direct, isends_other, from_a ? "from A" : "from a buffer");
        const char *dbg = getenv("BLACS_DEBUG"), *st = getenv("BLACS_STATS");
        int waited = (dbg && atoi(dbg) >= 2) || (st && *st && strcmp(st, "0"));
        if (from_a)
            TU_CHECK(waited ? isends_a == 1 && !sends_a : sends_a == 1 && !isends_a,
                     "%ld doubles: %ld MPI_Send, %ld MPI_Isend from A (hang detection: %d)",
                     (long)(m * n), sends_a, isends_a, waited);
    } else {
        if (uplo) Cdtrrv2d(ctxt, (char *)uplo, "N", m, n, a.a, lda, 0, 0);
        else Cdgerv2d(ctxt, m, n, a.a, lda, 0, 0);
        long bad = tu_mat_check(&a, 'D', seed, uplo ? tu_in_tr : NULL, &tr, 0x5A, "received");
        TU_CHECK(bad == 0, "%ldx%ld LDA %ld: %ld bad elements", (long)m, (long)n, (long)lda, bad);
    }
    tu_mat_free(&a);
}

/* message k of process p: its shape */
static void shape_of(int p, int k, blacs_int *m, blacs_int *n, blacs_int *lda, int *tr)
{
    unsigned h = (unsigned)(k * 2654435761u + (unsigned)p * 40503u);
    int kind = (int)(h % 5);
    *tr = kind == 4;
    if (kind <= 1) { /* one column, around the bound */
        long b = bound / 8;
        *m = (blacs_int)(kind == 0 ? 1 + h / 5 % 64 : (b > 8 ? b - 4 : 1) + h / 5 % 9);
        if (*m > 520) *m = 520;
        *n = 1;
        *lda = *m;
    } else {
        *m = (blacs_int)(2 + h / 5 % 20);
        *n = (blacs_int)(1 + h / 101 % 20);
        *lda = *m + (kind == 3 ? (blacs_int)(h / 7 % 3) : 0);
    }
}

/* a short message to oneself goes through a buffer: MPICH completes a send
 * to its own process only when the receive is posted */
static void to_self(void)
{
    double v[4] = {1, 2, 3, 4}, w[6] = {0, 0, 0, 0, 0, 0};
    isends_other = sends_a = isends_a = 0;
    watch = v;
    Cdgesd2d(ctxt, 4, 1, v, 4, 0, me);
    watch = NULL;
    TU_CHECK(isends_other == 1 && !sends_a && !isends_a,
             "to oneself: %ld sends from A, %ld from a buffer", sends_a + isends_a, isends_other);
    v[0] = -1;
    Cdgerv2d(ctxt, 4, 1, w + 1, 4, 0, me);
    TU_CHECK(w[0] == 0 && w[1] == 1 && w[2] == 2 && w[3] == 3 && w[4] == 4 && w[5] == 0,
             "to oneself: received %g %g %g %g %g %g", w[0], w[1], w[2], w[3], w[4], w[5]);
}

enum { K = 3000 }; /* messages each way */

/* message k of this process to the peer (send) or of the peer to this one
 * (received into a guarded matrix and checked: the bad elements and bytes) */
static long exchange_one(int send, int k)
{
    const int peer = 1 - me, p = send ? me : peer, seed = 1000 + p * K + k;
    blacs_int m, n, lda;
    int tr;
    long bad = 0;
    shape_of(p, k, &m, &n, &lda, &tr);
    tu_tr t = {'U', 'N', m, n};
    tu_mat a;
    tu_mat_alloc(&a, sizeof(double), m, n, lda);
    if (send) {
        tu_mat_fill(&a, 'D', seed, tr ? tu_in_tr : NULL, &t);
        if (tr) Cdtrsd2d(ctxt, "U", "N", m, n, a.a, lda, 0, peer);
        else Cdgesd2d(ctxt, m, n, a.a, lda, 0, peer);
        tu_mat_pad(&a, 0xEE); /* locally blocking: A is ours again */
    } else {
        tu_mat_pad(&a, 0x33);
        if (tr) Cdtrrv2d(ctxt, "U", "N", m, n, a.a, lda, 0, peer);
        else Cdgerv2d(ctxt, m, n, a.a, lda, 0, peer);
        bad = tu_mat_check(&a, 'D', seed, tr ? tu_in_tr : NULL, &t, 0x33, "exchanged");
    }
    tu_mat_free(&a);
    return bad;
}

static void exchange(void)
{
    long bad = 0;
    for (int k = 0; k < K; k++) exchange_one(1, k); /* all sent before anything is received */
    for (int k = 0; k < K; k++) bad += exchange_one(0, k);
    TU_CHECK(bad == 0, "%ld bad elements or guard bytes in %d exchanged messages", bad, K);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_watchdog("t_p2p_eager", 240);
    blacs_int iam, np;
    Cblacs_pinfo(&iam, &np);
    me = (int)iam;
    if (np != 2) {
        if (me == 0) fprintf(stderr, "t_p2p_eager: run on 2 processes\n");
        Cblacs_exit(0);
        return 2;
    }
    bound = argc > 1 ? atol(argv[1]) : 0;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    long most = bound / 8; /* doubles that fit the bound */
    path(1, 1, 1, NULL, bound >= 8);
    if (most >= 1) {
        path((blacs_int)most, 1, (blacs_int)most, NULL, 1);
        if (most >= 2) path(2, (blacs_int)(most / 2), 2, NULL, 1); /* columns without a gap */
    }
    path((blacs_int)most + 1, 1, (blacs_int)most + 1, NULL, 0);
    path(2, 2, 3, NULL, 0);   /* strided: a buffer whatever the size */
    path(3, 3, 3, "U", 0);    /* a trapezoid */
    path(1, 3, 1, NULL, bound >= 24); /* a row, LDA 1: contiguous */
    to_self();
    exchange();
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
