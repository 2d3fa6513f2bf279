/*
 * t_scale.c -- combines stay right when message IDs are reused ("correct at any
 * scale").  With a message-ID range of R IDs, IDs must be
 * reused after some number of operations; reuse is harmless only if no
 * receive can take the message of another operation that carries the same
 * ID.  The program makes processes run many operations ahead of others and
 * checks every result exactly:
 *
 *   - stretches of leave-on-one combines with one destination (the
 *     destination changes from stretch to stretch), in which one contributor
 *     next to the destination sleeps at the start (once on one side of the
 *     destination, once on the other: a fan-in tree's leaf is the
 *     destination's successor, a ring's its predecessor) so that the other
 *     non-destination processes, which only send, race ahead through the
 *     whole stretch while the destination still waits for the sleeper's
 *     first contribution;
 *   - every 8th operation of a stretch is a broadcast (xGEBS2D/xGEBR2D,
 *     same TOP letter; 'C' or 'P' for the combine-only 'R', 'B', 'Y') from
 *     the destination's other neighbour, which then runs ahead as well;
 *   - each stretch ends with leave-on-all combines of every kind (they share
 *     the IDs of the combines rooted at scope rank 0);
 *   - on 2-D grids, scopes row, column, all, and "mixed" stretches where
 *     row leave-on-one combines alternate with column leave-on-all ones (the
 *     fast column keeps synchronising only with itself, so it still runs
 *     ahead), and the transpose;
 *   - operation kinds in turn: xGSUM2D, xGAMX2D with and without RA/CA,
 *     xGAMN2D, xTUOP2D (user init/op/post), I and D types, 1 to 6 items,
 *     and every 16th operation about 1,000 items (a mix-up of a long and a
 *     short message cannot go unnoticed).
 *
 * Values are integers (sums exact); every operation's values depend on its
 * sequence number, so a contribution of another operation changes the
 * result; AMX/AMN keys are distinct and the owner (RA, CA) is checked.
 *
 * The number of operations per stretch is computed from the ID range so
 * that, under the layout of LAWN 73 6.1 (half the range for point-to-point,
 * the other half cut in three scopes and each into one subrange per
 * destination, two IDs per combine), the IDs of one destination repeat
 * WRAPS times within every stretch: W(np) = ((R - R/2)/3/np)/2 combines.
 * Under SimGrid SMPI (smpicc) the sleeps are simulated time, and the
 * watchdog is off (SimGrid reports a deadlock itself).
 *
 *   t_scale NPROW NPCOL LO HI [TOPS [SCOPES [WRAPS [MINOPS]]]]
 * TOPS: the topologies (default all); SCOPES: which stretches, of "RCAmn"
 * (m: row leave-on-one with column leave-on-all, n: the transpose; default
 * all those the grid has); WRAPS (default 1.5): how many times the old
 * IDs of the destination repeat within a stretch; MINOPS (default 48):
 * combines per stretch at least.  Scopes of two processes get 16 (one
 * contributor: nothing to mix up), of one none.
 * Environment: T_SCALE_SLOW_MS (sleep of the slow process at the start of
 * a stretch, default 20), T_SCALE_WATCHDOG (s without finishing a stretch
 * before the program reports a hang, default 90), T_SCALE_REPEAT=1 (sets
 * BLACS_SET WHAT=15, with which the fan-ins name their sources: a check of
 * the test itself), TU_VERBOSE=1 (each stretch announced), T_SCALE_ONE=1 (every operation a DGSUM2D of one item:
 * a mix-up then shows as wrong results rather than as an MPI truncation
 * error).
 */
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "tutil.h"

#define MODK 100000 /* operation numbers in the values: k mod MODK */
#define GAP (-7777) /* LDA-M gap of the columns; must stay untouched */

static blacs_int ctxt, nr, nc, myr, myc;
static long K;                    /* operation sequence number, same everywhere */
static int cur_top;               /* index of the current topology */
static long tchk[64], tbad[64];   /* checks and wrong results per topology */
static int nreported;
static char where[200];

