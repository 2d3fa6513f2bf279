/*
 * sl_wrap.c -- per-routine accounting of BLACS communication time for
 * make bench-scalapack (TIMING/scalapack.mk, TIMING/sim/scalapack.sh).
 *
 * Linked into both ScaLAPACK executables (the reference BLACS and ours)
 * with -Wl,--wrap=<name> for every communication entry point ScaLAPACK can
 * call: the Fortran names (dgebs2d_ ...) used by its Fortran sources and
 * the C names (Cdgebs2d ...) used by PBLAS and TOOLS.  Each __wrap_ function
 * times its __real_ call with MPI_Wtime (simulated time) and adds it to a
 * table keyed by (routine, SCOPE, TOP); sl_wrap_reset() clears the table,
 * sl_wrap_dump() sums it over MPI_COMM_WORLD and rank 0 writes
 *   blacs_routine,scope,top,calls,seconds
 * rows (seconds summed over ranks).  Point-to-point routines have scope
 * and top '-'.  The table is a global: SMPI's dlopen privatisation gives
 * every simulated rank its own.  While a call is inside, sl_in_blacs is
 * non-zero: the simulations charge the copies made there (sl_copy.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "sl_wrap.h"

enum { NFAM = 11, NTYP = 5, NSCOPE = 5, NTOP = 64 };
_Static_assert(SL_GAP_KEYS == SL_GAP_BLACS + NFAM * NTYP, "sl_wrap.h: SL_GAP_KEYS");
static const char *const fam_name[NFAM] = {"gesd2d", "gerv2d", "trsd2d", "trrv2d", "gebs2d", "gebr2d",
                                           "trbs2d", "trbr2d", "gsum2d", "gamx2d", "gamn2d"};
static const char typ_name[NTYP] = {'i', 's', 'd', 'c', 'z'};
static const char scope_name[NSCOPE] = {'-', 'R', 'C', 'A', '?'};
enum { F_GESD, F_GERV, F_TRSD, F_TRRV, F_GEBS, F_GEBR, F_TRBS, F_TRBR, F_GSUM, F_GAMX, F_GAMN };
enum { T_I, T_S, T_D, T_C, T_Z };

#define NCELL (NFAM * NTYP * NSCOPE * NTOP)
static double secs[NCELL], calls[NCELL];

static int scope_slot(const char *s)
{
    if (!s) return 0;
    switch (toupper((unsigned char)*s)) {
    case 'R': return 1;
    case 'C': return 2;
    case 'A': return 3;
    default: return 4;
    }
}

static int top_slot(const char *t)
{
    int c = t ? toupper((unsigned char)*t) : '-';
    return (c >= 32 && c < 32 + NTOP) ? c - 32 : '?' - 32;
}

static void add(int fam, int typ, const char *scope, const char *top, double dt)
{
    int k = ((fam * NTYP + typ) * NSCOPE + scope_slot(scope)) * NTOP + (scope ? top_slot(top) : '-' - 32);
    secs[k] += dt;
    calls[k] += 1.0;
}

void sl_wrap_reset(void)
{
    memset(secs, 0, sizeof secs);
    memset(calls, 0, sizeof calls);
}

double sl_wrap_seconds(void)
{
    double t = 0;
    for (int k = 0; k < NCELL; k++) t += secs[k];
    return t;
}

void sl_wrap_dump(const char *path)
{
    static double s_all[NCELL], c_all[NCELL];
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(secs, s_all, NCELL, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(calls, c_all, NCELL, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0 || !path) return;
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return;
    }
    fprintf(f, "blacs_routine,scope,top,calls,seconds\n");
    for (int k = 0; k < NCELL; k++) {
        if (c_all[k] == 0.0) continue;
        int top = k % NTOP, sc = (k / NTOP) % NSCOPE, ft = k / (NTOP * NSCOPE);
        fprintf(f, "%c%s,%c,%c,%.0f,%.9g\n", typ_name[ft % NTYP], fam_name[ft / NTYP], scope_name[sc],
                top + 32 == ' ' ? '_' : top + 32, c_all[k], s_all[k]);
    }
    fclose(f);
}

/* inside a BLACS call (sl_copy.c charges the copies made there) */
int sl_in_blacs;

/* SL_LOG=prefix: every call of every rank, one line each in prefix.<rank>
 * (scalapack.sh makes the prefix SL_LOG.<simulation>, as in raw/):
 *   routine scope top items start end
 * (simulated seconds).  Both executables make the same calls in the same
 * order, so line k of ours and of the reference's are the same call: the
 * two timelines side by side say where one falls behind (sl_timeline.sh). */
static FILE *log_file(void)
{
    static int opened;
    static FILE *f;
    if (!opened) {
        opened = 1;
        const char *p = getenv("SL_LOG");
        if (p && *p) {
            char name[4096];
            int rank;
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
            snprintf(name, sizeof name, "%s.%d", p, rank);
            f = fopen(name, "w");
            if (!f) perror(name);
        }
    }
    return f;
}

static void log_call(int fam, int typ, const char *scope, const char *top, double items, double t0,
                     double t1)
{
    FILE *f = log_file();
    if (f)
        fprintf(f, "%c%s %c %c %.0f %.9f %.9f\n", typ_name[typ], fam_name[fam], scope ? *scope : '-',
                top ? (*top == ' ' ? '_' : *top) : '-', items, t0, t1);
}

