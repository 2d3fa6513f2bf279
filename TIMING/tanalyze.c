/*
 * tanalyze.c -- turns the output of the timers (Tc, Ts, Tbs, Tg, Tmo) into
 * the tables of LAWN 73 sections 3.3, 4.4 and 5.5 for this machine:
 *
 *   tables 5, 6, 7, 14   least squares alpha, beta and the data RE of T_c,
 *                        T_s, T_m, T_o for MPI, our BLACS, the reference BLACS
 *   table 8              the same fit on the short range N <= 1000
 *   tables 12, 16        broadcast and combine fits: MPI against the default
 *                        and the "best" topology of each BLACS
 *   tables 11, 15        predicted against measured, with the prediction RE,
 *                        for every topology: the model is the one the library
 *                        itself uses (bi_topos[] in SRC/topology.c), fed with
 *                        the measured T_c, T_s (MPI's, as the paper did), T_o, T_m
 *   ratios               ours / MPI primitive and ours / reference BLACS for
 *                        every operation, topology and length
 *
 *   tanalyze [-o OUTDIR] FILE...     tables on stdout; with -o also
 *                                    OUTDIR/bench.csv, OUTDIR/fits.csv and the
 *                                    plot data (*.dat, plotvars.gp)
 *   tanalyze -best bcast|comb LIB FILE...   the best topology letter of LIB
 *                                    (ours or refblacs; comb: leave-on-all sum)
 *   tanalyze -letters bcast|comb     the TOP letters of the library's table
 *
 * N is always a count of double precision elements (T_c, T_s, T_m, T_o
 * lengths, given in bytes, are divided by 8), times are microseconds, beta
 * is microseconds per double, as in the paper.  The cost models take bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "model_api.h"
#include "tstat.h"

enum { K_TC, K_TS, K_TM, K_TO, K_BS, K_GC, K_N };
enum { L_MPI, L_OURS, L_REF, L_N };
static const char *lname[L_N] = {"MPI primitive", "ours BLACS", "reference BLACS"};
static const char *ltag[L_N] = {"mpi", "ours", "refblacs"};
enum { C_SRC, C_MIN, C_MAX, C_AVG }; /* sample columns; single times go to C_MAX */

typedef struct {
    double n, v[4];
    int run; /* which program run it came from */
} sample;

typedef struct {
    int kind, lib;
    char top, op; /* top: letter, 'p' for MPI, '-' point-to-point; op: + > < for combines */
    int all, np, reps, nruns, lastrun;
    int nproc; /* processes of the run (np is 0 in the key of T_c, T_s) */
    sample *s;
    int ns, cap;
} series;

static series *S;
static int nS;

static series *find(int kind, int lib, char top, char op, int all, int np)
{
    for (int i = 0; i < nS; i++) {
        series *s = &S[i];
        if (s->kind == kind && s->lib == lib && s->top == top && s->op == op && s->all == all &&
            s->np == np)
            return s;
    }
    return NULL;
}

static series *get(int kind, int lib, char top, char op, int all, int np, int reps, int run)
{
    series *s = find(kind, lib, top, op, all, np);
    if (!s) {
        S = realloc(S, sizeof *S * (size_t)(nS + 1));
        if (!S) exit(2);
        s = &S[nS++];
        memset(s, 0, sizeof *s);
        s->kind = kind, s->lib = lib, s->top = top, s->op = op, s->all = all, s->np = np;
        s->reps = reps;
        s->lastrun = -1;
    }
    if (s->lastrun != run) s->nruns++, s->lastrun = run;
    return s;
}

static void add(series *s, double n, double v0, double v1, double v2, double v3)
{
    const int run = s->lastrun;
    if (s->ns == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->s = realloc(s->s, sizeof *s->s * (size_t)s->cap);
        if (!s->s) exit(2);
    }
    s->s[s->ns++] = (sample){n, {v0, v1, v2, v3}, run};
}

static int lib_of(const char *plat)
{
    if (strstr(plat, "primitive")) return L_MPI;
    if (strstr(plat, "reference")) return L_REF;
    return L_OURS;
}

/* ---- reading the timers' output ----------------------------------------- */
static int parse_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    static int run = 0;
    char line[2048], plat[256];
    int state = 0, lib = L_OURS, np = 0, reps = 1, kind = -1, all = 1;
    char top = 0, op = 0;
    series *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        const char *q;
        if (!strncmp(line, "Start of ", 9)) {
            run++;
            np = 0, reps = 1, plat[0] = 0;
            sscanf(line, "Start of %d node '%255[^']'", &np, plat);
            if ((q = strstr(line, "reps="))) sscanf(q, "reps=%d", &reps);
            lib = strstr(line, "Tm and To") ? L_OURS : lib_of(plat);
            state = 1;
            continue;
        }
        if (!strncmp(line, "Time in milliseconds for double precision '", 43)) {
            run++;
            plat[0] = 0;
            sscanf(line + 43, "%255[^']", plat);
            lib = lib_of(plat);
            top = op = 0;
            if ((q = strstr(line, " bcast, top='"))) kind = K_BS, top = q[13];
            else if ((q = strstr(line, " op='"))) {
                kind = K_GC;
                op = q[5];
                if ((q = strstr(q, "top='"))) top = q[5];
            } else kind = -1;
            state = kind < 0 ? 0 : 2;
            continue;
        }
        if (state == 2 && !strncmp(line, "nnodes=", 7)) {
            int d = -1;
            sscanf(line, "nnodes=%d, reps=%d", &np, &reps);
            if ((q = strstr(line, "dest="))) sscanf(q, "dest=%d", &d);
            all = kind == K_BS ? 1 : d < 0;
            cur = get(kind, lib, top, kind == K_GC ? op : 0, all, np, reps, run);
            cur->nproc = np;
            state = 3;
            continue;
        }
        if (!strncmp(line, "End of Run.", 11)) {
            state = 0;
            continue;
        }
        if (state == 3) {
            double a[5];
            int k = sscanf(line, "%lf %lf %lf %lf %lf", &a[0], &a[1], &a[2], &a[3], &a[4]);
            if (kind == K_BS && k == 5) add(cur, a[0], 1e3 * a[1], 1e3 * a[2], 1e3 * a[3], 1e3 * a[4]);
            else if (kind == K_GC && k == 4) add(cur, a[0], NAN, 1e3 * a[1], 1e3 * a[2], 1e3 * a[3]);
            continue;
        }
        if (state == 1 && (q = strstr(line, "length="))) {
            static const char *tag[] = {"Tc = ", "Ts = ", "Tm = ", "To = "};
            long len;
            if (sscanf(q, "length=%ld", &len) != 1) continue;
            for (int k = K_TC; k <= K_TO; k++) {
                const char *p = strstr(line, tag[k]);
                double v;
                if (p && sscanf(p + 5, "%lf", &v) == 1) {
                    series *s = get(k, k >= K_TM ? L_OURS : lib, '-', 0, 0, 0, reps, run);
                    s->nproc = np;
                    add(s, (double)len / 8.0, NAN, v, v, v);
                }
            }
        }
    }
    fclose(f);
    return 0;
}

