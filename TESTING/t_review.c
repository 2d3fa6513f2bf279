/*
 * t_review.c MODE -- legal programs that must finish, and bad ones that
 * must fail with a BLACS error, whatever the order processes arrive in.
 *
 *   cross        (4) 2 x 2 grid: {0,0} and {1,1} broadcast in their row
 *                and then receive in their column, {0,1} and {1,0} the
 *                reverse, TOP ' ' and then '1'; every value checked.  A
 *                first ' ' operation that waited for its whole scope
 *                would deadlock here (a watchdog reports the hang).
 *   errh         (any) the communicator of BLACS_GET WHAT=10 has the
 *                handler of the system context it was made from: MPI's
 *                default, and a handler of the user's own
 *   xcount TOP   (2) a leave-on-all sum in which process 1 passes fewer
 *                elements: the one that receives the shorter contribution
 *                stops with the count error, before combining anything
 *   empty TOP [repeat]  (any) a sum in which process 0 passes M = 0 and
 *                the others M = 4 (repeat: BLACS_SET WHAT=15 first): the
 *                count-mismatch error everywhere
 *   repeat       (3) with BLACS_SET WHAT=15 a TOP ' ' user combine
 *                (vTUOP2D) and sum use no MPI reduction of data (only the
 *                count check's MPI_MAX) and equal the '1' tree's results
 *   bufmem       (2) a send larger than BLACS_BUFMAX fails at once, naming
 *                the routine, whatever BLACS_BUFWAIT says
 *   bufwait      (2) sends that fill BLACS_BUFMAX wait for the oldest one
 *                to be received and then go on
 *   noexit [1]   (any) a sum, then MPI_Finalize without BLACS_EXIT (with
 *                1: after BLACS_EXIT(1)); TESTING/stats_once.sh counts the
 *                statistics tables printed
 *   sizes        (2) DGSUM2D ' ' over 200 sizes from 1 to 8,192 doubles,
 *                three passes: after the first, no datatype is committed
 */
#include <signal.h>
#include <unistd.h>
#include "tutil.h"

/* ---- a watchdog: a hang is a failure with a message, not a timeout ----- */
static void watchdog(unsigned s) { tu_watchdog("t_review", s); }

/* ---- counted MPI calls (the library is linked in statically) ----------- */
static long ncommit, ndata_reductions;
static int counting;

int MPI_Type_commit(MPI_Datatype *t)
{
    if (counting) ncommit++;
    return PMPI_Type_commit(t);
}

static void reduction(MPI_Op op)
{
    if (counting && op != MPI_MAX) ndata_reductions++;
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    reduction(op);
    return PMPI_Allreduce(s, r, n, t, op, c);
}

int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    reduction(op);
    return PMPI_Reduce(s, r, n, t, op, root, c);
}

int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                   MPI_Request *q)
{
    reduction(op);
    return PMPI_Iallreduce(s, r, n, t, op, c, q);
}

int MPI_Ireduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
                MPI_Request *q)
{
    reduction(op);
    return PMPI_Ireduce(s, r, n, t, op, root, c, q);
}

static blacs_int grid(blacs_int nprow, blacs_int npcol)
{
    blacs_int ctxt;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
    return ctxt;
}

/* ---- cross ---------------------------------------------------------------- */
static void cross(void)
{
    blacs_int ctxt = grid(2, 2), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const char *tops[] = {" ", "1"};
    watchdog(60);
    for (int t = 0; t < 2; t++) {
        char *top = (char *)tops[t];
        double mine = 100.0 * t + 10 * r + c, got = -1;
        if (r == c) { /* broadcast in my row, then receive in my column */
            Cdgebs2d(ctxt, "Row", top, 1, 1, &mine, 1);
            Cdgebr2d(ctxt, "Col", top, 1, 1, &got, 1, 1 - r, c);
            TU_CHECK(got == 100.0 * t + 10 * (1 - r) + c, "TOP '%s' {%ld,%ld}: %g from the column",
                     top, (long)r, (long)c, got);
        } else { /* broadcast in my column, then receive in my row */
            Cdgebs2d(ctxt, "Col", top, 1, 1, &mine, 1);
            Cdgebr2d(ctxt, "Row", top, 1, 1, &got, 1, r, 1 - c);
            TU_CHECK(got == 100.0 * t + 10 * r + (1 - c), "TOP '%s' {%ld,%ld}: %g from the row",
                     top, (long)r, (long)c, got);
        }
    }
    alarm(0);
    Cblacs_gridexit(ctxt);
}

