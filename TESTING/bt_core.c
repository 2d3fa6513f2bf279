/*
 * bt_core.c -- what every family of the tester shares: element access, the
 * deterministic data, guarded matrices and their checks, error records, the
 * per-family test bookkeeping and report, the grids of a
 * deck, and a watchdog that turns a hang into a reported failure.
 */
#include "bt.h"
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const bt_api *bt;
MPI_Comm bt_comm = MPI_COMM_NULL;
int bt_iam, bt_np;
FILE *bt_out;
int bt_verb;
long bt_npass, bt_nfail, bt_nskip;
const char bt_letter[BT_NTYPE] = {'I', 'S', 'D', 'C', 'Z'};
const char *const bt_tname[BT_NTYPE] = {"INTEGER", "REAL", "DOUBLE PRECISION", "COMPLEX",
                                        "DOUBLE COMPLEX"};

size_t bt_esize(int t)
{
    switch (t) {
    case BT_I: return sizeof(blacs_int);
    case BT_S: return sizeof(float);
    case BT_D: return sizeof(double);
    case BT_C: return 2 * sizeof(float);
    default: return 2 * sizeof(double);
    }
}

void bt_put(int t, void *base, size_t k, double re, double im)
{
    switch (t) {
    case BT_I: ((blacs_int *)base)[k] = (blacs_int)re; break;
    case BT_S: ((float *)base)[k] = (float)re; break;
    case BT_D: ((double *)base)[k] = re; break;
    case BT_C: ((float *)base)[2 * k] = (float)re; ((float *)base)[2 * k + 1] = (float)im; break;
    default: ((double *)base)[2 * k] = re; ((double *)base)[2 * k + 1] = im; break;
    }
}

void bt_get(int t, const void *base, size_t k, double *re, double *im)
{
    *im = 0;
    switch (t) {
    case BT_I: *re = (double)((const blacs_int *)base)[k]; break;
    case BT_S: *re = ((const float *)base)[k]; break;
    case BT_D: *re = ((const double *)base)[k]; break;
    case BT_C: *re = ((const float *)base)[2 * k]; *im = ((const float *)base)[2 * k + 1]; break;
    default: *re = ((const double *)base)[2 * k]; *im = ((const double *)base)[2 * k + 1]; break;
    }
}

/* value as stored in type t */
static void canon(int t, double *re, double *im)
{
    switch (t) {
    case BT_I: *re = (double)(blacs_int)*re; *im = 0; break;
    case BT_S: *re = (float)*re; *im = 0; break;
    case BT_D: *im = 0; break;
    case BT_C: *re = (float)*re; *im = (float)*im; break;
    default: break;
    }
}