/* ---- points, fits, models ------------------------------------------------ */
static int cmp_sample(const void *a, const void *b)
{
    double x = ((const sample *)a)->n, y = ((const sample *)b)->n;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* samples of column col grouped by N, in increasing N, with mean, extremes
 * and median; returns the count */
static int points(series *s, int col, tpoint *p)
{
    qsort(s->s, (size_t)s->ns, sizeof *s->s, cmp_sample);
    double *v = malloc(sizeof *v * (size_t)(s->ns + 1));
    int k = 0;
    for (int i = 0; i < s->ns;) {
        int m = 0, j = i;
        for (; j < s->ns && s->s[j].n == s->s[i].n; j++)
            if (!isnan(s->s[j].v[col])) v[m++] = s->s[j].v[col];
        if (m) {
            double sum = 0;
            for (int q = 0; q < m; q++) sum += v[q];
            qsort(v, (size_t)m, sizeof *v, cmp_double);
            p[k++] = (tpoint){s->s[i].n, sum / m, v[0], v[m - 1], m,
                              m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2])};
        }
        i = j;
    }
    free(v);
    return k;
}

static tpoint *pts_alloc(const series *s) { return malloc(sizeof(tpoint) * (size_t)(s->ns + 1)); }

/* least squares over every sample with lo <= N <= hi */
static tfit fit(const series *s, int col, double lo, double hi)
{
    tfit none = {0, 0, 0};
    if (!s) return none;
    double *x = malloc(sizeof *x * (size_t)(s->ns + 1)), *y = malloc(sizeof *y * (size_t)(s->ns + 1));
    int n = 0;
    for (int i = 0; i < s->ns; i++)
        if (!isnan(s->s[i].v[col]) && s->s[i].n >= lo && s->s[i].n <= hi)
            x[n] = s->s[i].n, y[n++] = s->s[i].v[col];
    tfit f = tstat_lsq(x, y, n);
    free(x);
    free(y);
    return f;
}

/* least squares through the median of each N: what the cost models are
 * fed, since one descheduled run moves the paper's all-sample fit a lot */
static tfit fit_med(series *s, int col, double lo, double hi)
{
    tfit none = {0, 0, 0};
    if (!s) return none;
    tpoint *p = malloc(sizeof(tpoint) * (size_t)(s->ns + 1));
    double *x = malloc(sizeof *x * (size_t)(s->ns + 1)), *y = malloc(sizeof *y * (size_t)(s->ns + 1));
    int n = points(s, col, p), k = 0;
    for (int i = 0; i < n; i++)
        if (p[i].n >= lo && p[i].n <= hi) x[k] = p[i].n, y[k++] = p[i].med;
    tfit f = tstat_lsq(x, y, k);
    free(p), free(x), free(y);
    return f;
}

static double re_data(series *s, int col)
{
    if (!s) return NAN;
    tpoint *p = pts_alloc(s);
    double r = tstat_re_data(p, points(s, col, p));
    free(p);
    return r;
}

/* the parameter a combine letter stands for, as SRC/combine.c resolves it
 * with the BLACS_SET defaults (rings and branches 1) */
static bi_machine M;    /* the measured machine, per byte */
static int have_machine;

static double lin(bi_lin l, double b) { return l.a + l.b * b; }

/* predicted maximum and source/destination time of one operation of s at N
 * elements; 0 when the table has no model for the letter */
static int predict(const series *s, double N, double *pmax, double *proot)
{
    char t = s->top == 'p' ? ' ' : s->top;
    const bi_topo *tp = bi_topo_find(t);
    double root = 0, mx;
    if (!tp || !have_machine) return 0;
    if (s->kind == K_BS) {
        if (!tp->bcast_model) return 0;
        int param = bi_bcast_param(tp, NULL, s->np);
        double bytes = 8.0 * N;
        mx = tp->bcast_model(&M, s->np, bytes, param, &root);
        /* rings pipeline over the reps of the timing loop (LAWN 73 4.3.1):
         * after the first, each broadcast adds T_c + (N_r - 1) T_s */
        int nr = 0;
        if (t == 'I' || t == 'D') nr = 1;
        else if (t == 'S') nr = 2;
        else if (t == 'M') nr = param < 0 ? -param : param;
        if (nr && s->reps > 1 && s->np > 1) {
            double each = lin(M.tc, bytes) + (nr - 1) * lin(M.ts, bytes);
            mx = (mx + (s->reps - 1) * each) / s->reps;
        }
    } else if (s->kind == K_GC) {
        if (!tp->comb_model) return 0;
        /* BLACS AMX/AMN items carry an int32 owner (Tg asks for RA/CA); MPI_MAX does not */
        double bytes = (s->op == '+' || s->lib == L_MPI ? 8.0 : 12.0) * N;
        mx = tp->comb_model(&M, s->np, bytes, bi_comb_param(t, NULL, s->np), &root);
        if (!s->all) mx = root; /* leave-on-one: the destination finishes last */
    } else return 0;
    *pmax = mx;
    if (proot) *proot = root;
    return 1;
}

/* prediction RE of column col (C_MAX or C_SRC): over the repeated points
 * when there are any beyond N = 0 (the paper's 11), else over all */
