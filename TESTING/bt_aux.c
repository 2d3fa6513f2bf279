/*
 * bt_aux.c -- auxiliary tests on an even number NP of
 * processes: PINFO/SETUP, BLACS_GET/SET, PNUM/PCOORD, GRIDMAP, FREEBUFF,
 * BARRIER in mixed scopes, locally-blocking sends (each of two processes
 * sends three messages before receiving: a library whose sends block hangs,
 * which the watchdog reports), repeatable and coherent sums, the message-ID
 * and timer functions and system handles, GRIDEXIT.  Each item's outcome is
 * the AND over all processes (computed over bt_comm, not the BLACS).
 * BLACS_ABORT needs a run of its own: bt_abort_test().
 */
#include "bt.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int aux_np, aux_pass, aux_fail, aux_skip, aux_ok;
static const char *aux_name;

static void item_begin(const char *name)
{
    aux_name = name;
    aux_ok = 1;
    bt_watch(name, 0);
}

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "BLACS tester: process %d: AUX %s: ", bt_iam, aux_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    aux_ok = 0;
}

static void item_end(void)
{
    bt_unwatch();
    int all;
    MPI_Allreduce(&aux_ok, &all, 1, MPI_INT, MPI_LAND, bt_comm);
    bt_say("  %-48s %s\n", aux_name, all ? "PASSED" : "FAILED");
    if (all) aux_pass++;
    else aux_fail++;
}

#define EXPECT(cond, ...) do { if (!(cond)) bad(__VA_ARGS__); } while (0)

static void t_pinfo(void)
{
    item_begin("BLACS_PINFO / BLACS_SETUP");
    blacs_int me, np, me2 = -5, np2 = -5;
    int wr, ws;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_size(MPI_COMM_WORLD, &ws);
    bt->pinfo(&me, &np);
    bt->setup(&me2, &np2);
    EXPECT(me == wr && np == ws, "PINFO gave (%ld,%ld), MPI (%d,%d)", (long)me, (long)np, wr, ws);
    EXPECT(me2 == me && np2 == np, "SETUP gave (%ld,%ld), PINFO (%ld,%ld)", (long)me2, (long)np2,
           (long)me, (long)np);
    item_end();
}

static void expect_get(blacs_int ctxt, blacs_int what, blacs_int want, const char *when)
{
    blacs_int v = -999;
    bt->get(ctxt, what, &v);
    EXPECT(v == want, "%s: BLACS_GET(%ld) = %ld, expected %ld", when, (long)what, (long)v,
           (long)want);
}

static void t_getset(blacs_int ctxt)
{
    item_begin("BLACS_GET / BLACS_SET");
    if (ctxt >= 0) {
        blacs_int v;
        expect_get(ctxt, 11, 1, "new context");
        expect_get(ctxt, 12, 1, "new context");
        expect_get(ctxt, 13, 1, "new context");
        expect_get(ctxt, 14, 1, "new context");
        expect_get(ctxt, 15, 0, "new context");
        expect_get(ctxt, 16, 0, "new context");
        v = 3; bt->set(ctxt, 11, &v);
        v = 2; bt->set(ctxt, 12, &v);
        expect_get(ctxt, 12, 2, "after SET 11=3, 12=2");
        expect_get(ctxt, 11, 3, "after SET 11=3, 12=2");
        v = -2; bt->set(ctxt, 13, &v);
        v = 3; bt->set(ctxt, 14, &v);
        expect_get(ctxt, 14, 3, "after SET 13=-2, 14=3");
        expect_get(ctxt, 13, -2, "after SET 13=-2, 14=3");
        v = 1; bt->set(ctxt, 15, &v);
        v = 1; bt->set(ctxt, 16, &v);
        expect_get(ctxt, 15, 1, "after SET 15=1");
        expect_get(ctxt, 16, 1, "after SET 16=1");
        v = 0; bt->set(ctxt, 15, &v); bt->set(ctxt, 16, &v);
        expect_get(ctxt, 15, 0, "after SET 15=0");
        v = 1;
        bt->set(ctxt, 11, &v); bt->set(ctxt, 12, &v); bt->set(ctxt, 13, &v); bt->set(ctxt, 14, &v);
        expect_get(ctxt, 11, 1, "after reset");
        expect_get(ctxt, 12, 1, "after reset");
        /* message-ID range, debug level, default system context */
        blacs_int r[2] = {-1, -1};
        bt->get(ctxt, 1, r);
        EXPECT(r[0] >= 0 && r[1] > r[0], "BLACS_GET(1) = (%ld,%ld)", (long)r[0], (long)r[1]);
        bt->get(ctxt, 2, &v);
        EXPECT(v >= 0, "BLACS_GET(2) = %ld", (long)v);
        blacs_int h0 = -1;
        bt->get(-1, 0, &h0);
        blacs_int hw = bt->sys_world();
        EXPECT(h0 == hw, "BLACS_GET(0) = %ld but SYS2BLACS_HANDLE(world) = %ld", (long)h0, (long)hw);
        EXPECT(bt->sys_is_world(h0), "BLACS2SYS_HANDLE(%ld) is not MPI_COMM_WORLD", (long)h0);
    }
    item_end();
}

