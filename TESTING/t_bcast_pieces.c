/*
 * t_bcast_pieces.c -- the rings 'I', 'D', 'S', 'M' (BLACS_SET 11 = 2 and
 * -2) forward long vectors in pieces (SRC/bcast_ring.c): for every source
 * of a 1 x Np row, double and integer items, a long contiguous vector, a
 * long matrix with LDA > M (packed) and a short vector, each process checks
 *   - the data and the guard zones around the matrix and in its LDA gaps;
 *   - from its message trace (BLACS_TRACE), that it sent each receiver the
 *     vector in exactly k consecutive pieces on one message ID, the blocks
 *     of k as even as possible (the first count mod k one item longer),
 *     with k the rule of the README, derived here from the environment:
 *     ceil(bytes / BLACS_PIPE_SEGMENT) if set, else the k that minimises
 *     the topology's model (the README's table, written out below and
 *     searched over every k), no piece under 8 KiB, at most 4096 and count
 *     pieces, and no more than delay the first hop by 10% of T_c(n)
 *     (doc/topologies.md); under MPICH, with 3 processes or more,
 *     BLACS_PIPE_SEGMENT unset and at most 128 KiB, ceil(bytes / 8 KiB)
 *     instead (pieces MPICH sends eagerly), and with 2 processes, from
 *     8,255 bytes' worth of items to 64 KiB, pieces of that many items,
 *     the last one shorter or empty (SRC/plan.c, pair_pieces);
 *   - that every process but the source received once (one group of
 *     pieces in all the scope's traces for each);
 *   - that the long vectors really went in several pieces wherever the
 *     longest path has two hops or more, but where the source feeds two
 *     paths on 4 processes (and the short one in one).
 * Run on 2..5 processes, with and without BLACS_PIPE_SEGMENT.
 *   t_bcast_pieces late   (3 processes) a relay whose next hop is 300 ms
 *                         late: under MPICH it and the source
 *                         return within 0.1 s (late() below).
 */
#include <math.h>
#include <unistd.h>
#include <time.h>
#include "tutil.h"

static int np, me;
/* MPICH, on one node or across nodes: the rings of 3 processes or more
 * cut a vector of up to 128 KB into pieces of 8 KB, what MPICH sends
 * eagerly (tu_eager_pieces) */
static int mpich;
static char tracename[512];
static FILE *tf;

typedef struct { int from, to, tag; long bytes; } line_t;
#define MAXL 20000
static line_t got[MAXL];
static int ngot;

static void read_new(void)
{
    ngot = 0;
    if (!tf) tf = fopen(tracename, "r");
    if (!tf) return;
    char buf[256];
    while (fgets(buf, sizeof buf, tf)) {
        long ctx;
        char scope, top;
        int step;
        line_t x;
        if (sscanf(buf, "%ld %c %d %d %ld %d %d %c", &ctx, &scope, &x.from, &x.to, &x.bytes,
                   &x.tag, &step, &top) == 8 && ngot < MAXL)
            got[ngot++] = x;
    }
    clearerr(tf);
}

static double envd(const char *name, double dflt)
{
    const char *s = getenv(name);
    return s && *s ? atof(s) : dflt;
}

/* hops of the longest path */
static int hops(char top, int rings)
{
    if (top == 'S') return np / 2;
    if (top == 'M') {
        int nr = rings < 0 ? -rings : rings;
        if (nr > np - 1) nr = np - 1;
        return (np - 1 + nr - 1) / nr;
    }
    return np - 1;
}

/* the README's model of ring top in k pieces of n bytes: the split ring's
 * slower half, or the slowest of N_r paths ('I', 'D': one) */
static double ring_time(char top, int rings, double n, double k)
{
    const double b = envd("BLACS_BETA", 1e-4);
    const double tc = envd("BLACS_ALPHA", 2.0) + b * n / k, ts = envd("BLACS_SEND_ALPHA", 0.5) + b * n / k;
    if (top == 'S') {
        const int h = np / 2, low = np - 1 - h;
        const double up = (h - 1 + k) * tc, down = k * ts + (low - 1 + k) * tc;
        return low > 0 && down > up ? down : up;
    }
    int nr = top == 'M' ? (rings < 0 ? -rings : rings) : 1;
    if (nr > np - 1) nr = np - 1;
    const int len = (np - 1) / nr, nlong = (np - 1) % nr;
    double t = (nr - 1) * k * ts + (len - 1 + k) * tc;
    if (nlong && (nlong - 1) * k * ts + (len + k) * tc > t) t = (nlong - 1) * k * ts + (len + k) * tc;
    return t;
}

/* two processes under MPICH, BLACS_PIPE_SEGMENT unset, from q items to
 * 64 KB (SRC/plan.c, pair_pieces): pieces of q items, what MPICH sends
 * eagerly on one node, the last one shorter (empty when q divides the
 * count); the q, else 0 */
