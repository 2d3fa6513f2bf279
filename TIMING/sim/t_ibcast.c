/*
 * t_ibcast.c -- the simulation layer's MPI_Ibcast (TIMING/sim/simmpi.c),
 * MPICH 4.0.2's schedules, checked under SMPI by TIMING/sim/ibcast.sh.
 *
 * 1. Data.  On MPI_COMM_WORLD, on its even and odd halves, and on the
 *    world in reverse order (so that a communicator's rank order is not its
 *    nodes' order), for lengths on both sides of MPICH's bounds (12,288 and
 *    524,288 bytes) and roots at both ends and in the middle, contiguous
 *    bytes and a strided vector of doubles: every receiver gets the root's
 *    data, and the guard zone behind each buffer is untouched.
 * 2. Progress as MPICH's.  The root posts its broadcast and then is away
 *    from MPI for 20 ms (a simulated sleep).  Receivers of a short one (100
 *    bytes: binomial, the root's eager sends posted at once) finish before
 *    the root is back; in a long one (1 MB on all ranks: scatter, then a
 *    ring allgather the root takes part in) the last receiver finishes
 *    only after it.
 * 3. MPI_Bcast (with SIMMPI_COLL=mpich, as every simulation with MPICH's
 *    selector runs): the same schedules, so on a communicator with a rank
 *    on each node the tree is MPICH's binomial tree from the root.  Root 3,
 *    the rank at distance 8 from it away for 20 ms before its call: the
 *    three behind it (distances 9-11, ranks 0-2 on 12 ranks) finish after
 *    it, every other rank before.  SimGrid's own selection (a tree from
 *    rank 0) fails this.  Checked on a layout of one rank a node only.
 * 4. Requests: one made at a handle the layer remembers is not done
 *    before its data move, a null request's test says it is complete, and
 *    a non-blocking reduction of a derived type with a user operation
 *    computes the reduction.
 * 5. MPICH's eager threshold (SIM_EAGER, TIMING/sim/smpi.sh): a send of
 *    SIM_EAGER bytes returns while its receiver is away for 20 ms, one of
 *    twice as many waits for it.
 * Prints one "ok"/"WRONG" line per check on rank 0, then "N passed, M failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>

#define GUARD 64
static int me, pass, fail;

static void check(int ok, const char *what)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (me == 0) printf("%s %s\n", all ? "ok   " : "WRONG", what);
    if (all) pass++;
    else fail++;
}

/* a user operation on 16-byte elements: a header (5, ~5) that both
 * operands must carry, then the largest of one int32 */
static int elem_bad;
static void elem_max(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int k = 0; k < *len; k++) {
        int32_t a[4], b[4];
        memcpy(a, (char *)inout + 16 * k, sizeof a);
        memcpy(b, (char *)in + 16 * k, sizeof b);
        elem_bad |= a[0] != 5 || a[1] != ~5 || b[0] != 5 || b[1] != ~5;
        if (b[2] > a[2]) a[2] = b[2];
        memcpy((char *)inout + 16 * k, a, sizeof a);
    }
}

static unsigned char pat(size_t i, int seed) { return (unsigned char)(i * 131 + (size_t)seed * 7 + 1); }

/* one broadcast of n bytes (strided: n/8 doubles, every other one of
 * 2n/8) from root on comm, checked */