/* ---- scopes of the grid -------------------------------------------------- */
static int scope_np(char s) { return s == 'R' ? (int)nc : s == 'C' ? (int)nr : (int)(nr * nc); }
static int scope_me(char s) { return s == 'R' ? (int)myc : s == 'C' ? (int)myr : (int)(myr * nc + myc); }
/* grid coordinates of scope rank k in my row / column / the grid */
static void scope_coords(char s, int k, blacs_int *r, blacs_int *c)
{
    if (s == 'R') *r = myr, *c = k;
    else if (s == 'C') *r = k, *c = myc;
    else *r = k / nc, *c = k % nc;
}
static const char *scope_name(char s) { return s == 'R' ? "Row" : s == 'C' ? "Column" : "All"; }

/* ---- user-defined combine for xTUOP2D: init 2x+1, op sum, post negate --- */
static void ti_init(blacs_int *n, blacs_int *x) { for (blacs_int i = 0; i < *n; i++) x[i] = 2 * x[i] + 1; }
static void ti_op(blacs_int *n, blacs_int *in, blacs_int *io) { for (blacs_int i = 0; i < *n; i++) io[i] += in[i]; }
static void ti_post(blacs_int *n, blacs_int *x) { for (blacs_int i = 0; i < *n; i++) x[i] = -x[i]; }
static void td_init(blacs_int *n, double *x) { for (blacs_int i = 0; i < *n; i++) x[i] = 2 * x[i] + 1; }
static void td_op(blacs_int *n, double *in, double *io) { for (blacs_int i = 0; i < *n; i++) io[i] += in[i]; }
static void td_post(blacs_int *n, double *x) { for (blacs_int i = 0; i < *n; i++) x[i] = -x[i]; }

/* ---- operations ----------------------------------------------------------- */
typedef struct {
    char kind;  /* S sum, X amx, N amn, U tuop */
    char type;  /* I or D */
    blacs_int m, n, lda;
    int owners; /* RA/CA wanted (AMX/AMN) */
} opdesc;
static const opdesc kinds[8] = {
    {'S', 'D', 1, 1, 1, 0}, {'X', 'I', 1, 1, 1, 1}, {'N', 'D', 3, 1, 3, 1}, {'U', 'I', 2, 1, 2, 0},
    {'X', 'D', 1, 1, 1, 0}, {'S', 'D', 3, 2, 4, 0}, {'N', 'I', 1, 1, 1, 1}, {'S', 'I', 1, 1, 1, 0},
};
static const opdesc bigs[4] = {
    {'S', 'D', 40, 25, 43, 0}, {'X', 'D', 1000, 1, 1000, 1}, {'U', 'D', 40, 25, 41, 0}, {'N', 'I', 1000, 1, 1000, 1},
};
#define BIGLEN (43 * 25 + 1000)
static double da[BIGLEN];
static blacs_int ia[BIGLEN], ra[BIGLEN], ca[BIGLEN];

static int one_item; /* T_SCALE_ONE: every operation a DGSUM2D of one item */
static const opdesc *pick(long k)
{
    if (one_item) return &kinds[0];
    return k % 16 == 15 ? &bigs[(k / 16) % 4] : &kinds[k % 8];
}

/* contribution of scope rank p to item idx of operation k */
static long val(const opdesc *o, long k, long idx, int p, int np)
{
    if (o->kind == 'S' || o->kind == 'U') return (k % MODK) * 128 + (idx % 7) * 13 + p;
    long key = 1 + (p + k + idx) % np + (long)np * (k % MODK);
    return (p + idx) % 2 ? -key : key;
}
/* expected result and, for AMX/AMN, the owner's scope rank */
static long expect(const opdesc *o, long k, long idx, int np, int *owner)
{
    long s = 0;
    int w = 0;
    switch (o->kind) {
    case 'S':
        for (int p = 0; p < np; p++) s += val(o, k, idx, p, np);
        return s;
    case 'U':
        for (int p = 0; p < np; p++) s += 2 * val(o, k, idx, p, np) + 1;
        return -s;
    case 'X': w = (int)(((np - 1 - k - idx) % np + np) % np); break;
    default: w = (int)(((-k - idx) % np + np) % np); break;
    }
    *owner = w;
    return val(o, k, idx, w, np);
}