static double re_pred(series *s, int col, int by_pred)
{
    tpoint *p = pts_alloc(s);
    int n = points(s, col, p), rep = 0;
    for (int i = 0; i < n; i++) rep += p[i].cnt > 1 && p[i].n > 0;
    double *N = malloc(sizeof *N * (size_t)(n + 1)), *o = malloc(sizeof *o * (size_t)(n + 1)),
           *q = malloc(sizeof *q * (size_t)(n + 1));
    int k = 0;
    for (int i = 0; i < n; i++) {
        double mx, root;
        if (rep > 1 && p[i].cnt < 2) continue;
        if (!predict(s, p[i].n, &mx, &root)) break;
        N[k] = p[i].n, o[k] = p[i].med, q[k++] = col == C_SRC ? root : mx;
    }
    double r = tstat_re_pred(N, o, q, k, by_pred);
    free(p), free(N), free(o), free(q);
    return r;
}

/* median of column col at N, NAN when not measured there */
static double at(series *s, int col, double N)
{
    if (!s) return NAN;
    double *v = malloc(sizeof *v * (size_t)(s->ns + 1));
    int c = 0;
    for (int i = 0; i < s->ns; i++)
        if (s->s[i].n == N && !isnan(s->s[i].v[col])) v[c++] = s->s[i].v[col];
    double r = NAN;
    if (c) {
        qsort(v, (size_t)c, sizeof *v, cmp_double);
        r = c % 2 ? v[c / 2] : 0.5 * (v[c / 2 - 1] + v[c / 2]);
    }
    free(v);
    return r;
}

/* "best" topology (4.4, 5.5): fastest maximum time over the whole curve.
 * Scored on each topology's survey run only -- its run with the most
 * lengths (the repeated points came later, for the system and the best
 * only, and must not move the choice) -- among the topologies whose survey
 * covered the most lengths. */
static int survey_score(const series *s, double *sum)
{
    int run = -1, most = 0;
    for (int i = 0; i < s->ns; i++) {
        int c = 0;
        for (int j = 0; j < s->ns; j++) c += s->s[j].run == s->s[i].run;
        if (c > most) most = c, run = s->s[i].run;
    }
    int n = 0;
    *sum = 0;
    for (int i = 0; i < s->ns; i++)
        if (s->s[i].run == run && !isnan(s->s[i].v[C_MAX])) *sum += s->s[i].v[C_MAX], n++;
    return n;
}

static series *best(int kind, int lib, char op, int all, int np)
{
    int most = 0;
    double sum;
    for (int i = 0; i < nS; i++) {
        series *s = &S[i];
        if (s->kind != kind || s->lib != lib || s->op != op || s->all != all || s->np != np || s->top == 'p')
            continue;
        int n = survey_score(s, &sum);
        if (n > most) most = n;
    }
    series *b = NULL;
    double bs = 0;
    for (int i = 0; i < nS; i++) {
        series *s = &S[i];
        if (s->kind != kind || s->lib != lib || s->op != op || s->all != all || s->np != np || s->top == 'p')
            continue;
        int n = survey_score(s, &sum);
        if (n == most && (!b || sum < bs)) b = s, bs = sum;
    }
    return b;
}

static void set_machine(FILE *out)
{
    series *tc = find(K_TC, L_MPI, '-', 0, 0, 0), *ts = find(K_TS, L_MPI, '-', 0, 0, 0);
    const char *src = "MPI primitive";
    if (!tc || !ts) {
        tc = find(K_TC, L_OURS, '-', 0, 0, 0), ts = find(K_TS, L_OURS, '-', 0, 0, 0);
        src = "ours BLACS (no MPI primitive run)";
    }
    if (!tc) return;
    if (!ts) ts = tc;
    tfit c = fit_med(tc, C_MAX, 0, INFINITY), s = fit_med(ts, C_MAX, 0, INFINITY);
    tfit o = fit_med(find(K_TO, L_OURS, '-', 0, 0, 0), C_MAX, 0, INFINITY);
    tfit m = fit_med(find(K_TM, L_OURS, '-', 0, 0, 0), C_MAX, 0, INFINITY);
    M.tc = (bi_lin){c.alpha, c.beta / 8};
    M.ts = (bi_lin){s.alpha, s.beta / 8};
    M.tp = s.alpha; /* MPI_Send of a short message (eager): posting it */
    M.to = (bi_lin){o.alpha, o.beta / 8};
    M.tm = (bi_lin){m.alpha, m.beta / 8};
    have_machine = 1;
    fprintf(out, "Machine fed to the cost models (T_c, T_s of %s; least squares through the\n"
                 "median of each N; N doubles, us):\n", src);
    fprintf(out, "  T_c = %.3f + %.5f N   T_s = %.3f + %.5f N   T_o = %.3f + %.5f N   T_m = %.3f + %.5f N\n\n",
            c.alpha, c.beta, s.alpha, s.beta, o.alpha, o.beta, m.alpha, m.beta);
    /* the same machine as the library's settings (SRC/machine.c: us, us per
     * byte), for `make calibrate` to print */
    fprintf(out, "BLACS settings for this machine (make calibrate):\n"
                 "  export BLACS_ALPHA=%.4g BLACS_SEND_ALPHA=%.4g BLACS_POST_ALPHA=%.4g BLACS_BETA=%.4g BLACS_GAMMA=%.4g BLACS_MEMCPY_BETA=%.4g\n\n",
            c.alpha > 0 ? c.alpha : 0.0, s.alpha > 0 ? s.alpha : 0.0, s.alpha > 0 ? s.alpha : 0.0, c.beta > 0 ? c.beta / 8 : 1e-6,
            o.beta > 0 ? o.beta / 8 : 1e-6, m.beta > 0 ? m.beta / 8 : 1e-6);
}

/* ---- tables ---------------------------------------------------------------- */
static void pct(FILE *o, double v)
{
    if (isnan(v)) fprintf(o, " %9s", "N/A");
    else if (v < 1e5) fprintf(o, " %8.2f%%", v);
    else fprintf(o, " %8.2g%%", v);
}

