/*
 * t_bcast.c -- broadcast results through the C interface (LAWN 73 4.1):
 * every topology (and M with 1, 2, 3, -2 rings, T with 1, 2, 3
 * branches) x scope x type x shape (GE; TR with both UPLO, both DIAG, M>N,
 * M<N, M=N), LDA > M on the sender and on receivers, receive shapes that
 * differ with equal count (GE reshaped, TR received as GE or as the other
 * triangle), zero-size
 * broadcasts, sources at several positions, one-process scopes; guard zones
 * around every matrix on every process, and the sender's matrix unchanged.
 * Grids: 1xP, Px1, 2x(P/2) in both orders, 1x1.  Run on 4 or 6 processes.
 *
 *   t_bcast [tops=LETTERS] [types=LETTERS] [full]   restrict topologies /
 *     types; each combination runs on one grid in turn, "full" on all
 *   t_bcast err-top | err-top-recv | err-src | err-scope | err-self
 *     (must abort; err-self at BLACS_DEBUG >= 1)
 *   t_bcast dtcache   TOP ' ' with non-contiguous shapes (any number of
 *     processes): long ones use no BLACS buffer in place on 3 or more (on
 *     2, ' ' is the tree: not checked), one of their size when packed (=0);
 *     the same shapes broadcast and received point-to-point again commit no
 *     datatype (MPI_Type_commit/MPI_Type_free are intercepted here), nor do
 *     short ' ' combines of mixed sizes and operations; of 40 shapes at most
 *     24 datatypes stay alive and the last 8 are reused;
 *     after BLACS_EXIT(1) none is alive, and the BLACS work on.
 */
#include "tutil.h"
#include "core.h" /* bi_buf_hwm, bi_bcast_mpi_inplace */

typedef void (*gebs_t)(blacs_int, char *, char *, blacs_int, blacs_int, void *, blacs_int);
typedef void (*gebr_t)(blacs_int, char *, char *, blacs_int, blacs_int, void *, blacs_int,
                       blacs_int, blacs_int);
typedef void (*trbs_t)(blacs_int, char *, char *, char *, char *, blacs_int, blacs_int, void *,
                       blacs_int);
typedef void (*trbr_t)(blacs_int, char *, char *, char *, char *, blacs_int, blacs_int, void *,
                       blacs_int, blacs_int, blacs_int);
static const struct {
    char t;
    size_t esz;
    gebs_t gebs;
    gebr_t gebr;
    trbs_t trbs;
    trbr_t trbr;
} T[] = {
    {'I', sizeof(blacs_int), (gebs_t)Cigebs2d, (gebr_t)Cigebr2d, (trbs_t)Citrbs2d, (trbr_t)Citrbr2d},
    {'S', sizeof(float), (gebs_t)Csgebs2d, (gebr_t)Csgebr2d, (trbs_t)Cstrbs2d, (trbr_t)Cstrbr2d},
    {'D', sizeof(double), (gebs_t)Cdgebs2d, (gebr_t)Cdgebr2d, (trbs_t)Cdtrbs2d, (trbr_t)Cdtrbr2d},
    {'C', 2 * sizeof(float), (gebs_t)Ccgebs2d, (gebr_t)Ccgebr2d, (trbs_t)Cctrbs2d, (trbr_t)Cctrbr2d},
    {'Z', 2 * sizeof(double), (gebs_t)Czgebs2d, (gebr_t)Czgebr2d, (trbs_t)Cztrbs2d, (trbr_t)Cztrbr2d},
};

/* topology variants: letter, BLACS_SET WHAT (11 rings, 12 branches), value */
static const struct { char top; int what, val; } TOPS[] = {
    {' ', 0, 0},  {'I', 0, 0},  {'D', 0, 0},  {'S', 0, 0},  {'M', 11, 1}, {'M', 11, 2},
    {'M', 11, 3}, {'M', 11, -2}, {'H', 0, 0}, {'F', 0, 0},  {'T', 12, 1}, {'T', 12, 2},
    {'T', 12, 3}, {'1', 0, 0},  {'2', 0, 0},  {'3', 0, 0},  {'4', 0, 0},  {'5', 0, 0},
    {'6', 0, 0},  {'7', 0, 0},  {'8', 0, 0},  {'9', 0, 0},  {'C', 0, 0},  {'P', 0, 0},
    {'A', 0, 0},
};
#define NTOPS (int)(sizeof TOPS / sizeof TOPS[0])

