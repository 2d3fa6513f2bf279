/*
 * t_argerr.c MODE -- makes one bad call (chosen by MODE) on 2 processes and
 * expects the library to stop the job with a BLACS error naming the routine
 * and the argument (the runner checks the message and the non-zero exit).
 * If the call returns, this program exits 0 and the test fails.
 */
#include "tutil.h"

/* the Fortran-callable entry points, called the way Fortran would */
void dgesd2d_(blacs_int *, blacs_int *, blacs_int *, double *, blacs_int *, blacs_int *, blacs_int *);
void blacs_gridexit_(blacs_int *);

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "";
    blacs_int me, np, ctxt, nr, nc, r, c, sys;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &sys);
    ctxt = sys;
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    double a[64] = {0};
    blacs_int ia[64] = {0};
    blacs_int one = 1, m = 4, n = 2, zero = 0;
#define IS(x) (strcmp(mode, x) == 0)
    if (IS("ctxt")) Cdgesd2d(ctxt + 5, 1, 1, a, 1, 0, 0);
    else if (IS("exited")) { Cblacs_gridexit(ctxt); Cdgerv2d(ctxt, 1, 1, a, 1, 0, 0); }
    else if (IS("m")) Cdgesd2d(ctxt, -1, 1, a, 1, 0, 0);
    else if (IS("n")) Csgesd2d(ctxt, 1, -2, (float *)a, 1, 0, 0);
    else if (IS("lda")) Czgesd2d(ctxt, 4, 3, a, 2, 0, 0);
    else if (IS("rdest")) Cdgesd2d(ctxt, 1, 1, a, 1, 1, 0);
    else if (IS("cdest")) Cigesd2d(ctxt, 1, 1, ia, 1, 0, np);
    else if (IS("rsrc")) Cdgerv2d(ctxt, 1, 1, a, 1, -2, 0);
    else if (IS("uplo")) Cdtrsd2d(ctxt, "X", "N", 2, 2, a, 2, 0, 0);
    else if (IS("diag")) Cctrrv2d(ctxt, "U", "Q", 2, 2, (float *)a, 2, 0, 0);
    else if (IS("scope")) Cdgebs2d(ctxt, "Q", " ", 1, 1, a, 1);
    else if (IS("top")) Cdgebs2d(ctxt, "All", "?", 1, 1, a, 1);
    else if (IS("combscope")) Cdgsum2d(ctxt, "Z", " ", 1, 1, a, 1, -1, -1);
    else if (IS("combtop")) Cigsum2d(ctxt, "R", "%", 1, 1, ia, 1, -1, -1);
    else if (IS("grid")) { blacs_int g = sys; Cblacs_gridinit(&g, "R", np + 1, 1); }
    else if (IS("grid0")) { blacs_int g = sys; Cblacs_gridinit(&g, "R", 0, 1); }
    else if (IS("exit2")) { Cblacs_gridexit(ctxt); Cblacs_gridexit(ctxt); }
    else if (IS("exitbad")) Cblacs_gridexit(12345);
    else if (IS("syshandle")) Cblacs2sys_handle(77);
    else if (IS("map")) { blacs_int map[2] = {0, 0}, g = sys; Cblacs_gridmap(&g, map, 1, 1, 2); }
    else if (IS("br_rsrc")) Cdgebr2d(ctxt, "Row", " ", 1, 1, a, 1, 0, np + 2);
    else if (IS("comb_rdest")) Cdgsum2d(ctxt, "All", " ", 1, 1, a, 1, 3, 0);
    else if (IS("ldia")) { blacs_int ra[12], ca[12]; Cdgamx2d(ctxt, "All", " ", 4, 3, a, 4, ra, ca, 2, -1, -1); }
    else if (IS("trbs_uplo")) Cstrbs2d(ctxt, "All", " ", "Z", "N", 2, 2, (float *)a, 2);
    else if (IS("trbr_diag")) Cztrbr2d(ctxt, "All", "1", "L", "X", 2, 2, a, 2, 0, 0);
    else if (IS("gsum_m")) Cdgsum2d(ctxt, "All", " ", -4, 1, a, 1, -1, -1);
    else if (IS("gamn_n")) { blacs_int ra[4], ca[4]; Cigamn2d(ctxt, "All", " ", 1, -1, ia, 1, ra, ca, -1, -1, -1); }
    else if (IS("gebs_lda")) Cdgebs2d(ctxt, "All", " ", 5, 2, a, 3);
    else if (IS("pnum_exited")) { Cblacs_gridexit(ctxt); Cblacs_pnum(ctxt, 0, 0); }
    else if (IS("barrier_ctxt")) Cblacs_barrier(ctxt + 40, "All");
    else if (IS("set_ctxt")) { blacs_int v = 2; Cblacs_set(ctxt + 40, 11, &v); }
    else if (IS("get10_ctxt")) { blacs_int v; Cblacs_get(-7, 10, &v); }
    else if (IS("ksendid")) Cksendid(ctxt, 0, np);
    else if (IS("kbsid_scope")) Ckbsid(ctxt, "Q");
    else if (IS("map_ldup")) { blacs_int map[4] = {0, 1, 0, 1}, g = sys; Cblacs_gridmap(&g, map, 0, 1, 2); }
    else if (IS("map_range")) { blacs_int map[2] = {0, 9}, g = sys; Cblacs_gridmap(&g, map, 1, 1, 2); }
    else if (IS("commnull")) Csys2blacs_handle(MPI_COMM_NULL);
    else if (IS("bs_exited")) { Cblacs_gridexit(ctxt); Cigebs2d(ctxt, "All", " ", 1, 1, ia, 1); }
    else if (IS("tuop_null")) Cdtuop2d(ctxt, "All", " ", "G", "N", 1, 1, a, 1, -1, -1, NULL, NULL, NULL);
    else if (IS("fortran_m")) { blacs_int bad = -3; dgesd2d_(&ctxt, &bad, &one, a, &one, &zero, &zero); }
    else if (IS("fortran_lda")) dgesd2d_(&ctxt, &m, &n, a, &one, &zero, &zero);
    else if (IS("fortran_exit")) { blacs_int bad = 999; blacs_gridexit_(&bad); }
    else if (IS("truncate")) {
        /* receiver expects fewer elements than were sent */
        if (c == 0) Cdgesd2d(ctxt, 8, 1, a, 8, 0, 1);
        if (c == 1) Cdgerv2d(ctxt, 4, 1, a, 4, 0, 0);
    } else if (IS("bufexhaust")) {
        /* BLACS_BUFMAX=8M BLACS_BUFWAIT=1 in the environment: 20 unreceived 1 MB
         * sends cannot all be buffered; the error names the outstanding sends */
        double *big = calloc(131072, sizeof *big);
        if (c == 0)
            for (int k = 0; k < 20; k++) Cdgesd2d(ctxt, 131072, 1, big, 131072, 0, 1);
        Cblacs_barrier(ctxt, "A");
        free(big);
    } else if (IS("abort")) {
        if (c == np - 1) Cblacs_abort(ctxt, 7);
        for (;;) { volatile int x = 0; (void)x; }
    } else {
        fprintf(stderr, "t_argerr: unknown mode '%s'\n", mode);
        return 2;
    }
    printf("t_argerr: the bad call '%s' returned\n", mode);
    Cblacs_exit(0);
    return 0;
}
