/*
 * t_bcast_direct.c -- long broadcasts of the library's own letters straight
 * from A (SRC/bcast.c, plan.direct): every receiver first tells the source
 * it is there (a word of no bytes); with every word in, the source sends
 * from A and waits for its sends, otherwise it copies A as before.  For
 * each letter of TOPS, 100,000 doubles (800 KB, past BI_DIRECT_MIN), every
 * process but the source's guarded matrix checked:
 *   here   the receivers enter first (the source sleeps 20 ms): the
 *          source's data sends (MPI_Isend, seen through the profiling
 *          interface) all come from A, none from a buffer;
 *   late   the last process enters its broadcast/receive only after a
 *          point-to-point message the source sends after its broadcast:
 *          the source must return without it (a source that waited would
 *          hang here: the watchdog says so), its data sends come from a
 *          buffer, and it overwrites A as soon as the call returns, which
 *          no receiver may see.
 *   t_bcast_direct TOPS
 * The source's wait for the words is made 100 ms (BLACS_MEMCPY_BETA,
 * BLACS_SOURCE_WAIT, set here), so that "here" holds on a loaded machine.
 */
#include <string.h>
#include <time.h>
#include "tutil.h"

#define N 100000

/* the library's sends of data at the source: from A, or from elsewhere */
static const char *lo, *hi;
static long from_a, from_other;
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    if (lo && count > 0) {
        if ((const char *)buf >= lo && (const char *)buf < hi) from_a++;
        else from_other++;
    }
    return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
}

static void one(blacs_int ctxt, int np, int me, char top, int root, int late)
{
    char tp[2] = {top, 0};
    const int lateone = (root + np - 1) % np; /* the last process from the source */
    tu_mat a;
    tu_mat_alloc(&a, sizeof(double), N, 1, N);
    if (me == root) {
        tu_mat_fill(&a, 'D', 7 + root, NULL, NULL);
        if (!late) { /* the receivers are in */
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
        }
        lo = a.a;
        hi = (const char *)a.a + (size_t)N * sizeof(double);
        from_a = from_other = 0;
        Cdgebs2d(ctxt, "All", tp, N, 1, a.a, N);
        lo = hi = NULL;
        memset(a.a, 0x5a, (size_t)N * sizeof(double)); /* A is the caller's again */
        if (late) {
            double token = 1;
            Cdgesd2d(ctxt, 1, 1, &token, 1, 0, lateone);
            TU_CHECK(from_a == 0 && from_other > 0,
                     "'%c' root %d, a receiver late: %ld sends from A, %ld from a buffer", top,
                     root, from_a, from_other);
        } else {
            TU_CHECK(from_a > 0 && from_other == 0,
                     "'%c' root %d, receivers there: %ld sends from A, %ld from a buffer", top,
                     root, from_a, from_other);
        }
    } else {
        tu_mat_pad(&a, 0xa5);
        if (late && me == lateone) {
            double token = 0;
            Cdgerv2d(ctxt, 1, 1, &token, 1, 0, root);
            TU_CHECK(token == 1, "'%c' root %d: the token is %g", top, root, token);
        }
        Cdgebr2d(ctxt, "All", tp, N, 1, a.a, N, 0, root);
        long bad = tu_mat_check(&a, 'D', 7 + root, NULL, NULL, 0xa5, "broadcast");
        TU_CHECK(bad == 0, "'%c' root %d%s: %ld elements or guards wrong", top, root,
                 late ? " (late)" : "", bad);
    }
    tu_mat_free(&a);
    Cblacs_barrier(ctxt, "All");
}

int main(int argc, char **argv)
{
    /* the source waits for the words up to what copying A "costs": 100 ms
     * here (0.125 us a byte), so that a loaded machine's late scheduling is
     * no "receiver not there"; a late one costs that much */
    setenv("BLACS_MEMCPY_BETA", "0.125", 1);
    setenv("BLACS_SOURCE_WAIT", "200000", 1);
    tu_init(&argc, &argv);
    tu_watchdog("t_bcast_direct", 120);
    const char *tops = argc > 1 ? argv[1] : "1F";
    blacs_int me, np, ctxt;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    for (const char *t = tops; *t; t++)
        for (int late = 0; late < 2; late++)
            for (int root = 0; root < np; root += np - 1) one(ctxt, (int)np, (int)me, *t, root, late);
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