int bt_same(int t, double re, double im, double re2, double im2)
{
    canon(t, &re, &im);
    canon(t, &re2, &im2);
    return re == re2 && im == im2;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

double bt_gen(int test, int proc, blacs_int i, blacs_int j, int part, int range)
{
    uint64_t h = mix((uint64_t)(unsigned)test * 0x100000001b3ull ^ (uint64_t)(unsigned)proc);
    h = mix(h ^ ((uint64_t)i << 20) ^ (uint64_t)j ^ ((uint64_t)(unsigned)part << 60));
    return (double)((int64_t)(h % (uint64_t)(2 * range + 1)) - range);
}

void bt_want_gen(blacs_int i, blacs_int j, double *re, double *im, void *arg)
{
    const bt_genarg *g = arg;
    *re = bt_gen(g->test, g->proc, i, j, 0, g->range);
    *im = bt_gen(g->test, g->proc, i, j, 1, g->range);
}

void bt_want_const(blacs_int i, blacs_int j, double *re, double *im, void *arg)
{
    (void)i;
    (void)j;
    const double *v = arg;
    *re = v[0];
    *im = v[1];
}

void bt_p2p_pad(int t, int which, double *re, double *im)
{
    /* outside the data range (integers) or not integers (floating point), so a
     * pad that travels is never mistaken for data */
    if (t == BT_I) { *re = which ? -10002 : -10001; *im = 0; }
    else { *re = which ? -0.02 : -0.01; *im = *re; }
}

char *bt_shapename(const bt_shape *s, char *buf, size_t cap)
{
    if (!s->tr) snprintf(buf, cap, "GE");
    else snprintf(buf, cap, "TR UPLO='%c' DIAG='%c'", s->uplo, s->diag);
    return buf;
}

void bt_shape_from(bt_shape *s, char uplo, char diag)
{
    char u = (char)(uplo | 32);
    s->tr = u != 'g';
    s->uplo = u == 'u' ? 'U' : 'L';
    s->diag = (diag | 32) == 'u' ? 'U' : 'N';
}

/* the reference's trapezoid: its diagonal starts at (0,0) when the triangle
 * is on the short side, and ends at (M-1,N-1) otherwise */
int bt_in_shape(const bt_shape *s, blacs_int m, blacs_int n, blacs_int i, blacs_int j)
{
    if (i < 0 || j < 0 || i >= m || j >= n) return 0;
    if (!s->tr) return 1;
    int unit = s->diag == 'U';
    if (s->uplo == 'U') {
        blacs_int lim = j + (m > n ? m - n : 0);   /* last row of column j */
        return unit ? i < lim : i <= lim;
    }
    blacs_int lim = j - (n > m ? n - m : 0);       /* first row of column j */
    return unit ? i > lim : i >= lim;
}

void bt_mat_alloc(bt_mat *b, int t, blacs_int m, blacs_int n, blacs_int lda)
{
    b->t = t;
    b->m = m;
    b->n = n;
    b->lda = lda < 1 ? 1 : lda;
    b->pre = b->post = 2 * (size_t)(m > 0 ? m : 0) + 4;
    b->total = b->pre + (size_t)b->lda * (size_t)(n > 0 ? n : 0) + b->post;
    b->mem = malloc(b->total * bt_esize(t));
    if (!b->mem) {
        fprintf(stderr, "BLACS tester: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    b->a = b->mem + b->pre * bt_esize(t);
}

void bt_mat_free(bt_mat *b)
{
    free(b->mem);
    b->mem = NULL;
    b->a = NULL;
}

void bt_mat_pad(bt_mat *b, double re, double im)
{
    for (size_t k = 0; k < b->total; k++) bt_put(b->t, b->mem, k, re, im);
}

void bt_mat_fill(bt_mat *b, const bt_shape *s, bt_want_fn want, void *arg)
{
    for (blacs_int j = 0; j < b->n; j++)
        for (blacs_int i = 0; i < b->m; i++)
            if (bt_in_shape(s, b->m, b->n, i, j)) {
                double re, im;
                want(i, j, &re, &im, arg);
                bt_put(b->t, b->a, (size_t)j * b->lda + i, re, im);
            }
}

long bt_mat_check(bt_mat *b, const bt_shape *s, bt_want_fn want, void *arg, double pre,
                  double pim, int test, int region)
{
    long bad = 0;
    size_t area = (size_t)b->lda * (size_t)(b->n > 0 ? b->n : 0);
    for (size_t k = 0; k < b->total; k++) {
        double g[2], w[2] = {pre, pim};
        bt_get(b->t, b->mem, k, &g[0], &g[1]);
        int kind, i, j;
        if (k < b->pre) {
            kind = BT_E_BEFORE; i = (int)k - (int)b->pre; j = -1;
        } else if (k - b->pre >= area) {
            kind = BT_E_AFTER; i = (int)(k - b->pre - area); j = -1;
        } else {
            size_t off = k - b->pre;
            i = (int)(off % (size_t)b->lda);
            j = (int)(off / (size_t)b->lda);
            if (i >= b->m) kind = BT_E_GAP;
            else if (!bt_in_shape(s, b->m, b->n, i, j)) kind = BT_E_TRI;
            else {
                if (!want) continue;
                kind = BT_E_ELEM;
                want(i, j, &w[0], &w[1], arg);
            }
        }
        if (!bt_same(b->t, g[0], g[1], w[0], w[1])) {
            canon(b->t, &w[0], &w[1]);
            bt_error(test, kind, region, i, j, g, w);
            bad++;
        }
    }
    return bad;
}

/* ---- error records and per-family bookkeeping ---------------------------- */
#define BT_MAXERR 400
static bt_err errs[BT_MAXERR];
static int nerr;
static long nerr_lost;
static bt_family *curfam;
static int cur_prow = -1, cur_pcol = -1;

void bt_current_coords(int prow, int pcol)
{
    cur_prow = prow;
    cur_pcol = pcol;
}

void bt_grid_coords(blacs_int ctxt, blacs_int *myrow, blacs_int *mycol)
{
    blacs_int nr, nc;
    *myrow = *mycol = -1;
    if (ctxt >= 0) bt->gridinfo(ctxt, &nr, &nc, myrow, mycol);
    bt_current_coords((int)*myrow, (int)*mycol);
}

void bt_error(int test, int kind, int region, int i, int j, const double got[2],
              const double want[2])
{
    if (curfam && test >= 1 && test <= curfam->ntest) curfam->status[test - 1] = 2;
    if (nerr >= BT_MAXERR) { nerr_lost++; return; }
    bt_err *e = &errs[nerr++];
    e->test = test;
    e->kind = kind;
    e->region = region;
    e->prow = cur_prow;
    e->pcol = cur_pcol;
    e->i = i;
    e->j = j;
    e->got[0] = got[0]; e->got[1] = got[1];
    e->want[0] = want[0]; e->want[1] = want[1];
}

void bt_family_begin(bt_family *f, const char *name, int t)
{
    memset(f, 0, sizeof *f);
    f->name = name;
    f->t = t;
    curfam = f;
    nerr = 0;
    nerr_lost = 0;
    bt_say("%s %s TESTS: BEGIN.\n", bt_tname[t], name);
}

int bt_test_new(bt_family *f, int skipped, const char *fmt, ...)
{
    if (f->ntest == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 256;
        f->status = realloc(f->status, (size_t)f->cap);
        f->info = realloc(f->info, (size_t)f->cap * sizeof *f->info);
        if (!f->status || !f->info) { fprintf(stderr, "BLACS tester: out of memory\n"); MPI_Abort(MPI_COMM_WORLD, 3); }
    }
    int k = f->ntest++;
    f->status[k] = skipped ? 1 : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->info[k].desc, sizeof f->info[k].desc, fmt, ap);
    va_end(ap);
    return k + 1;
}

static const char *stname(int s) { return s == 0 ? "PASSED" : s == 1 ? "SKIPPED" : "FAILED"; }

void bt_test_end(bt_family *f, int test)
{
    if (bt_verb < 2) return;
    unsigned char s = f->status[test - 1], all;
    MPI_Reduce(&s, &all, 1, MPI_UNSIGNED_CHAR, MPI_MAX, 0, bt_comm);
    bt_say("  TEST#%d %s: %s\n", test, f->info[test - 1].desc, stname(all));
}

static const char *kindname(int kind)
{
    switch (kind) {
    case BT_E_BEFORE: return "guard zone before the matrix overwritten";
    case BT_E_AFTER: return "guard zone after the matrix overwritten";
    case BT_E_GAP: return "LDA-M gap overwritten";
    case BT_E_TRI: return "element outside the trapezoid overwritten";
    case BT_E_ELEM: return "invalid element";
    default: return "wrong result";
    }
}

static const char *regname(int r)
{
    switch (r) {
    case BT_R_A: return "A";
    case BT_R_SRC: return "A (sender's copy)";
    case BT_R_RA: return "RA";
    case BT_R_CA: return "CA";
    default: return "?";
    }
}

static void print_err(const bt_err *e, int cplx)
{
    char g[80], w[80];
    if (cplx) {
        snprintf(g, sizeof g, "(%.8g,%.8g)", e->got[0], e->got[1]);
        snprintf(w, sizeof w, "(%.8g,%.8g)", e->want[0], e->want[1]);
    } else {
        snprintf(g, sizeof g, "%.8g", e->got[0]);
        snprintf(w, sizeof w, "%.8g", e->want[0]);
    }
    if (e->kind == BT_E_BEFORE || e->kind == BT_E_AFTER)
        fprintf(bt_out, "     %s of %s at offset %d: expected=%s, received=%s\n",
                kindname(e->kind), regname(e->region), e->i, w, g);
    else if (e->kind == BT_E_OTHER)
        fprintf(bt_out, "     %s in %s(%d,%d): expected=%s, received=%s\n", kindname(e->kind),
                regname(e->region), e->i, e->j, w, g);
    else
        fprintf(bt_out, "     %s %s(%d,%d): expected=%s, received=%s\n", kindname(e->kind),
                regname(e->region), e->i, e->j, w, g);
}

void bt_family_end(bt_family *f)
{
    int n = f->ntest;
    unsigned char *all = bt_iam == 0 ? malloc((size_t)(n > 0 ? n : 1)) : NULL;
    if (n > 0) MPI_Reduce(f->status, all, n, MPI_UNSIGNED_CHAR, MPI_MAX, 0, bt_comm);
    /* error records */
    int cnt = nerr, *cnts = NULL, *displs = NULL;
    long lost = nerr_lost, lostall = 0;
    MPI_Reduce(&lost, &lostall, 1, MPI_LONG, MPI_SUM, 0, bt_comm);
    if (bt_iam == 0) {
        cnts = malloc((size_t)bt_np * sizeof *cnts);
        displs = malloc((size_t)bt_np * sizeof *displs);
    }
    MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, bt_comm);
    bt_err *recs = NULL;
    int total = 0;
    if (bt_iam == 0) {
        for (int p = 0; p < bt_np; p++) {
            displs[p] = total * (int)sizeof(bt_err);
            total += cnts[p];
            cnts[p] *= (int)sizeof(bt_err);
        }
        recs = malloc((size_t)(total > 0 ? total : 1) * sizeof *recs);
    }
    MPI_Gatherv(errs, cnt * (int)sizeof(bt_err), MPI_BYTE, recs, cnts, displs, MPI_BYTE, 0,
                bt_comm);
    if (bt_iam == 0) {
        long np = 0, ns = 0, nf = 0;
        for (int k = 0; k < n; k++) {
            if (all[k] == 0) np++;
            else if (all[k] == 1) ns++;
            else nf++;
        }
        if (nf == 0 && ns == 0)
            fprintf(bt_out, "%s %s TESTS: PASSED ALL %d TESTS.\n", bt_tname[f->t], f->name, n);
        else
            fprintf(bt_out, "%s %s TESTS: %d TESTS; %ld PASSED, %ld SKIPPED, %ld FAILED.\n",
                    bt_tname[f->t], f->name, n, np, ns, nf);
        if (nf) {
            int shown = 0;
            for (int k = 0; k < n; k++)
                if (all[k] == 2) {
                    if (shown++ < 50)
                        fprintf(bt_out, "  FAILED TEST#%d: %s\n", k + 1, f->info[k].desc);
                }
            if (shown > 50) fprintf(bt_out, "  ... and %d more failed tests\n", shown - 50);
            int printed = 0, lastp = -1, lastt = -1, lastr = -1, lastc = -1;
            int cplx = f->t == BT_C || f->t == BT_Z;
            for (int p = 0, e0 = 0; p < bt_np; p++) {
                int ne = cnts[p] / (int)sizeof(bt_err);
                for (int e = e0; e < e0 + ne; e++) {
                    bt_err *r = &recs[e];
                    if (printed >= 100) break;
                    if (p != lastp || r->test != lastt || r->prow != lastr || r->pcol != lastc) {
                        fprintf(bt_out, "  PROCESS {%d,%d} REPORTS ERRORS IN TEST#%d:\n", r->prow,
                                r->pcol, r->test);
                        lastp = p; lastt = r->test; lastr = r->prow; lastc = r->pcol;
                    }
                    print_err(r, cplx && r->region != BT_R_RA && r->region != BT_R_CA);
                    printed++;
                }
                e0 += ne;
            }
            if (total > printed || lostall)
                fprintf(bt_out, "  ... %ld more error records not shown\n", (long)(total - printed) + lostall);
        }
        fflush(bt_out);
        bt_npass += np;
        bt_nskip += ns;
        bt_nfail += nf;
        free(all);
        free(cnts);
        free(displs);
        free(recs);
    }
    free(f->status);
    free(f->info);
    f->status = NULL;
    f->info = NULL;
    curfam = NULL;
    nerr = 0;
    nerr_lost = 0;
}

/* ---- grids ----------------------------------------------------------------- */
void bt_grids_make(const bt_deck *d, bt_grids *g)
{
    g->n = d->ngrid;
    for (int k = 0; k < d->ngrid; k++) {
        blacs_int p = d->nprow[k], q = d->npcol[k];
        g->ctxt[k] = -1;
        g->ok[k] = p * q <= bt_np;
        if (!g->ok[k]) {
            bt_say("  GRID %ldx%ld NEEDS %ld PROCESSES (HAVE %d): NOT RUN.\n", (long)p, (long)q,
                   (long)(p * q), bt_np);
            continue;
        }
        blacs_int ctxt, r, c, mr, mc;
        bt->get(0, 0, &ctxt);
        bt->gridinit(&ctxt, "Row-major", p, q);
        bt->gridinfo(ctxt, &r, &c, &mr, &mc);
        int member = bt_iam < p * q;
        if ((member && (r != p || c != q || mr != bt_iam / q || mc != bt_iam % q)) ||
            (!member && r != -1)) {
            fprintf(stderr, "BLACS tester: process %d: GRIDINIT %ldx%ld gave grid %ldx%ld at {%ld,%ld}\n",
                    bt_iam, (long)p, (long)q, (long)r, (long)c, (long)mr, (long)mc);
            MPI_Abort(MPI_COMM_WORLD, 4);
        }
        g->ctxt[k] = member ? ctxt : -1;
    }
}

void bt_grids_free(bt_grids *g)
{
    for (int k = 0; k < g->n; k++)
        if (g->ctxt[k] >= 0) bt->gridexit(g->ctxt[k]);
}

/* ---- watchdog ------------------------------------------------------------- */
static char watch_what[128];

static void on_alarm(int sig)
{
    (void)sig;
    char msg[300];
    int len = snprintf(msg, sizeof msg,
                       "\nBLACS tester: process %d: %s did not finish within %d s: FAILED "
                       "(a send or collective blocked); aborting the run\n",
                       bt_iam, watch_what, bt_watch_seconds());
    if (len > 0) {
        ssize_t w = write(2, msg, (size_t)len);
        w = write(1, msg, (size_t)len);
        (void)w;
    }
    /* let the launcher forward the message before the job is torn down */
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
    MPI_Abort(MPI_COMM_WORLD, 2);
    _exit(2);
}

int bt_watch_seconds(void)
{
    static int secs;
    if (!secs) {
        const char *e = getenv("BT_TIMEOUT");
        secs = e ? atoi(e) : 0;
        if (secs <= 0) secs = 120;
    }
    return secs;
}

void bt_watch(const char *what, int test)
{
    static int installed;
    if (!installed) {
        signal(SIGALRM, on_alarm);
        installed = 1;
    }
    if (test > 0) snprintf(watch_what, sizeof watch_what, "%s TEST#%d", what, test);
    else snprintf(watch_what, sizeof watch_what, "%s", what);
    alarm((unsigned)bt_watch_seconds());
}

void bt_unwatch(void) { alarm(0); }

/* ---- misc ------------------------------------------------------------------ */
void bt_say(const char *fmt, ...)
{
    if (bt_iam != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(bt_out, fmt, ap);
    va_end(ap);
    fflush(bt_out);
}

int bt_allor(int flag)
{
    int r;
    MPI_Allreduce(&flag, &r, 1, MPI_INT, MPI_LOR, bt_comm);
    return r;
}

void bt_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
}

char *bt_topname(char top, char *buf)
{
    buf[0] = '\'';
    buf[1] = top;
    buf[2] = '\'';
    buf[3] = 0;
    return buf;
}