static void fitrow(FILE *o, const char *name, series *s, int col)
{
    if (!s) return;
    tfit f = fit(s, col, 0, INFINITY), m = fit_med(s, col, 0, INFINITY);
    fprintf(o, "  %-30s %10.2f %10.5f", name, f.alpha, f.beta);
    pct(o, re_data(s, col));
    tpoint *p = pts_alloc(s);
    int n = points(s, col, p);
    fprintf(o, " %6d %6d %9.2f %9.5f  N = %g..%g\n", s->ns, s->nruns, m.alpha, m.beta, n ? p[0].n : 0,
            n ? p[n - 1].n : 0);
    free(p);
}

static void fithead(FILE *o, const char *title)
{
    fprintf(o, "%s\n  %-30s %10s %10s %9s %6s %6s %9s %9s\n", title, "SYSTEM", "alpha", "beta", "Rel Err",
            "points", "runs", "med.alpha", "med.beta");
}

static const char *topname(char t, char *buf)
{
    if (t == 'p') return "primitive";
    if (t == '-') return "-";
    sprintf(buf, "'%c'", t);
    return buf;
}

static const char *opname(const series *s, char *buf)
{
    if (s->kind == K_TC) return "tc";
    if (s->kind == K_TS) return "ts";
    if (s->kind == K_BS) return "bcast";
    sprintf(buf, "%s%s", s->op == '+' ? "gsum" : s->op == '>' ? "gamx" : "gamn", s->all ? "" : "_one");
    return buf;
}

static int cmp_top(const void *a, const void *b)
{
    const series *x = *(series *const *)a, *y = *(series *const *)b;
    return (x->top > y->top) - (x->top < y->top);
}

/* series of one kind/lib/op/all/np, sorted by letter */
static int collect(series **out, int kind, int lib, char op, int all, int np)
{
    int n = 0;
    for (int i = 0; i < nS; i++) {
        series *s = &S[i];
        if (s->kind == kind && s->lib == lib && s->op == op && s->all == all && s->np == np) out[n++] = s;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_top);
    return n;
}

/* ratio summary of a against b over their common lengths: medians of the
 * samples at each N (robust to a run descheduled as a whole, which the
 * paper's means are not; fits and REs keep every sample, as it did) */
typedef struct {
    double nsmall, rsmall, nmax, rmax, geo;
    int n;
} rsum;
static rsum ratio(series *a, series *b, int col)
{
    rsum r = {NAN, NAN, NAN, NAN, NAN, 0};
    if (!a || !b) return r;
    tpoint *p = pts_alloc(a);
    int n = points(a, col, p);
    double *x = malloc(sizeof *x * (size_t)(n + 1)), *y = malloc(sizeof *y * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        double v = at(b, col, p[i].n);
        if (isnan(v)) continue;
        if (isnan(r.nsmall) && p[i].n > 0) r.nsmall = p[i].n, r.rsmall = p[i].med / v;
        r.nmax = p[i].n, r.rmax = p[i].med / v;
        x[r.n] = p[i].med, y[r.n++] = v;
    }
    r.geo = tstat_geomean_ratio(x, y, r.n);
    free(p), free(x), free(y);
    return r;
}

static int nps[64], nnp;
static void list_nps(void)
{
    for (int i = 0; i < nS; i++) {
        if (S[i].kind != K_BS && S[i].kind != K_GC) continue;
        int k;
        for (k = 0; k < nnp && nps[k] != S[i].np; k++) {}
        if (k == nnp && nnp < 64) nps[nnp++] = S[i].np;
    }
}

typedef struct {
    char op;
    int all;
} combkind;
static combkind cks[8];
static int nck;
static void list_cks(void)
{
    for (int i = 0; i < nS; i++) {
        if (S[i].kind != K_GC) continue;
        int k;
        for (k = 0; k < nck && !(cks[k].op == S[i].op && cks[k].all == S[i].all); k++) {}
        if (k == nck && nck < 8) cks[nck++] = (combkind){S[i].op, S[i].all};
    }
}

static void p2p_tables(FILE *o)
{
    static const char *kt[] = {"T_c (echo test)", "T_s (post a send)", "T_m (malloc + copy)", "T_o (sum kernel)"};
    static const int tab[] = {5, 6, 7, 14};
    for (int k = K_TC; k <= K_TO; k++) {
        int any = 0;
        for (int l = 0; l < L_N; l++) any |= find(k, l, '-', 0, 0, 0) != NULL;
        if (!any) continue;
        char title[160];
        snprintf(title, sizeof title, "Table %d: least squares fit for %s times (us), all lengths", tab[k], kt[k]);
        fithead(o, title);
        for (int l = 0; l < L_N; l++)
            fitrow(o, k >= K_TM ? "this machine" : lname[l], find(k, l, '-', 0, 0, 0), C_MAX);
        fputc('\n', o);
    }
    fprintf(o, "  (alpha, beta: least squares over every sample, as the paper; med.alpha, med.beta: through\n"
               "  the median of each N, robust to a run descheduled as a whole)\n\n");
    /* table 8: the short range */
    fprintf(o, "Table 8: least squares fit for point to point times (us), N = 0..1000\n");
    fprintf(o, "  %-30s %10s %10s %10s %10s\n", "LIBRARY", "T_c beta", "T_c alpha", "T_s beta", "T_s alpha");
    for (int l = 0; l < L_N; l++) {
        series *c = find(K_TC, l, '-', 0, 0, 0), *s = find(K_TS, l, '-', 0, 0, 0);
        if (!c && !s) continue;
        tfit fc = fit(c, C_MAX, 0, 1000), fs = fit(s, C_MAX, 0, 1000);
        fprintf(o, "  %-30s %10.5f %10.2f %10.5f %10.2f\n", lname[l], fc.beta, fc.alpha, fs.beta, fs.alpha);
    }
    fputc('\n', o);
}