static void bad(const char *what, long k, long idx, long got, long want)
{
    if (nreported++ < 12)
        fprintf(stderr, "[rank %d] %s: operation %ld item %ld: %s %ld, expected %ld\n", tu_rank,
                where, k, idx, what, got, want);
}

/* one combine, operation number K, in scope s rooted at scope rank dest
 * (-1: leave-on-all); checks the result where it lands */
static void combine(char s, const char *top, int dest)
{
    const long k = K++;
    const opdesc *o = pick(k);
    const int np = scope_np(s), me = scope_me(s);
    const blacs_int m = o->m, n = o->n, lda = o->lda, ldia = o->owners ? m : -1;
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < lda; i++) {
            long v = i < m ? val(o, k, j * m + i, me, np) : GAP;
            if (o->type == 'D') da[j * lda + i] = (double)v;
            else ia[j * lda + i] = (blacs_int)v;
        }
    for (blacs_int i = 0; i < m * n; i++) ra[i] = ca[i] = -5;
    blacs_int rd = -1, cd = -1;
    if (dest >= 0) scope_coords(s, dest, &rd, &cd);
    char *sc = (char *)scope_name(s), *t = (char *)top;
    switch (o->kind * 256 + o->type) {
    case 'S' * 256 + 'D': Cdgsum2d(ctxt, sc, t, m, n, da, lda, rd, cd); break;
    case 'S' * 256 + 'I': Cigsum2d(ctxt, sc, t, m, n, ia, lda, rd, cd); break;
    case 'X' * 256 + 'D': Cdgamx2d(ctxt, sc, t, m, n, da, lda, ra, ca, ldia, rd, cd); break;
    case 'X' * 256 + 'I': Cigamx2d(ctxt, sc, t, m, n, ia, lda, ra, ca, ldia, rd, cd); break;
    case 'N' * 256 + 'D': Cdgamn2d(ctxt, sc, t, m, n, da, lda, ra, ca, ldia, rd, cd); break;
    case 'N' * 256 + 'I': Cigamn2d(ctxt, sc, t, m, n, ia, lda, ra, ca, ldia, rd, cd); break;
    case 'U' * 256 + 'D': Cdtuop2d(ctxt, sc, t, "G", "N", m, n, da, lda, rd, cd, td_init, td_op, td_post); break;
    case 'U' * 256 + 'I': Cituop2d(ctxt, sc, t, "G", "N", m, n, ia, lda, rd, cd, ti_init, ti_op, ti_post); break;
    }
    if (dest >= 0 && me != dest) return;
    int ok = 1;
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < lda; i++) {
            const long idx = j * m + i;
            long got = o->type == 'D' ? (long)da[j * lda + i] : (long)ia[j * lda + i];
            if (o->type == 'D' && da[j * lda + i] != (double)got) got = LONG_MIN;
            if (i >= m) {
                if (got != GAP) ok = 0, bad("LDA gap overwritten:", k, idx, got, GAP);
                continue;
            }
            int w = -1;
            long want = expect(o, k, idx, np, &w);
            if (got != want) ok = 0, bad("value", k, idx, got, want);
            if (o->owners) {
                blacs_int wr, wc;
                scope_coords(s, w, &wr, &wc);
                if (ra[j * m + i] != wr || ca[j * m + i] != wc) {
                    ok = 0;
                    bad("owner row*1000+col", k, idx, (long)(ra[j * m + i] * 1000 + ca[j * m + i]),
                        (long)(wr * 1000 + wc));
                }
            }
        }
    tchk[cur_top]++;
    if (ok) tu_pass++;
    else tu_fail++, tbad[cur_top]++;
}

/* broadcast number K from scope rank src of scope s; receivers check it.
 * TOP letters that have no broadcast ('R', 'B', 'Y') use 'C' / 'P'. */
