/*
 * t_grid.c -- contexts and support routines through the C interface (4 or
 * 6 processes): GRIDINIT in both orders, GRIDMAP with holes, two disjoint
 * grids talking inside themselves at the same time, overlapping grids,
 * PNUM/PCOORD against the map, GET/SET round trips, system handles,
 * barriers in every scope, FREEBUFF, message IDs (KSENDID/KRECVID/KBSID/
 * KBRID follow LAWN 73 6.1), wildcard receive, DCPUTIME00/DWALLTIME00.
 */
#include "tutil.h"

static void orders(blacs_int np)
{
    for (int o = 0; o < 2; o++) {
        blacs_int ctxt, nr, nc, r, c, pr = 2, pc = np / 2, me, n;
        Cblacs_pinfo(&me, &n);
        Cblacs_get(0, 0, &ctxt);
        Cblacs_gridinit(&ctxt, o ? "Col" : "Row", pr, pc);
        Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
        /* world rank me sits at row-major (me/pc, me%pc) or column-major (me%pr, me/pr) */
        blacs_int er = o ? me % pr : me / pc, ec = o ? me / pr : me % pc;
        TU_CHECK(nr == pr && nc == pc && r == er && c == ec,
                 "order %s: rank %ld at {%ld,%ld}, expected {%ld,%ld}", o ? "C" : "R", (long)me,
                 (long)r, (long)c, (long)er, (long)ec);
        /* PNUM/PCOORD: inverse of each other on the grid's row-major numbering */
        int ok = 1;
        for (blacs_int i = 0; i < pr; i++)
            for (blacs_int j = 0; j < pc; j++) {
                blacs_int p = Cblacs_pnum(ctxt, i, j), a, b;
                Cblacs_pcoord(ctxt, p, &a, &b);
                if (p != i * pc + j || a != i || b != j) ok = 0;
            }
        blacs_int a, b;
        Cblacs_pcoord(ctxt, np + 3, &a, &b);
        TU_CHECK(ok && Cblacs_pnum(ctxt, pr, 0) == -1 && a == -1 && b == -1, "pnum/pcoord");
        /* GET 10 gives a system context whose ranks are the PNUMs */
        blacs_int sys;
        Cblacs_get(ctxt, 10, &sys);
        MPI_Comm sc = Cblacs2sys_handle(sys);
        int sr;
        MPI_Comm_rank(sc, &sr);
        TU_CHECK(sr == Cblacs_pnum(ctxt, r, c), "GET 10 rank %d vs pnum", sr);
        Cblacs_gridexit(ctxt);
        Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
        TU_CHECK(nr == -1 && nc == -1 && r == -1 && c == -1, "gridinfo of an exited context");
    }
}

/* two disjoint 1xk grids (even and odd world ranks) exchange at the same
 * time; a third grid overlaps both */
static void disjoint(blacs_int np)
{
    blacs_int me, n, ctxt, half = np / 2, map[8], nr, nc, r, c;
    Cblacs_pinfo(&me, &n);
    blacs_int mine = -1;
    for (int g = 0; g < 2; g++) {
        for (blacs_int k = 0; k < half; k++) map[k] = 2 * k + g;
        Cblacs_get(0, 0, &ctxt);
        Cblacs_gridmap(&ctxt, map, 1, 1, half);
        if (me % 2 == g) {
            TU_CHECK(ctxt >= 0, "member of grid %d got no context", g);
            mine = ctxt;
        } else
            TU_CHECK(ctxt == -1, "non-member of grid %d got context %ld", g, (long)ctxt);
    }
    /* an overlapping 2 x half grid over everyone, reversed */
    blacs_int all;
    for (blacs_int k = 0; k < np; k++) map[k] = np - 1 - k;
    Cblacs_get(0, 0, &all);
    Cblacs_gridmap(&all, map, 2, 2, half);
    Cblacs_gridinfo(all, &nr, &nc, &r, &c);
    /* map(i,j) = map[j*2+i] = np-1-(j*2+i) */
    TU_CHECK(nr == 2 && nc == half && np - 1 - (c * 2 + r) == me, "mapped grid position {%ld,%ld}",
             (long)r, (long)c);
    /* ring exchange inside each disjoint grid, interleaved with the big grid */
    Cblacs_gridinfo(mine, &nr, &nc, &r, &c);
    double v = 100.0 * (double)me, w = -1;
    Cdgesd2d(mine, 1, 1, &v, 1, 0, (c + 1) % nc);
    double u = me;
    Cdgesd2d(all, 1, 1, &u, 1, 0, 0);
    Cdgerv2d(mine, 1, 1, &w, 1, 0, (c + nc - 1) % nc);
    blacs_int left = (me % 2) + 2 * ((c + nc - 1) % nc);
    TU_CHECK(w == 100.0 * (double)left, "disjoint grid got %g, expected %g", w, 100.0 * (double)left);
    blacs_int ar, ac, anr, anc;
    Cblacs_gridinfo(all, &anr, &anc, &ar, &ac);
    if (ar == 0 && ac == 0) {
        double sum = 0, x;
        for (blacs_int i = 0; i < anr; i++)
            for (blacs_int j = 0; j < anc; j++) {
                Cdgerv2d(all, 1, 1, &x, 1, i, j);
                sum += x;
            }
        TU_CHECK(sum == (double)(np * (np - 1) / 2), "sum over mapped grid %g", sum);
    }
    Cblacs_barrier(all, "All");
    Cblacs_gridexit(mine);
    Cblacs_gridexit(all);
}