/* sender m x n (lda ldas), receivers mr x nr (lda ldar); uplo NULL: GE;
 * rge: a TR sender's receivers use 1: GE, 2: the other UPLO (square, so the
 * count is the same) */
typedef struct {
    const char *uplo, *diag;
    blacs_int m, n, ldas, mr, nr, ldar;
    int rge;
} bcase;
static bcase CASES[40];
static int ncases;

static void add(const char *uplo, const char *diag, blacs_int m, blacs_int n, blacs_int ldas,
                blacs_int mr, blacs_int nr, blacs_int ldar, int rge)
{
    CASES[ncases++] = (bcase){uplo, diag, m, n, ldas, mr, nr, ldar, rge};
}

static void make_cases(void)
{
    add(NULL, NULL, 5, 3, 5, 5, 3, 5, 0);    /* contiguous on both sides */
    add(NULL, NULL, 5, 3, 8, 5, 3, 5, 0);    /* LDA > M on the sender */
    add(NULL, NULL, 5, 3, 5, 5, 3, 7, 0);    /* LDA > M on receivers */
    add(NULL, NULL, 4, 4, 6, 4, 4, 9, 0);    /* both */
    add(NULL, NULL, 6, 2, 6, 3, 4, 5, 0);    /* reshaped, equal count */
    add(NULL, NULL, 6, 2, 9, 12, 1, 12, 0);  /* reshaped into one column */
    add(NULL, NULL, 1, 7, 3, 7, 1, 7, 0);    /* a row with stride */
    add(NULL, NULL, 0, 3, 1, 0, 3, 1, 0);    /* zero-size */
    add(NULL, NULL, 3, 0, 3, 3, 0, 3, 0);    /* zero-size */
    add(NULL, NULL, 37, 5, 40, 37, 5, 37, 0); /* longer: several blocks/segments */
    static const char *ul[] = {"U", "L"}, *dg[] = {"N", "U"};
    static const blacs_int mn[][2] = {{5, 3}, {3, 5}, {4, 4}};
    int k = 0;
    for (int u = 0; u < 2; u++)
        for (int d = 0; d < 2; d++)
            for (int s = 0; s < 3; s++, k++) {
                blacs_int m = mn[s][0], n = mn[s][1];
                add(ul[u], dg[d], m, n, m + (k % 2) * 2, m, n, m + ((k + 1) % 2) * 3, 0);
            }
    add("l", "u", 6, 6, 7, 6, 6, 6, 0); /* lower-case UPLO/DIAG */
    add("U", "N", 4, 4, 4, 10, 1, 10, 1); /* TR sent, received as a 10-vector */
    add("U", "N", 4, 4, 6, 5, 2, 7, 1);  /* TR sent, received as a GE with a gap */
    add("U", "N", 4, 4, 7, 4, 4, 9, 2);  /* TR received as the other triangle */
    add("L", "U", 5, 5, 5, 5, 5, 8, 2);
}

/* the receivers' UPLO */
static const char *recv_uplo(const bcase *cs)
{
    if (cs->rge != 2) return cs->uplo;
    return cs->uplo[0] == 'U' || cs->uplo[0] == 'u' ? "L" : "U";
}

/* communicated elements of a shape, in column-major order, as item pointers */
static size_t items(tu_mat *t, const char *uplo, const char *diag, int ge, unsigned char **out)
{
    tu_tr tr = {uplo ? uplo[0] : 'G', diag ? diag[0] : 'N', t->m, t->n};
    size_t k = 0;
    for (blacs_int j = 0; j < t->n; j++)
        for (blacs_int i = 0; i < t->m; i++)
            if (ge || !uplo || tu_in_tr(i, j, &tr)) {
                if (out) out[k] = tu_el(t, i, j);
                k++;
            }
    return k;
}

