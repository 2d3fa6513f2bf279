/*
 * t_xchg.c -- the two-process exchange (TOP 'H', and ' ' leave-on-all on
 * two processes) sends vectors in pieces MPI sends eagerly, 16 to 64 KB
 * between nodes, 8 to 256 KB on one node under MPICH, and long ones in
 * halves (SRC/plan.c, xchg_pieces, xchg_halves): on a 1 x 2 grid, for counts
 * around each of the rule's bounds, DGSUM2D, ZGSUM2D, IGSUM2D and DGAMX2D
 * with RA/CA (10-byte items: the 2-byte owner key), contiguous and with
 * LDA > M, each process checks
 *   - the result on both partners (sums exact: both add the same two
 *     operands; AMX the larger |value| and its owner's coordinates, values
 *     of the two processes never equal in magnitude), and the guard zones
 *     around A, RA and CA;
 *   - from its message trace (BLACS_TRACE), that it sent its partner the
 *     vector as the rule says, written out here: from 256 KB on one node
 *     and 4 MB between nodes two messages, the partner's part then its own
 *     (process 0 combines the first count / 2 + 1 items, process 1 the
 *     rest); otherwise, for a count of q items or more, count / q + 1
 *     messages, all of q items but a shorter last one (empty when q
 *     divides the count), where q = 16447 / item bytes between nodes
 *     (processor names differ) up to 64 KB, and q = 8255 / item bytes on
 *     one node under MPICH; otherwise one message.
 * Then TOP ' ' broadcasts of the same cases (without RA/CA, up to 1 MB)
 * from each process: the receiver's data and guards, and the source's
 * messages against the rule for two processes (SRC/plan.c, pair_pieces),
 * written out: under MPICH a vector of q items (as above) to 64 KB in
 * count / q + 1 pieces of q items but a shorter last one, otherwise one
 * message; the receiver sends nothing but, at most, its word (no bytes).
 * Run on one node (make test) and across two hosts (cluster_smoke.sh
 * exchange, which also runs t_mpierr's count errors there).
 */
#include <math.h>
#include "tutil.h"

static blacs_int ctxt, me;
static int other_node;
static char tracename[512];
static FILE *tf;

/* my sends in the trace since the last call: bytes of each, in order */
static int sent(long *bytes, int max)
{
    if (!tf) tf = fopen(tracename, "r");
    if (!tf) return -1;
    char buf[256];
    int n = 0;
    while (fgets(buf, sizeof buf, tf)) {
        long ctx, b;
        char scope, top;
        int from, to, tag, step;
        if (sscanf(buf, "%ld %c %d %d %ld %d %d %c", &ctx, &scope, &from, &to, &b, &tag, &step,
                   &top) == 8 && n < max)
            bytes[n++] = b;
    }
    clearerr(tf);
    return n;
}

/* the rule, written out: the messages' lengths in bytes */
static int expected(size_t count, size_t isize, long *bytes)
{
#ifdef MPICH_VERSION
    const int node_pieces = 1;
#else
    const int node_pieces = 0;
#endif
    const size_t q = tu_pair_piece(isize, !other_node);
    if (count * isize >= (other_node ? 4194304u : 262144u)) {
        /* halves: process 0 combines the first count/2 + 1 items, process 1
         * the rest; each sends the other's part, then its own */
        const size_t lo = count / 2 + 1, hi = count - lo;
        bytes[0] = (long)((me ? lo : hi) * isize);
        bytes[1] = (long)((me ? hi : lo) * isize);
        return 2;
    }
    if (count < q || (other_node ? count * isize > 65536 : !node_pieces)) {
        bytes[0] = (long)(count * isize);
        return 1;
    }
    const int k = (int)(count / q) + 1;
    for (int j = 0; j + 1 < k; j++) bytes[j] = (long)(q * isize);
    bytes[k - 1] = (long)((count - (size_t)(k - 1) * q) * isize);
    return k;
}

static double val(int p, blacs_int i, blacs_int j)
{
    /* magnitudes of the two processes differ: odd on 0, even on 1 */
    long h = ((long)i * 7919 + (long)j * 104729 + 17) % 1000;
    double v = (double)(2 * h + 1 + p);
    return ((i + j) & 1) ? -v : v;
}

