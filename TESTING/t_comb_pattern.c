/*
 * t_comb_pattern.c -- message patterns of the combine topologies, read back
 * from the BLACS_TRACE files (one line per message: ctx scope from to bytes
 * tag step top).  Each case runs in its own grid (1 x Np, scope 'All'), and
 * the multiset of (from, to, bytes) it sent is compared with the pattern
 * derived here from the papers and the reference BLACS:
 *   tree   : '1', '2', '3' fan-in (LAWN 73 5.4.1) to a destination, and
 *            leave-on-all with the binomial broadcast back from 0
 *   bidir  : 'H' leave-on-all (LAWN 73 5.4.2: fold, XOR exchanges, unfold)
 *   mring  : 'I', 'D', 'S', 'M' chains toward the destination
 *   hybrid : 'Y' below and above LAWN 29 Theorem 1's switch point, with
 *            BLACS_ALPHA/BETA/GAMMA set by the runner (1000, 0.01, 0.01)
 * Usage: BLACS_TRACE=prefix t_comb_pattern tree|bidir|mring|hybrid
 */
#include <math.h>
#include <unistd.h>
#include "tutil.h"

typedef struct { int from, to; long bytes; } edge;
static int cmp(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->from != y->from) return x->from - y->from;
    if (x->to != y->to) return x->to - y->to;
    return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

static edge ex[4096];
static int nex;
static void add(int f, int t, long b) { ex[nex++] = (edge){f, t, b}; }

static int np, iam;
static const char *prefix;

/* fan-in of radix r to dest (distance x = me - dest; parent at the first
 * level where the scaled distance is not a multiple of r) */
static void exp_fanin(int dest, int r, long b)
{
    for (int x = 1; x < np; x++) {
        long i = 1;
        while ((x / i) % r == 0) i *= r;
        long xs = x / i;
        add((dest + x) % np, (int)((dest + (xs - xs % r) * i) % np), b);
    }
}
static void exp_binomial(long b) /* from 0: x sends to x + h for h below its lowest bit */
{
    for (int x = 1; x < np; x++) add(x - (x & -x), x, b);
}

/* one combine in a fresh 1 x np grid; returns its context */
static blacs_int run(char top, int n, blacs_int rd, blacs_int cd, blacs_int rings)
{
    blacs_int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    if (rings) Cblacs_set(ctxt, 13, &rings);
    double *a = calloc((size_t)n, sizeof *a);
    char t[2] = {top, 0};
    Cdgsum2d(ctxt, "All", t, n, 1, a, n, rd, cd);
    free(a);
    Cblacs_barrier(ctxt, "All");
    return ctxt;
}

/* the letter every traced line must name (0: not checked) */
static char extop;

/* the messages process traces recorded for context ctx (all ranks' files) */
static void check(const char *what, blacs_int ctxt)
{
    edge got[4096];
    int ng = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (iam == 0) {
        for (int r = 0; r < np; r++) {
            char name[4200], line[256];
            snprintf(name, sizeof name, "%s.%d", prefix, r);
            FILE *f = fopen(name, "r");
            if (!f) continue;
            while (fgets(line, sizeof line, f)) {
                long cx, bytes;
                char sc, top;
                int from, to, tag, step;
                if (sscanf(line, "%ld %c %d %d %ld %d %d %c", &cx, &sc, &from, &to, &bytes, &tag,
                           &step, &top) == 8 && cx == (long)ctxt && ng < 4096) {
                    got[ng++] = (edge){from, to, bytes};
                    TU_CHECK(!extop || top == extop, "%s: traced as '%c', ran '%c'", what, top,
                             extop);
                }
            }
            fclose(f);
        }
        qsort(got, (size_t)ng, sizeof *got, cmp);
        qsort(ex, (size_t)nex, sizeof *ex, cmp);
        int same = ng == nex;
        for (int i = 0; same && i < ng; i++) same = !cmp(&got[i], &ex[i]);
        TU_CHECK(same, "%s: %d messages traced, %d expected", what, ng, nex);
        if (!same)
            for (int i = 0; i < (ng > nex ? ng : nex) && i < 40; i++)
                fprintf(stderr, "  got %d->%d %ld   expected %d->%d %ld\n", i < ng ? got[i].from : -1,
                        i < ng ? got[i].to : -1, i < ng ? got[i].bytes : 0, i < nex ? ex[i].from : -1,
                        i < nex ? ex[i].to : -1, i < nex ? ex[i].bytes : 0);
    }
    nex = 0;
}

/* multiring chains: nr rings, sign = direction */
static void exp_mring(int dest, int nr, long b)
{
    int dir = nr > 0 ? 1 : -1, a = abs(nr) < np - 1 ? abs(nr) : np - 1, L = (np - 1) / a;
#define AT(t) ((((dest) - dir * (t)) % np + np) % np)
    for (int d = 1; d < np; d++) {
        int k = (d - 1) / L < a - 1 ? (d - 1) / L : a - 1;
        add(AT(d), d == k * L + 1 ? dest : AT(d - 1), b);
    }
#undef AT
}

/* multi-path broadcast from 0 with a paths, increasing ranks, the first
 * (np-1) mod a paths one longer, as 'M' broadcasts */