/* operation number opno (the same on every process of the grid) */
static void one(blacs_int ctxt, char scope, int tv, const bcase *cs, int ti, blacs_int rs,
                blacs_int cs_, int opno)
{
    blacs_int nprow, npcol, myr, myc;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    int seed = opno * 11;
    char sc[8] = {scope, 0}, tp[2] = {TOPS[tv].top, 0};
    if (opno % 2 && tp[0] >= 'A' && tp[0] <= 'Z') tp[0] = (char)(tp[0] + 32); /* any case */
    if (opno % 3 == 0) snprintf(sc, sizeof sc, "%s", scope == 'R' ? "Row" : scope == 'C' ? "col" : "ALL");
    /* source grid coordinates for this process's scope */
    blacs_int sr = scope == 'R' ? myr : rs, scl = scope == 'C' ? myc : cs_;
    int src = myr == sr && myc == scl;
    size_t esz = T[ti].esz;
    tu_tr tr = {cs->uplo ? cs->uplo[0] : 'G', cs->diag ? cs->diag[0] : 'N', cs->m, cs->n};
    tu_in_fn in = cs->uplo ? tu_in_tr : NULL;
    if (src) {
        tu_mat a;
        tu_mat_alloc(&a, esz, cs->m, cs->n, cs->ldas);
        tu_mat_pad(&a, 0xA5);
        tu_mat_fill(&a, T[ti].t, seed, in, &tr);
        if (cs->uplo)
            T[ti].trbs(ctxt, sc, tp, (char *)cs->uplo, (char *)cs->diag, cs->m, cs->n, a.a, cs->ldas);
        else
            T[ti].gebs(ctxt, sc, tp, cs->m, cs->n, a.a, cs->ldas);
        long bad = tu_mat_check(&a, T[ti].t, seed, in, &tr, 0xA5, "sender's A");
        TU_CHECK(bad == 0, "BS changed A: top '%c' scope %s type %c", tp[0], sc, T[ti].t);
        tu_mat_free(&a);
        return;
    }
    /* the ignored coordinate of a row/column scope gets another value */
    blacs_int rarg = scope == 'R' ? (myr + opno) % nprow : sr;
    blacs_int carg = scope == 'C' ? (myc + opno) % npcol : scl;
    tu_mat b, e, ref;
    tu_mat_alloc(&b, esz, cs->mr, cs->nr, cs->ldar);
    tu_mat_pad(&b, 0x5A);
    if (cs->uplo && cs->rge != 1)
        T[ti].trbr(ctxt, sc, tp, (char *)recv_uplo(cs), (char *)cs->diag, cs->mr, cs->nr, b.a,
                   cs->ldar, rarg, carg);
    else
        T[ti].gebr(ctxt, sc, tp, cs->mr, cs->nr, b.a, cs->ldar, rarg, carg);
    /* expected: pad everywhere, sender's k-th item at my k-th position */
    tu_mat_alloc(&e, esz, cs->mr, cs->nr, cs->ldar);
    tu_mat_pad(&e, 0x5A);
    tu_mat_alloc(&ref, esz, cs->m, cs->n, cs->ldas);
    tu_mat_fill(&ref, T[ti].t, seed, in, &tr);
    size_t ns = items(&ref, cs->uplo, cs->diag, 0, NULL);
    size_t nr = items(&e, recv_uplo(cs), cs->diag, cs->rge == 1, NULL);
    unsigned char **ps = malloc((ns + 1) * sizeof *ps), **pe = malloc((nr + 1) * sizeof *pe);
    items(&ref, cs->uplo, cs->diag, 0, ps);
    items(&e, recv_uplo(cs), cs->diag, cs->rge == 1, pe);
    for (size_t k = 0; k < ns && k < nr; k++) memcpy(pe[k], ps[k], esz);
    long bad = 0, first = -1;
    for (size_t k = 0; k < b.total; k++)
        if (memcmp(b.mem + k * esz, e.mem + k * esz, esz)) {
            if (first < 0) first = (long)k - TU_GUARD;
            bad++;
        }
    TU_CHECK(ns == nr && bad == 0,
             "top '%c' scope %s type %c %s%s %ldx%ld lda %ld -> %ldx%ld lda %ld, source {%ld,%ld} "
             "on %ldx%ld: %ld bad elements, first at offset %ld",
             tp[0], sc, T[ti].t, cs->uplo ? cs->uplo : "GE", cs->diag ? cs->diag : "", (long)cs->m,
             (long)cs->n, (long)cs->ldas, (long)cs->mr, (long)cs->nr, (long)cs->ldar, (long)sr,
             (long)scl, (long)nprow, (long)npcol, bad, first);
    free(ps);
    free(pe);
    tu_mat_free(&ref);
    tu_mat_free(&e);
    tu_mat_free(&b);
}

static const char *only_tops, *only_types;
static int full; /* every combination on every grid, not each on one grid */

#define MAXG 8
static blacs_int ctx[MAXG];
static int ngrids;

