/*
 * t_nan.c -- NaN, infinities, signed zeros and ties in xGAMX2D/xGAMN2D for
 * S, D, C, Z (the rule is documented at the top of SRC/ops.c):
 * the key is |x| (|Re|+|Im|, NaN when either part is); a NaN key wins both
 * AMX and AMN; ties (equal keys, several NaN keys) go to the smaller owner
 * key with RA/CA wanted (distance from the destination, or scope rank for
 * leave-on-all), else to the larger value in IEEE 754 totalOrder (real
 * part, then imaginary part).
 *
 * Every TOP letter x AMX/AMN x type x scope (All, Row, Column) x
 * leave-on-all and two destinations x with and without RA/CA.  The
 * expected value and owner of every element are computed serially from the
 * data every process can generate for every other (a reference written
 * independently of ops.c).  Checks: on each process that gets the result,
 * the value (bitwise; a NaN result: NaN, with the expected sign), RA/CA,
 * RA/CA untouched when not wanted, the LDA and LDIA gaps untouched; for
 * leave-on-all, every process of the scope holds the same bits and owners
 * (gathered and compared).
 *
 *   t_nan NPROW NPCOL [TOPS [LEN [repeat]]]
 * LEN 0 (default): 24 elements, the first twelve designed (one NaN at the
 * first or last process, NaN everywhere with different or equal bits, +-Inf,
 * +-3, +-0, sNaN, NaN in one part of a complex), the rest drawn at random
 * from NaN/Inf/0/small integers; LEN > 24: that many, long enough to take
 * the long-vector paths (reduce-scatter, TOP ' ' without the count
 * header).  repeat: BLACS_SET 15 (' ' then takes fixed-order algorithms).
 */
#include <math.h>
#include <stdint.h>
#include "tutil.h"

static blacs_int ctxt, nprow, npcol, myrow, mycol;
static int len = 24;

enum { FIN, ZERO, INF, QNAN, SNAN };
typedef struct { int kind, neg; double v; unsigned payload; } spec;