/* W(name, fam, typ, scope, top, params, args, items): __real_name and its wrapper */
#define W(name, fam, typ, sc, tp, params, args, items)                                             \
    void __real_##name params;                                                                     \
    void __wrap_##name params;                                                                     \
    void __wrap_##name params                                                                      \
    {                                                                                              \
        double t0 = sl_gap_enter(SL_GAP_BLACS + (fam) * NTYP + (typ));                             \
        sl_in_blacs++;                                                                             \
        __real_##name args;                                                                        \
        sl_in_blacs--;                                                                             \
        double t1 = sl_gap_exit();                                                                 \
        add(fam, typ, sc, tp, t1 - t0);                                                            \
        log_call(fam, typ, sc, tp, items, t0, t1);                                                 \
    }

/* Fortran entry points: every argument by address (the hidden lengths of
 * the character arguments are not read by either BLACS and not passed on) */
#define FP_SD (int *c, int *m, int *n, void *a, int *lda, int *r, int *k)
#define FA_SD (c, m, n, a, lda, r, k)
#define FP_TSD (int *c, char *u, char *d, int *m, int *n, void *a, int *lda, int *r, int *k)
#define FA_TSD (c, u, d, m, n, a, lda, r, k)
#define FP_BS (int *c, char *s, char *t, int *m, int *n, void *a, int *lda)
#define FA_BS (c, s, t, m, n, a, lda)
#define FP_BR (int *c, char *s, char *t, int *m, int *n, void *a, int *lda, int *r, int *k)
#define FA_BR (c, s, t, m, n, a, lda, r, k)
#define FP_TBS (int *c, char *s, char *t, char *u, char *d, int *m, int *n, void *a, int *lda)
#define FA_TBS (c, s, t, u, d, m, n, a, lda)
#define FP_TBR (int *c, char *s, char *t, char *u, char *d, int *m, int *n, void *a, int *lda, int *r, int *k)
#define FA_TBR (c, s, t, u, d, m, n, a, lda, r, k)
#define FP_AM (int *c, char *s, char *t, int *m, int *n, void *a, int *lda, int *ra, int *ca, int *ldia, int *r, int *k)
#define FA_AM (c, s, t, m, n, a, lda, ra, ca, ldia, r, k)
#define FITEMS ((double)*m * *n)
/* C entry points: integers by value */
#define CP_SD (int c, int m, int n, void *a, int lda, int r, int k)
#define CP_TSD (int c, char *u, char *d, int m, int n, void *a, int lda, int r, int k)
#define CP_BS (int c, char *s, char *t, int m, int n, void *a, int lda)
#define CP_BR (int c, char *s, char *t, int m, int n, void *a, int lda, int r, int k)
#define CP_TBS (int c, char *s, char *t, char *u, char *d, int m, int n, void *a, int lda)
#define CP_TBR (int c, char *s, char *t, char *u, char *d, int m, int n, void *a, int lda, int r, int k)
#define CP_AM (int c, char *s, char *t, int m, int n, void *a, int lda, int *ra, int *ca, int ldia, int r, int k)
#define CITEMS ((double)m * n)

#define TYPE(x, X)                                                                                 \
    W(x##gesd2d_, F_GESD, X, NULL, NULL, FP_SD, FA_SD, FITEMS)                                     \
    W(x##gerv2d_, F_GERV, X, NULL, NULL, FP_SD, FA_SD, FITEMS)                                     \
    W(x##trsd2d_, F_TRSD, X, NULL, NULL, FP_TSD, FA_TSD, FITEMS)                                   \
    W(x##trrv2d_, F_TRRV, X, NULL, NULL, FP_TSD, FA_TSD, FITEMS)                                   \
    W(x##gebs2d_, F_GEBS, X, s, t, FP_BS, FA_BS, FITEMS)                                           \
    W(x##gebr2d_, F_GEBR, X, s, t, FP_BR, FA_BR, FITEMS)                                           \
    W(x##trbs2d_, F_TRBS, X, s, t, FP_TBS, FA_TBS, FITEMS)                                         \
    W(x##trbr2d_, F_TRBR, X, s, t, FP_TBR, FA_TBR, FITEMS)                                         \
    W(x##gsum2d_, F_GSUM, X, s, t, FP_BR, FA_BR, FITEMS)                                           \
    W(x##gamx2d_, F_GAMX, X, s, t, FP_AM, FA_AM, FITEMS)                                           \
    W(x##gamn2d_, F_GAMN, X, s, t, FP_AM, FA_AM, FITEMS)                                           \
    W(C##x##gesd2d, F_GESD, X, NULL, NULL, CP_SD, FA_SD, CITEMS)                                   \
    W(C##x##gerv2d, F_GERV, X, NULL, NULL, CP_SD, FA_SD, CITEMS)                                   \
    W(C##x##trsd2d, F_TRSD, X, NULL, NULL, CP_TSD, FA_TSD, CITEMS)                                 \
    W(C##x##trrv2d, F_TRRV, X, NULL, NULL, CP_TSD, FA_TSD, CITEMS)                                 \
    W(C##x##gebs2d, F_GEBS, X, s, t, CP_BS, FA_BS, CITEMS)                                         \
    W(C##x##gebr2d, F_GEBR, X, s, t, CP_BR, FA_BR, CITEMS)                                         \
    W(C##x##trbs2d, F_TRBS, X, s, t, CP_TBS, FA_TBS, CITEMS)                                       \
    W(C##x##trbr2d, F_TRBR, X, s, t, CP_TBR, FA_TBR, CITEMS)                                       \
    W(C##x##gsum2d, F_GSUM, X, s, t, CP_BR, FA_BR, CITEMS)                                         \
    W(C##x##gamx2d, F_GAMX, X, s, t, CP_AM, FA_AM, CITEMS)                                         \
    W(C##x##gamn2d, F_GAMN, X, s, t, CP_AM, FA_AM, CITEMS)

TYPE(i, T_I)
TYPE(s, T_S)
TYPE(d, T_D)
TYPE(c, T_C)
TYPE(z, T_Z)