static void bcast(char s, const char *top, int src)
{
    const long k = K++;
    const opdesc *o = pick(k);
    const int me = scope_me(s);
    const blacs_int m = o->m, n = o->n, lda = o->lda;
    char bt[2] = {top[0], 0};
    if (strchr("RBY", bt[0])) bt[0] = k % 2 ? 'C' : 'P';
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < lda; i++) {
            long v = i < m && me == src ? val(o, k, j * m + i, src, 1) : GAP;
            if (o->type == 'D') da[j * lda + i] = (double)v;
            else ia[j * lda + i] = (blacs_int)v;
        }
    blacs_int rs, cs;
    scope_coords(s, src, &rs, &cs);
    char *sc = (char *)scope_name(s);
    if (me == src) {
        if (o->type == 'D') Cdgebs2d(ctxt, sc, bt, m, n, da, lda);
        else Cigebs2d(ctxt, sc, bt, m, n, ia, lda);
        return;
    }
    if (o->type == 'D') Cdgebr2d(ctxt, sc, bt, m, n, da, lda, rs, cs);
    else Cigebr2d(ctxt, sc, bt, m, n, ia, lda, rs, cs);
    int ok = 1;
    for (blacs_int j = 0; j < n; j++)
        for (blacs_int i = 0; i < lda; i++) {
            long got = o->type == 'D' ? (long)da[j * lda + i] : (long)ia[j * lda + i];
            long want = i < m ? val(o, k, j * m + i, src, 1) : GAP;
            if (got != want) {
                ok = 0;
                bad(i < m ? "broadcast value" : "broadcast LDA gap", k, j * m + i, got, want);
            }
        }
    tchk[cur_top]++;
    if (ok) tu_pass++;
    else tu_fail++, tbad[cur_top]++;
}

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- hang report ------------------------------------------------------- */
static void on_alarm(int sig)
{
    (void)sig;
    char b[400];
    int l = snprintf(b, sizeof b,
                     "[rank %d] t_scale: no progress for T_SCALE_WATCHDOG seconds in %s (operation %ld): hang\n"
                     "%d passed, %d failed\n", tu_rank, where, K, tu_pass, tu_fail + 1);
    if (write(2, b, (size_t)l) < 0) _exit(4);
    _exit(3);
}
static int watchdog = 90;

/* old-scheme combines per destination before its IDs repeat */
static long wrap_ops(long range, int np) { return ((range - range / 2) / 3 / np) / 2; }