static void grid(blacs_int sys, const char *order, blacs_int nprow, blacs_int npcol)
{
    ctx[ngrids] = sys;
    Cblacs_gridinit(&ctx[ngrids], (char *)order, nprow, npcol);
    ngrids++;
}

/* every topology x scope x type x shape; each combination on one grid in
 * turn (all grids with "full"), the source moving around the grid */
static void run(void)
{
    static const char scopes[] = "RCA";
    long combo = 0;
    for (int tv = 0; tv < NTOPS; tv++) {
        if (only_tops && !strchr(only_tops, TOPS[tv].top)) continue;
        for (int g = 0; g < ngrids; g++)
            if (ctx[g] >= 0 && TOPS[tv].what) {
                blacs_int v = TOPS[tv].val;
                Cblacs_set(ctx[g], TOPS[tv].what, &v);
            }
        for (int s = 0; s < 3; s++)
            for (int ti = 0; ti < 5; ti++) {
                if (only_types && !strchr(only_types, T[ti].t)) continue;
                for (int k = 0; k < ncases; k++, combo++)
                    for (int g = 0; g < ngrids; g++) {
                        if (!full && g != combo % ngrids) continue;
                        if (ctx[g] < 0) continue; /* not in this grid */
                        blacs_int nprow, npcol, myr, myc;
                        Cblacs_gridinfo(ctx[g], &nprow, &npcol, &myr, &myc);
                        blacs_int rs = (blacs_int)((combo / 3) % nprow), cs = (blacs_int)(combo % npcol);
                        one(ctx[g], scopes[s], tv, &CASES[k], ti, rs, cs, (int)combo);
                    }
            }
    }
}

static void error_case(blacs_int sys, blacs_int np, const char *what)
{
    blacs_int ctxt = sys, nprow, npcol, myr, myc;
    double a[4] = {0};
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    if (!strcmp(what, "err-top")) Cdgebs2d(ctxt, "Row", "X", 2, 2, a, 2);
    else if (!strcmp(what, "err-top-recv")) Cdgebr2d(ctxt, "Row", "q", 2, 2, a, 2, 0, 0);
    else if (!strcmp(what, "err-src")) Cdgebr2d(ctxt, "Row", "I", 2, 2, a, 2, 0, npcol + 3);
    else if (!strcmp(what, "err-scope")) Cdgebs2d(ctxt, "Diagonal", "I", 2, 2, a, 2);
    else if (!strcmp(what, "err-self")) Cdgebr2d(ctxt, "Row", "I", 2, 2, a, 2, myr, myc);
}

/* ---- dtcache: TOP ' ' moves non-contiguous shapes in place, with datatypes
 * made once.  Every committed datatype is seen here through MPI's profiling
 * interface (the library is linked in statically, so its calls come here). */
#define MAXLIVE 4096
static MPI_Datatype live[MAXLIVE]; /* committed and not freed */
static int nlive;
static long ncommits;

int MPI_Type_commit(MPI_Datatype *t)
{
    int rc = PMPI_Type_commit(t), known = 0;
    ncommits++;
    for (int i = 0; i < nlive && !known; i++) known = live[i] == *t;
    if (rc == MPI_SUCCESS && !known && nlive < MAXLIVE) live[nlive++] = *t;
    return rc;
}

int MPI_Type_free(MPI_Datatype *t)
{
    for (int i = 0; i < nlive; i++)
        if (live[i] == *t) {
            live[i] = live[--nlive];
            break;
        }
    return PMPI_Type_free(t);
}

/* a non-contiguous GE p2p message to the next process of the row, received
 * in place from the previous one; guards checked */
static void p2p_ring(blacs_int ctxt, int seed)
{
    blacs_int nprow, npcol, myr, myc;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    tu_mat a, b;
    tu_mat_alloc(&a, sizeof(double), 5, 3, 8);
    tu_mat_alloc(&b, sizeof(double), 5, 3, 7);
    tu_mat_pad(&a, 0xA5);
    tu_mat_pad(&b, 0x5A);
    tu_mat_fill(&a, 'D', seed, NULL, NULL);
    Cdgesd2d(ctxt, 5, 3, a.a, 8, myr, (myc + 1) % npcol);
    Cdgerv2d(ctxt, 5, 3, b.a, 7, myr, (myc + npcol - 1) % npcol);
    long bad = tu_mat_check(&b, 'D', seed, NULL, NULL, 0x5A, "DGERV2D's A");
    TU_CHECK(bad == 0, "p2p 5x3 lda 8 -> lda 7: %ld bad elements or guards", bad);
    tu_mat_free(&a);
    tu_mat_free(&b);
}