static unsigned mix(unsigned h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

/* what process vpid q contributes to element e, component part */
static spec gen(int e, int q, int part, int np)
{
    spec s = {FIN, 0, 0.0, 0};
    unsigned h = mix((unsigned)e * 2654435761u ^ (unsigned)q * 40503u ^ (unsigned)part * 97u);
    if (part == 1 && e < 12 && e != 10) { /* designed entries: real unless said */
        s.kind = ZERO;
        return s;
    }
    switch (e < 12 ? e : -1) {
    case 0: s.v = (double)(q % 5) - 2.0 + 0.25 * q; break;             /* numbers only */
    case 1: if (q == np - 1) s = (spec){QNAN, 0, 0, 5}; else s.v = q + 1.0; break;
    case 2: if (q == 0) s = (spec){QNAN, 1, 0, 9}; else s.v = -(q + 2.0); break;
    case 3: s = (spec){QNAN, q & 1, 0, 1u + (unsigned)(q * 7) % 5}; break;  /* all NaN, bits differ */
    case 4: s = (spec){QNAN, 0, 0, 3}; break;                          /* all NaN, same bits */
    case 5:
        if (q == 0) s = (spec){INF, 0, 0, 0};
        else if (q == np - 1) s = (spec){INF, 1, 0, 0};
        else s.v = 1.5 * q;
        break;
    case 6: s.v = (q & 1) ? -3.0 : 3.0; break;                          /* key ties */
    case 7: s = (spec){ZERO, q & 1, 0, 0}; break;                       /* +0 and -0 */
    case 8:
        if (q == 1 % np) s = (spec){QNAN, 1, 0, 2};
        else if (q == np - 1) s = (spec){QNAN, 0, 0, 4};
        else s = (spec){INF, q & 1, 0, 0};
        break;
    case 9:
        if (q == 0) s = (spec){SNAN, 0, 0, 6};
        else if (q == np - 1) s = (spec){QNAN, 0, 0, 6};
        else s.v = 2.0;
        break;
    case 10: /* complex: NaN in the real part at 0, in the imaginary part at 1 */
        if (q == 0) s = part ? (spec){FIN, 0, 0.5, 0} : (spec){QNAN, 0, 0, 1};
        else if (q == 1 % np) s = part ? (spec){QNAN, 1, 0, 1} : (spec){FIN, 0, 0.5, 0};
        else s = (spec){INF, part, 0, 0};
        break;
    case 11: s = (spec){INF, (q + 1) & 1, 0, 0}; break;                 /* +-Inf ties */
    default: { /* random: 30% NaN, 15% Inf, 15% zero, 40% -3..3 */
        unsigned r = h % 100, g = mix(h);
        if (r < 25) s = (spec){QNAN, (int)(g & 1), 0, 1u + (g >> 1) % 13};
        else if (r < 30) s = (spec){SNAN, (int)(g & 1), 0, 1u + (g >> 1) % 13};
        else if (r < 45) s = (spec){INF, (int)(g & 1), 0, 0};
        else if (r < 60) s = (spec){ZERO, (int)(g & 1), 0, 0};
        else s.v = (double)((int)(g % 7) - 3);
    }
    }
    return s;
}

static int cplx(char t) { return t == 'C' || t == 'Z'; }
static int dbl(char t) { return t == 'D' || t == 'Z'; }
static size_t esz(char t) { return (dbl(t) ? 8 : 4) * (cplx(t) ? 2 : 1); }

/* one component as bits of its type */
static void put_comp(char t, void *p, spec s)
{
    if (dbl(t)) {
        uint64_t u;
        double x;
        switch (s.kind) {
        case FIN: x = s.v; memcpy(&u, &x, 8); break;
        case ZERO: x = s.neg ? -0.0 : 0.0; memcpy(&u, &x, 8); break;
        case INF: x = s.neg ? -INFINITY : INFINITY; memcpy(&u, &x, 8); break;
        case QNAN: u = 0x7ff8000000000000ull | s.payload; break;
        default: u = 0x7ff0000000000000ull | s.payload; break; /* payload != 0: signalling */
        }
        if (s.kind >= QNAN && s.neg) u |= 0x8000000000000000ull;
        memcpy(p, &u, 8);
    } else {
        uint32_t u;
        float x;
        switch (s.kind) {
        case FIN: x = (float)s.v; memcpy(&u, &x, 4); break;
        case ZERO: x = s.neg ? -0.0f : 0.0f; memcpy(&u, &x, 4); break;
        case INF: x = s.neg ? -INFINITY : INFINITY; memcpy(&u, &x, 4); break;
        case QNAN: u = 0x7fc00000u | s.payload; break;
        default: u = 0x7f800000u | s.payload; break;
        }
        if (s.kind >= QNAN && s.neg) u |= 0x80000000u;
        memcpy(p, &u, 4);
    }
}

static void put_elem(char t, void *p, int e, int q, int np)
{
    size_t cs = dbl(t) ? 8 : 4;
    put_comp(t, p, gen(e, q, 0, np));
    if (cplx(t)) put_comp(t, (char *)p + cs, gen(e, q, 1, np));
}

/* component k of element bytes p, widened (exact), and its NaN-ness */
static double comp(char t, const void *p, int k)
{
    if (dbl(t)) {
        double x;
        memcpy(&x, (const char *)p + 8 * k, 8);
        return x;
    }
    float x;
    memcpy(&x, (const char *)p + 4 * k, 4);
    return x;
}

/* the key the rule defines, in the type's own precision (single for S, C:
 * the float sum rounds, and equal rounded keys are ties) */
static int key(char t, const void *p, double *k)
{
    int nc = cplx(t) ? 2 : 1, nan = 0;
    for (int i = 0; i < nc; i++) nan |= isnan(comp(t, p, i));
    if (dbl(t)) *k = nc == 2 ? fabs(comp(t, p, 0)) + fabs(comp(t, p, 1)) : fabs(comp(t, p, 0));
    else {
        float a = fabsf((float)comp(t, p, 0)), b = nc == 2 ? fabsf((float)comp(t, p, 1)) : 0.0f;
        *k = nc == 2 ? (double)(float)(a + b) : (double)a;
    }
    return nan;
}

/* IEEE 754 totalOrder of two components of type t: -1, 0, 1 */
static int total_cmp(char t, const void *pa, const void *pb, int k)
{
    uint64_t a = 0, b = 0;
    int sa, sb;
    if (dbl(t)) {
        memcpy(&a, (const char *)pa + 8 * k, 8);
        memcpy(&b, (const char *)pb + 8 * k, 8);
        sa = (int)(a >> 63), sb = (int)(b >> 63);
    } else {
        uint32_t x, y;
        memcpy(&x, (const char *)pa + 4 * k, 4);
        memcpy(&y, (const char *)pb + 4 * k, 4);
        a = x, b = y;
        sa = (int)(x >> 31), sb = (int)(y >> 31);
    }
    if (sa != sb) return sa ? -1 : 1; /* negatives (sign set) below positives */
    if (a == b) return 0;
    int r = a < b ? -1 : 1;           /* same sign: magnitude bits, reversed when negative */
    return sa ? -r : r;
}

/* does candidate b (owner key ob) beat a (oa)?  owners < 0: no owners */
static int beats(char t, int amx, const void *a, int oa, const void *b, int ob, int owners)
{
    double ka, kb;
    int na = key(t, a, &ka), nb = key(t, b, &kb);
    if (na != nb) return nb;                   /* a NaN key wins AMX and AMN */
    if (!na && ka != kb) return amx ? kb > ka : kb < ka;
    if (owners) return ob < oa;                /* tie: nearer owner */
    for (int k = 0; k < (cplx(t) ? 2 : 1); k++) {
        int c = total_cmp(t, a, b, k);
        if (c) return c < 0;                   /* tie: larger in totalOrder */
    }
    return 0;
}

/* scope: its size, my rank in it, the vpid and grid coordinates of rank k */
static int scope_np(char sc) { return sc == 'A' ? (int)(nprow * npcol) : sc == 'R' ? (int)npcol : (int)nprow; }
static void scope_member(char sc, int k, int *vpid, blacs_int *r, blacs_int *c)
{
    if (sc == 'A') *r = k / npcol, *c = k % npcol;
    else if (sc == 'R') *r = myrow, *c = k;
    else *r = k, *c = mycol;
    *vpid = (int)(*r * npcol + *c);
}

static long ncases, nbad_cases;

static void run(char type, char top, int amx, char sc, blacs_int rd, blacs_int cd, int owners)
{
    const int m = 6, n = (len + m - 1) / m, lda = m + 1, ldia = m + 2, total = m * n;
    const size_t es = esz(type);
    const int snp = scope_np(sc), all = rd < 0 || cd < 0, gnp = (int)(nprow * npcol);
    int me = sc == 'A' ? (int)(myrow * npcol + mycol) : sc == 'R' ? (int)mycol : (int)myrow;
    int dest = all ? -1 : sc == 'A' ? (int)(rd * npcol + cd) : sc == 'R' ? (int)cd : (int)rd;
    int myvpid = (int)(myrow * npcol + mycol);
    unsigned char *A = malloc((size_t)lda * n * es), *ref = malloc((size_t)total * es);
    blacs_int *ra = malloc((size_t)ldia * n * sizeof *ra), *ca = malloc((size_t)ldia * n * sizeof *ca);
    int *wink = malloc((size_t)total * sizeof *wink);
    memset(A, 0x5a, (size_t)lda * n * es);
    for (int i = 0; i < ldia * n; i++) ra[i] = ca[i] = -77;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) put_elem(type, A + ((size_t)j * lda + i) * es, j * m + i, myvpid, gnp);
    /* expected: the best contribution of the scope under the rule */
    for (int e = 0; e < total; e++) {
        unsigned char best[16], cand[16];
        int bk = -1, bo = 0;
        for (int k = 0; k < snp; k++) {
            int vp;
            blacs_int r, c;
            scope_member(sc, k, &vp, &r, &c);
            put_elem(type, cand, e, vp, gnp);
            int ok = all ? k : (k - dest + snp) % snp;
            if (bk < 0 || beats(type, amx, best, bo, cand, ok, owners)) {
                memcpy(best, cand, es);
                bk = k;
                bo = ok;
            }
        }
        memcpy(ref + (size_t)e * es, best, es);
        wink[e] = bk;
    }
    char tp[2] = {top, 0}, scs[2] = {sc, 0};
    blacs_int rcflag = owners ? ldia : -1;
    switch (type) {
    case 'S':
        if (amx) Csgamx2d(ctxt, scs, tp, m, n, (float *)A, lda, ra, ca, rcflag, rd, cd);
        else Csgamn2d(ctxt, scs, tp, m, n, (float *)A, lda, ra, ca, rcflag, rd, cd);
        break;
    case 'D':
        if (amx) Cdgamx2d(ctxt, scs, tp, m, n, (double *)A, lda, ra, ca, rcflag, rd, cd);
        else Cdgamn2d(ctxt, scs, tp, m, n, (double *)A, lda, ra, ca, rcflag, rd, cd);
        break;
    case 'C':
        if (amx) Ccgamx2d(ctxt, scs, tp, m, n, (float *)A, lda, ra, ca, rcflag, rd, cd);
        else Ccgamn2d(ctxt, scs, tp, m, n, (float *)A, lda, ra, ca, rcflag, rd, cd);
        break;
    default:
        if (amx) Czgamx2d(ctxt, scs, tp, m, n, (double *)A, lda, ra, ca, rcflag, rd, cd);
        else Czgamn2d(ctxt, scs, tp, m, n, (double *)A, lda, ra, ca, rcflag, rd, cd);
    }
    int lands = all || me == dest, bad = 0;
    char what[96];
    snprintf(what, sizeof what, "%s %c TOP '%c' scope %c dest {%ld,%ld} %s", amx ? "AMX" : "AMN",
             type, top, sc, (long)rd, (long)cd, owners ? "RA/CA" : "no RA/CA");
    if (lands) {
        for (int e = 0; e < total && bad < 4; e++) {
            int i = e % m, j = e / m;
            const unsigned char *got = A + ((size_t)j * lda + i) * es, *want = ref + (size_t)e * es;
            int ok = 1;
            for (int k = 0; k < (cplx(type) ? 2 : 1); k++) {
                double g = comp(type, got, k), w = comp(type, want, k);
                if (isnan(w)) ok &= isnan(g) && !signbit(g) == !signbit(w);
                else ok &= memcmp(got + k * (es / (cplx(type) ? 2 : 1)),
                                  want + k * (es / (cplx(type) ? 2 : 1)), es / (cplx(type) ? 2 : 1)) == 0;
            }
            if (!ok) {
                bad++;
                TU_CHECK(0, "%s: element %d is (%g,%g), expected (%g,%g) from scope rank %d", what, e,
                         comp(type, got, 0), cplx(type) ? comp(type, got, 1) : 0.0, comp(type, want, 0),
                         cplx(type) ? comp(type, want, 1) : 0.0, wink[e]);
            }
            if (owners) {
                int vp;
                blacs_int r, c;
                scope_member(sc, wink[e], &vp, &r, &c);
                if (ra[j * ldia + i] != r || ca[j * ldia + i] != c) {
                    bad++;
                    TU_CHECK(0, "%s: element %d owner {%ld,%ld}, expected {%ld,%ld}", what, e,
                             (long)ra[j * ldia + i], (long)ca[j * ldia + i], (long)r, (long)c);
                }
            }
        }
        /* gaps: row m of A, rows m..ldia-1 of RA/CA, all of RA/CA without owners */
        for (int j = 0; j < n; j++) {
            for (size_t b = 0; b < es; b++)
                if (A[((size_t)j * lda + m) * es + b] != 0x5a) bad++, j = n, b = es;
        }
        for (int j = 0; j < n && j >= 0; j++)
            for (int i = owners ? m : 0; i < ldia; i++)
                if (ra[j * ldia + i] != -77 || ca[j * ldia + i] != -77) {
                    bad++;
                    TU_CHECK(0, "%s: RA/CA(%d,%d) written", what, i, j);
                    j = n;
                    break;
                }
        TU_CHECK(bad == 0, "%s: %d problems (A's LDA gap or RA/CA)", what, bad);
    }
    if (all) { /* everyone of the scope the same bits and owners: gather over the grid */
        size_t one = (size_t)total * es + 2 * (size_t)total * sizeof(blacs_int);
        unsigned char *mine = malloc(one), *every = malloc(one * (size_t)gnp);
        for (int e = 0; e < total; e++) {
            int i = e % m, j = e / m;
            memcpy(mine + (size_t)e * es, A + ((size_t)j * lda + i) * es, es);
            blacs_int oc[2] = {owners ? ra[j * ldia + i] : 0, owners ? ca[j * ldia + i] : 0};
            memcpy(mine + (size_t)total * es + (size_t)e * sizeof oc, oc, sizeof oc);
        }
        MPI_Allgather(mine, (int)one, MPI_BYTE, every, (int)one, MPI_BYTE, MPI_COMM_WORLD);
        int diff = 0;
        for (int k = 0; k < snp; k++) {
            int vp;
            blacs_int r, c;
            scope_member(sc, k, &vp, &r, &c);
            diff += memcmp(every + (size_t)vp * one, mine, one) != 0;
        }
        TU_CHECK(diff == 0, "%s: leave-on-all results differ between %d process(es) of the scope and this one",
                 what, diff);
        free(mine);
        free(every);
    }
    ncases++;
    free(A);
    free(ref);
    free(ra);
    free(ca);
    free(wink);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: t_nan NPROW NPCOL [TOPS [LEN [repeat]]]\n");
        return 2;
    }
    nprow = atol(argv[1]);
    npcol = atol(argv[2]);
    const char *tops = argc > 3 ? argv[3] : " 123456789TFHIDSMRBYA";
    if (argc > 4 && atoi(argv[4]) > 24) len = atoi(argv[4]);
    int repeat = argc > 5 && strcmp(argv[5], "repeat") == 0;
    blacs_int me, np;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", nprow, npcol);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (repeat) {
        blacs_int one = 1;
        Cblacs_set(ctxt, 15, &one);
    }
    const char *types = "SDCZ", *scopes = len > 24 ? "A" : "ARC";
    for (const char *t = tops; *t; t++)
        for (const char *ty = types; *ty; ty++)
            for (const char *sc = scopes; *sc; sc++)
                for (int amx = 0; amx < 2; amx++)
                    for (int owners = 0; owners < 2; owners++) {
                        run(*ty, *t, amx, *sc, -1, -1, owners);
                        run(*ty, *t, amx, *sc, 0, 0, owners);
                        if (len <= 24) run(*ty, *t, amx, *sc, nprow - 1, npcol - 1, owners);
                    }
    if (me == 0) printf("t_nan: %ld combines on a %ldx%ld grid, %d elements each\n", ncases,
                        (long)nprow, (long)npcol, len);
    (void)nbad_cases;
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