static void t_pnum(blacs_int ctx1)
{
    item_begin("BLACS_PNUM / BLACS_PCOORD / GRIDINIT order");
    int np = aux_np;
    if (ctx1 >= 0) {
        for (int k = 0; k < np; k++) {
            blacs_int r = -5, c = -5;
            bt->pcoord(ctx1, k, &r, &c);
            EXPECT(r == 0 && c == k, "1x%d grid: PCOORD(%d) = (%ld,%ld)", np, k, (long)r, (long)c);
            blacs_int pn = bt->pnum(ctx1, 0, k);
            EXPECT(pn == k, "1x%d grid: PNUM(0,%d) = %ld", np, k, (long)pn);
        }
        blacs_int pn = bt->pnum(ctx1, 0, np), r = 0, c = 0;
        EXPECT(pn == -1, "PNUM outside the grid = %ld, expected -1", (long)pn);
        bt->pcoord(ctx1, np, &r, &c);
        EXPECT(r == -1 && c == -1, "PCOORD outside the grid = (%ld,%ld)", (long)r, (long)c);
    }
    /* column-major 2 x NP/2 grid: world rank c*2+r sits at (r,c); PNUM stays row-major */
    blacs_int ctxc, nr, nc, mr, mc;
    bt->get(0, 0, &ctxc);
    bt->gridinit(&ctxc, "Column-major", 2, np / 2);
    bt->gridinfo(ctxc, &nr, &nc, &mr, &mc);
    if (bt_iam < np) {
        EXPECT(nr == 2 && nc == np / 2, "'C' grid is %ldx%ld", (long)nr, (long)nc);
        EXPECT(mr == bt_iam % 2 && mc == bt_iam / 2, "'C' grid: rank %d at (%ld,%ld)", bt_iam,
               (long)mr, (long)mc);
        blacs_int pn = bt->pnum(ctxc, mr, mc);
        EXPECT(pn == mr * (np / 2) + mc, "'C' grid: PNUM(%ld,%ld) = %ld", (long)mr, (long)mc, (long)pn);
        blacs_int r = -5, c = -5;
        bt->pcoord(ctxc, pn, &r, &c);
        EXPECT(r == mr && c == mc, "'C' grid: PCOORD(%ld) = (%ld,%ld)", (long)pn, (long)r, (long)c);
        bt->gridexit(ctxc);
    } else {
        EXPECT(ctxc == -1 && nr == -1, "non-member got context %ld (%ldx%ld)", (long)ctxc, (long)nr,
               (long)nc);
    }
    item_end();
}

/* GRIDMAP on the system context of the 1 x NP grid (GET 10); returns the new context */
static blacs_int t_gridmap(blacs_int ctx1)
{
    item_begin("BLACS_GRIDMAP (on BLACS_GET 10)");
    int np = aux_np, h = np / 2;
    blacs_int ctxm = -1;
    if (ctx1 >= 0) {
        blacs_int sys, map[2 * 64];
        blacs_int nr, nc, mr, mc, r1, c1;
        bt->gridinfo(ctx1, &nr, &nc, &r1, &c1);
        bt->get(ctx1, 10, &sys);
        for (int k = 0; k < np; k++) map[k] = bt->pnum(ctx1, 0, (k + h) % np);
        ctxm = sys;
        bt->gridmap(&ctxm, map, 2, 2, h);
        bt->gridinfo(ctxm, &nr, &nc, &mr, &mc);
        int k = (int)((c1 - h + np) % np);
        EXPECT(nr == 2 && nc == h, "mapped grid is %ldx%ld, expected 2x%d", (long)nr, (long)nc, h);
        EXPECT(mr == k % 2 && mc == k / 2, "column %ld of the 1x%d grid is at (%ld,%ld), expected (%d,%d)",
               (long)c1, np, (long)mr, (long)mc, k % 2, k / 2);
        /* everyone tells (0,0) who it is, through IGESD2D/IGERV2D */
        blacs_int me[3] = {c1, mr, mc};
        bt->gesd(BT_I, ctxm, 3, 1, me, 3, 0, 0);
        if (mr == 0 && mc == 0) {
            for (int r = 0; r < 2; r++)
                for (int c = 0; c < h; c++) {
                    blacs_int got[3] = {-1, -1, -1};
                    bt->gerv(BT_I, ctxm, 3, 1, got, 3, r, c);
                    int kk = c * 2 + r;
                    EXPECT(got[0] == (kk + h) % np && got[1] == r && got[2] == c,
                           "(%d,%d) reports column %ld and (%ld,%ld)", r, c, (long)got[0],
                           (long)got[1], (long)got[2]);
                    EXPECT(bt->pnum(ctxm, r, c) == r * h + c, "PNUM(%d,%d) = %ld", r, c,
                           (long)bt->pnum(ctxm, r, c));
                }
        }
        /* the free-buffer calls complete once nothing is pending */
        bt->freebuff(ctxm, 0);
        bt->freebuff(ctxm, 1);
    }
    item_end();
    return ctxm;
}

