/*
 * t_comb.c -- result tests of the combines xGSUM2D, xGAMX2D, xGAMN2D:
 * every topology x op x type x scope x destination on
 * the grid given, with guard zones around A and RA/CA, LDA > M, LDIA = -1
 * (RA/CA must stay untouched) and LDIA >= M, destinations at several
 * positions and -1 in either coordinate.  Expected results are computed
 * serially from the data every process can generate for every other:
 * integer sums exact, floating sums within np * eps * sum|a|, AMX/AMN
 * values and owners exact, with many deliberate ties (values in -3..3).
 *
 *   t_comb NPROW NPCOL [TOPS [repeat] [quick] [long]]   result tests (TOPS: letters,
 *   default all; repeat: WHAT=15 set; quick: two destinations per case, one of
 *   each kind; long: vectors of 3,000 to 12,000 items instead of at most 36)
 *   t_comb err-top | err-dest | err-bcasttop   one erroneous call (runner expects the error)
 */
#include <float.h>
#include <math.h>
#include "tutil.h"

#define PAD 0xA5
static blacs_int ctxt, nprow, npcol, myrow, mycol;

/* contribution of process (pr,pc) to element (i,j), component q */
static double gen(int cs, int pr, int pc, int i, int j, int q, int op, char type)
{
    unsigned h = (unsigned)cs * 2654435761u ^ (unsigned)(pr * 7919 + pc * 104729) ^
                 (unsigned)(i * 40503u + j * 9973u + q * 31u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    if (op) return (double)((int)(h % 7u) - 3); /* small: many ties of |a| */
    double v = (double)((int)(h % 2001u) - 1000);
    return type == 'I' ? v : v / 7.0; /* inexact in binary: rounding shows */
}

static size_t esz(char t)
{
    switch (t) {
    case 'I': return sizeof(blacs_int);
    case 'S': return sizeof(float);
    case 'D': return sizeof(double);
    case 'C': return 2 * sizeof(float);
    default: return 2 * sizeof(double);
    }
}
static void put(char t, void *p, double re, double im)
{
    switch (t) {
    case 'I': { blacs_int x = (blacs_int)re; memcpy(p, &x, sizeof x); break; }
    case 'S': { float x = (float)re; memcpy(p, &x, sizeof x); break; }
    case 'D': memcpy(p, &re, sizeof re); break;
    case 'C': { float x[2] = {(float)re, (float)im}; memcpy(p, x, sizeof x); break; }
    default: { double x[2] = {re, im}; memcpy(p, x, sizeof x); break; }
    }
}
static void get(char t, const void *p, double *re, double *im)
{
    *im = 0;
    switch (t) {
    case 'I': { blacs_int x; memcpy(&x, p, sizeof x); *re = (double)x; break; }
    case 'S': { float x; memcpy(&x, p, sizeof x); *re = x; break; }
    case 'D': memcpy(re, p, sizeof *re); break;
    case 'C': { float x[2]; memcpy(x, p, sizeof x); *re = x[0]; *im = x[1]; break; }
    default: { double x[2]; memcpy(x, p, sizeof x); *re = x[0]; *im = x[1]; break; }
    }
}
/* value as stored in type t (rounded) */
static void stored(char t, double re, double im, double *r2, double *i2)
{
    unsigned char b[16];
    put(t, b, re, im);
    get(t, b, r2, i2);
}

static int cplx(char t) { return t == 'C' || t == 'Z'; }

/* the processes of my scope in scope-rank order */
static int members(char scope, int *pr, int *pc)
{
    int n = 0;
    if (scope == 'R') for (int c = 0; c < npcol; c++) pr[n] = (int)myrow, pc[n++] = c;
    else if (scope == 'C') for (int r = 0; r < nprow; r++) pr[n] = r, pc[n++] = (int)mycol;
    else for (int r = 0; r < nprow; r++) for (int c = 0; c < npcol; c++) pr[n] = r, pc[n++] = c;
    return n;
}

static void call(char t, int op, char *scope, char *top, blacs_int m, blacs_int n, void *A,
                 blacs_int lda, blacs_int *ra, blacs_int *ca, blacs_int ldia, blacs_int rd,
                 blacs_int cd)
{
#define CASE(L, T, v)                                                                       \
    case L:                                                                                 \
        if (op == 0) C##v##gsum2d(ctxt, scope, top, m, n, (T *)A, lda, rd, cd);             \
        else if (op == 1) C##v##gamx2d(ctxt, scope, top, m, n, (T *)A, lda, ra, ca, ldia, rd, cd); \
        else C##v##gamn2d(ctxt, scope, top, m, n, (T *)A, lda, ra, ca, ldia, rd, cd);       \
        break;
    switch (t) {
        CASE('I', blacs_int, i)
        CASE('S', float, s)
        CASE('D', double, d)
        CASE('C', float, c)
        CASE('Z', double, z)
    }
#undef CASE
}

typedef struct { blacs_int m, n, lda, ldia; } shape_t;
static const shape_t short_shapes[] = {
    {3, 2, 5, -1}, {4, 3, 4, 4}, {1, 5, 1, 3}, {7, 5, 9, 9}, {2, 3, 2, -1},
    {5, 1, 6, 5},  {0, 3, 1, -1}, {9, 4, 11, 12}, {2, 0, 2, 2},
};
/* long: past the 2 KB where MPICH's MPI_Reduce changes algorithm, and past
 * the 64 KB up to which a ' ' combine travels as one element with a count
 * header (comb_mpi.c): 3,000 and 12,000 items */
static const shape_t long_shapes[] = {{100, 30, 101, -1}, {300, 40, 300, 300}, {1000, 3, 1001, 1000}};
static const shape_t *shapes = short_shapes;
static int nshapes = (int)(sizeof short_shapes / sizeof short_shapes[0]);

static long ncase;

static void one_case(char top, int op, char type, char scope, blacs_int rd, blacs_int cd,
                     int repeat)
{
    const int cs = (int)++ncase;
    const shape_t sh = shapes[cs % nshapes];
    const blacs_int m = sh.m, n = sh.n, lda = sh.lda;
    blacs_int ldia = op ? (cs % 3 == 0 ? -1 : sh.ldia) : -1;
    const blacs_int ldi = ldia > m ? ldia : m;
    const size_t es = esz(type);
    int pr[64], pc[64];
    const int np = members(scope, pr, pc);
    const int all = rd == -1 || cd == -1;
    int dest = -1, me = 0;
    for (int k = 0; k < np; k++)
        if (pr[k] == myrow && pc[k] == mycol) me = k;
    if (!all) dest = scope == 'R' ? (int)cd : scope == 'C' ? (int)rd : (int)(rd * npcol + cd);
    const int lands = all || me == dest;
    char top_s[2] = {top, 0}, scope_s[2] = {scope, 0};
    if (top == 'M') { /* rings for 'M': alternate direction and count */
        blacs_int v = cs % 2 ? 2 : -3;
        Cblacs_set(ctxt, 13, &v);
    }

    tu_mat A, R, C;
    tu_mat_alloc(&A, es, m, n, lda);
    tu_mat_alloc(&R, sizeof(blacs_int), m, n, ldi);
    tu_mat_alloc(&C, sizeof(blacs_int), m, n, ldi);
    tu_mat_pad(&A, PAD);
    tu_mat_pad(&R, PAD);
    tu_mat_pad(&C, PAD);
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < m; i++)
            put(type, tu_el(&A, i, j), gen(cs, (int)myrow, (int)mycol, (int)i, (int)j, 0, op, type),
                gen(cs, (int)myrow, (int)mycol, (int)i, (int)j, 1, op, type));

    call(type, op, scope_s, top_s, m, n, A.a, lda, (blacs_int *)R.a, (blacs_int *)C.a, ldia, rd, cd);

    char what[160];
    snprintf(what, sizeof what, "top '%c' op %d type %c scope %c dest (%ld,%ld) %ldx%ld lda %ld ldia %ld",
             top, op, type, scope, (long)rd, (long)cd, (long)m, (long)n, (long)lda, (long)ldia);
    long bad = 0, badg = 0, badr = 0;
    /* guards and gaps of A intact everywhere */
    for (size_t b = 0; b < A.total * es; b++) {
        size_t el = b / es;
        long off = (long)el - TU_GUARD;
        int inside = off >= 0 && off < (long)(lda * n) && (off % lda) < m;
        if (!inside && A.mem[b] != PAD) badg++;
    }
    TU_CHECK(badg == 0, "%s: %ld guard/gap bytes of A overwritten", what, badg);
    if (lands) {
        for (blacs_int j = 0; j < n; j++)
            for (blacs_int i = 0; i < m; i++) {
                double re, im, er = 0, ei = 0, mag = 0;
                int win = -1;
                get(type, tu_el(&A, i, j), &re, &im);
                for (int k = 0; k < np; k++) {
                    double vr, vi;
                    stored(type, gen(cs, pr[k], pc[k], (int)i, (int)j, 0, op, type),
                           gen(cs, pr[k], pc[k], (int)i, (int)j, 1, op, type), &vr, &vi);
                    if (!cplx(type)) vi = 0;
                    if (op == 0) {
                        er += vr, ei += vi, mag += fabs(vr) + fabs(vi);
                        continue;
                    }
                    double key = fabs(vr) + fabs(vi), bkey = win < 0 ? 0 : fabs(er) + fabs(ei);
                    int take;
                    if (win < 0) take = 1;
                    else if (key != bkey) take = op == 1 ? key > bkey : key < bkey;
                    else if (ldia == -1) take = vr > er || (vr == er && vi > ei);
                    else {
                        int dk = all ? k : (k - dest + np) % np, dw = all ? win : (win - dest + np) % np;
                        take = dk < dw;
                    }
                    if (take) er = vr, ei = vi, win = k;
                }
                if (op == 0) {
                    double eps = type == 'I' ? 0 : (type == 'S' || type == 'C') ? FLT_EPSILON : DBL_EPSILON;
                    double tol = 2 * np * eps * mag;
                    if (fabs(re - er) > tol || fabs(im - ei) > tol) {
                        if (bad < 3) fprintf(stderr, "[rank %d] %s: A(%ld,%ld) = %g%+gi, expected %g%+gi\n",
                                             tu_rank, what, (long)i, (long)j, re, im, er, ei);
                        bad++;
                    }
                } else {
                    if (re != er || im != ei) {
                        if (bad < 3) fprintf(stderr, "[rank %d] %s: A(%ld,%ld) = %g%+gi, expected %g%+gi (owner %d)\n",
                                             tu_rank, what, (long)i, (long)j, re, im, er, ei, win);
                        bad++;
                    }
                    if (ldia != -1) {
                        blacs_int gr = ((blacs_int *)R.a)[j * ldi + i], gc = ((blacs_int *)C.a)[j * ldi + i];
                        if (gr != pr[win] || gc != pc[win]) {
                            if (badr < 3) fprintf(stderr, "[rank %d] %s: RA/CA(%ld,%ld) = (%ld,%ld), expected (%d,%d)\n",
                                                  tu_rank, what, (long)i, (long)j, (long)gr, (long)gc, pr[win], pc[win]);
                            badr++;
                        }
                    }
                }
            }
        TU_CHECK(bad == 0, "%s: %ld wrong elements", what, bad);
        if (op && ldia != -1) TU_CHECK(badr == 0, "%s: %ld wrong owners", what, badr);
    }
    /* RA/CA: written only where the result lands, only inside M x N */
    long badi = 0;
    for (size_t b = 0; b < R.total * sizeof(blacs_int); b++) {
        size_t el = b / sizeof(blacs_int);
        long off = (long)el - TU_GUARD;
        int inside = lands && ldia != -1 && off >= 0 && off < (long)(ldi * n) && (off % ldi) < m;
        if (!inside && (R.mem[b] != PAD || C.mem[b] != PAD)) badi++;
    }
    TU_CHECK(badi == 0, "%s: %ld bytes of RA/CA written where they must not be", what, badi);
    (void)repeat;
    tu_mat_free(&A);
    tu_mat_free(&R);
    tu_mat_free(&C);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int iam, nprocs;
    Cblacs_pinfo(&iam, &nprocs);
    Cblacs_get(0, 0, &ctxt);
    if (argc > 1 && !strncmp(argv[1], "err", 3)) {
        Cblacs_gridinit(&ctxt, "Row", 1, nprocs);
        double a[4] = {1, 2, 3, 4};
        if (!strcmp(argv[1], "err-top")) Cdgsum2d(ctxt, "All", "Z", 2, 2, a, 2, -1, -1);
        if (!strcmp(argv[1], "err-bcasttop")) Cdgsum2d(ctxt, "Row", "C", 2, 2, a, 2, -1, -1);
        if (!strcmp(argv[1], "err-dest")) Cdgsum2d(ctxt, "Row", "1", 2, 2, a, 2, 0, (blacs_int)nprocs);
        if (!strcmp(argv[1], "err-destrow")) {
            blacs_int r[4], c[4];
            Cdgamx2d(ctxt, "All", "1", 2, 2, a, 2, r, c, 2, 3, 0);
        }
        Cblacs_gridexit(ctxt);
        Cblacs_exit(0);
        return 0;
    }
    nprow = argc > 1 ? atoi(argv[1]) : 2;
    npcol = argc > 2 ? atoi(argv[2]) : 2;
    const char *tops = argc > 3 ? argv[3] : " 123456789TFHIDSMRBYA";
    int repeat = 0, quick = 0; /* quick: one leave-on-all and one leave-on-one destination
                                  per combination, rotating */
    for (int k = 4; k < argc; k++) {
        if (!strcmp(argv[k], "repeat")) repeat = 1;
        else if (!strcmp(argv[k], "quick")) quick = 1;
        else if (!strcmp(argv[k], "long")) {
            shapes = long_shapes;
            nshapes = (int)(sizeof long_shapes / sizeof long_shapes[0]);
        } else {
            if (iam == 0) fprintf(stderr, "t_comb: unknown option %s\n", argv[k]);
            Cblacs_exit(1);
            MPI_Finalize();
            return 2;
        }
    }
    if (nprow * npcol != nprocs) {
        if (iam == 0) fprintf(stderr, "t_comb: grid %ldx%ld needs %ld processes\n", (long)nprow, (long)npcol, (long)(nprow * npcol));
        Cblacs_exit(1);
        MPI_Finalize();
        return 2;
    }
    Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    blacs_int v = 2;
    Cblacs_set(ctxt, 14, &v); /* 'T': two branches */
    if (repeat) {
        v = 1;
        Cblacs_set(ctxt, 15, &v);
    }
    const blacs_int dests[][2] = {{-1, -1}, {-1, 1}, {0, -1}, {0, 0}, {nprow - 1, npcol - 1},
                                  {nprow > 1 ? 1 : 0, npcol > 2 ? 2 : 0}};
    const char *types = "ISDCZ", *scopes = "RCA";
    for (const char *t = tops; *t; t++)
        for (int op = 0; op < 3; op++)
            for (const char *ty = types; *ty; ty++)
                for (const char *sc = scopes; *sc; sc++)
                    for (size_t d = 0; d < sizeof dests / sizeof dests[0]; d++) {
                        /* all six destinations for S and Z, three for the others */
                        if (!quick && *ty != 'S' && *ty != 'Z' && d % 2 != (size_t)(op % 2)) continue;
                        if (quick && d != (size_t)(op + (ty - types)) % 3 &&
                            d != 3 + (size_t)(op + (sc - scopes) + (ty - types)) % 3)
                            continue;
                        one_case(*t, op, *ty, *sc, dests[d][0], dests[d][1], repeat);
                    }
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