static void one(char type, blacs_int m, blacs_int n, blacs_int lda, int amx, char *top)
{
    const size_t esz = type == 'Z' ? 16 : type == 'I' ? sizeof(blacs_int) : 8;
    /* the item on the wire: the value, and with RA/CA the 2-byte owner key */
    const size_t isize = esz + (amx ? 2 : 0);
    tu_mat a, ra, ca;
    tu_mat_alloc(&a, esz, m, n, lda);
    tu_mat_alloc(&ra, sizeof(blacs_int), m, n, m);
    tu_mat_alloc(&ca, sizeof(blacs_int), m, n, m);
    tu_mat_pad(&a, 0xA5);
    tu_mat_pad(&ra, 0x5A);
    tu_mat_pad(&ca, 0x5A);
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < m; i++) {
            const double v = val((int)me, i, j);
            void *e = tu_el(&a, i, j);
            if (type == 'D') memcpy(e, &v, 8);
            else if (type == 'Z') { double z[2] = {v, -v / 4}; memcpy(e, z, 16); }
            else { blacs_int x = (blacs_int)v; memcpy(e, &x, sizeof x); }
        }
    if (amx) Cdgamx2d(ctxt, "All", top, m, n, a.a, lda, ra.a, ca.a, m, -1, -1);
    else if (type == 'D') Cdgsum2d(ctxt, "All", top, m, n, a.a, lda, -1, -1);
    else if (type == 'Z') Czgsum2d(ctxt, "All", top, m, n, a.a, lda, -1, -1);
    else Cigsum2d(ctxt, "All", top, m, n, a.a, lda, -1, -1);

    long bad = 0;
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < m; i++) {
            const double v0 = val(0, i, j), v1 = val(1, i, j);
            const int win = fabs(v1) > fabs(v0);
            double want = amx ? (win ? v1 : v0) : v0 + v1, got, gim = 0, wim = -(v0 + v1) / 4;
            const void *e = tu_el(&a, i, j);
            if (type == 'D') memcpy(&got, e, 8);
            else if (type == 'Z') { double z[2]; memcpy(z, e, 16); got = z[0]; gim = z[1]; }
            else { blacs_int x; memcpy(&x, e, sizeof x); got = (double)x; }
            int ok = got == want && (type != 'Z' || gim == wim);
            if (amx) {
                blacs_int r, c;
                memcpy(&r, tu_el(&ra, i, j), sizeof r);
                memcpy(&c, tu_el(&ca, i, j), sizeof c);
                ok = ok && r == 0 && c == win;
            }
            if (!ok && bad++ < 3)
                TU_CHECK(0, "%c%s '%s' %ldx%ld lda %ld: (%ld,%ld) got %g want %g", type,
                         amx ? "GAMX2D" : "GSUM2D", top, (long)m, (long)n, (long)lda, (long)i,
                         (long)j, got, want);
        }
    /* guards: before and after A, and in its LDA gaps; RA/CA only if AMX */
    for (size_t b = 0; b < a.total * esz; b++) {
        const size_t el = b / esz;
        const long off = (long)el - TU_GUARD;
        const int inside = off >= 0 && off < (long)(lda * n) && (off % lda) < m;
        if (!inside && a.mem[b] != 0xA5) {
            TU_CHECK(0, "%c '%s' %ldx%ld lda %ld: guard byte %zu overwritten", type, top,
                     (long)m, (long)n, (long)lda, b);
            break;
        }
    }
    for (size_t b = 0; b < ra.total * ra.esz; b++) {
        const long off = (long)(b / ra.esz) - TU_GUARD;
        const int inside = amx && off >= 0 && off < (long)(m * n);
        if (!inside && (ra.mem[b] != 0x5A || ca.mem[b] != 0x5A)) {
            TU_CHECK(0, "%c '%s': RA/CA byte %zu overwritten", type, top, b);
            break;
        }
    }
    long got[64], want[64]; /* at most 32 messages (one node: 256 KB in pieces of 8,255 bytes) */
    const int ng = sent(got, 64), nw = expected((size_t)m * (size_t)n, isize, want);
    int same = ng == nw;
    for (int j = 0; same && j < nw; j++) same = got[j] == want[j];
    TU_CHECK(same, "%c%s '%s' %ld items of %zu bytes, %s: sent %d messages (%ld, %ld, ...), "
             "want %d (%ld, %ld, ...)", type, amx ? "GAMX2D" : "GSUM2D", top,
             (long)m * (long)n, isize, other_node ? "two nodes" : "one node", ng,
             ng > 0 ? got[0] : -1L, ng > 1 ? got[1] : -1L, nw, want[0], nw > 1 ? want[1] : -1L);
    tu_mat_free(&a);
    tu_mat_free(&ra);
    tu_mat_free(&ca);
}