static void t_barrier(blacs_int ctxm)
{
    item_begin("BLACS_BARRIER in scopes A,R,C,R,A,C,C,R,A");
    static char *seq[] = {"A", "R", "C", "R", "A", "C", "C", "R", "A"};
    if (ctxm >= 0)
        for (int k = 0; k < 9; k++) bt->barrier(ctxm, seq[k]);
    /* a barrier waits: (0,0) arrives 300 ms late, its scope must wait for it */
    static char *sc[] = {"All", "Row", "Column"};
    for (int k = 0; k < 3; k++) {
        blacs_int nr = -1, nc = -1, mr = -1, mc = -1;
        if (ctxm >= 0) bt->gridinfo(ctxm, &nr, &nc, &mr, &mc);
        MPI_Barrier(bt_comm);
        double t0 = MPI_Wtime();
        if (ctxm >= 0) {
            if (mr == 0 && mc == 0) bt_sleep_ms(300);
            bt->barrier(ctxm, sc[k]);
            double dt = MPI_Wtime() - t0;
            int inscope = k == 0 || (k == 1 && mr == 0) || (k == 2 && mc == 0);
            EXPECT(!inscope || dt >= 0.2, "BARRIER '%s' returned after %.3f s, before (0,0) arrived",
                   sc[k], dt);
        }
    }
    item_end();
}

/* three messages each way before any receive */
static void t_locblock(blacs_int ctxm)
{
    item_begin("locally-blocking sends (3 before receiving)");
    blacs_int nr = -1, nc = -1, mr = -1, mc = -1;
    if (ctxm >= 0) bt->gridinfo(ctxm, &nr, &nc, &mr, &mc);
    int isa = ctxm >= 0 && mr == 0 && mc == 0, isb = ctxm >= 0 && mr == nr - 1 && mc == nc - 1;
    if (isa || isb) {
        const blacs_int K = 50000;
        blacs_int orow = isa ? nr - 1 : 0, ocol = isa ? nc - 1 : 0;
        int me = isa ? 0 : 1, other = 1 - me;
        bt_shape ge = {0, 'U', 'N'}, tr = {1, 'U', 'N'};
        /* contiguous integer vectors; then a non-contiguous I x 4 block of
         * doubles with LDA = K/4; then the same as a trapezoid */
        for (int round = 0; round < 3; round++) {
            int t = round == 0 ? BT_I : BT_D;
            blacs_int m = round == 0 ? K : (K / 4) / 4, n = round == 0 ? 1 : 4;
            blacs_int lda = round == 0 ? K : K / 4;
            const bt_shape *sh = round == 2 ? &tr : &ge;
            if (m < 2) m = 2;
            bt_mat s[3], r[3];
            for (int k = 0; k < 3; k++) {
                bt_genarg ga = {1000 + 10 * round + k, me, 999};
                bt_mat_alloc(&s[k], t, m, n, lda);
                bt_mat_pad(&s[k], -0.01, 0);
                bt_mat_fill(&s[k], sh, bt_want_gen, &ga);
                if (round == 2) bt->trsd(t, ctxm, "U", "N", m, n, s[k].a, lda, orow, ocol);
                else bt->gesd(t, ctxm, m, n, s[k].a, lda, orow, ocol);
            }
            /* the send buffers may be reused at once: scribble over them */
            for (int k = 0; k < 3; k++) bt_mat_pad(&s[k], -0.03, 0);
            for (int k = 0; k < 3; k++) {
                bt_genarg ga = {1000 + 10 * round + k, other, 999};
                bt_mat_alloc(&r[k], t, m, n, lda);
                bt_mat_pad(&r[k], -0.02, 0);
                if (round == 2) bt->trrv(t, ctxm, "U", "N", m, n, r[k].a, lda, orow, ocol);
                else bt->gerv(t, ctxm, m, n, r[k].a, lda, orow, ocol);
                long nb = bt_mat_check(&r[k], sh, bt_want_gen, &ga, -0.02, 0, 0, BT_R_A);
                EXPECT(nb == 0, "message %d of round %d: %ld bad elements or guards", k + 1,
                       round + 1, nb);
            }
            for (int k = 0; k < 3; k++) {
                bt_mat_free(&s[k]);
                bt_mat_free(&r[k]);
            }
        }
    }
    item_end();
}

