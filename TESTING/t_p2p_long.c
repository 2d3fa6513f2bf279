/*
 * t_p2p_long.c -- long point-to-point messages, which SRC/p2p.c sends in
 * pieces (40 KiB, doubling up to 640 KiB) so that the receiver drains one
 * piece while the next is copied.  Checked with guard zones, on 2 processes:
 *   - every type, contiguous and strided (LDA > M) GE shapes and TR shapes,
 *     at lengths on, just below and just above the piece boundaries (a
 *     message ending exactly after a full piece is followed by an empty one)
 *     and a few MB long;
 *   - reshaped receives (M x N sent, a strided M' x N' of the same count
 *     received) and a shorter message into a larger receiving shape (its
 *     leading elements filled, the rest untouched);
 *   - locally blocking sends: 24 messages of 1 MB outstanding without a
 *     receive, A overwritten after each send returns, then all received in
 *     order; long and short messages interleaved between a pair.
 *   t_p2p_long truncate   a long message into a shorter (but longer than one
 *                         piece) receiving shape: the BLACS error must say so.
 *   t_p2p_long direct     the same checks where each receiver waits first:
 *                         the sender lags 3 ms behind the receiver's word
 *                         (MPI_COMM_WORLD) that it is about to receive, so
 *                         that a long message
 *                         whose receiver has said it waits goes straight from
 *                         A in one message (SRC/p2p.c); every MPI_Isend and
 *                         MPI_Irecv is seen here (intercepted): at least one
 *                         message must have gone whole from A, a worded
 *                         message to a wildcard receive (whose word comes
 *                         too late for A) whole from the complete copy,
 *                         not in pieces, and every word a
 *                         receiver sent (a message of no bytes) must have
 *                         met a receive of its sender's -- after named and
 *                         wildcard receives, short and strided messages
 *                         after long ones, and a FREEBUFF that must not wait
 *                         for a word still to come.
 *   t_p2p_long direct truncate  a whole message into a shorter receiving
 *                         shape, its receiver waiting: the same error.
 *   t_p2p_long lateword   long messages whose receiver comes 200 ms after
 *                         the sender's call, long after the sender copied A
 *                         but within the time it may look for the word
 *                         (run with BLACS_MEMCPY_BETA=1 and
 *                         BLACS_SOURCE_WAIT=1000000: up to 1 s).  On one
 *                         node the sender must send its finished copy
 *                         whole, not in pieces and not A, and return at
 *                         once; with BLACS_P2P_SCHEDULE=net (as across
 *                         nodes) it must wait for the word and send A
 *                         whole.  Every word must meet its receive, and the
 *                         data must arrive.
 */
#include <time.h>
#include "tutil.h"

/* the library's MPI_Isend and MPI_Irecv calls, seen through the profiling
 * interface: how many carried a whole message of `whole_bytes` straight
 * from the user's A (`user_a`) and how many from the library's copy, how
 * many words (no bytes) were sent and how many receives of one were posted */
static long whole_bytes = -1, wholes, copy_wholes, words_sent, word_recvs;
static const void *user_a;
/* and the sends of data (pieces), with the longest in bytes */
static long data_sends, longest_send;
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    int sz = 0;
    MPI_Type_size(dt, &sz);
    if (dt != MPI_BYTE) {
        data_sends++;
        if ((long)count * sz > longest_send) longest_send = (long)count * sz;
    }
    if ((long)count * sz == whole_bytes) {
        if (buf == user_a) wholes++;
        else copy_wholes++;
    }
    if (count == 0 && dt == MPI_BYTE) words_sent++; /* (not an empty last piece) */
    return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
}
int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    if (count == 0 && dt == MPI_BYTE) word_recvs++;
    return PMPI_Irecv(buf, count, dt, src, tag, comm, req);
}

static int lag; /* direct mode: the receiver says it is about to receive,
                 * and the sender waits for that and 3 ms more before each send */