/* the broadcast rule, written out: TOP ' ' on two processes under MPICH
 * sends a vector of q items or more and at most 64 KB in count / q + 1
 * pieces, all of q items but a shorter last one (q as for the exchange);
 * otherwise one message */
static int bexpected(size_t count, size_t isize, long *bytes)
{
#ifdef MPICH_VERSION
    const size_t q = tu_pair_piece(isize, !other_node);
    if (count >= q && count * isize <= 65536) {
        const int k = (int)(count / q) + 1;
        for (int j = 0; j + 1 < k; j++) bytes[j] = (long)(q * isize);
        bytes[k - 1] = (long)((count - (size_t)(k - 1) * q) * isize);
        return k;
    }
#endif
    bytes[0] = (long)(count * isize);
    return 1;
}

/* TOP ' ' broadcast from root on the 1 x 2 grid: the receiver's data and
 * guards, and the source's messages (the receiver sends at most its word,
 * a message of no bytes) */
static void bone(char type, blacs_int m, blacs_int n, blacs_int lda, int root)
{
    const size_t esz = type == 'Z' ? 16 : type == 'I' ? sizeof(blacs_int) : 8;
    tu_mat a;
    tu_mat_alloc(&a, esz, m, n, lda);
    tu_mat_pad(&a, 0xA5);
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < m; i++) {
            const double v = me == root ? val(root, i, j) : -1.0;
            void *e = tu_el(&a, i, j);
            if (type == 'D') memcpy(e, &v, 8);
            else if (type == 'Z') { double z[2] = {v, -v / 4}; memcpy(e, z, 16); }
            else { blacs_int x = (blacs_int)v; memcpy(e, &x, sizeof x); }
        }
    if (me == root) {
        if (type == 'D') Cdgebs2d(ctxt, "All", " ", m, n, a.a, lda);
        else if (type == 'Z') Czgebs2d(ctxt, "All", " ", m, n, a.a, lda);
        else Cigebs2d(ctxt, "All", " ", m, n, a.a, lda);
    } else {
        if (type == 'D') Cdgebr2d(ctxt, "All", " ", m, n, a.a, lda, 0, root);
        else if (type == 'Z') Czgebr2d(ctxt, "All", " ", m, n, a.a, lda, 0, root);
        else Cigebr2d(ctxt, "All", " ", m, n, a.a, lda, 0, root);
    }
    long bad = 0;
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < m; i++) {
            const double want = val(root, i, j);
            double got, gim = 0;
            const void *e = tu_el(&a, i, j);
            if (type == 'D') memcpy(&got, e, 8);
            else if (type == 'Z') { double z[2]; memcpy(z, e, 16); got = z[0]; gim = z[1]; }
            else { blacs_int x; memcpy(&x, e, sizeof x); got = (double)x; }
            if ((got != want || (type == 'Z' && gim != -want / 4)) && bad++ < 3)
                TU_CHECK(0, "%cGEBS2D ' ' from %d %ldx%ld lda %ld: (%ld,%ld) got %g want %g", type,
                         root, (long)m, (long)n, (long)lda, (long)i, (long)j, got, want);
        }
    for (size_t b = 0; b < a.total * esz; b++) {
        const long off = (long)(b / esz) - TU_GUARD;
        const int inside = off >= 0 && off < (long)(lda * n) && (off % lda) < m;
        if (!inside && a.mem[b] != 0xA5) {
            TU_CHECK(0, "%cGEBS2D ' ' from %d %ldx%ld lda %ld: guard byte %zu overwritten", type,
                     root, (long)m, (long)n, (long)lda, b);
            break;
        }
    }
    long got[64], want[64];
    const size_t count = (size_t)m * (size_t)n;
    const int ng = sent(got, 64), nw = me == root ? bexpected(count, esz, want) : 0;
    int same = me == root ? ng == nw : 1;
    for (int j = 0; j < ng && same; j++) same = me == root ? got[j] == want[j] : got[j] == 0;
    TU_CHECK(same, "%cGEBS2D ' ' from %d, %zu items of %zu bytes, %s: %s sent %d messages "
             "(%ld, %ld, ...), want %d (%ld, %ld, ...)", type, root, count, esz,
             other_node ? "two nodes" : "one node", me == root ? "source" : "receiver", ng,
             ng > 0 ? got[0] : -1L, ng > 1 ? got[1] : -1L, nw, nw > 0 ? want[0] : -1L,
             nw > 1 ? want[1] : -1L);
    tu_mat_free(&a);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_watchdog("t_xchg", 120);
    tu_trace_setup("t_xchg", tracename, sizeof tracename);
    blacs_int np, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    if (np != 2) {
        if (me == 0) fprintf(stderr, "t_xchg: run on 2 processes\n");
        Cblacs_exit(0);
        return 1;
    }
    char name[MPI_MAX_PROCESSOR_NAME] = "", names[2][MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  MPI_COMM_WORLD);
    other_node = strcmp(names[0], names[1]) != 0;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    /* type, M, N, LDA, AMX with RA/CA (10-byte items) */
    static const struct { char type; blacs_int m, n, lda; int amx; } cases[] = {
        /* pieces between nodes: 16,447 bytes to 64 KB */
        {'D', 2047, 1, 2047, 0},    {'D', 2048, 1, 2048, 0},   {'D', 2049, 1, 2049, 0},
        {'D', 2054, 1, 2054, 0},    {'D', 2055, 1, 2055, 0},   {'D', 4110, 1, 4110, 0},
        {'Z', 1027, 1, 1027, 0},    {'I', 4111, 1, 4111, 0},   {'D', 1644, 1, 1644, 1},
        {'D', 4095, 1, 4095, 0},    {'D', 4096, 1, 4096, 0},   {'D', 6000, 1, 6000, 0},
        {'D', 8192, 1, 8192, 0},    {'D', 8193, 1, 8193, 0},   {'D', 12000, 1, 12000, 0},
        {'D', 64, 64, 67, 0},       {'D', 50, 41, 53, 0},      {'Z', 1024, 1, 1024, 0},
        {'Z', 1000, 3, 1001, 0},    {'I', 4096, 1, 4096, 0},   {'I', 3000, 5, 3000, 0},
        {'D', 1638, 1, 1638, 1},    {'D', 1637, 1, 1637, 1},   {'D', 80, 80, 81, 1},
        {'D', 6554, 1, 6554, 1},
        /* pieces on one node (MPICH): 8,255 bytes to below 256 KB */
        {'D', 1030, 1, 1030, 0},    {'D', 1031, 1, 1031, 0},   {'D', 1032, 1, 1032, 0},
        {'D', 2062, 1, 2062, 0},    {'Z', 514, 1, 514, 0},     {'Z', 515, 1, 515, 0},
        {'D', 824, 1, 824, 1},      {'D', 825, 1, 825, 1},     {'D', 26214, 1, 26214, 1},
        {'D', 30, 100, 31, 1},
        /* halves: from 256 KB on one node, 4 MB between nodes */
        {'D', 32767, 1, 32767, 0},  {'D', 32768, 1, 32768, 0}, {'D', 131072, 1, 131072, 0},
        {'D', 700, 300, 701, 0},    {'Z', 70001, 1, 70001, 0}, {'I', 300000, 1, 300000, 0},
        {'D', 110000, 1, 110000, 1}, {'D', 524287, 1, 524287, 0}, {'D', 524288, 1, 524288, 0},
        {'D', 420000, 1, 420000, 1},
    };
    char *tops[] = {" ", "H"};
    for (int t = 0; t < 2; t++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
            one(cases[k].type, cases[k].m, cases[k].n, cases[k].lda, cases[k].amx, tops[t]);
    /* the broadcasts: every case without RA/CA up to 1 MB, from each process */
    for (int root = 0; root < 2; root++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
            if (!cases[k].amx && (size_t)cases[k].m * (size_t)cases[k].n <= 131072)
                bone(cases[k].type, cases[k].m, cases[k].n, cases[k].lda, root);
    Cblacs_gridexit(ctxt);
    return tu_trace_end(tf, tracename);
}