/* data whose sum depends on the order of the additions */
static double rsval(int proc, int i, int call)
{
    (void)call;
    double u = bt_gen(77, proc, i, 0, 0, 1000000) / 1000000.0;
    int e = (int)bt_gen(78, proc, i, 0, 0, 8);
    return u * pow(10.0, e) + (proc == 1 ? 1.0 : 1e-9);
}

static void t_repeat_coherent(blacs_int ctxm, const char *tops)
{
    enum { LEN = 64 };
    double x[LEN], first[LEN];
    blacs_int nr = -1, nc = -1, mr = -1, mc = -1;
    if (ctxm >= 0) bt->gridinfo(ctxm, &nr, &nc, &mr, &mc);
    int me = ctxm >= 0 ? (int)(mr * nc + mc) : -1;
    for (int pass = 0; pass < 2; pass++) {
        char name[64];
        snprintf(name, sizeof name, pass == 0 ? "repeatable sums (BLACS_SET 15)"
                                              : "coherent sums (BLACS_SET 16)");
        item_begin(name);
        for (const char *tp = tops; *tp; tp++) {
            char top[2] = {*tp, 0};
            if (pass == 1 && *tp == ' ') continue;   /* MPI_Allreduce is trusted */
            blacs_int v = pass == 0;
            int diff = 0;
            if (ctxm >= 0) {
                bt->set(ctxm, 15, &v);
                v = pass == 1;
                bt->set(ctxm, 16, &v);
            }
            int ncall = pass == 0 ? 4 : 1;
            for (int call = 0; call < ncall; call++) {
                if (ctxm >= 0) {
                    for (int i = 0; i < LEN; i++) x[i] = rsval(me, i, call);
                    /* a different process is late each time: arrival order changes */
                    if (me == call % aux_np && call > 0) bt_sleep_ms(20);
                    bt->gsum(BT_D, ctxm, "All", top, LEN, 1, x, LEN, -1, -1);
                    if (call == 0) memcpy(first, x, sizeof x);
                    else if (memcmp(first, x, sizeof x) != 0) diff = 1;
                }
            }
            if (pass == 0) {
                EXPECT(!diff, "TOP '%c': repeated sums differ with the repeat flag set", *tp);
            } else {
                /* every process holds the same bits */
                double ref[LEN];
                int member = ctxm >= 0, root_member = 0;
                if (bt_iam == 0) { memcpy(ref, first, sizeof ref); root_member = member; }
                MPI_Bcast(ref, LEN, MPI_DOUBLE, 0, bt_comm);
                MPI_Bcast(&root_member, 1, MPI_INT, 0, bt_comm);
                if (member && root_member)
                    EXPECT(memcmp(ref, first, sizeof ref) == 0,
                           "TOP '%c': leave-on-all sum differs from process 0's with the coherence flag set",
                           *tp);
            }
            if (ctxm >= 0) {
                v = 0;
                bt->set(ctxm, 15, &v);
                bt->set(ctxm, 16, &v);
            }
        }
        item_end();
    }
}

