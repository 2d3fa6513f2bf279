/*
 * bt_fapi.c -- xFbtest: the tester's function table filled with the
 * Fortran interface.  Every entry calls a BIND(C) wrapper of bt_fwrap.f90,
 * which makes the real Fortran call (so the Fortran compiler passes the
 * arguments and the hidden character lengths); the main program is Fortran
 * (bt_fmain.f90) and enters the C core through bt_fortran_main().
 */
#include "bt.h"
#include <stdlib.h>
#include <string.h>

typedef blacs_int I;
/* bt_fwrap.f90 */
#define COMM(name, ...) void btf_##name(int t, __VA_ARGS__);
COMM(gesd2d, I *, I *, I *, void *, I *, I *, I *)
COMM(gerv2d, I *, I *, I *, void *, I *, I *, I *)
COMM(trsd2d, I *, char *, char *, I *, I *, void *, I *, I *, I *)
COMM(trrv2d, I *, char *, char *, I *, I *, void *, I *, I *, I *)
COMM(gebs2d, I *, char *, char *, I *, I *, void *, I *)
COMM(gebr2d, I *, char *, char *, I *, I *, void *, I *, I *, I *)
COMM(trbs2d, I *, char *, char *, char *, char *, I *, I *, void *, I *)
COMM(trbr2d, I *, char *, char *, char *, char *, I *, I *, void *, I *, I *, I *)
COMM(gsum2d, I *, char *, char *, I *, I *, void *, I *, I *, I *)
COMM(gamx2d, I *, char *, char *, I *, I *, void *, I *, I *, I *, I *, I *, I *)
COMM(gamn2d, I *, char *, char *, I *, I *, void *, I *, I *, I *, I *, I *, I *)
#undef COMM
void btf_pinfo(I *, I *);
void btf_setup(I *, I *);
void btf_get(I *, I *, I *);
void btf_set(I *, I *, I *);
void btf_gridinit(I *, char *, I *, I *);
void btf_gridmap(I *, I *, I *, I *, I *);
void btf_freebuff(I *, I *);
void btf_gridexit(I *);
void btf_abort(I *, I *);
void btf_exit(I *);
void btf_gridinfo(I *, I *, I *, I *, I *);
void btf_pcoord(I *, I *, I *, I *);
void btf_barrier(I *, char *);
void btf_free_handle(I *);
I btf_pnum(I *, I *, I *);
I btf_ksendid(I *, I *, I *);
I btf_krecvid(I *, I *, I *);
I btf_kbsid(I *, char *);
I btf_kbrid(I *, char *, I *, I *);
double btf_dcputime(void);
double btf_dwalltime(void);
I btf_sys2blacs(I *);
I btf_blacs2sys(I *);

static void f_get(I c, I w, I *v) { btf_get(&c, &w, v); }
static void f_set(I c, I w, I *v) { btf_set(&c, &w, v); }
static void f_gridinit(I *c, char *o, I p, I q) { btf_gridinit(c, o, &p, &q); }
static void f_gridmap(I *c, I *m, I l, I p, I q) { btf_gridmap(c, m, &l, &p, &q); }
static void f_freebuff(I c, I w) { btf_freebuff(&c, &w); }
static void f_gridexit(I c) { btf_gridexit(&c); }
static void f_abort(I c, I e) { btf_abort(&c, &e); }
static void f_exit(I n) { btf_exit(&n); }
static void f_gridinfo(I c, I *a, I *b, I *d, I *e) { btf_gridinfo(&c, a, b, d, e); }
static I f_pnum(I c, I r, I k) { return btf_pnum(&c, &r, &k); }
static void f_pcoord(I c, I p, I *r, I *k) { btf_pcoord(&c, &p, r, k); }
static void f_barrier(I c, char *s) { btf_barrier(&c, s); }
static I f_ksendid(I c, I r, I k) { return btf_ksendid(&c, &r, &k); }
static I f_krecvid(I c, I r, I k) { return btf_krecvid(&c, &r, &k); }
static I f_kbsid(I c, char *s) { return btf_kbsid(&c, s); }
static I f_kbrid(I c, char *s, I r, I k) { return btf_kbrid(&c, s, &r, &k); }
/* Fortran system contexts are Fortran MPI communicator handles */
static I f_sys_world(void)
{
    I h = (I)MPI_Comm_c2f(MPI_COMM_WORLD);
    return btf_sys2blacs(&h);
}
static int f_sys_is_world(I h) { return btf_blacs2sys(&h) == (I)MPI_Comm_c2f(MPI_COMM_WORLD); }
static void f_sys_free(I h) { btf_free_handle(&h); }