/* shapes of the repeated TOP ' ' broadcasts: sender, then receivers of
 * the same count, at least one side not contiguous */
static const bcase REUSE[] = {
    {NULL, NULL, 5, 3, 8, 5, 3, 8, 0},   {NULL, NULL, 6, 2, 9, 4, 3, 7, 0},
    {NULL, NULL, 6, 2, 6, 3, 4, 5, 0},   {NULL, NULL, 1, 7, 3, 7, 1, 7, 0},
    {"U", "N", 5, 3, 7, 5, 3, 6, 0},     {"L", "U", 3, 5, 3, 3, 5, 4, 0},
    {"L", "N", 4, 4, 5, 4, 4, 4, 2},     {"U", "U", 4, 4, 4, 6, 1, 6, 1},
};
#define NREUSE (int)(sizeof REUSE / sizeof REUSE[0])

/* DGSUM2D of 1, 2 and 3 doubles, IGAMX2D of 1 and DGAMX2D of 2 items with
 * owners, TOP ' ', leave-on-all on a 1 x np grid, results checked */
static void combines(blacs_int ctxt, blacs_int np, int seed)
{
    blacs_int me = 0, nr, nc, r;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &me);
    for (blacs_int n = 1; n <= 3; n++) {
        double d[3];
        for (blacs_int i = 0; i < n; i++) d[i] = (double)(me + seed + i);
        Cdgsum2d(ctxt, "All", " ", n, 1, d, n, -1, -1);
        for (blacs_int i = 0; i < n; i++)
            TU_CHECK(d[i] == (double)(np * (np - 1) / 2 + np * (seed + i)),
                     "DGSUM2D ' ' of %d: item %d is %g", (int)n, (int)i, d[i]);
    }
    blacs_int x = (me + seed) % np, ra = -1, ca = -1, wcol = (np - 1 + np - seed % np) % np;
    Cigamx2d(ctxt, "All", " ", 1, 1, &x, 1, &ra, &ca, 1, -1, -1);
    TU_CHECK(x == np - 1 && ra == 0 && ca == wcol, "IGAMX2D ' ': %d at (%d,%d), not %d at (0,%d)",
             (int)x, (int)ra, (int)ca, (int)np - 1, (int)wcol);
    double y[2] = {(double)((me + seed) % np), -(double)me};
    blacs_int ry[2], cy[2];
    Cdgamx2d(ctxt, "All", " ", 2, 1, y, 2, ry, cy, 2, -1, -1);
    TU_CHECK(y[0] == (double)(np - 1) && cy[0] == wcol && y[1] == -(double)(np - 1) &&
                 cy[1] == np - 1 && ry[0] == 0 && ry[1] == 0,
             "DGAMX2D ' ': %g at col %d, %g at col %d", y[0], (int)cy[0], y[1], (int)cy[1]);
}