static void coll_tables(FILE *o, int kind, char op, int all, int np)
{
    char tb[8];
    series *list[128];
    const int bc = kind == K_BS;
    const char *what = bc ? "broadcast" : op == '+' ? "sum combine" : op == '>' ? "amx combine" : "amn combine";
    const char *where = bc ? "" : all ? " (leave on all)" : " (leave on one)";

    /* survey (figures 20-23, 40-43 in numbers) */
    fprintf(o, "Survey of %d-process %s%s topologies: fit of the maximum time (us)\n", np, what, where);
    fprintf(o, "  %-18s %-9s %10s %10s %9s %12s %10s %10s\n", "LIBRARY", "TOP", "alpha", "beta", "Rel Err",
            "max @ Nmax", "/ MPI", "/ ref");
    series *mpi = find(kind, L_MPI, 'p', bc ? 0 : op, all, np);
    for (int l = 0; l < L_N; l++) {
        int n = collect(list, kind, l, bc ? 0 : op, all, np);
        for (int i = 0; i < n; i++) {
            series *s = list[i];
            tfit f = fit(s, C_MAX, 0, INFINITY);
            tpoint *p = pts_alloc(s);
            int np_ = points(s, C_MAX, p);
            fprintf(o, "  %-18s %-9s %10.2f %10.5f", ltag[l], topname(s->top, tb), f.alpha, f.beta);
            pct(o, re_data(s, C_MAX));
            fprintf(o, " %12.2f", np_ ? p[np_ - 1].med : NAN);
            rsum rm = ratio(s, mpi, C_MAX);
            rsum rr = l == L_OURS ? ratio(s, find(kind, L_REF, s->top, s->op, all, np), C_MAX) : (rsum){0};
            if (rm.n && s != mpi) fprintf(o, " %10.3g", rm.geo);
            else fprintf(o, " %10s", "");
            if (rr.n) fprintf(o, " %10.3g", rr.geo);
            fputc('\n', o);
            free(p);
        }
    }
    fprintf(o, "  (max @ Nmax: median; ratios: geometric mean over the lengths of the ratio of medians)\n\n");

    /* table 12 / 16 */
    fprintf(o, "Table %d: least squares fit (us) and relative error of %s%s times, %d processes\n",
            bc ? 12 : 16, what, where, np);
    fprintf(o, "  %-30s %10s %10s %9s %6s %6s %9s %9s\n", "SYSTEM", "alpha", "beta", "Rel Err", "points", "runs",
            "med.alpha", "med.beta");
    fitrow(o, "MPI primitive", mpi, C_MAX);
    for (int l = L_OURS; l <= L_REF; l++) {
        char nm[64];
        series *d = find(kind, l, ' ', bc ? 0 : op, all, np), *b = best(kind, l, bc ? 0 : op, all, np);
        snprintf(nm, sizeof nm, "%s default ' '", ltag[l]);
        fitrow(o, nm, d, C_MAX);
        if (b && b != d) {
            snprintf(nm, sizeof nm, "%s best '%c'", ltag[l], b->top);
            fitrow(o, nm, b, C_MAX);
        } else if (b) fprintf(o, "  (%s: the default is also the best)\n", ltag[l]);
    }
    fputc('\n', o);

    /* table 11 / 15 */
    if (!have_machine) return;
    if (bc)
        fprintf(o, "Table 11: relative errors of predicted %s times, %d processes (RE = max |To-Tp|/|To|)\n",
                what, np);
    else
        fprintf(o, "Table 15: relative errors of predicted %s%s times, %d processes (RE = max |To-Tp|/|Tp|)\n",
                what, where, np);
    fprintf(o, "  %-18s %-9s %10s %10s   %s\n", "LIBRARY", "TOP", bc ? "Source" : "", "Maximum", "model");
    for (int l = 0; l < L_N; l++) {
        int n = collect(list, kind, l, bc ? 0 : op, all, np);
        series *b = l != L_MPI ? best(kind, l, bc ? 0 : op, all, np) : NULL;
        for (int i = 0; i < n; i++) {
            series *s = list[i];
            double mx, rt;
            if (!predict(s, 1000, &mx, &rt)) continue;
            const bi_topo *tp = bi_topo_find(s->top == 'p' ? ' ' : s->top);
            fprintf(o, "  %-18s %-9s", ltag[l], topname(s->top, tb));
            if (bc) pct(o, re_pred(s, C_SRC, 0));
            else fprintf(o, " %9s", "");
            fputc(' ', o);
            pct(o, re_pred(s, C_MAX, !bc));
            fprintf(o, "   %s%s\n", tp->name, s == b ? "  <- best" : "");
        }
    }
    fputc('\n', o);
}

/* a ratio, 3 significant digits, in a field of 7 */
static void rfmt(FILE *o, double r)
{
    if (isnan(r)) fprintf(o, " %7s", "--");
    else fprintf(o, " %7.3g", r);
}

static int cmp_row(const void *a, const void *b)
{
    const series *x = *(series *const *)a, *y = *(series *const *)b;
    if (x->kind != y->kind) return x->kind - y->kind;
    if (x->op != y->op) return x->op - y->op;
    if (x->all != y->all) return y->all - x->all;
    if (x->np != y->np) return x->np - y->np;
    return (x->top > y->top) - (x->top < y->top);
}

/* our series of the ratio tables, in a stable order */
static int our_rows(series **rows)
{
    int n = 0;
    for (int i = 0; i < nS; i++)
        if (S[i].lib == L_OURS && S[i].kind != K_TM && S[i].kind != K_TO) rows[n++] = &S[i];
    qsort(rows, (size_t)n, sizeof *rows, cmp_row);
    return n;
}

static series *peer_of(const series *s, int lib)
{
    int p2p = s->kind == K_TC || s->kind == K_TS;
    return find(s->kind, lib, lib == L_MPI ? (p2p ? '-' : 'p') : s->top, s->op, s->all, s->np);
}