static void f_gesd(int t, I c, I m, I n, void *A, I lda, I r, I k) { btf_gesd2d(t, &c, &m, &n, A, &lda, &r, &k); }
static void f_gerv(int t, I c, I m, I n, void *A, I lda, I r, I k) { btf_gerv2d(t, &c, &m, &n, A, &lda, &r, &k); }
static void f_trsd(int t, I c, char *u, char *d, I m, I n, void *A, I lda, I r, I k)
{
    btf_trsd2d(t, &c, u, d, &m, &n, A, &lda, &r, &k);
}
static void f_trrv(int t, I c, char *u, char *d, I m, I n, void *A, I lda, I r, I k)
{
    btf_trrv2d(t, &c, u, d, &m, &n, A, &lda, &r, &k);
}
static void f_gebs(int t, I c, char *s, char *tp, I m, I n, void *A, I lda)
{
    btf_gebs2d(t, &c, s, tp, &m, &n, A, &lda);
}
static void f_gebr(int t, I c, char *s, char *tp, I m, I n, void *A, I lda, I r, I k)
{
    btf_gebr2d(t, &c, s, tp, &m, &n, A, &lda, &r, &k);
}
static void f_trbs(int t, I c, char *s, char *tp, char *u, char *d, I m, I n, void *A, I lda)
{
    btf_trbs2d(t, &c, s, tp, u, d, &m, &n, A, &lda);
}
static void f_trbr(int t, I c, char *s, char *tp, char *u, char *d, I m, I n, void *A, I lda, I r,
                   I k)
{
    btf_trbr2d(t, &c, s, tp, u, d, &m, &n, A, &lda, &r, &k);
}
static void f_gsum(int t, I c, char *s, char *tp, I m, I n, void *A, I lda, I r, I k)
{
    btf_gsum2d(t, &c, s, tp, &m, &n, A, &lda, &r, &k);
}
static void f_gamx(int t, I c, char *s, char *tp, I m, I n, void *A, I lda, I *ra, I *ca, I ldia,
                   I r, I k)
{
    btf_gamx2d(t, &c, s, tp, &m, &n, A, &lda, ra, ca, &ldia, &r, &k);
}
static void f_gamn(int t, I c, char *s, char *tp, I m, I n, void *A, I lda, I *ra, I *ca, I ldia,
                   I r, I k)
{
    btf_gamn2d(t, &c, s, tp, &m, &n, A, &lda, ra, ca, &ldia, &r, &k);
}

static const bt_api fapi = {
    .name = "FORTRAN",
    .pinfo = btf_pinfo,
    .setup = btf_setup,
    .get = f_get,
    .set = f_set,
    .gridinit = f_gridinit,
    .gridmap = f_gridmap,
    .freebuff = f_freebuff,
    .gridexit = f_gridexit,
    .abort_ = f_abort,
    .exit_ = f_exit,
    .gridinfo = f_gridinfo,
    .pnum = f_pnum,
    .pcoord = f_pcoord,
    .barrier = f_barrier,
    .ksendid = f_ksendid,
    .krecvid = f_krecvid,
    .kbsid = f_kbsid,
    .kbrid = f_kbrid,
    .dcputime = btf_dcputime,
    .dwalltime = btf_dwalltime,
    .sys_world = f_sys_world,
    .sys_is_world = f_sys_is_world,
    .sys_free = f_sys_free,
    .gesd = f_gesd, .gerv = f_gerv, .trsd = f_trsd, .trrv = f_trrv,
    .gebs = f_gebs, .gebr = f_gebr, .trbs = f_trbs, .trbr = f_trbr,
    .gsum = f_gsum, .gamx = f_gamx, .gamn = f_gamn,
};

/* called by the Fortran main program: args holds nargs NUL-terminated words */
int bt_fortran_main(int nargs, const char *args);
int bt_fortran_main(int nargs, const char *args)
{
    char **argv = calloc((size_t)nargs + 2, sizeof *argv);
    if (!argv) return 1;
    argv[0] = "xFbtest";
    for (int k = 1; k <= nargs; k++) {
        argv[k] = (char *)args;
        args += strlen(args) + 1;
    }
    int rc = bt_run(&fapi, nargs + 1, argv);
    free(argv);
    return rc;
}