static void exp_mpath_up(int a, long b)
{
    int n1 = np - 1, base = n1 / a, ext = n1 % a, s = 1;
    for (int k = 0; k < a; k++) {
        int len = base + (k < ext);
        for (int t = s; t < s + len; t++) add(t == s ? 0 : t - 1, t, b);
        s += len;
    }
}

/* LAWN 29 Version 4 on p = 2^d with h halving steps, leave-on-all */
static void exp_hybrid_all(int h, long b)
{
    int d = 0;
    while ((1 << (d + 1)) <= np) d++;
    for (int me = 0; me < np; me++) {
        long len = b;
        for (int j = 1; j <= h; j++) add(me, me ^ (np >> j), len / 2), len /= 2;
        for (int mask = np >> (h + 1); mask >= 1; mask >>= 1) add(me, me ^ mask, len);
        for (int j = h; j >= 1; j--) add(me, me ^ (np >> j), len), len *= 2;
    }
}

/* Theorem 1: k smallest with n >= 2^(d-k) alpha / (k (beta+gamma) + gamma); h = d - k */
static int theorem1(double n, double a, double b, double g)
{
    int d = 0;
    while ((1 << (d + 1)) <= np) d++;
    for (int k = 0; k <= d; k++)
        if (n >= ldexp(1.0, d - k) * a / (k * (b + g) + g)) return d - k;
    return 0;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int bi, bn;
    prefix = getenv("BLACS_TRACE");
    const char *mode = argc > 1 ? argv[1] : "tree";
    MPI_Comm_rank(MPI_COMM_WORLD, &iam);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (!prefix) {
        if (iam == 0) fprintf(stderr, "t_comb_pattern: set BLACS_TRACE\n");
        MPI_Finalize();
        return 2;
    }
    if (iam == 0) { /* stale traces of an earlier run */
        char name[4200];
        for (int r = 0; r < np; r++) snprintf(name, sizeof name, "%s.%d", prefix, r), unlink(name);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    Cblacs_pinfo(&bi, &bn);
    const long B = 8 * 10; /* 10 doubles */
    if (!strcmp(mode, "tree")) {
        for (int r = 2; r <= 4; r++) {
            char t = (char)('0' + r - 1), what[64];
            for (int dest = 0; dest < np; dest += 3) {
                exp_fanin(dest, r, B);
                snprintf(what, sizeof what, "tree '%c' to %d", t, dest);
                check(what, run(t, 10, 0, dest, 0));
            }
            exp_fanin(0, r, B);
            exp_binomial(B);
            snprintf(what, sizeof what, "tree '%c' leave-on-all", t);
            check(what, run(t, 10, -1, -1, 0));
        }
    } else if (!strcmp(mode, "bidir")) {
        int p2 = 1;
        while (2 * p2 <= np) p2 *= 2;
        for (int me = p2; me < np; me++) add(me, me - p2, B), add(me - p2, me, B);
        for (int me = 0; me < p2; me++)
            for (int b = 1; b < p2; b <<= 1) add(me, me ^ b, B);
        extop = 'H';
        check("'H' leave-on-all", run('H', 10, -1, -1, 0));
        exp_fanin(np - 1, 2, B); /* leave-on-one: the radix-2 tree, traced as '1' */
        extop = '1';
        check("'H' leave-on-one", run('H', 10, 0, np - 1, 0));
        extop = 0;
    } else if (!strcmp(mode, "mring")) {
        exp_mring(2, 1, B);
        check("'I' to 2", run('I', 10, 0, 2, 0));
        exp_mring(2, -1, B);
        check("'D' to 2", run('D', 10, 0, 2, 0));
        exp_mring(np - 1, 2, B);
        check("'S' to np-1", run('S', 10, 0, np - 1, 0));
        exp_mring(1, 3, B);
        check("'M' rings 3 to 1", run('M', 10, 0, 1, 3));
        /* leave-on-all: chains to 0, then the multi-path broadcast from 0
         * goes in increasing rank order whatever the rings' direction, as
         * the reference does ('D' on 6: 5,4,..,1 -> 0, then 0 -> 1 -> .. -> 5) */
        exp_mring(0, -1, B);
        exp_mpath_up(1, B);
        check("'D' leave-on-all", run('D', 10, -1, -1, 0));
        exp_mring(0, -2, B);
        exp_mpath_up(2, B);
        check("'M' rings -2 leave-on-all", run('M', 10, -1, -1, -2));
    } else if (!strcmp(mode, "hybrid")) {
        const double a = 1000, b = 0.01, g = 0.01; /* the runner's BLACS_ALPHA/BETA/GAMMA */
        const int lens[2] = {2000, 10000};
        for (int i = 0; i < 2; i++) {
            long bytes = 8L * lens[i];
            int h = theorem1((double)bytes, a, b, g);
            TU_CHECK(i == 0 ? h == 0 : h > 0, "switch point: n=%ld bytes gives %d halvings", bytes, h);
            exp_hybrid_all(h, bytes);
            char what[64];
            snprintf(what, sizeof what, "'Y' n=%ld bytes (%d halvings)", bytes, h);
            check(what, run('Y', lens[i], -1, -1, 0));
        }
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