static void ratio_tables(FILE *o, FILE *csv)
{
    char tb[8], ob[32];
    series **rows = malloc(sizeof *rows * (size_t)(nS + 1));
    int nr = our_rows(rows);
    fprintf(o, "Ratios ours / peer of the measured time (tc, ts: T_c, T_s; collectives: maximum time)\n");
    fprintf(o, "  %-10s %-9s %4s | %-23s | %-23s\n", "OP", "TOP", "np", "ours / MPI primitive",
            "ours / reference BLACS");
    fprintf(o, "  %-10s %-9s %4s | %7s %7s %7s | %7s %7s %7s\n", "", "", "", "Nsmall", "Nmax", "geo", "Nsmall",
            "Nmax", "geo");
    if (csv) fprintf(csv, "op,top,scope,np,n,ours_us,peer,peer_us,ratio\n");
    for (int i = 0; i < nr; i++) {
        series *s = rows[i];
        int p2p = s->kind == K_TC || s->kind == K_TS;
        series *mpi = peer_of(s, L_MPI), *ref = peer_of(s, L_REF);
        rsum rm = ratio(s, mpi, C_MAX), rr = ratio(s, ref, C_MAX);
        fprintf(o, "  %-10s %-9s %4d |", opname(s, ob), topname(s->top, tb), s->nproc);
        rfmt(o, rm.rsmall), rfmt(o, rm.rmax), rfmt(o, rm.geo);
        fprintf(o, " |");
        rfmt(o, rr.rsmall), rfmt(o, rr.rmax), rfmt(o, rr.geo);
        fputc('\n', o);
        if (!csv) continue;
        tpoint *p = pts_alloc(s);
        int n = points(s, C_MAX, p);
        for (int k = 0; k < n; k++) {
            series *peer[2] = {mpi, ref};
            for (int j = 0; j < 2; j++) {
                double v = at(peer[j], C_MAX, p[k].n);
                if (isnan(v)) continue;
                char t[8];
                if (p2p) strcpy(t, "-");
                else if (s->top == ' ') strcpy(t, "\" \"");
                else sprintf(t, "%c", s->top);
                fprintf(csv, "%s,%s,%s,%d,%.0f,%.4f,%s,%.4f,%.6g\n", opname(s, ob), t, p2p ? "p2p" : "all",
                        s->nproc, p[k].n, p[k].med, j ? "refblacs" : "mpi", v,
                        v > 0 ? p[k].med / v : NAN);
            }
        }
        free(p);
    }
    free(rows);
    fprintf(o, "  (ratios of the medians at each N; Nsmall: the smallest N > 0 both measured; Nmax: the\n"
               "  largest; geo: geometric mean over all N)\n\n");
}

static void summary(FILE *o)
{
    char ob[32];
    series **rows = malloc(sizeof *rows * (size_t)(nS + 1));
    int nr = our_rows(rows);
    fprintf(o, "Default and best topology of each operation: ratio of maximum times, geometric mean over N (at Nmax)\n");
    fprintf(o, "  %-10s %4s %-14s %17s %17s %17s\n", "OP", "np", "OURS", "ours/MPI", "ours/ref same TOP",
            "ours/ref best");
    for (int i = 0; i < nr; i++) {
        series *d = rows[i];
        if (d->kind == K_TC || d->kind == K_TS) {
            rsum a = ratio(d, peer_of(d, L_MPI), C_MAX), r = ratio(d, peer_of(d, L_REF), C_MAX);
            fprintf(o, "  %-10s %4d %-14s", d->kind == K_TC ? "tc" : "ts", d->nproc, "point-to-point");
            fprintf(o, "  %7.3g (%6.3g)  %7.3g (%6.3g)\n", a.geo, a.rmax, r.geo, r.rmax);
            continue;
        }
        if (d->top != ' ') continue;
        series *b = best(d->kind, L_OURS, d->op, d->all, d->np), *rb = best(d->kind, L_REF, d->op, d->all, d->np);
        series *tops[2] = {d, b};
        for (int j = 0; j < 2; j++) {
            series *s = tops[j];
            if (!s || (j && s == d)) continue;
            char nm[32];
            snprintf(nm, sizeof nm, "%s '%c'", j ? "best" : "default", s->top);
            rsum r3[3] = {ratio(s, peer_of(s, L_MPI), C_MAX), ratio(s, peer_of(s, L_REF), C_MAX),
                          ratio(s, rb, C_MAX)};
            fprintf(o, "  %-10s %4d %-14s", opname(s, ob), s->nproc, nm);
            for (int k = 0; k < 3; k++) {
                if (r3[k].n) fprintf(o, "  %7.3g (%6.3g)", r3[k].geo, r3[k].rmax);
                else fprintf(o, "  %17s", "--");
            }
            fputc('\n', o);
        }
        if (rb) fprintf(o, "  %-10s %4s (reference best: '%c')\n", "", "", rb->top);
    }
    free(rows);
    fputc('\n', o);
}

/* TOP 'A' against the letters measured next to it (LAWN 73 has no 'A';
 * the goal of issue 21: within 5% of the best letter at each length).  For
 * every broadcast and combine that has an 'A' series of ours: at each N of
 * it, the median maximum time of 'A', the fastest of the other letters of
 * ours there (' ', MPI's own operation, left out as in make bench-models),
 * their ratio, and the letter the library's models pick for that length
 * with the machine of this process's environment (the BLACS_* settings the
 * survey exported, else the defaults). */
static void auto_table(FILE *o)
{
    char ob[32];
    series **list = malloc(sizeof *list * (size_t)(nS + 1));
    for (int i = 0; i < nS; i++) {
        series *a = &S[i];
        if (a->lib != L_OURS || a->top != 'A' || (a->kind != K_BS && a->kind != K_GC)) continue;
        int bc = a->kind == K_BS;
        int nl = collect(list, a->kind, L_OURS, a->op, a->all, a->np);
        tpoint *p = pts_alloc(a);
        int n = points(a, C_MAX, p), within = 0, cnt = 0;
        double worst = 0;
        fprintf(o, "TOP 'A' against the best letter, %s, %d processes (median maximum times, us)\n",
                opname(a, ob), a->np);
        fprintf(o, "  %10s %12s %6s %12s %8s %8s\n", "N", "'A'", "best", "its time", "A/best", "A picks");
        for (int k = 0; k < n; k++) {
            series *b = NULL;
            double bv = NAN;
            for (int j = 0; j < nl; j++) {
                if (list[j] == a || list[j]->top == ' ' || list[j]->top == 'p') continue;
                double v = at(list[j], C_MAX, p[k].n);
                if (!isnan(v) && (isnan(bv) || v < bv)) bv = v, b = list[j];
            }
            if (!b || p[k].n <= 0) continue;
            double bytes = 8 * p[k].n, r = p[k].med / bv;
            int param;
            char pick = bc ? bi_bcast_choose(a->np, bytes, &param)->top
                           : bi_comb_choose(bi_machine_default(), a->np, bytes, a->all, 0);
            fprintf(o, "  %10.0f %12.2f %6c %12.2f %8.3f %8c%s\n", p[k].n, p[k].med, b->top, bv, r, pick,
                    r > 1.05 ? "  (*)" : "");
            cnt++, within += r <= 1.05;
            if (r > worst) worst = r;
        }
        fprintf(o, "  'A' within 5%% of the best letter at %d of %d lengths; largest A/best %.3f\n\n", within,
                cnt, worst);
        free(p);
    }
    free(list);
}