static int one(MPI_Comm comm, size_t n, int root, int strided, int seed)
{
    int r;
    MPI_Comm_rank(comm, &r);
    const size_t span = strided ? 2 * n : n;
    unsigned char *b = malloc(span + GUARD);
    for (size_t i = 0; i < span; i++) b[i] = r == root ? pat(i, seed) : 0xab;
    memset(b + span, 0xcd, GUARD);
    MPI_Datatype t = MPI_BYTE;
    int count = (int)n;
    if (strided) {
        MPI_Type_vector((int)(n / 8), 1, 2, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        count = 1;
    }
    MPI_Request q;
    MPI_Ibcast(b, count, t, root, comm, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    int ok = q == MPI_REQUEST_NULL;
    for (size_t i = 0; i < span && ok; i++) {
        const int in = !strided || (i / 8) % 2 == 0; /* a byte of the vector */
        ok = b[i] == (in || r == root ? pat(i, seed) : 0xab);
    }
    for (size_t i = 0; i < GUARD; i++) ok &= b[span + i] == 0xcd;
    if (strided) MPI_Type_free(&t);
    free(b);
    return ok;
}

/* 20 ms away from MPI (a simulated sleep) */
static void outside_20ms(void)
{
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
}

/* the receivers' latest finish after a root away for 20 ms */
static double away(size_t n)
{
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    char *b = malloc(n);
    memset(b, me == 0 ? 1 : 0, n);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    MPI_Request q;
    MPI_Ibcast(b, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &q);
    double t = 0;
    if (me == 0) {
        outside_20ms();
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        t = MPI_Wtime() - t0;
    }
    int ok = 1;
    for (size_t i = 0; i < n; i++) ok &= b[i] == 1;
    check(ok, "data of the root-away broadcast");
    double tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    free(b);
    return tmax;
}

/* 3 above: this rank's finish of a 4-byte MPI_Bcast from root while late
 * is away for 20 ms */
static double bcast_late(int root, int late)
{
    char b[4] = {0};
    if (me == root) b[0] = 9;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (me == late) outside_20ms();
    MPI_Bcast(b, 4, MPI_BYTE, root, MPI_COMM_WORLD);
    const double t = MPI_Wtime() - t0;
    check(b[0] == 9, "data of MPI_Bcast with a relay away");
    return t;
}

/* is every rank on a node of its own? */
static int one_a_node(int np)
{
    char name[MPI_MAX_PROCESSOR_NAME] = {0};
    int len = 0, ok = 1;
    MPI_Get_processor_name(name, &len);
    char *all = malloc((size_t)np * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  MPI_COMM_WORLD);
    for (int i = 0; i < np && ok; i++)
        ok = i == me || strncmp(name, all + (size_t)i * MPI_MAX_PROCESSOR_NAME, MPI_MAX_PROCESSOR_NAME);
    free(all);
    int every = 0;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return every;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm half, rev;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Comm_split(MPI_COMM_WORLD, 0, np - me, &rev);
    const struct { MPI_Comm c; const char *name; } cs[] = {{MPI_COMM_WORLD, "world"}, {half, "halves"}, {rev, "reversed"}};
    const size_t ns[] = {1, 100, 12280, 12288, 50000, 524280, 524288, 700008};
    int seed = 0;
    for (int k = 0; k < 3; k++) {
        int p;
        MPI_Comm_size(cs[k].c, &p);
        const int roots[] = {0, p - 1, p / 2};
        for (size_t j = 0; j < sizeof ns / sizeof *ns; j++)
            for (int ri = 0; ri < 3; ri++)
                for (int st = 0; st < 2; st++) {
                    if (st && ns[j] % 8) continue;
                    char what[128];
                    snprintf(what, sizeof what, "%s (p = %d) %zu bytes%s from %d", cs[k].name, p, ns[j],
                             st ? " strided" : "", roots[ri]);
                    check(one(cs[k].c, ns[j], roots[ri], st, ++seed), what);
                }
    }
    /* several in flight on one communicator, waited for in reverse */
    {
        enum { K = 4 };
        MPI_Request q[K];
        char *b[K];
        for (int i = 0; i < K; i++) {
            const size_t n = i % 2 ? 100000 : 64;
            b[i] = malloc(n);
            memset(b[i], me == i % np ? 'a' + i : 0, n);
            MPI_Ibcast(b[i], (int)n, MPI_BYTE, i % np, MPI_COMM_WORLD, &q[i]);
        }
        int ok = 1;
        for (int i = K - 1; i >= 0; i--) {
            const size_t n = i % 2 ? 100000 : 64;
            MPI_Wait(&q[i], MPI_STATUS_IGNORE);
            for (size_t x = 0; x < n; x++) ok &= b[i][x] == 'a' + i;
            free(b[i]);
        }
        check(ok, "four at once, waited for in reverse");
    }
    const double ts = away(100), tl = away(1 << 20);
    if (me == 0) printf("root away 20 ms: last receiver of 100 B at %.3f ms, of 1 MB at %.3f ms\n", ts * 1e3, tl * 1e3);
    check(ts < 0.02, "a short broadcast's receivers do not wait for an absent root");
    check(tl > 0.02, "a long broadcast's last receiver waits for its root's return (MPICH's progress)");
    { /* an empty derived type (the reference BLACS's empty trapezoid), both calls */
        MPI_Datatype e;
        int len[2] = {0, 0}, disp[2] = {0, 1};
        MPI_Type_indexed(2, len, disp, MPI_DOUBLE, &e);
        MPI_Type_commit(&e);
        double d[2] = {me, me};
        MPI_Request q;
        MPI_Ibcast(d, 1, e, 0, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Bcast(d, 1, e, np - 1, MPI_COMM_WORLD);
        MPI_Type_free(&e);
        check(d[0] == me && d[1] == me, "a broadcast of an empty derived type moves nothing");
    }
    if (np == 12 && one_a_node(np)) {
        const int root = 3, late = (root + 8) % np;
        const double t = bcast_late(root, late);
        const int behind = me < 3; /* distances 9, 10, 11 */
        check(me == late || (t > 0.02) == behind,
              "MPI_Bcast from 3: ranks 0-2 wait for their relay (rank 11, away 20 ms), no other rank does");
    }
    { /* a request made right after MPI_Request_get_status found another
       * done (SMPI frees that one, the layer remembers its handle, and
       * SMPI may give the new request the same memory): the new one is not
       * done before its data have moved.  Rank 0 asks after a word of no
       * bytes from rank 1 until it is in, then sends rank 1 1 MB, which
       * rank 1 receives 10 ms later: the send's first test must say "not
       * done" (the layer said "done" at once, the send's buffer was reused,
       * and simulated ScaLAPACK's receivers got another broadcast's data) */
        int ok = 1;
        enum { LONG = 1 << 20, ROUNDS = 8 };
        char *big = malloc(LONG);
        for (int round = 0; np >= 2 && me < 2 && round < ROUNDS; round++) {
            MPI_Request w, s;
            if (me == 0) {
                MPI_Irecv(NULL, 0, MPI_BYTE, 1, 70, MPI_COMM_WORLD, &w);
                int done = 0;
                while (!done) {
                    MPI_Request_get_status(w, &done, MPI_STATUS_IGNORE);
                    struct timespec t = {0, 1000};
                    if (!done) nanosleep(&t, NULL);
                }
                memset(big, 'A' + round, LONG);
                MPI_Isend(big, LONG, MPI_BYTE, 1, 71, MPI_COMM_WORLD, &s);
                int flag = 1;
                MPI_Test(&s, &flag, MPI_STATUS_IGNORE);
                ok &= !flag;
                MPI_Wait(&w, MPI_STATUS_IGNORE);
                if (!flag) MPI_Wait(&s, MPI_STATUS_IGNORE);
            } else {
                MPI_Isend(NULL, 0, MPI_BYTE, 0, 70, MPI_COMM_WORLD, &w);
                MPI_Wait(&w, MPI_STATUS_IGNORE);
                struct timespec t = {0, 10000000};
                nanosleep(&t, NULL);
                memset(big, 0, LONG);
                MPI_Recv(big, LONG, MPI_BYTE, 0, 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                for (size_t x = 0; x < LONG; x += 4093) ok &= big[x] == 'A' + round;
            }
        }
        free(big);
        check(ok, "a send made after MPI_Request_get_status found another request done is not done before its receiver takes it");
    }
    { /* MPI_Iallreduce and MPI_Ireduce of a derived datatype with a user
       * operation, in place and not, on the world and its halves: the
       * operation sees both operands (SMPI's handed it heap garbage as
       * inout, and the BLACS combine's header check failed at
       * BLACS_DEBUG=2), and the result is the reduction */
        MPI_Datatype t;
        MPI_Type_contiguous(16, MPI_BYTE, &t);
        MPI_Type_commit(&t);
        MPI_Op op;
        MPI_Op_create(elem_max, 1, &op);
        int ok = 1;
        for (int k = 0; k < 8; k++) {
            MPI_Comm c = k & 1 ? half : MPI_COMM_WORLD;
            int cn, cme;
            MPI_Comm_size(c, &cn);
            MPI_Comm_rank(c, &cme);
            int32_t e[4] = {5, ~5, me * 3 + k, 0}, in[4], expect = -1;
            for (int r = 0; r < np; r++)
                if (k & 1 ? r % 2 == me % 2 : 1) expect = r * 3 + k > expect ? r * 3 + k : expect;
            memcpy(in, e, sizeof e);
            MPI_Request q;
            if (k & 2) MPI_Ireduce(in, e, 1, t, op, cn - 1, c, &q);
            else MPI_Iallreduce(k & 4 ? MPI_IN_PLACE : (void *)in, e, 1, t, op, c, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            if (!(k & 2) || cme == cn - 1) ok &= e[0] == 5 && e[1] == ~5 && e[2] == expect;
        }
        ok &= !elem_bad;
        MPI_Op_free(&op);
        MPI_Type_free(&t);
        check(ok, "MPI_Iallreduce and MPI_Ireduce of a derived type with a user operation see both operands");
    }
    { /* a null request is complete (MPI 3.1, 3.7.3): its test sets the flag,
       * with MPI_STATUS_IGNORE too (SMPI's left it as it was, and a wait
       * that tests until the flag is set spun for ever) */
        MPI_Request n = MPI_REQUEST_NULL;
        int f = 0, g = 0;
        MPI_Test(&n, &f, MPI_STATUS_IGNORE);
        MPI_Request_get_status(n, &g, MPI_STATUS_IGNORE);
        check(f && g && n == MPI_REQUEST_NULL, "MPI_Test and MPI_Request_get_status of MPI_REQUEST_NULL set the flag");
    }
    { /* MPICH's eager threshold (SIM_EAGER, TIMING/sim/smpi.sh): a send of
       * that many bytes returns while its receiver is away, one of twice as
       * many waits for it (SMPI sends eagerly only what is shorter than its
       * own threshold, so smpi.sh gives it SIM_EAGER + 1) */
        const char *e = getenv("SIM_EAGER");
        const int eager = e ? atoi(e) : 8192;
        char *b = calloc(2 * (size_t)eager, 1);
        double t[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            const int n = eager * (k + 1);
            MPI_Barrier(MPI_COMM_WORLD);
            if (me == 0) {
                const double t0 = MPI_Wtime();
                MPI_Send(b, n, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
                t[k] = MPI_Wtime() - t0;
            } else if (me == 1) {
                outside_20ms();
                MPI_Recv(b, n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
        free(b);
        check(me != 0 || t[0] < 0.01, "a send of SIM_EAGER bytes returns while its receiver is away");
        check(me != 0 || t[1] > 0.01, "a send of twice SIM_EAGER bytes waits for its receiver");
    }
    MPI_Comm_free(&half);
    MPI_Comm_free(&rev);
    if (me == 0) printf("%d passed, %d failed\n", pass, fail);
    MPI_Finalize();
    return 0;
}