static void getset(void)
{
    blacs_int ctxt, v, range[2];
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2 > 1 ? 2 : 1);
    if (ctxt < 0) return;
    static const blacs_int what[] = {11, 12, 13, 14, 15, 16};
    static const blacs_int val[] = {-3, 4, 2, 3, 1, 1};
    for (int k = 0; k < 6; k++) {
        blacs_int x = val[k];
        Cblacs_set(ctxt, what[k], &x);
        Cblacs_get(ctxt, what[k], &v);
        TU_CHECK(v == val[k], "GET %ld after SET %ld", (long)v, (long)val[k]);
    }
    Cblacs_get(-1, 1, range);
    TU_CHECK(range[0] >= 0 && range[1] > range[0], "message-ID range [%ld,%ld]", (long)range[0],
             (long)range[1]);
    Cblacs_get(-1, 2, &v);
    TU_CHECK(v >= 0 && v <= 3, "debug level %ld", (long)v);
    Cblacs_gridexit(ctxt);
}

/* message IDs: KSENDID on the sender equals KRECVID on the receiver, before
 * and after messages; scoped IDs agree on every member */
static void msgids(blacs_int np)
{
    blacs_int ctxt, nr, nc, r, c;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 2, np / 2);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    blacs_int ids[3] = {0, 0, 0};
    for (int round = 0; round < 3; round++) {
        if (r == 0 && c == 0) {
            blacs_int id = Cksendid(ctxt, 1, 0);
            Cigesd2d(ctxt, 1, 1, &id, 1, 1, 0);
            ids[round] = id;
            blacs_int x = 7;
            Cigesd2d(ctxt, 1, 1, &x, 1, 1, 0);
        }
        if (r == 1 && c == 0) {
            blacs_int want = Ckrecvid(ctxt, 0, 0), got, x;
            Cigerv2d(ctxt, 1, 1, &got, 1, 0, 0);
            TU_CHECK(got == want, "round %d: sender's ID %ld, receiver expects %ld", round,
                     (long)got, (long)want);
            Cigerv2d(ctxt, 1, 1, &x, 1, 0, 0);
        }
    }
    if (r == 0 && c == 0)
        TU_CHECK(ids[1] == ids[0] + 2 && ids[2] == ids[1] + 2, "IDs advance per message: %ld %ld %ld",
                 (long)ids[0], (long)ids[1], (long)ids[2]);
    /* scoped: the sender's next broadcast ID equals what every receiver expects */
    blacs_int bs = Ckbsid(ctxt, "All"), br;
    blacs_int root = 0;
    if (r == 0 && c == 0) Cigebs2d(ctxt, "All", " ", 1, 1, &bs, 1);
    else {
        br = Ckbrid(ctxt, "All", 0, 0);
        Cigebr2d(ctxt, "All", " ", 1, 1, &root, 1, 0, 0);
        TU_CHECK(root == br, "KBSID on the source %ld, KBRID here %ld", (long)root, (long)br);
    }
    /* row and column scopes use disjoint ID ranges */
    TU_CHECK(Ckbsid(ctxt, "R") != Ckbsid(ctxt, "C"), "row and column IDs coincide");
    Cblacs_gridexit(ctxt);
}

/* RSRC = CSRC = -1 receives from anyone; Cblacs_lastsrc tells who */
static void wildcard(blacs_int np)
{
    blacs_int ctxt, nr, nc, r, c;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    if (c != 0) {
        blacs_int v[2] = {c, 10 * c};
        Cigesd2d(ctxt, 2, 1, v, 2, 0, 0);
        Cigesd2d(ctxt, 2, 1, v, 2, 0, 0);
    } else {
        int seen[16] = {0}, ok = 1;
        for (blacs_int k = 0; k < 2 * (np - 1); k++) {
            blacs_int v[2], sr, sc;
            Cigerv2d(ctxt, 2, 1, v, 2, -1, -1);
            Cblacs_lastsrc(ctxt, &sr, &sc);
            if (sr != 0 || sc != v[0] || v[1] != 10 * v[0]) ok = 0;
            seen[v[0]]++;
        }
        for (blacs_int k = 1; k < np; k++)
            if (seen[k] != 2) ok = 0;
        TU_CHECK(ok, "wildcard receives");
    }
    Cblacs_barrier(ctxt, "A");
    Cblacs_gridexit(ctxt);
}

static void misc(void)
{
    blacs_int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 2, 2);
    /* an unknown scope is an argument error (rev_blk_barrier_X), not a no-op */
    const char *sc[] = {"A", "R", "C", "R", "A", "C", "c", "r", "all"};
    for (int k = 0; k < 9; k++) Cblacs_barrier(ctxt, (char *)sc[k]);
    Cblacs_freebuff(ctxt, 0);
    Cblacs_freebuff(ctxt, 1);
    double t0 = Cdwalltime00(), c0 = Cdcputime00();
    volatile double x = 0;
    for (int i = 0; i < 2000000; i++) x += 1e-9 * i;
    TU_CHECK(Cdwalltime00() >= t0 && Cdcputime00() > c0, "timers");
    /* system handles: world is 0, a new communicator gets a new stable one */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    blacs_int h = Csys2blacs_handle(dup);
    TU_CHECK(Csys2blacs_handle(MPI_COMM_WORLD) == 0 && h > 0 && Csys2blacs_handle(dup) == h,
             "system handles %ld", (long)h);
    blacs_int g = h, nr, nc, r, c;
    Cblacs_gridinit(&g, "R", 1, 4);
    Cblacs_gridinfo(g, &nr, &nc, &r, &c);
    TU_CHECK(nr == 1 && nc == 4, "grid on a user communicator");
    Cblacs_gridexit(g);
    Cfree_blacs_system_handle(h);
    MPI_Comm_free(&dup);
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int me, np;
    Cblacs_pinfo(&me, &np);
    orders(np);
    disjoint(np);
    getset();
    msgids(np);
    wildcard(np);
    if (np == 4) misc();
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