/* ---- errh ------------------------------------------------------------------ */
static int calls_seen;
static void my_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
    calls_seen++;
}

static void errh_of_grid(MPI_Comm sys, MPI_Errhandler want, const char *what)
{
    blacs_int h = Csys2blacs_handle(sys), ctxt = h, uh = -1, np;
    Cblacs_pinfo(&ctxt, &np);
    ctxt = h;
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_get(ctxt, 10, &uh);
    MPI_Comm u = Cblacs2sys_handle(uh);
    MPI_Errhandler got;
    MPI_Comm_get_errhandler(u, &got);
    TU_CHECK(got == want, "%s: the WHAT=10 communicator has another error handler than the "
             "system context it was made from", what);
    if (got != MPI_ERRORS_ARE_FATAL && got != MPI_ERRORS_RETURN) MPI_Errhandler_free(&got);
    Cblacs_gridexit(ctxt);
}

static void errh(void)
{
    errh_of_grid(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, "MPI's default on MPI_COMM_WORLD");
    MPI_Comm d;
    MPI_Errhandler mine;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_create_errhandler(my_handler, &mine);
    MPI_Comm_set_errhandler(d, mine);
    errh_of_grid(d, mine, "the user's own on a system context");
    MPI_Errhandler_free(&mine);
    MPI_Comm_free(&d);
}

/* ---- xcount / empty --------------------------------------------------------- */
static void xcount(const char *top, int empty, int rep)
{
    blacs_int np, me, one = 1;
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = grid(1, np);
    if (rep) Cblacs_set(ctxt, 15, &one);
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    blacs_int m = empty ? (me == 0 ? 0 : 4) : (me == 1 ? 4 : 8);
    watchdog(60);
    Cdgsum2d(ctxt, "All", (char *)top, m, 1, a, 8, -1, -1);
    alarm(0);
    TU_CHECK(0, "the sum of different numbers of elements returned (M=%ld here)", (long)m);
    Cblacs_gridexit(ctxt);
}

/* ---- repeat ----------------------------------------------------------------- */
static void uadd(blacs_int *n, double *in, double *io)
{
    for (blacs_int i = 0; i < *n; i++) io[i] += in[i];
}

static void repeat(void)
{
    blacs_int np, me, one = 1;
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = grid(1, np);
    Cblacs_set(ctxt, 15, &one);
    /* values whose sum depends on the order of the additions */
    const double base[3] = {1e16, 1.0, -1e16};
    double u[4], t[4], s[4], s1[4];
    for (int kind = 0; kind < 2; kind++)
        for (int i = 0; i < 4; i++) {
            double v = base[(me + i) % 3] * (1 + i) + 0.5 * me;
            if (kind == 0) u[i] = t[i] = v;
            else s[i] = s1[i] = v;
        }
    counting = 1;
    ndata_reductions = 0;
    Cdtuop2d(ctxt, "All", " ", "G", "N", 4, 1, u, 4, -1, -1, NULL, uadd, NULL);
    Cdgsum2d(ctxt, "All", " ", 4, 1, s, 4, -1, -1);
    counting = 0;
    TU_CHECK(ndata_reductions == 0,
             "%ld MPI reductions of data in repeatable TOP ' ' combines (only the count check's "
             "MPI_MAX is expected)", ndata_reductions);
    Cdtuop2d(ctxt, "All", "1", "G", "N", 4, 1, t, 4, -1, -1, NULL, uadd, NULL);
    Cdgsum2d(ctxt, "All", "1", 4, 1, s1, 4, -1, -1);
    TU_CHECK(!memcmp(u, t, sizeof u), "repeatable vTUOP2D ' ' differs from the '1' tree");
    TU_CHECK(!memcmp(s, s1, sizeof s), "repeatable DGSUM2D ' ' differs from the '1' tree");
    Cblacs_gridexit(ctxt);
}