static long pair_q(long items, size_t esz)
{
    const long q = (long)(8255 / esz);
    return tu_mpich() && np == 2 && !getenv("BLACS_PIPE_SEGMENT") && items >= q &&
                   (double)items * (double)esz <= 65536
               ? q
               : 0;
}

/* the piece count of the README's rule */
static long pieces(char top, int rings, long items, size_t esz)
{
    double n = (double)items * (double)esz, seg = envd("BLACS_PIPE_SEGMENT", 0), k = 1;
    if (pair_q(items, esz)) return items / pair_q(items, esz) + 1;
    if (seg > 0) k = ceil(n / seg);
    else if (tu_eager_pieces(np, n)) k = (double)tu_eager_pieces(np, n); /* MPICH's eager */
    else if (np >= 3 && n > 0) {
        double kmax = floor(n / 8192), tbest = HUGE_VAL;
        if (kmax > 4096) kmax = 4096;
        if (kmax > (double)items) kmax = (double)items;
        for (double j = 1; j <= kmax; j++) {
            double t = ring_time(top, rings, n, j);
            if (t < tbest * (1 - 1e-12)) tbest = t, k = j;
        }
    }
    if (k > 4096) k = 4096;
    if (k > items) k = (double)items;
    if (seg <= 0 && !tu_eager_pieces(np, n)) { /* the first hop no more than 10% later than one message's T_c(n) */
        const double a = envd("BLACS_ALPHA", 2.0), b = envd("BLACS_BETA", 1e-4);
        while (k > 1 && (k - 1) * a > 0.1 * (a + b * n)) k--;
    }
    return k < 1 ? 1 : (long)k;
}

/* first item of piece b of k: pieces of q items if q, else k even blocks */
static long first(long n, long k, long q, long b)
{
    if (q) return b * q < n ? b * q : n;
    return b * (n / k) + (b < n % k ? b : n % k);
}

typedef struct { blacs_int m, n, lda; int lng; } shape_t;