/* ---- machine-readable fits and plot data ---------------------------------- */
static void write_fits(FILE *f)
{
    char ob[32];
    fprintf(f, "op,lib,top,np,alpha_us,beta_us_per_double,re_data_pct,re_pred_max_pct,re_pred_src_pct,points\n");
    for (int i = 0; i < nS; i++) {
        series *s = &S[i];
        tfit ft = fit(s, C_MAX, 0, INFINITY);
        double rm = NAN, rs = NAN, mx;
        if ((s->kind == K_BS || s->kind == K_GC) && predict(s, 1000, &mx, &mx)) {
            rm = re_pred(s, C_MAX, s->kind == K_GC);
            if (s->kind == K_BS) rs = re_pred(s, C_SRC, 0);
        }
        const char *op = s->kind == K_TM ? "tm" : s->kind == K_TO ? "to" : opname(s, ob);
        char t[8];
        if (s->top == ' ') strcpy(t, "\" \"");
        else sprintf(t, "%c", s->top);
        fprintf(f, "%s,%s,%s,%d,%.6g,%.6g,%.4g,%.4g,%.4g,%d\n", op, ltag[s->lib], t, s->np, ft.alpha, ft.beta,
                re_data(s, C_MAX), rm, rs, ft.n);
    }
}

static FILE *openw(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) perror(path);
    return f;
}

static void dat_samples(const char *dir, int kind, const char *stem, FILE *vars)
{
    fprintf(vars, "%s_libs = \"", stem);
    int first = 1;
    for (int l = 0; l < L_N; l++) {
        series *s = find(kind, l, '-', 0, 0, 0);
        if (!s) continue;
        char name[64];
        snprintf(name, sizeof name, "%s_%s.dat", stem, ltag[l]);
        FILE *f = openw(dir, name);
        if (!f) continue;
        fprintf(f, "# N(doubles) us  (%s, every sample)\n", lname[l]);
        for (int i = 0; i < s->ns; i++) fprintf(f, "%g %g\n", s->s[i].n, s->s[i].v[C_MAX]);
        fclose(f);
        fprintf(vars, "%s%s", first ? "" : " ", ltag[l]);
        first = 0;
    }
    fprintf(vars, "\"\n");
    for (int l = 0; l < L_N; l++) {
        series *s = find(kind, l, '-', 0, 0, 0);
        if (!s) continue;
        tfit f = fit(s, C_MAX, 0, INFINITY);
        fprintf(vars, "%s_%s_a = %.6g\n%s_%s_b = %.6g\n", stem, ltag[l], f.alpha, stem, ltag[l], f.beta);
    }
}

/* one table of curves: N, then the mean maximum time of each series */
static void dat_curves(const char *dir, const char *name, series **cols, const char **heads, int nc,
                       FILE *vars, const char *var)
{
    FILE *f = openw(dir, name);
    if (!f) return;
    int base = 0;
    for (int c = 1; c < nc; c++)
        if (cols[c] && (!cols[base] || cols[c]->ns > cols[base]->ns)) base = c;
    fprintf(f, "N");
    int used = 0;
    for (int c = 0; c < nc; c++)
        if (cols[c]) fprintf(f, " \"%s\"", heads[c]), used++;
    fputc('\n', f);
    if (cols[base]) {
        tpoint *p = pts_alloc(cols[base]);
        int n = points(cols[base], C_MAX, p);
        for (int i = 0; i < n; i++) {
            fprintf(f, "%g", p[i].n);
            for (int c = 0; c < nc; c++) {
                if (!cols[c]) continue;
                double v = at(cols[c], C_MAX, p[i].n);
                if (isnan(v)) fprintf(f, " ?");
                else fprintf(f, " %g", v);
            }
            fputc('\n', f);
        }
        free(p);
    }
    fclose(f);
    fprintf(vars, "%s_ncol = %d\n", var, used + 1);
}

/* predicted against measured: N, measured max, measured src, predicted max, predicted src */
static void dat_pred(const char *dir, const char *name, series *s, FILE *vars, const char *var)
{
    if (!s || !have_machine) {
        fprintf(vars, "%s_ok = 0\n", var);
        return;
    }
    FILE *f = openw(dir, name);
    if (!f) return;
    fprintf(f, "# N measured_max measured_src predicted_max predicted_src (us; every sample)\n");
    for (int i = 0; i < s->ns; i++) {
        double mx, rt;
        if (!predict(s, s->s[i].n, &mx, &rt)) mx = rt = NAN;
        fprintf(f, "%g %g %g %g %g\n", s->s[i].n, s->s[i].v[C_MAX], isnan(s->s[i].v[C_SRC]) ? -1 : s->s[i].v[C_SRC],
                mx, rt);
    }
    fclose(f);
    char tb[8];
    const bi_topo *tp = bi_topo_find(s->top == 'p' ? ' ' : s->top);
    fprintf(vars, "%s_ok = 1\n%s_title = \"%s %s %s (%s), np=%d, reps=%d\"\n", var, var, ltag[s->lib],
            s->kind == K_BS ? "broadcast" : "combine", topname(s->top, tb), tp ? tp->name : "", s->np, s->reps);
}

