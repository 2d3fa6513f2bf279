/*
 * bt.h -- the BLACS tester (xCbtest, xFbtest): one checking core that calls
 * the BLACS through a table of function pointers (bt_api), filled once with
 * the C interface (bt_capi.c) and once with the Fortran-callable one
 * (bt_fapi.c + bt_fwrap.f90).  Decks (bt.dat, sdrv.dat, bsbr.dat, comb.dat)
 * follow the formats of the reference tester.
 *
 * The tester's own traffic (settings, results, error records) goes over
 * MPI on a duplicate of MPI_COMM_WORLD, never through the BLACS.
 */
#ifndef BT_H
#define BT_H
#include <stddef.h>
#include <stdio.h>
#include <mpi.h>
#include "blacs.h"

/* ---- the BLACS as seen by the tester -------------------------------------- */
enum { BT_I, BT_S, BT_D, BT_C, BT_Z, BT_NTYPE };

typedef struct bt_api {
    const char *name;                      /* "C" or "FORTRAN" */
    void (*pinfo)(blacs_int *me, blacs_int *np);
    void (*setup)(blacs_int *me, blacs_int *np);
    void (*get)(blacs_int ctxt, blacs_int what, blacs_int *val);
    void (*set)(blacs_int ctxt, blacs_int what, blacs_int *val);
    void (*gridinit)(blacs_int *ctxt, char *order, blacs_int nprow, blacs_int npcol);
    void (*gridmap)(blacs_int *ctxt, blacs_int *map, blacs_int ldu, blacs_int nprow,
                    blacs_int npcol);
    void (*freebuff)(blacs_int ctxt, blacs_int wait);
    void (*gridexit)(blacs_int ctxt);
    void (*abort_)(blacs_int ctxt, blacs_int err);
    void (*exit_)(blacs_int notdone);
    void (*gridinfo)(blacs_int ctxt, blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                     blacs_int *mycol);
    blacs_int (*pnum)(blacs_int ctxt, blacs_int prow, blacs_int pcol);
    void (*pcoord)(blacs_int ctxt, blacs_int pnum, blacs_int *prow, blacs_int *pcol);
    void (*barrier)(blacs_int ctxt, char *scope);
    blacs_int (*ksendid)(blacs_int ctxt, blacs_int rdest, blacs_int cdest);
    blacs_int (*krecvid)(blacs_int ctxt, blacs_int rsrc, blacs_int csrc);
    blacs_int (*kbsid)(blacs_int ctxt, char *scope);
    blacs_int (*kbrid)(blacs_int ctxt, char *scope, blacs_int rsrc, blacs_int csrc);
    double (*dcputime)(void);
    double (*dwalltime)(void);
    /* system handles: handle of MPI_COMM_WORLD through SYS2BLACS_HANDLE;
     * whether BLACS2SYS_HANDLE(h) designates MPI_COMM_WORLD; free one */
    blacs_int (*sys_world)(void);
    int (*sys_is_world)(blacs_int h);
    void (*sys_free)(blacs_int h);
    /* communication; t = BT_I..BT_Z, A points at elements of that type */
    void (*gesd)(int t, blacs_int ctxt, blacs_int m, blacs_int n, void *A, blacs_int lda,
                 blacs_int rdest, blacs_int cdest);
    void (*gerv)(int t, blacs_int ctxt, blacs_int m, blacs_int n, void *A, blacs_int lda,
                 blacs_int rsrc, blacs_int csrc);
    void (*trsd)(int t, blacs_int ctxt, char *uplo, char *diag, blacs_int m, blacs_int n,
                 void *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
    void (*trrv)(int t, blacs_int ctxt, char *uplo, char *diag, blacs_int m, blacs_int n,
                 void *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
    void (*gebs)(int t, blacs_int ctxt, char *scope, char *top, blacs_int m, blacs_int n,
                 void *A, blacs_int lda);
    void (*gebr)(int t, blacs_int ctxt, char *scope, char *top, blacs_int m, blacs_int n,
                 void *A, blacs_int lda, blacs_int rsrc, blacs_int csrc);
    void (*trbs)(int t, blacs_int ctxt, char *scope, char *top, char *uplo, char *diag,
                 blacs_int m, blacs_int n, void *A, blacs_int lda);
    void (*trbr)(int t, blacs_int ctxt, char *scope, char *top, char *uplo, char *diag,
                 blacs_int m, blacs_int n, void *A, blacs_int lda, blacs_int rsrc,
                 blacs_int csrc);
    void (*gsum)(int t, blacs_int ctxt, char *scope, char *top, blacs_int m, blacs_int n,
                 void *A, blacs_int lda, blacs_int rdest, blacs_int cdest);
    void (*gamx)(int t, blacs_int ctxt, char *scope, char *top, blacs_int m, blacs_int n,
                 void *A, blacs_int lda, blacs_int *ra, blacs_int *ca, blacs_int ldia,
                 blacs_int rdest, blacs_int cdest);
    void (*gamn)(int t, blacs_int ctxt, char *scope, char *top, blacs_int m, blacs_int n,
                 void *A, blacs_int lda, blacs_int *ra, blacs_int *ca, blacs_int ldia,
                 blacs_int rdest, blacs_int cdest);
} bt_api;

/* runs the whole tester; argv: [--abort] [deck directory]; returns the exit status */
int bt_run(const bt_api *api, int argc, char **argv);

/* ---- decks (bt_deck.c) ---------------------------------------------------- */
#define BT_MAXL 64             /* values per list */
typedef struct {
    int outunit;               /* 6 stdout, 0 stderr, else outfile */
    char outfile[256];
    int sdrv, bsbr, comb, aux; /* families to run */
    int ntype;
    int types[BT_NTYPE];       /* BT_I.. in deck order */
    int verb;                  /* 0, 1, 2 */
} bt_main_deck;

/* union of the parameters of sdrv.dat, bsbr.dat and comb.dat */
typedef struct {
    int nop;      char op[BT_MAXL];                 /* comb: '+', '>', '<' */
    int nscope;   char scope[BT_MAXL];              /* bsbr, comb */
    int repeat, coherent;                           /* comb: 0 off, 1 on, 2 both */
    int ntop;     char top[BT_MAXL];                /* bsbr, comb */
    int nshape;   char uplo[BT_MAXL], diag[BT_MAXL];/* sdrv, bsbr */
    int nmat;     blacs_int m[BT_MAXL], n[BT_MAXL], ldas[BT_MAXL], ldad[BT_MAXL],
                  ldi[BT_MAXL];
    int npair;    blacs_int rsrc[BT_MAXL], csrc[BT_MAXL], rdest[BT_MAXL], cdest[BT_MAXL];
    int ngrid;    blacs_int nprow[BT_MAXL], npcol[BT_MAXL];
} bt_deck;

/* readers: return 0 on success, else print the reason (file:line) and return -1 */
int bt_read_main(const char *path, bt_main_deck *d);
int bt_read_sdrv(const char *path, bt_deck *d);
int bt_read_bsbr(const char *path, bt_deck *d);
int bt_read_comb(const char *path, bt_deck *d);

/* ---- shared state and helpers (bt_core.c) --------------------------------- */
extern const bt_api *bt;       /* the interface under test */
extern MPI_Comm bt_comm;       /* tester traffic: a duplicate of MPI_COMM_WORLD */
extern int bt_iam, bt_np;      /* rank and size in bt_comm */
extern FILE *bt_out;           /* report (process 0) */
extern int bt_verb;
extern const char bt_letter[BT_NTYPE];
extern const char *const bt_tname[BT_NTYPE];
size_t bt_esize(int t);

/* element access as doubles (re, im); integers and floats convert exactly for
 * the small integer values the tester generates */
void bt_put(int t, void *base, size_t k, double re, double im);
void bt_get(int t, const void *base, size_t k, double *re, double *im);

/* deterministic data: an integer in [-range, range] from (test, process, i, j, part) */
double bt_gen(int test, int proc, blacs_int i, blacs_int j, int part, int range);

/* want function for generated data of process proc in test test */
typedef struct { int test, proc, range; } bt_genarg;
void bt_want_gen(blacs_int i, blacs_int j, double *re, double *im, void *arg);
/* want function returning a constant (arg: double[2]) */
void bt_want_const(blacs_int i, blacs_int j, double *re, double *im, void *arg);
/* pads of point-to-point and broadcast tests: which = 0 sender, 1 receiver */
void bt_p2p_pad(int t, int which, double *re, double *im);

/* the reference's trapezoid (tr = 0: the whole M x N matrix) */
typedef struct { int tr; char uplo, diag; } bt_shape;
int bt_in_shape(const bt_shape *s, blacs_int m, blacs_int n, blacs_int i, blacs_int j);
void bt_shape_from(bt_shape *s, char uplo, char diag);    /* 'G' = general */
char *bt_shapename(const bt_shape *s, char *buf, size_t cap);   /* for the reports */

/* a guarded matrix: pre guard, lda*n area, post guard */
typedef struct {
    int t;
    blacs_int m, n, lda;
    size_t pre, post, total;
    char *mem;                 /* total elements of type t */
    void *a;                   /* first matrix element */
} bt_mat;
void bt_mat_alloc(bt_mat *b, int t, blacs_int m, blacs_int n, blacs_int lda);
void bt_mat_free(bt_mat *b);
void bt_mat_pad(bt_mat *b, double re, double im);
/* expected value of element (i,j) of a shape: receives re, im */
typedef void (*bt_want_fn)(blacs_int i, blacs_int j, double *re, double *im, void *arg);
void bt_mat_fill(bt_mat *b, const bt_shape *s, bt_want_fn want, void *arg);

/* error records, as the reference's: where, what, received and expected */
enum { BT_E_BEFORE = 1, BT_E_AFTER, BT_E_GAP, BT_E_TRI, BT_E_ELEM, BT_E_OTHER };
enum { BT_R_A = 0, BT_R_SRC = 1, BT_R_RA = 2, BT_R_CA = 3 };   /* region */
typedef struct {
    int test, kind, region;
    int prow, pcol;            /* reporting process in the grid */
    int i, j;                  /* element (i,j), or offset for guard zones */
    double got[2], want[2];
} bt_err;
void bt_error(int test, int kind, int region, int i, int j, const double got[2],
              const double want[2]);

/* checks a guarded matrix: in-shape elements equal want() when want is not
 * NULL (ignored when NULL), everything else equals the pad; records errors */
long bt_mat_check(bt_mat *b, const bt_shape *s, bt_want_fn want, void *arg, double pre,
                  double pim, int test, int region);
/* bytes compare for an element: equal after a round trip through type t */
int bt_same(int t, double re, double im, double re2, double im2);

/* families: one test counter each; status 0 passed, 1 skipped, 2 failed */
typedef struct {
    char desc[160];            /* parameters, for the failure list and VERB 2 */
} bt_tinfo;
typedef struct {
    const char *name;          /* "SDRV", "BSBR", "SUM", "AMX", "AMN" */
    int t;                     /* element type */
    int ntest, cap;
    unsigned char *status;     /* per test, local */
    bt_tinfo *info;            /* per test (process 0) */
} bt_family;
void bt_family_begin(bt_family *f, const char *name, int t);
/* new test: returns its number (1-based); desc is printf-style */
int bt_test_new(bt_family *f, int skipped, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void bt_test_end(bt_family *f, int test);   /* VERB 2: per-test line (collective) */
/* collects statuses and error records at process 0, prints the report;
 * adds to the totals; collective over bt_comm */
void bt_family_end(bt_family *f);
void bt_current_coords(int prow, int pcol);  /* grid coordinates for error records */
/* my coordinates in grid ctxt ({-1,-1} outside it), also made current */
void bt_grid_coords(blacs_int ctxt, blacs_int *myrow, blacs_int *mycol);

extern long bt_npass, bt_nfail, bt_nskip;   /* totals (process 0) */

/* grids of a deck: context per grid (-1 for non-members / not runnable) */
typedef struct {
    int n;
    blacs_int ctxt[BT_MAXL];
    int ok[BT_MAXL];           /* runnable (enough processes) */
} bt_grids;
void bt_grids_make(const bt_deck *d, bt_grids *g);
void bt_grids_free(bt_grids *g);

/* watchdog: a test that does not finish in time (a library whose sends block)
 * is reported FAILED and the run aborted instead of hanging */
void bt_watch(const char *what, int test);
void bt_unwatch(void);
int bt_watch_seconds(void);

/* misc */
void bt_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));   /* process 0 */
int bt_allor(int flag);        /* logical OR over bt_comm */
void bt_sleep_ms(int ms);
char *bt_topname(char top, char *buf);

/* the families */
void bt_sdrv(const bt_deck *d, int t);
void bt_bsbr(const bt_deck *d, int t);
void bt_comb(const bt_deck *d, int op, int t);
void bt_aux(const char *tops);   /* combine TOPs for the repeat/coherence checks */
void bt_abort_test(void);
#endif