static long stretch_len(long range, int np, double wraps, long minops)
{
    /* 7 of 8 operations of a stretch are combines */
    long w = wrap_ops(range, np), L = ((long)(wraps * (double)(w > 0 ? w : 1)) + 1) * 8 / 7 + 1;
    if (np < 3) return minops < 16 ? minops : 16;
    return L < minops ? minops : L;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    if (argc < 5) {
        if (tu_rank == 0) fprintf(stderr, "usage: t_scale NPROW NPCOL LO HI [TOPS [WRAPS [MINOPS [MAXOPS]]]]\n");
        return 2;
    }
    blacs_int me, np, want[2] = {atol(argv[3]), atol(argv[4])}, got[2] = {-1, -1};
    const char *tops = argc > 5 ? argv[5] : " 123456789TFHIDSMRBYA";
    const char *scopes = argc > 6 ? argv[6] : "RCAmn";
    const double wraps = argc > 7 ? atof(argv[7]) : 1.5;
    const long minops = argc > 8 ? atol(argv[8]) : 48;
    const int slow_ms = getenv("T_SCALE_SLOW_MS") ? atoi(getenv("T_SCALE_SLOW_MS")) : 20;
    one_item = getenv("T_SCALE_ONE") != NULL;
    if (getenv("T_SCALE_WATCHDOG")) watchdog = atoi(getenv("T_SCALE_WATCHDOG"));
#ifdef SMPI_H
    watchdog = 0; /* simulated: SimGrid reports deadlocks itself */
#endif
    signal(SIGALRM, on_alarm);
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_set(ctxt, 1, want); /* read by grids made afterwards */
    Cblacs_gridinit(&ctxt, "Row", atol(argv[1]), atol(argv[2]));
    Cblacs_gridinfo(ctxt, &nr, &nc, &myr, &myc);
    Cblacs_get(ctxt, 1, got);
    if (getenv("T_SCALE_REPEAT")) { /* diagnostics: fan-ins in fixed order, sources named */
        blacs_int one = 1;
        Cblacs_set(ctxt, 15, &one);
    }
    TU_CHECK(got[0] == want[0] && got[1] == want[1], "BLACS_GET WHAT=1 gives [%ld,%ld], set [%ld,%ld]",
             (long)got[0], (long)got[1], (long)want[0], (long)want[1]);
    const long range = (long)(want[1] - want[0] + 1);

    /* stretches: scope 'R', 'C', 'A', or 'm' (row leave-on-one + column
     * leave-on-all) / 'n' (the transpose); scopes of one process are left out */
    char plan[8];
    int ns = 0;
    if (nc > 1 && strchr(scopes, 'R')) plan[ns++] = 'R';
    if (nr > 1 && strchr(scopes, 'C')) plan[ns++] = 'C';
    if (nr * nc > 1 && strchr(scopes, 'A')) plan[ns++] = 'A';
    if (nr > 1 && nc > 2 && strchr(scopes, 'm')) plan[ns++] = 'm';
    if (nc > 1 && nr > 2 && strchr(scopes, 'n')) plan[ns++] = 'n';
    if (me == 0) {
        printf("t_scale: %ldx%ld grid, ID range [%ld,%ld], TOP \"%s\"; operations per stretch (old-scheme"
               " combines per destination before its IDs repeat):", (long)nr, (long)nc, (long)want[0],
               (long)want[1], tops);
        for (int i = 0; i < ns; i++) {
            int p = plan[i] == 'm' ? (int)nc : plan[i] == 'n' ? (int)nr : scope_np(plan[i]);
            printf(" %c %ld (%ld)", plan[i], stretch_len(range, p, wraps, minops), wrap_ops(range, p));
        }
        printf("\n");
        fflush(stdout);
    }
    long stretch = 0;
    for (cur_top = 0; tops[cur_top]; cur_top++) {
        char top[2] = {tops[cur_top], 0};
        for (int i = 0; i < ns; i++)
            for (int side = -1; side <= 1; side += 2, stretch++) {
                const char s = plan[i];
                const char s1 = s == 'm' ? 'R' : s == 'n' ? 'C' : s; /* leave-on-one scope */
                const char s2 = s == 'm' ? 'C' : s == 'n' ? 'R' : s; /* leave-on-all scope */
                const int p1 = scope_np(s1), me1 = scope_me(s1);
                const int dest = (int)((stretch * 5 + 1) % p1), slow = (dest + side + p1) % p1;
                const long L = stretch_len(range, p1, wraps, minops);
                snprintf(where, sizeof where, "TOP '%s' stretch %ld (%s%s, destination %d, slow %d)", top,
                         stretch, scope_name(s1), s1 != s2 ? " mixed" : "", dest, slow);
                if (watchdog > 0) alarm((unsigned)watchdog);
                if (tu_verbose) fprintf(stderr, "[rank %d] op %ld: %s\n", tu_rank, K, where);
                if (me1 == slow) nap_ms(slow_ms);
                for (long q = 0; q < L; q++) {
                    /* every 8th a broadcast from the other neighbour of the
                     * destination, which only sends and so runs ahead too */
                    if (q % 8 == 6) bcast(s1, top, (dest - side + p1) % p1);
                    else combine(s1, top, dest);
                    if (s1 != s2) combine(s2, top, -1);
                }
                for (int q = 0; q < 8; q++) combine(s2, top, -1);
            }
    }
    if (watchdog > 0) alarm(0);
    /* wrong results per topology */
    long all[128], *sum = all + 64;
    memcpy(all, tbad, sizeof tbad);
    MPI_Reduce(tbad, sum, 64, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    memcpy(all, sum, sizeof tbad);
    MPI_Reduce(tchk, sum, 64, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0) {
        printf("operations %ld; wrong results per TOP:", K);
        for (int t = 0; tops[t]; t++) printf(" '%c' %ld/%ld", tops[t], all[t], sum[t]);
        printf("\n");
    }
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