static void one(blacs_int ctxt, char top, int rings, char type, size_t esz, const shape_t *sh,
                int root, int *saw_pieces)
{
    tu_mat a;
    tu_mat_alloc(&a, esz, sh->m, sh->n, sh->lda);
    tu_mat_pad(&a, 0xA5);
    const int seed = 100 * root + top + rings;
    if (me == root) tu_mat_fill(&a, type, seed, NULL, NULL);
    char tp[2] = {top, 0};
    switch (type) {
    case 'D':
        if (me == root) Cdgebs2d(ctxt, "Row", tp, sh->m, sh->n, a.a, sh->lda);
        else Cdgebr2d(ctxt, "Row", tp, sh->m, sh->n, a.a, sh->lda, 0, root);
        break;
    default:
        if (me == root) Cigebs2d(ctxt, "Row", tp, sh->m, sh->n, a.a, sh->lda);
        else Cigebr2d(ctxt, "Row", tp, sh->m, sh->n, a.a, sh->lda, 0, root);
        break;
    }
    char what[96];
    snprintf(what, sizeof what, "'%c' rings %d type %c %ldx%ld root %d", top, rings, type,
             (long)sh->m, (long)sh->n, root);
    TU_CHECK(tu_mat_check(&a, type, seed, NULL, NULL, 0xA5, what) == 0, "%s: data or guards",
             what);
    tu_mat_free(&a);
    MPI_Barrier(MPI_COMM_WORLD); /* every send of this broadcast is in the trace */
    read_new();

    /* my sends: groups of consecutive pieces to one receiver on one ID */
    const long items = (long)sh->m * (long)sh->n;
    const int h = hops(top, rings);
    const long k = pieces(top, rings, items, esz), q = pair_q(items, esz);
    int groups = 0, ok = 1;
    for (int i = 0; i < ngot;) {
        int j = i;
        while (j < ngot && got[j].to == got[i].to && got[j].tag == got[i].tag) j++;
        groups++;
        if (j - i != k) ok = 0;
        for (int s = 0; s < j - i && s < k; s++)
            if (got[i + s].bytes != (first(items, k, q, s + 1) - first(items, k, q, s)) * (long)esz ||
                got[i + s].from != me)
                ok = 0;
        if (j - i > 1) *saw_pieces = 1;
        i = j;
    }
    if (!ok)
        fprintf(stderr, "[rank %d] %s: %d sends, expected groups of %ld pieces (hops %d)\n",
                tu_rank, what, ngot, k, h);
    TU_CHECK(ok, "%s: pieces as the rule has them", what);
    int all;
    MPI_Allreduce(&groups, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    TU_CHECK(all == np - 1, "%s: %d receives in the traces, expected %d", what, all, np - 1);
    /* (not where the source feeds two paths on 4 processes, 'S' or 'M'
     * with 2 rings: its link carries 2 n whatever k and one hop follows,
     * so the model gives one piece) */
    const int two_paths = top == 'S' || (top == 'M' && rings != 1 && rings != -1);
    const int pieced =
        !getenv("BLACS_PIPE_SEGMENT") && tu_eager_pieces(np, (double)items * (double)esz) > 0;
    if ((sh->lng == 1 || (sh->lng == 2 && pieced)) && h >= 2 && !(np == 4 && two_paths && !pieced))
        TU_CHECK(k > 1, "%s: a long vector in %ld piece(s)", what, k);
    if (!sh->lng && !getenv("BLACS_PIPE_SEGMENT")) TU_CHECK(k == 1, "%s: short in %ld", what, k);
}

/* late: 'I' on 1 x 3 (0 to 1 to 2), 128 KB, the last process 300 ms late
 * to its receive, three times.  Under MPICH the relay (1)
 * passes 8 KB pieces on, which MPICH takes without their receiver, so it
 * returns long before 2 comes; the source too.  Everywhere the data and
 * the guards are checked. */
static void late(blacs_int ctxt)
{
    enum { N = 16384, K = 3 };
    double slowest = 0;
    for (int k = 0; k < K; k++) {
        tu_mat a;
        tu_mat_alloc(&a, sizeof(double), N, 1, N);
        tu_mat_pad(&a, 0xA5);
        const int seed = 7 + k;
        if (me == 0) tu_mat_fill(&a, 'D', seed, NULL, NULL);
        Cblacs_barrier(ctxt, "A");
        double t0 = MPI_Wtime();
        if (me == 0) Cdgebs2d(ctxt, "Row", "I", N, 1, a.a, N);
        else {
            if (me == 2) nanosleep(&(struct timespec){0, 300000000}, NULL);
            Cdgebr2d(ctxt, "Row", "I", N, 1, a.a, N, 0, 0);
        }
        if (me < 2 && MPI_Wtime() - t0 > slowest) slowest = MPI_Wtime() - t0;
        char what[64];
        snprintf(what, sizeof what, "late 'I' on 3, round %d", k);
        TU_CHECK(tu_mat_check(&a, 'D', seed, NULL, NULL, 0xA5, what) == 0, "%s: data or guards",
                 what);
        tu_mat_free(&a);
    }
    /* (under valgrind everything is some 50 times slower) */
    if (mpich && me < 2 && !getenv("VALGRIND"))
        TU_CHECK(slowest < 0.1, "%s took %.3f s with its next hop 300 ms late",
                 me ? "the relay" : "the source", slowest);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_watchdog("t_bcast_pieces", 240);
    tu_trace_setup("t_bcast_pieces", tracename, sizeof tracename);

    blacs_int bme, nprocs, ctxt, nprow, npcol, myr, myc;
    Cblacs_pinfo(&bme, &nprocs);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, nprocs);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    np = (int)npcol;
    me = (int)myc;
    mpich = tu_mpich();

    static const shape_t shapes[] = {
        {131071, 1, 131071, 1}, /* odd: the pieces' blocks differ by one item */
        {1001, 131, 1003, 1},   /* LDA > M: packed, then pieced */
        {1001, 1, 1001, 0},     /* short: one piece */
        {16001, 1, 16001, 2},   /* 128 KB of doubles: pieced under MPICH */
        {2062, 1, 2062, 2},     /* on 2 under MPICH: two pieces of 1,031 doubles, an empty third */
    };
    static const struct { char top; int rings; } tops[] = {
        {'I', 1}, {'D', 1}, {'S', 1}, {'M', 2}, {'M', -2}};
    static const struct { char type; size_t esz; } types[] = {{'D', sizeof(double)},
                                                              {'I', sizeof(blacs_int)}};
    int saw = 0;
    if (argc > 1 && !strcmp(argv[1], "late")) {
        if (np == 3) late(ctxt);
        else TU_CHECK(0, "late: 3 processes, not %d", np);
    }
    for (size_t t = 0; argc < 2 && t < sizeof tops / sizeof tops[0]; t++) {
        blacs_int v = tops[t].rings;
        Cblacs_set(ctxt, 11, &v);
        for (size_t y = 0; y < sizeof types / sizeof types[0]; y++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (int root = 0; root < np; root++)
                    one(ctxt, tops[t].top, tops[t].rings, types[y].type, types[y].esz, &shapes[s],
                        root, &saw);
    }
    int any;
    MPI_Allreduce(&saw, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (argc < 2 && (np >= 3 || getenv("BLACS_PIPE_SEGMENT")))
        TU_CHECK(any, "no broadcast went in pieces on %d processes", np);

    Cblacs_gridexit(ctxt);
    return tu_trace_end(tf, tracename);
}
