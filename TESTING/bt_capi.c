/*
 * bt_capi.c -- xCbtest: the tester's function table filled with the C
 * interface of the BLACS (Cblacs_*, Cigesd2d ... Czgamn2d; input scalars by
 * value).  The five types are dispatched by one switch per routine.
 */
#include "bt.h"

#define DISPATCH(t, name, ...)                                                  \
    do {                                                                        \
        switch (t) {                                                            \
        case BT_I: Ci##name(__VA_ARGS__, (blacs_int *)A, TAIL); break;          \
        case BT_S: Cs##name(__VA_ARGS__, (float *)A, TAIL); break;              \
        case BT_D: Cd##name(__VA_ARGS__, (double *)A, TAIL); break;             \
        case BT_C: Cc##name(__VA_ARGS__, (float *)A, TAIL); break;              \
        default: Cz##name(__VA_ARGS__, (double *)A, TAIL); break;               \
        }                                                                       \
    } while (0)

static void c_gesd(int t, blacs_int c, blacs_int m, blacs_int n, void *A, blacs_int lda,
                   blacs_int rd, blacs_int cd)
{
#define TAIL lda, rd, cd
    DISPATCH(t, gesd2d, c, m, n);
#undef TAIL
}
static void c_gerv(int t, blacs_int c, blacs_int m, blacs_int n, void *A, blacs_int lda,
                   blacs_int rs, blacs_int cs)
{
#define TAIL lda, rs, cs
    DISPATCH(t, gerv2d, c, m, n);
#undef TAIL
}
static void c_trsd(int t, blacs_int c, char *uplo, char *diag, blacs_int m, blacs_int n, void *A,
                   blacs_int lda, blacs_int rd, blacs_int cd)
{
#define TAIL lda, rd, cd
    DISPATCH(t, trsd2d, c, uplo, diag, m, n);
#undef TAIL
}
static void c_trrv(int t, blacs_int c, char *uplo, char *diag, blacs_int m, blacs_int n, void *A,
                   blacs_int lda, blacs_int rs, blacs_int cs)
{
#define TAIL lda, rs, cs
    DISPATCH(t, trrv2d, c, uplo, diag, m, n);
#undef TAIL
}
static void c_gebs(int t, blacs_int c, char *scope, char *top, blacs_int m, blacs_int n, void *A,
                   blacs_int lda)
{
#define TAIL lda
    DISPATCH(t, gebs2d, c, scope, top, m, n);
#undef TAIL
}
static void c_gebr(int t, blacs_int c, char *scope, char *top, blacs_int m, blacs_int n, void *A,
                   blacs_int lda, blacs_int rs, blacs_int cs)
{
#define TAIL lda, rs, cs
    DISPATCH(t, gebr2d, c, scope, top, m, n);
#undef TAIL
}
static void c_trbs(int t, blacs_int c, char *scope, char *top, char *uplo, char *diag, blacs_int m,
                   blacs_int n, void *A, blacs_int lda)
{
#define TAIL lda
    DISPATCH(t, trbs2d, c, scope, top, uplo, diag, m, n);
#undef TAIL
}
static void c_trbr(int t, blacs_int c, char *scope, char *top, char *uplo, char *diag, blacs_int m,
                   blacs_int n, void *A, blacs_int lda, blacs_int rs, blacs_int cs)
{
#define TAIL lda, rs, cs
    DISPATCH(t, trbr2d, c, scope, top, uplo, diag, m, n);
#undef TAIL
}
static void c_gsum(int t, blacs_int c, char *scope, char *top, blacs_int m, blacs_int n, void *A,
                   blacs_int lda, blacs_int rd, blacs_int cd)
{
#define TAIL lda, rd, cd
    DISPATCH(t, gsum2d, c, scope, top, m, n);
#undef TAIL
}
static void c_gamx(int t, blacs_int c, char *scope, char *top, blacs_int m, blacs_int n, void *A,
                   blacs_int lda, blacs_int *ra, blacs_int *ca, blacs_int ldia, blacs_int rd,
                   blacs_int cd)
{
#define TAIL lda, ra, ca, ldia, rd, cd
    DISPATCH(t, gamx2d, c, scope, top, m, n);
#undef TAIL
}
static void c_gamn(int t, blacs_int c, char *scope, char *top, blacs_int m, blacs_int n, void *A,
                   blacs_int lda, blacs_int *ra, blacs_int *ca, blacs_int ldia, blacs_int rd,
                   blacs_int cd)
{
#define TAIL lda, ra, ca, ldia, rd, cd
    DISPATCH(t, gamn2d, c, scope, top, m, n);
#undef TAIL
}

static blacs_int c_sys_world(void) { return Csys2blacs_handle(MPI_COMM_WORLD); }
static int c_sys_is_world(blacs_int h)
{
    int r;
    MPI_Comm_compare(Cblacs2sys_handle(h), MPI_COMM_WORLD, &r);
    return r == MPI_IDENT;
}

static const bt_api capi = {
    .name = "C",
    .pinfo = Cblacs_pinfo,
    .setup = Cblacs_setup,
    .get = Cblacs_get,
    .set = Cblacs_set,
    .gridinit = Cblacs_gridinit,
    .gridmap = Cblacs_gridmap,
    .freebuff = Cblacs_freebuff,
    .gridexit = Cblacs_gridexit,
    .abort_ = Cblacs_abort,
    .exit_ = Cblacs_exit,
    .gridinfo = Cblacs_gridinfo,
    .pnum = Cblacs_pnum,
    .pcoord = Cblacs_pcoord,
    .barrier = Cblacs_barrier,
    .ksendid = Cksendid,
    .krecvid = Ckrecvid,
    .kbsid = Ckbsid,
    .kbrid = Ckbrid,
    .dcputime = Cdcputime00,
    .dwalltime = Cdwalltime00,
    .sys_world = c_sys_world,
    .sys_is_world = c_sys_is_world,
    .sys_free = Cfree_blacs_system_handle,
    .gesd = c_gesd, .gerv = c_gerv, .trsd = c_trsd, .trrv = c_trrv,
    .gebs = c_gebs, .gebr = c_gebr, .trbs = c_trbs, .trbr = c_trbr,
    .gsum = c_gsum, .gamx = c_gamx, .gamn = c_gamn,
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return bt_run(&capi, argc, argv);
}
