/*
 * t_mpierr.c MODE [TOP [BIG SMALL [COLS]]] -- MPI errors are BLACS errors.
 * Most modes run a collective whose processes disagree on the element
 * count; the library must stop the job with a BLACS error naming the BLACS
 * routine and carrying MPI's error string (or, where MPI notices nothing,
 * saying that the counts differ).  The runner checks the message and the
 * non-zero exit, and its timeout catches a hang.  If the calls return, this
 * program says so and exits 0, so the test fails.
 *
 * Process {0,0} has a BIG x BIG matrix (default 10), the others SMALL x
 * SMALL (default 5), or with COLS BIG x COLS and SMALL x COLS (counts that
 * no square has, such as a multiple of a piece); grid 1 x Np, scope All, topology TOP (default ' ');
 * eight rounds of agreeing broadcasts and combines come first (MPI may
 * change algorithms after a few calls):
 *   bcast     {0,0} broadcasts (DGEBS2D), the others receive (DGEBR2D)
 *   bcast_tr  the same with trapezoids (DTRBS2D/DTRBR2D), which are not
 *             contiguous: a BLACS buffer, or with TOP ' ' MPI_Bcast through
 *             the shape's datatype
 *   bcast_gap the same with general shapes of LDA = M + 3 (not contiguous)
 *   comb      DGSUM2D leave-on-all
 *   comb1     DGAMX2D leave-on-one to {0,0}, RA/CA wanted
 * and two modes that must succeed:
 *   barrier   barriers on the row scope (its communicator is made then)
 *             and on All: prints "barrier ok"
 *   errh      the user's MPI_COMM_WORLD error handler is the same after
 *             BLACS calls (some switch it for the length of an MPI call):
 *             the default one, then one the program sets; prints
 *             "errh ok" or exits 1
 * With MPIERR_WORLD=return in the environment the program first gives
 * MPI_COMM_WORLD the handler MPI_ERRORS_RETURN: MPICH reports the errors of
 * MPI_Wait and MPI_Test there whatever the request (SRC/error.c), and the
 * library never switches the user's handler, so only then does such an
 * error reach the library's check under MPICH.
 */
#include "tutil.h"

static int errh_is(MPI_Errhandler want)
{
    MPI_Errhandler h;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
    int same = h == want;
    MPI_Errhandler_free(&h);
    return same;
}

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *w = getenv("MPIERR_WORLD");
    if (w && !strcmp(w, "return")) MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *mode = argc > 1 ? argv[1] : "";
    char *top = argc > 2 ? argv[2] : " ";
    blacs_int big = argc > 3 ? atol(argv[3]) : 10, small = argc > 4 ? atol(argv[4]) : 5;
    const blacs_int cols = argc > 5 ? atol(argv[5]) : 0, bc = cols ? cols : big, sc = cols ? cols : small;
    blacs_int me, np, ctxt, nr, nc, r, c;
    int ok = 1;
#define IS(x) (strcmp(mode, x) == 0)
    if (IS("errh")) ok &= errh_is(MPI_ERRORS_ARE_FATAL);
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    const blacs_int mx = big > small ? big : small, mc = bc > sc ? bc : sc,
                    n = (me == 0) ? big : small, ncol = (me == 0) ? bc : sc;
    double *a = calloc((size_t)((mx + 3) * mc), sizeof *a);
    blacs_int *ra = calloc((size_t)(mx * mc), sizeof *ra), *ca = calloc((size_t)(mx * mc), sizeof *ca);
    for (blacs_int i = 0; i < mx * mc; i++) a[i] = (double)(i + 1);
    /* first some operations that agree: MPI changes algorithms after a few
     * collectives on a communicator (MPICH: shared memory after 5) */
    for (int k = 0; k < 8 && !IS("barrier") && !IS("errh"); k++) {
        if (strncmp(mode, "bcast", 5) == 0) {
            if (me == 0) Cdgebs2d(ctxt, "All", top, small, sc, a, small);
            else Cdgebr2d(ctxt, "All", top, small, sc, a, small, 0, 0);
        } else {
            Cdgsum2d(ctxt, "All", top, small, sc, a, small, -1, -1);
            Cdgamx2d(ctxt, "All", top, small, sc, a, small, ra, ca, small, 0, 0);
        }
    }
    if (IS("bcast")) {
        if (me == 0) Cdgebs2d(ctxt, "All", top, big, bc, a, big);
        else Cdgebr2d(ctxt, "All", top, small, sc, a, small, 0, 0);
    } else if (IS("bcast_gap")) {
        if (me == 0) Cdgebs2d(ctxt, "All", top, big, bc, a, big + 3);
        else Cdgebr2d(ctxt, "All", top, small, sc, a, small + 3, 0, 0);
    } else if (IS("bcast_tr")) {
        if (me == 0) Cdtrbs2d(ctxt, "All", top, "U", "N", big, bc, a, big);
        else Cdtrbr2d(ctxt, "All", top, "U", "N", small, sc, a, small, 0, 0);
    } else if (IS("comb")) {
        Cdgsum2d(ctxt, "All", top, n, ncol, a, n, -1, -1);
    } else if (IS("comb1")) {
        Cdgamx2d(ctxt, "All", top, n, ncol, a, n, ra, ca, n, 0, 0);
    } else if (IS("barrier")) {
        Cblacs_barrier(ctxt, "Row");
        Cblacs_barrier(ctxt, "All");
        if (me == 0) printf("barrier ok\n");
        goto done;
    } else if (IS("errh")) {
        /* broadcasts and combines with waits and polls, then the same with
         * the program's own handler in force */
        for (int round = 0; round < 2; round++) {
            MPI_Errhandler want = MPI_ERRORS_ARE_FATAL, mine = MPI_ERRHANDLER_NULL;
            if (round == 1) {
                MPI_Comm_create_errhandler(my_handler, &mine);
                MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine);
                want = mine;
            }
            for (int k = 0; k < 3; k++) {
                char tb[2] = {" 1P"[k], 0}, tc[2] = {" 1R"[k], 0};
                if (me == 0) Cdgebs2d(ctxt, "All", tb, small, small, a, small);
                else Cdgebr2d(ctxt, "All", tb, small, small, a, small, 0, 0);
                Cdgsum2d(ctxt, "All", tc, small, small, a, small, -1, -1);
                Cdgesd2d(ctxt, 1, 1, a, 1, 0, (c + 1) % np); /* buffered, polled later */
                Cdgerv2d(ctxt, 1, 1, a, 1, 0, (c + np - 1) % np);
                Cblacs_barrier(ctxt, "Row");
                ok &= errh_is(want);
            }
            Cblacs_freebuff(ctxt, 1);
            ok &= errh_is(want);
            if (round == 1) {
                MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
                MPI_Errhandler_free(&mine);
            }
        }
        int all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (me == 0) printf(all ? "errh ok\n" : "errh FAILED: a BLACS call changed the handler\n");
        free(a);
        free(ra);
        free(ca);
        Cblacs_exit(0);
        return all ? 0 : 1;
    } else {
        fprintf(stderr, "t_mpierr: unknown mode '%s'\n", mode);
        return 2;
    }
    /* a process whose call returned waits for the others' verdict */
    Cblacs_barrier(ctxt, "All");
    printf("t_mpierr: '%s' with TOP '%s' returned on process %d\n", mode, top, (int)me);
done:
    free(a);
    free(ra);
    free(ca);
    Cblacs_exit(0);
    return 0;
}