/* ---- bufmem / bufwait --------------------------------------------------------- */
static void bufmem(void)
{
    blacs_int ctxt = grid(1, 2), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const blacs_int n = 300000; /* 2.4 MB, above BLACS_BUFMAX */
    double *a = calloc((size_t)n, sizeof *a);
    if (c == 0) {
        /* a strided send is packed into a buffer: no room for it */
        Cdgesd2d(ctxt, n / 2, 2, a, n / 2 + 7, 0, 1);
        TU_CHECK(0, "a send larger than BLACS_BUFMAX returned");
    } else {
        sleep(30); /* never receives: the error must come without it */
    }
    free(a);
    Cblacs_gridexit(ctxt);
}

static void bufwait(void)
{
    blacs_int ctxt = grid(1, 2), nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    enum { K = 6, N = 40000 }; /* 6 non-contiguous sends of 320 KB; BLACS_BUFMAX=1M */
    static double a[K][2 * N + 14];
    watchdog(60);
    if (c == 0) {
        for (int k = 0; k < K; k++) {
            for (int i = 0; i < 2 * N + 14; i++) a[k][i] = k * 1e6 + i;
            Cdgesd2d(ctxt, N, 2, a[k], N + 7, 0, 1);
        }
    } else {
        sleep(1); /* the sender fills the cap and waits for these */
        for (int k = 0; k < K; k++) {
            Cdgerv2d(ctxt, N, 2, a[k], N + 7, 0, 0);
            int bad = 0;
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < N; i++) bad += a[k][j * (N + 7) + i] != k * 1e6 + j * (N + 7) + i;
            TU_CHECK(bad == 0, "message %d: %d wrong elements", k, bad);
        }
    }
    alarm(0);
    Cblacs_gridexit(ctxt);
}

/* ---- noexit ------------------------------------------------------------------ */
static int noexit(int exit_first)
{
    blacs_int np, me;
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = grid(1, np);
    double a[4] = {1, 2, 3, 4};
    for (int i = 0; i < 3; i++) Cdgsum2d(ctxt, "All", " ", 4, 1, a, 4, -1, -1);
    Cblacs_gridexit(ctxt);
    if (exit_first) Cblacs_exit(1);
    MPI_Finalize();
    return 0;
}

/* ---- sizes ---------------------------------------------------------------------- */
static void sizes(void)
{
    blacs_int np, me;
    Cblacs_pinfo(&me, &np);
    blacs_int ctxt = grid(1, np);
    enum { NS = 200, MAXN = 8192 };
    double *a = malloc(MAXN * sizeof *a);
    long made[3];
    for (int pass = 0; pass < 3; pass++) {
        counting = 1;
        ncommit = 0;
        for (int k = 0; k < NS; k++) {
            blacs_int n = 1 + (blacs_int)((long)k * k * (MAXN - 1) / ((long)(NS - 1) * (NS - 1)));
            for (blacs_int i = 0; i < n; i++) a[i] = (double)(i % 7);
            Cdgsum2d(ctxt, "All", " ", n, 1, a, n, -1, -1);
            int bad = 0;
            for (blacs_int i = 0; i < n; i++) bad += a[i] != (double)np * (double)(i % 7);
            TU_CHECK(bad == 0, "pass %d, %ld doubles: %d wrong sums", pass, (long)n, bad);
        }
        counting = 0;
        made[pass] = ncommit;
    }
    TU_CHECK(made[0] > 0, "no datatype committed at all: is MPI_Type_commit intercepted?");
    TU_CHECK(made[1] == 0 && made[2] == 0,
             "datatypes committed after the first pass over %d sizes: %ld, then %ld", NS, made[1],
             made[2]);
    free(a);
    Cblacs_gridexit(ctxt);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "";
    const char *top = argc > 2 ? argv[2] : " ";
    if (!strcmp(mode, "noexit")) return noexit(argc > 2 && atoi(argv[2]));
    if (!strcmp(mode, "cross")) cross();
    else if (!strcmp(mode, "errh")) errh();
    else if (!strcmp(mode, "xcount")) xcount(top, 0, 0);
    else if (!strcmp(mode, "empty")) xcount(top, 1, argc > 3 && !strcmp(argv[3], "repeat"));
    else if (!strcmp(mode, "repeat")) repeat();
    else if (!strcmp(mode, "bufmem")) bufmem();
    else if (!strcmp(mode, "bufwait")) bufwait();
    else if (!strcmp(mode, "sizes")) sizes();
    else {
        fprintf(stderr, "t_review: unknown mode '%s'\n", mode);
        return 2;
    }
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