static void t_misc(void)
{
    item_begin("KSENDID/KRECVID/KBSID/KBRID, timers, handles");
    blacs_int ctx, nr, nc, mr, mc;
    bt->get(0, 0, &ctx);
    bt->gridinit(&ctx, "R", 1, aux_np);
    if (ctx >= 0) {
        /* a context of its own: the ID functions may move its counters */
        bt->gridinfo(ctx, &nr, &nc, &mr, &mc);
        blacs_int s = bt->ksendid(ctx, 0, (mc + 1) % nc), r = bt->krecvid(ctx, 0, (mc + nc - 1) % nc);
        EXPECT(s >= 0 && r >= 0, "KSENDID = %ld, KRECVID = %ld", (long)s, (long)r);
        blacs_int b = bt->kbsid(ctx, "All"), br = bt->kbrid(ctx, "All", 0, 0);
        EXPECT(b >= 0 && br >= 0, "KBSID = %ld, KBRID = %ld", (long)b, (long)br);
        double w0 = bt->dwalltime();
        bt_sleep_ms(10);
        double w1 = bt->dwalltime(), c0 = bt->dcputime();
        EXPECT(w1 - w0 >= 0.005 && w1 - w0 < 10, "DWALLTIME00 advanced by %g s over 10 ms", w1 - w0);
        EXPECT(c0 == -1.0 || c0 >= 0, "DCPUTIME00 = %g", c0);
        blacs_int sys;
        bt->get(ctx, 10, &sys);
        EXPECT(sys != -1, "BLACS_GET(10) = %ld", (long)sys);
        bt->sys_free(sys);
        bt->gridexit(ctx);
        bt->gridinfo(ctx, &nr, &nc, &mr, &mc);
        EXPECT(nr == -1 && nc == -1 && mr == -1 && mc == -1,
               "GRIDINFO after GRIDEXIT = (%ld,%ld,%ld,%ld)", (long)nr, (long)nc, (long)mr, (long)mc);
    }
    item_end();
}

void bt_aux(const char *tops)
{
    bt_say("AUXILIARY TESTS: BEGIN.\n");
    aux_pass = aux_fail = aux_skip = 0;
    aux_np = bt_np - bt_np % 2;
    if (aux_np < 2) {
        bt_say("AUXILIARY TESTS: NEED AT LEAST 2 PROCESSES: 1 TEST SKIPPED.\n");
        bt_nskip += bt_iam == 0;
        return;
    }
    if (aux_np > 128) aux_np = 128;
    t_pinfo();
    blacs_int ctx1;
    bt->get(0, 0, &ctx1);
    bt->gridinit(&ctx1, "R", 1, aux_np);
    t_getset(ctx1);
    t_pnum(ctx1);
    blacs_int ctxm = t_gridmap(ctx1);
    t_barrier(ctxm);
    t_locblock(ctxm);
    t_repeat_coherent(ctxm, tops);
    t_misc();
    item_begin("BLACS_GRIDEXIT");
    blacs_int ctxs[2] = {ctxm, ctx1};
    for (int k = 0; k < 2; k++)
        if (ctxs[k] >= 0) {
            blacs_int nr, nc, mr, mc;
            bt->gridexit(ctxs[k]);
            bt->gridinfo(ctxs[k], &nr, &nc, &mr, &mc);
            EXPECT(nr == -1 && mr == -1, "GRIDINFO of an exited context = (%ld,%ld,%ld,%ld)",
                   (long)nr, (long)nc, (long)mr, (long)mc);
        }
    item_end();
    if (aux_fail == 0)
        bt_say("AUXILIARY TESTS: PASSED ALL %d TESTS.\n", aux_pass);
    else
        bt_say("AUXILIARY TESTS: %d TESTS; %d PASSED, 0 SKIPPED, %d FAILED.\n", aux_pass + aux_fail,
               aux_pass, aux_fail);
    if (bt_iam == 0) {
        bt_npass += aux_pass;
        bt_nfail += aux_fail;
    }
}

/* BLACS_ABORT in a run of its own: process (0, P/2) of a 1 x P grid aborts,
 * every other process waits; the run must end with a non-zero status */
void bt_abort_test(void)
{
    blacs_int me, np, ctxt, nr, nc, mr, mc;
    bt->pinfo(&me, &np);
    bt->get(0, 0, &ctxt);
    bt->gridinit(&ctxt, "R", 1, np);
    bt->gridinfo(ctxt, &nr, &nc, &mr, &mc);
    if (mc == np / 2) {
        fprintf(stdout, "BLACS tester: process {%ld,%ld} calls BLACS_ABORT(ctxt, -1)\n", (long)mr,
                (long)mc);
        fflush(stdout);
        bt_sleep_ms(200);
        bt->abort_(ctxt, -1);
        fprintf(stdout, "BLACS tester: BLACS_ABORT returned: FAILED\n");
        fflush(stdout);
        return;
    }
    for (int k = 0; k < 600; k++) bt_sleep_ms(100);
    fprintf(stdout, "BLACS tester: process %ld still running 60 s after BLACS_ABORT: FAILED\n",
            (long)me);
    fflush(stdout);
}