static void plot_data(const char *dir)
{
    FILE *vars = openw(dir, "plotvars.gp");
    if (!vars) return;
    fprintf(vars, "# written by tanalyze; read by TIMING/plots.gp\n");
    dat_samples(dir, K_TC, "tc", vars);
    dat_samples(dir, K_TS, "ts", vars);
    /* broadcasts and sum combines at the largest np measured */
    int np = 0;
    for (int i = 0; i < nnp; i++)
        if (nps[i] > np) np = nps[i];
    fprintf(vars, "np = %d\n", np);
    {
        series *ob = best(K_BS, L_OURS, 0, 1, np), *rb = best(K_BS, L_REF, 0, 1, np);
        series *c[6] = {find(K_BS, L_MPI, 'p', 0, 1, np), find(K_BS, L_OURS, ' ', 0, 1, np), ob,
                        find(K_BS, L_OURS, 'I', 0, 1, np), find(K_BS, L_OURS, 'H', 0, 1, np), rb};
        char h2[64], h5[64];
        snprintf(h2, sizeof h2, "ours best '%c'", ob ? ob->top : '?');
        snprintf(h5, sizeof h5, "reference best '%c'", rb ? rb->top : '?');
        const char *hd[6] = {"MPI_Bcast", "ours ' ' (default)", h2, "ours 'I' (ring)", "ours 'H' (hypercube)", h5};
        if (ob && (ob->top == ' ' || ob->top == 'I' || ob->top == 'H')) c[2] = NULL;
        dat_curves(dir, "bcast_survey.dat", c, hd, 6, vars, "bcast_survey");
        series *ring = find(K_BS, L_OURS, 'M', 0, 1, np);
        if (!ring) ring = find(K_BS, L_OURS, 'I', 0, 1, np);
        dat_pred(dir, "bcast_pred_ring.dat", ring, vars, "bcast_pred_ring");
        dat_pred(dir, "bcast_pred_best.dat", ob, vars, "bcast_pred_best");
    }
    {
        series *ob = best(K_GC, L_OURS, '+', 1, np);
        series *c[7] = {find(K_GC, L_MPI, 'p', '+', 1, np), find(K_GC, L_OURS, ' ', '+', 1, np),
                        find(K_GC, L_OURS, '1', '+', 1, np), find(K_GC, L_OURS, 'H', '+', 1, np), ob,
                        find(K_GC, L_REF, '1', '+', 1, np), find(K_GC, L_REF, 'H', '+', 1, np)};
        char h4[64];
        snprintf(h4, sizeof h4, "ours best '%c'", ob ? ob->top : '?');
        const char *hd[7] = {"MPI_Allreduce", "ours ' ' (default)", "ours '1' (1-tree)",
                             "ours 'H' (bidirectional exchange)", h4, "reference '1'", "reference 'H'"};
        if (ob && (ob->top == ' ' || ob->top == '1' || ob->top == 'H')) c[4] = NULL;
        dat_curves(dir, "comb_survey.dat", c, hd, 7, vars, "comb_survey");
        dat_pred(dir, "comb_pred_h.dat", find(K_GC, L_OURS, 'H', '+', 1, np), vars, "comb_pred_h");
        dat_pred(dir, "comb_pred_1.dat", find(K_GC, L_OURS, '1', '+', 1, np), vars, "comb_pred_1");
    }
    fclose(vars);
}

static int usage(void)
{
    fprintf(stderr, "usage: tanalyze [-o OUTDIR] FILE...\n"
                    "       tanalyze -best bcast|comb ours|refblacs FILE...\n"
                    "       tanalyze -letters bcast|comb\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *outdir = NULL;
    int a = 1;
    if (a < argc && !strcmp(argv[a], "-letters")) {
        if (a + 1 >= argc) return usage();
        int bc = !strcmp(argv[a + 1], "bcast");
        for (int i = 0; i < bi_ntopos; i++)
            if (bc ? bi_topos[i].bcast != NULL : bi_topos[i].comb != NULL) printf("%c\n", bi_topos[i].top);
        return 0;
    }
    if (a < argc && !strcmp(argv[a], "-best")) {
        if (a + 2 >= argc) return usage();
        int bc = !strcmp(argv[a + 1], "bcast"), lib = !strcmp(argv[a + 2], "ours") ? L_OURS : L_REF;
        for (int i = a + 3; i < argc; i++) parse_file(argv[i]);
        list_nps();
        int np = 0;
        for (int i = 0; i < nnp; i++)
            if (nps[i] > np) np = nps[i];
        series *b = best(bc ? K_BS : K_GC, lib, bc ? 0 : '+', 1, np);
        if (!b) return 1;
        printf("%c\n", b->top);
        return 0;
    }
    if (a + 1 < argc && !strcmp(argv[a], "-o")) outdir = argv[a + 1], a += 2;
    if (a >= argc) return usage();
    int bad = 0;
    for (int i = a; i < argc; i++) bad |= parse_file(argv[i]) != 0;
    if (!nS) {
        fprintf(stderr, "tanalyze: no timer output found\n");
        return 1;
    }
    list_nps();
    list_cks();
    FILE *o = stdout;
    fprintf(o, "LAWN 73 timing analysis: %d series from %d file(s); N in double precision elements, times in us\n\n",
            nS, argc - a);
    /* the paper timed an otherwise idle machine; say so when the repeated
     * points show it was not */
    double worst = NAN;
    for (int i = 0; i < nS; i++) {
        double r = re_data(&S[i], C_MAX);
        if (!isnan(r) && (isnan(worst) || r > worst)) worst = r;
    }
    if (!isnan(worst) && worst > 100)
        fprintf(o, "WARNING: repeated points differ by up to %.0f%% of their average: the machine was not\n"
                   "quiet (other processes competing for the cores?); fits, REs and ratios are unreliable.\n\n",
                worst);
    set_machine(o);
    p2p_tables(o);
    for (int i = 0; i < nnp; i++) {
        if (find(K_BS, L_OURS, ' ', 0, 1, nps[i]) || find(K_BS, L_MPI, 'p', 0, 1, nps[i]) ||
            find(K_BS, L_REF, ' ', 0, 1, nps[i]))
            coll_tables(o, K_BS, 0, 1, nps[i]);
        for (int k = 0; k < nck; k++) {
            int any = 0;
            for (int j = 0; j < nS; j++)
                any |= S[j].kind == K_GC && S[j].op == cks[k].op && S[j].all == cks[k].all && S[j].np == nps[i];
            if (any) coll_tables(o, K_GC, cks[k].op, cks[k].all, nps[i]);
        }
    }
    FILE *csv = outdir ? openw(outdir, "bench.csv") : NULL;
    ratio_tables(o, csv);
    if (csv) fclose(csv);
    summary(o);
    auto_table(o);
    if (outdir) {
        FILE *f = openw(outdir, "fits.csv");
        if (f) write_fits(f), fclose(f);
        plot_data(outdir);
    }
    return bad;
}