static void lag_behind(void)
{
    struct timespec ts = {0, 3000000};
    int token;
    if (!lag) return;
    MPI_Recv(&token, 1, MPI_INT, 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    nanosleep(&ts, NULL);
}
static void about_to_receive(void)
{
    int token = 1;
    if (lag) MPI_Send(&token, 1, MPI_INT, 0, 77, MPI_COMM_WORLD);
}

#define T tu_p2p_types

/* first piece, bytes (SRC/p2p.c): boundaries at 1, 3, 7, 15, 31 x SEG0,
 * then +16; with BLACS_P2P_SCHEDULE=net (the schedule of peers on other
 * nodes) 25 x 40960, boundaries at 1, 3, 7, 11, ... (3 + 4k) x SEG0, so
 * 31 and 47 x SEG0 are boundaries of both */
static long SEG0 = 40960;

static blacs_int ctxt, me;
static int seedno;

/* rank 0 sends an m x n (lda ls) shape, rank 1 receives an mr x nr (lda lr) one */
static void one(int ti, const char *uplo, const char *diag, blacs_int m, blacs_int n, blacs_int ls,
                blacs_int mr, blacs_int nr, blacs_int lr)
{
    int seed = ++seedno * 11;
    tu_tr tr = {uplo ? uplo[0] : 'G', diag ? diag[0] : 'N', m, n};
    if (me == 0) {
        tu_mat a;
        tu_mat_alloc(&a, T[ti].esz, m, n, ls);
        tu_mat_pad(&a, 0xA5);
        tu_mat_fill(&a, T[ti].t, seed, uplo ? tu_in_tr : NULL, &tr);
        whole_bytes = uplo ? -1 : (long)m * n * (long)T[ti].esz;
        user_a = a.a;
        lag_behind();
        if (uplo) T[ti].trsd(ctxt, (char *)uplo, (char *)diag, m, n, a.a, ls, 0, 1);
        else T[ti].gesd(ctxt, m, n, a.a, ls, 0, 1);
        tu_mat_pad(&a, 0x00); /* locally blocking: A may be overwritten at once */
        tu_mat_free(&a);
        return;
    }
    tu_mat b;
    tu_mat_alloc(&b, T[ti].esz, mr, nr, lr);
    tu_mat_pad(&b, 0x5A);
    about_to_receive();
    if (uplo) T[ti].trrv(ctxt, (char *)uplo, (char *)diag, mr, nr, b.a, lr, 0, 0);
    else T[ti].gerv(ctxt, mr, nr, b.a, lr, 0, 0);
    long bad = 0;
    if (mr == m && nr == n) {
        bad = tu_mat_check(&b, T[ti].t, seed, uplo ? tu_in_tr : NULL, &tr, 0x5A, "p2p long");
    } else { /* GE reshaped or longer: element k of the sender lands at k, the rest untouched */
        tu_mat ref;
        tu_mat_alloc(&ref, T[ti].esz, m, n, m);
        tu_mat_fill(&ref, T[ti].t, seed, NULL, NULL);
        const long sent = (long)m * n;
        unsigned char pad[16];
        memset(pad, 0x5A, sizeof pad);
        for (long k = 0; k < (long)mr * nr; k++) {
            const void *want = k < sent ? tu_el(&ref, (blacs_int)(k % m), (blacs_int)(k / m)) : pad;
            if (memcmp(tu_el(&b, (blacs_int)(k % mr), (blacs_int)(k / mr)), want, T[ti].esz)) bad++;
        }
        /* guard zones and the LDA gaps */
        const unsigned char *p = b.mem;
        for (size_t i = 0; i < TU_GUARD * b.esz; i++) bad += p[i] != 0x5A;
        p = (const unsigned char *)b.a + (size_t)lr * (size_t)nr * b.esz;
        for (size_t i = 0; i < TU_GUARD * b.esz; i++) bad += p[i] != 0x5A;
        for (blacs_int j = 0; j < nr; j++)
            for (blacs_int i = mr; i < lr; i++) bad += memcmp(tu_el(&b, i, j), pad, b.esz) != 0;
        tu_mat_free(&ref);
    }
    TU_CHECK(bad == 0, "type %c uplo %s %ldx%ld lda %ld -> %ldx%ld lda %ld: %ld bad", T[ti].t,
             uplo ? uplo : "G", (long)m, (long)n, (long)ls, (long)mr, (long)nr, (long)lr, bad);
    tu_mat_free(&b);
}

static void boundaries(void)
{
    /* message lengths in bytes around the piece boundaries, and long ones */
    const long len[] = {SEG0 - 16, SEG0, SEG0 + 16, 3L * SEG0, 3L * SEG0 + 16, 7L * SEG0 - 16,
                        31L * SEG0, 47L * SEG0, 47L * SEG0 + 32, 4L << 20};
    for (int ti = 0; ti < 5; ti++)
        for (size_t k = 0; k < sizeof len / sizeof len[0]; k++) {
            blacs_int nel = (blacs_int)(len[k] / (long)T[ti].esz);
            if (T[ti].t != 'D' && (k == 7 || k == 8)) continue; /* keep the run short */
            one(ti, NULL, NULL, nel, 1, nel, nel, 1, nel);                 /* contiguous */
            blacs_int m = 97, n = (nel + m - 1) / m;
            one(ti, NULL, NULL, m, n, m + 3, m, n, m + 5);                 /* strided both sides */
            one(ti, NULL, NULL, m * n, 1, m * n, m, n, m + 1);             /* reshaped, strided */
        }
    /* trapezoids long enough for several pieces, both sides strided */
    static const char *ul[] = {"U", "L"}, *dg[] = {"N", "U"};
    static const blacs_int mn[][2] = {{300, 250}, {250, 300}, {600, 600}};
    for (int ti = 0; ti < 5; ti += 2)
        for (size_t k = 0; k < 3; k++)
            for (int u = 0; u < 2; u++)
                for (int d = 0; d < 2; d++)
                    one(ti, ul[u], dg[d], mn[k][0], mn[k][1], mn[k][0] + 2, mn[k][0], mn[k][1],
                        mn[k][0] + 7);
    /* a shorter message into a larger shape, across piece boundaries */
    one(2, NULL, NULL, 3 * SEG0 / 8 + 5, 1, 3 * SEG0 / 8 + 5, 2 * SEG0 / 8, 4, 2 * SEG0 / 8);
    one(2, NULL, NULL, SEG0 / 8, 1, SEG0 / 8, 101, (blacs_int)(SEG0 / 8 / 101 + 650), 103);
    one(4, NULL, NULL, 1000, 1, 1000, 5 * SEG0 / 16, 1, 5 * SEG0 / 16);
}

/* The eager prefix (SRC/p2p.c): under MPICH a message to a peer on this
 * node starts with 8 pieces of what MPICH sends eagerly, as many elements
 * as fit in 8,255 bytes, then the pieces of SEG0 bytes on.  The network
 * schedule and another MPI: no prefix (a message up to the first piece is
 * one MPI message).
 * Lengths on, just below and just above its boundaries, contiguous and
 * strided, each sent after a message of one element (so that no word is
 * owed and the schedule alone decides), and the pieces the sender posted
 * counted against the rule. */
static int netsched; /* this pair's schedule is the network one (main) */
static int net_sched(void)
{
    return netsched;
}

/* are the two processes on different nodes, as the library tells them
 * (SRC/p2p.c, net_peer: the MPI processor names, or MPI's shared-memory
 * view)?  Across the cluster test bed's hosts they are */
static int peers_apart(void)
{
    char name[MPI_MAX_PROCESSOR_NAME] = {0}, other[MPI_MAX_PROCESSOR_NAME] = {0};
    int len = 0, shared = 0;
    MPI_Comm sh;
    MPI_Get_processor_name(name, &len);
    MPI_Sendrecv(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - (int)me, 78, other,
                 MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - (int)me, 78, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &sh);
    MPI_Comm_size(sh, &shared);
    MPI_Comm_free(&sh);
    return strcmp(name, other) != 0 || shared < 2;
}
static long prefix_pieces(void)
{
#ifdef MPICH_VERSION
    return net_sched() ? 0 : 8;
#else
    return 0;
#endif
}
static long prefix_q(long es)
{
    return (long)tu_pair_piece((size_t)es, !net_sched());
}

/* the pieces of a message of n elements of es bytes, and the longest */
static long expected_pieces(long n, long es, long *longest)
{
    const long q = prefix_q(es), pre = prefix_pieces(), top = net_sched() ? 2 : 4;
    const long big = net_sched() ? 25 * 40960 : 40960; /* the first piece after the prefix */
    long e = 0, count = 0;
    *longest = 0;
    for (long j = 0;; j++) {
        long full = j < pre ? q : (big << (j - pre < top ? j - pre : top)) / es;
        long k = n - e < full ? n - e : full;
        count++;
        if (k * es > *longest) *longest = k * es;
        e += k;
        if (k < full) return count;
    }
}

static void eager_prefix(void)
{
    for (int ti = 0; ti < 5; ti++) {
        const long es = (long)T[ti].esz, q = prefix_q(es), pq = prefix_pieces() * q;
        const long s0 = (net_sched() ? 25 * 40960 : 40960) / es;
        const long len[] = {8192 / es - 1, q - 1, q, q + 1, 2 * q, 3 * q + 3, 65536 / es,
                            pq - 1, pq, pq + 1, pq + s0, pq + s0 + 1};
        for (size_t k = 0; k < sizeof len / sizeof len[0]; k++) {
            blacs_int n = (blacs_int)len[k];
            if (n < 1) continue; /* no prefix (network schedule, another MPI): pq is 0 */
            if (net_sched() && k >= 10 && T[ti].t != 'D') continue; /* 1 MB: keep the run short */
            for (int strided = 0; strided < 2; strided++) {
                blacs_int m = strided ? 61 : n, nc = strided ? (n + 60) / 61 : 1;
                one(ti, NULL, NULL, 1, 1, 1, 1, 1, 1);
                const long s0n = data_sends;
                longest_send = 0;
                one(ti, NULL, NULL, m, nc, strided ? m + 2 : m, m, nc, strided ? m + 3 : m);
                if (me == 0) {
                    long most, want = expected_pieces((long)m * nc, es, &most);
                    TU_CHECK(data_sends - s0n == want && longest_send == most,
                             "type %c, %ld elements%s: %ld pieces, the longest %ld bytes (%ld and "
                             "%ld expected)",
                             T[ti].t, (long)m * nc, strided ? " strided" : "", data_sends - s0n,
                             longest_send, want, most);
                }
            }
        }
    }
}

/* words after the other kinds of receive: a wildcard one (owed once the
 * source is known), a short message and a strided one after long ones, and
 * a FREEBUFF whose sender must not wait for the word of a message its
 * receiver takes only after a barrier that follows the FREEBUFF */
static void words_mixed(void)
{
    enum { N = 150000 };
    double *v = malloc(sizeof *v * N);
    long bad = 0;
    for (int round = 0; round < 3; round++) {
        const blacs_int len[3] = {N, 7, N};
        for (int k = 0; k < 3; k++) {
            if (me == 0) {
                for (blacs_int i = 0; i < len[k]; i++) v[i] = round * 1e7 + k * 1e6 + (double)i;
                lag_behind();
                const long w0 = wholes, c0 = copy_wholes;
                whole_bytes = (long)len[k] * (long)sizeof *v;
                user_a = v;
                if (k == 2 && round == 1) Cdgesd2d(ctxt, 1000, len[k] / 1000, v, 1000, 0, 1);
                else Cdgesd2d(ctxt, len[k], 1, v, len[k], 0, 1);
                /* the wildcard receive's first message follows a long one:
                 * its word comes only once the receiver found the message,
                 * so the sender copied all of A looking for it and sends
                 * the complete copy as one message, not in pieces */
                if (round == 2 && k == 0)
                    TU_CHECK(wholes == w0 && copy_wholes == c0 + 1,
                             "a worded message to a wildcard receive: %ld whole from A, %ld whole "
                             "from the copy (0 and 1 expected)",
                             wholes - w0, copy_wholes - c0);
            } else {
                memset(v, 0, sizeof *v * N);
                about_to_receive();
                if (round == 2) Cdgerv2d(ctxt, len[k], 1, v, len[k], -1, -1);
                else if (k == 2 && round == 1) Cdgerv2d(ctxt, 1000, len[k] / 1000, v, 1000, 0, 0);
                else Cdgerv2d(ctxt, len[k], 1, v, len[k], 0, 0);
                for (blacs_int i = 0; i < len[k]; i++) bad += v[i] != round * 1e7 + k * 1e6 + (double)i;
            }
        }
    }
    /* a long message received, then a short one that FREEBUFF must not wait for */
    if (me == 0) Cdgesd2d(ctxt, N, 1, v, N, 0, 1);
    else Cdgerv2d(ctxt, N, 1, v, N, 0, 0);
    if (me == 0) {
        v[0] = 42;
        Cdgesd2d(ctxt, 1, 1, v, 1, 0, 1);
        Cblacs_freebuff(ctxt, 1);
    }
    Cblacs_barrier(ctxt, "A");
    if (me == 1) {
        Cdgerv2d(ctxt, 1, 1, v, 1, 0, 0);
        bad += v[0] != 42;
    }
    TU_CHECK(bad == 0, "words after wildcard, short, strided receives and FREEBUFF: %ld bad", bad);
    free(v);
}

/* lateword: a 4 MB message (after one that makes the pair's next ones
 * worded), then two whose receiver comes 200 ms late */
static int late_word(int net)
{
    enum { N = 524288, K = 3 };
    double *v = malloc(sizeof *v * N), slowest = 0;
    long bad = 0;
    wholes = copy_wholes = 0;
    whole_bytes = (long)N * (long)sizeof *v;
    user_a = v;
    for (int k = 0; k < K; k++) {
        Cblacs_barrier(ctxt, "A");
        if (me == 0) {
            for (long i = 0; i < N; i++) v[i] = k * 1e7 + (double)i;
            double t0 = MPI_Wtime();
            Cdgesd2d(ctxt, N, 1, v, N, 0, 1);
            if (k && MPI_Wtime() - t0 > slowest) slowest = MPI_Wtime() - t0;
            memset(v, 0xFF, sizeof *v * N); /* A is mine again */
        } else {
            struct timespec ts = {0, 200000000};
            if (k) nanosleep(&ts, NULL);
            memset(v, 0, sizeof *v * N);
            Cdgerv2d(ctxt, N, 1, v, N, 0, 0);
            for (long i = 0; i < N; i++) bad += v[i] != k * 1e7 + (double)i;
        }
    }
    Cblacs_barrier(ctxt, "A");
    blacs_int w[4] = {(blacs_int)words_sent, (blacs_int)word_recvs, (blacs_int)wholes,
                      (blacs_int)copy_wholes};
    Cigsum2d(ctxt, "A", " ", 4, 1, w, 4, -1, -1);
    if (me == 1) TU_CHECK(bad == 0, "%d messages of 4 MB to a late receiver: %ld bad elements", K, bad);
    TU_CHECK(w[0] == w[1] && w[0] > 0, "%ld words sent, %ld receives of one posted", (long)w[0],
             (long)w[1]);
    if (net) {
        TU_CHECK(w[2] >= 1,
                 "network schedule: %ld messages went whole from A to a receiver whose word came "
                 "after the copy, within the sender's wait (2 expected)",
                 (long)w[2]);
    } else {
        TU_CHECK(w[2] == 0 && w[3] == K - 1,
                 "one node: %ld messages went whole from A and %ld whole from the copy to a "
                 "receiver whose word came after the copy (0 and %d expected)",
                 (long)w[2], (long)w[3], K - 1);
        /* it returns once the copy is sent, long before its receiver comes
         * (under valgrind everything is some 50 times slower) */
        if (me == 0 && !getenv("VALGRIND"))
            TU_CHECK(slowest < 0.1, "one node: a send to a receiver 200 ms late took %.3f s",
                     slowest);
    }
    free(v);
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}

/* 24 unreceived 1 MB sends, A reused after each; then interleaved lengths */
static void outstanding(void)
{
    enum { K = 24, N = 131072 };
    double *v = malloc(sizeof *v * N);
    if (me == 0) {
        for (int k = 0; k < K; k++) {
            for (long i = 0; i < N; i++) v[i] = k * 1e6 + (double)i;
            Cdgesd2d(ctxt, N, 1, v, N, 0, 1);
            memset(v, 0xFF, sizeof *v * N); /* the send returned: A is mine again */
        }
        for (int k = 0; k < 40; k++) {
            blacs_int len = (blacs_int)((k % 4 == 0) ? 1 + k : (k % 4) * 12345 + k);
            for (blacs_int i = 0; i < len; i++) v[i] = k + 0.25 * (double)i;
            Cdgesd2d(ctxt, len, 1, v, len, 0, 1);
        }
    }
    Cblacs_barrier(ctxt, "A"); /* every send above returned before any receive */
    if (me == 1) {
        long bad = 0;
        for (int k = 0; k < K; k++) {
            Cdgerv2d(ctxt, N, 1, v, N, 0, 0);
            for (long i = 0; i < N; i++) bad += v[i] != k * 1e6 + (double)i;
        }
        TU_CHECK(bad == 0, "%d outstanding 1 MB sends: %ld bad elements", K, bad);
        bad = 0;
        for (int k = 0; k < 40; k++) {
            blacs_int len = (blacs_int)((k % 4 == 0) ? 1 + k : (k % 4) * 12345 + k);
            Cdgerv2d(ctxt, len, 1, v, len, 0, 0);
            for (blacs_int i = 0; i < len; i++) bad += v[i] != k + 0.25 * (double)i;
        }
        TU_CHECK(bad == 0, "interleaved long and short messages: %ld bad elements", bad);
    }
    free(v);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int np;
    Cblacs_pinfo(&me, &np);
    const char *sched = getenv("BLACS_P2P_SCHEDULE");
    if (sched && !strcmp(sched, "net")) SEG0 *= 25;
    if (np != 2) {
        if (me == 0) fprintf(stderr, "t_p2p_long: run on 2 processes\n");
        Cblacs_exit(0);
        return 2;
    }
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    /* the pair's schedule: BLACS_P2P_SCHEDULE, else where the two are */
    netsched = sched && !strcmp(sched, "net") ? 1 : sched && !strcmp(sched, "node") ? 0 : peers_apart();
    int a = 1;
    if (argc > a && !strcmp(argv[a], "lateword")) return late_word(sched && !strcmp(sched, "net"));
    if (argc > a && !strcmp(argv[a], "direct")) lag = 1, a++;
    if (argc > a && !strcmp(argv[a], "truncate")) {
        /* 3 pieces sent, room for 2.5 */
        blacs_int n = 7 * SEG0 / 8, r = 5 * SEG0 / 16;
        double *v = calloc((size_t)n, sizeof *v);
        if (lag) { /* a long message first: its receiver then says it waits */
            if (me == 0) Cdgesd2d(ctxt, n, 1, v, n, 0, 1);
            else Cdgerv2d(ctxt, n, 1, v, n, 0, 0);
        }
        if (me == 0) lag_behind();
        else about_to_receive();
        if (me == 0) Cdgesd2d(ctxt, n, 1, v, n, 0, 1);
        else Cdgerv2d(ctxt, r, 1, v, r, 0, 0);
        printf("t_p2p_long: the truncated receive returned\n");
        Cblacs_exit(0);
        return 1;
    }
    if (!lag) eager_prefix();
    boundaries();
    if (lag) {
        /* a run of long messages each waited for first, whole from the second on
         * (1.2 MB: past the first piece of either schedule, so that only a
         * message straight from A goes whole) */
        wholes = 0;
        for (int k = 0; k < 6; k++) one(2, NULL, NULL, 150000, 1, 150000, 150000, 1, 150000);
        if (me == 0)
            TU_CHECK(wholes > 0, "%ld messages sent whole straight from A, with their receivers waiting",
                     wholes);
        words_mixed();
    }
    outstanding();
    if (lag) { /* every word met its receive: none is left unmatched at exit */
        Cblacs_barrier(ctxt, "A");
        blacs_int w[2] = {(blacs_int)words_sent, (blacs_int)word_recvs};
        Cigsum2d(ctxt, "A", " ", 2, 1, w, 2, -1, -1);
        TU_CHECK(w[0] == w[1] && w[0] > 0, "%ld words sent, %ld receives of one posted", (long)w[0],
                 (long)w[1]);
    }
    outstanding();
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