static void dtcache(blacs_int sys, blacs_int np)
{
    blacs_int ctxt = sys;
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    /* 1. a long non-contiguous broadcast received in place needs no BLACS
     * buffer: MPI takes A as it lies; packed, it needs one of the message's
     * size.  The source sends from a copy either way (it returns without
     * waiting for its receivers, bcast_mpi.c), or from A as it lies when
     * they were all there first */
    const bcase big[] = {
        {NULL, NULL, 300, 200, 310, 200, 300, 207, 0}, /* 480,000 bytes */
        {"L", "N", 300, 300, 305, 300, 300, 333, 2},   /* 45,150 complex: 722,400 bytes */
    };
    blacs_int nr, nc, myr, myc;
    Cblacs_gridinfo(ctxt, &nr, &nc, &myr, &myc);
    one(ctxt, 'A', 0, &big[0], 2, 0, 0, 1);
    size_t hwm = bi_buf_hwm();
    int inplace = bi_bcast_mpi_inplace();
    /* on two processes ' ' is the tree, whose leaf takes a buffer of the
     * message's size whether it receives in place or not (bcast.c) */
    if (myc != 0 && np > 2)
        TU_CHECK(inplace == (hwm < 300 * 200 * sizeof(double)),
                 "TOP ' ' broadcast of a non-contiguous shape received %s: %zu bytes of BLACS "
                 "buffers used", inplace ? "in place" : "packed", hwm);
    else /* a copy, or none when every receiver was there first (MPICH: bcast_mpi.c) */
        TU_CHECK(hwm >= 300 * 200 * sizeof(double) || hwm == 0,
                 "TOP ' ' source of a non-contiguous shape: %zu bytes of BLACS buffers, neither "
                 "a copy nor none",
                 hwm);
    one(ctxt, 'R', 0, &big[1], 4, 0, np - 1, 2);
    /* 2. the same shapes over and over: datatypes made in the first round
     * only (broadcasts on two scopes, and receives of point-to-point) */
    long before = ncommits, first = 0;
    for (int rep = 0; rep < 5; rep++) {
        for (int k = 0; k < NREUSE; k++) /* 14 shapes at most per process */
            one(ctxt, k % 2 ? 'R' : 'A', 0, &REUSE[k], k % 5, 0, k % np, 100 * rep + k);
        p2p_ring(ctxt, rep);
        if (rep == 0) {
            first = ncommits;
            /* packed: no datatype at all (receives are unpacked too) */
            if (inplace)
                TU_CHECK(first > before, "no datatype was committed: is MPI_Type_commit intercepted?");
            else
                TU_CHECK(first == before, "packed, yet %ld datatypes were committed", first - before);
        } else {
            TU_CHECK(ncommits == first, "round %d committed %ld datatypes", rep, ncommits - first);
        }
    }
    /* 3. many shapes: the kept types stay few, and the last ones used are
     * reused (the library keeps 24) */
    for (int rep = 0; rep < 2; rep++) {
        if (rep == 1) first = ncommits;
        for (blacs_int k = rep ? 32 : 0; k < 40; k++) {
            bcase g = {NULL, NULL, 3, 2, 4 + k, 2, 3, 5 + k, 0};
            one(ctxt, 'A', 0, &g, 2, 0, k % np, 1000 + (int)k);
        }
    }
    TU_CHECK(ncommits == first, "the last 8 of 40 shapes were made again (%ld datatypes)",
             ncommits - first);
    TU_CHECK(nlive <= 24, "%d committed datatypes alive", nlive);
    /* 4. short TOP ' ' combines of mixed sizes and operations: each size
     * and operation's one-element header type is made once, not per call */
    combines(ctxt, np, 0);
    long made = ncommits;
    for (int rep = 1; rep < 4; rep++) combines(ctxt, np, rep);
    TU_CHECK(ncommits == made, "short combines of mixed sizes committed %ld datatypes again",
             ncommits - made);
    /* 5. BLACS_EXIT(1) frees them all; the BLACS afterwards make them anew */
    Cblacs_gridexit(ctxt);
    Cblacs_exit(1);
    TU_CHECK(nlive == 0, "%d committed datatypes alive after BLACS_EXIT(1)", nlive);
    blacs_int me;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    before = ncommits;
    p2p_ring(ctxt, 9); /* its receive's type was kept before BLACS_EXIT */
    TU_CHECK(ncommits == before + (inplace ? 1 : 0), "after BLACS_EXIT(1): %ld datatypes committed",
             ncommits - before);
    one(ctxt, 'A', 0, &REUSE[4], 2, 0, 0, 7);
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int me, np, sys;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &sys);
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "tops=", 5)) only_tops = argv[i] + 5;
        else if (!strncmp(argv[i], "types=", 6)) only_types = argv[i] + 6;
        else if (!strcmp(argv[i], "full")) full = 1;
        else if (!strcmp(argv[i], "dtcache")) {
            dtcache(sys, np);
            int rc = tu_finish();
            Cblacs_exit(0);
            return rc;
        }
        else if (!strncmp(argv[i], "err-", 4)) {
            error_case(sys, np, argv[i]);
            fprintf(stderr, "error case %s returned\n", argv[i]);
            return 2;
        }
    }
    make_cases();
    grid(sys, "Row", 1, np);
    grid(sys, "Row", np, 1);
    if (np % 2 == 0) {
        grid(sys, "Row", 2, np / 2);
        grid(sys, "Col", np / 2, 2);
    }
    grid(sys, "Row", 1, 1);
    run();
    for (int g = 0; g < ngrids; g++)
        if (ctx[g] >= 0) Cblacs_gridexit(ctx[g]);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
