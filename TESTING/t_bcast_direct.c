/*
 * t_bcast_direct.c -- long broadcasts straight from A (SRC/bcast.c,
 * SRC/bcast_mpi.c, plan.direct): every receiver first tells the source it
 * is there (a word of no bytes).  The source of every letter but 'C'
 * looks at the word of each receiver it sends to, and sends from A to it
 * once its word is in (plan.direct 2); 'C', whose receivers wait for each
 * other, sends from A only with every word in (1).  Otherwise it sends from
 * a copy of A.  TOP ' ' (MPI_Ibcast, under MPICH: scope 'All' has MPI's
 * collectives) goes 'C''s way: from A only with every word in.  A
 * source waits for its sends from A.  For each letter of TOPS, 100,000
 * doubles (800 KB) and 2,000 (16 KB, just past BI_BCAST_DIRECT_MIN), every
 * process but the source's guarded matrix checked:
 *   here   the receivers enter first (the source sleeps 20 ms): the
 *          source's data sends (MPI_Isend, seen through the profiling
 *          interface) all come from A, none from a buffer;
 *   late   as here, but the last process enters its broadcast/receive only
 *          after a point-to-point message the source sends after its
 *          broadcast: the source must return without it (a source that
 *          waited would hang here: the watchdog says so), no send to it
 *          comes from A, every send to another does (but for 'C': none
 *          does), and the source overwrites A as soon as the call returns,
 *          which no receiver may see.
 * With "ge" the matrix is 1000 x 100 in LDA 1003: under
 * BLACS_BCAST_DATATYPE=1 the source sends it from A through its datatype,
 * under 0, and for 'C' always, from a packed copy; so do the rings under
 * MPICH, whose 8 KB pieces a datatype does not cut.  Unset, as under 1 with
 * MPIs other than MPICH; under MPICH as under 1 from 96 KiB (the 800 KB
 * matrix, SRC/shape.c), as under 0 below it (the 16 KB one) and for ' '
 * (MPI's own collective).
 *   t_bcast_direct TOPS [ge]
 * The source's wait for the words is made 100 ms (BLACS_MEMCPY_BETA,
 * BLACS_SOURCE_WAIT, set here), so that "here" holds on a loaded machine.
 */
#include <string.h>
#include <time.h>
#include "tutil.h"

/* the matrix: N x 1 (N = 100,000, then 2,000), or with "ge" 1000 x 100 in
 * LDA 1003, then 100 x 20 in LDA 103 (BLACS_BCAST_DATATYPE=1 sends it from
 * A through its datatype) */
static int M, NC, LD;
/* "ge": BLACS_BCAST_DATATYPE 0 (always from a copy), 1, or unset (2) */
static int ge_mode = 1;

/* the library's sends of data at the source: from A, or from elsewhere;
 * to the late process (rank lateto of the grid's communicator) or others */
static const char *lo, *hi;
static long from_a, from_other, late_a, late_other;
static int lateto = -1;
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    if (lo && count > 0) {
        int a = (const char *)buf >= lo && (const char *)buf < hi;
        if (dest == lateto) {
            late_a += a;
            late_other += !a;
        } else {
            from_a += a;
            from_other += !a;
        }
    }
    return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
}

/* TOP ' ''s data: one MPI_Ibcast to every receiver, counted at the source
 * as a send to the others */
int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
    int me;
    PMPI_Comm_rank(comm, &me);
    if (lo && count > 0 && me == root) {
        int a = (const char *)buf >= lo && (const char *)buf < hi;
        from_a += a;
        from_other += !a;
    }
    return PMPI_Ibcast(buf, count, dt, root, comm, req);
}

static void one(blacs_int ctxt, int np, int me, char top, int root, int late)
{
    char tp[2] = {top, 0};
    const int lateone = (root + np - 1) % np; /* the last process from the source */
    /* 'C' sends a non-contiguous A from a copy whatever MPI's datatypes do */
    /* and under MPICH the rings' 8 KB pieces, which a shape's datatype
     * does not cut (plan.c's eager_pieces) */
    const double bytes = (double)M * NC * sizeof(double);
    const int pieced = strchr("IDSM", top) && tu_eager_pieces(np, bytes) > 1;
    int by_default = 0; /* ge_mode 2: packed by the library's default */
#if defined(MPICH_VERSION)
    by_default = ge_mode == 2 && (top == ' ' || bytes < 98304);
#endif
    const int packed = ge_mode == 0 || by_default || (NC > 1 && (top == 'C' || pieced));
    tu_mat a;
    tu_mat_alloc(&a, sizeof(double), M, NC, LD);
    if (me == root) {
        tu_mat_fill(&a, 'D', 7 + root, NULL, NULL);
        struct timespec ts = {0, 20000000}; /* the receivers (but the late one) are in */
        nanosleep(&ts, NULL);
        lo = a.a;
        hi = (const char *)a.a + (size_t)LD * (size_t)NC * sizeof(double);
        from_a = from_other = late_a = late_other = 0;
        lateto = late ? lateone : -1; /* a 1 x np grid: scope rank = communicator rank */
        Cdgebs2d(ctxt, "All", tp, M, NC, a.a, LD);
        memset(a.a, 0x5a, (size_t)(hi - lo)); /* A is the caller's again */
        lo = hi = NULL;
        if (packed) {
            TU_CHECK(from_a + late_a == 0 && from_other + late_other > 0,
                     "'%c' root %d, %d x %d packed: %ld sends from A, %ld from a buffer", top, root, M, NC,
                     from_a + late_a, from_other + late_other);
        }
        if (late) {
            double token = 1;
            Cdgesd2d(ctxt, 1, 1, &token, 1, 0, lateone);
            /* 'C' and ' ' wait for every word; the others look at each */
            const int each = top != 'C' && top != ' ';
            TU_CHECK(packed || (late_a == 0 && (each ? from_other == 0 : from_a == 0) &&
                                from_a + from_other + late_other > 0),
                     "'%c' root %d, %d x %d, a receiver late: to it %ld sends from A, %ld from a"
                     " buffer; to the others %ld from A, %ld from a buffer", top, root, M, NC, late_a,
                     late_other, from_a, from_other);
        } else {
            TU_CHECK(packed || (from_a > 0 && from_other == 0),
                     "'%c' root %d, %d x %d, receivers there: %ld sends from A, %ld from a buffer",
                     top, root, M, NC, from_a, from_other);
        }
        lateto = -1;
    } else {
        tu_mat_pad(&a, 0xa5);
        if (late && me == lateone) {
            double token = 0;
            Cdgerv2d(ctxt, 1, 1, &token, 1, 0, root);
            TU_CHECK(token == 1, "'%c' root %d: the token is %g", top, root, token);
        }
        Cdgebr2d(ctxt, "All", tp, M, NC, a.a, LD, 0, root);
        long bad = tu_mat_check(&a, 'D', 7 + root, NULL, NULL, 0xa5, "broadcast");
        TU_CHECK(bad == 0, "'%c' root %d, %d x %d%s: %ld elements or guards wrong", top, root, M, NC,
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
    const int ge = argc > 2 && !strcmp(argv[2], "ge");
    if (ge) {
        const char *dt = getenv("BLACS_BCAST_DATATYPE");
        ge_mode = !dt || !*dt ? 2 : strcmp(dt, "1") ? 0 : 1;
    }
    blacs_int me, np, ctxt;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
#if !defined(MPICH_VERSION)
    /* ' ' goes straight from A under MPICH only, which checks a broadcast's
     * count itself (bcast_mpi.c): elsewhere always from a copy */
    if (me == 0 && strchr(tops, ' ')) printf("t_bcast_direct: ' ' not run on this MPI\n");
#endif
    /* 800 KB, then 16 KB: past BI_DIRECT_MIN, and just past BI_BCAST_DIRECT_MIN */
    static const int sizes[2][3] = {{100000, 1, 100000}, {2000, 1, 2000}};
    static const int sizes_ge[2][3] = {{1000, 100, 1003}, {100, 20, 103}};
    for (int k = 0; k < 2; k++) {
        const int *z = (ge ? sizes_ge : sizes)[k];
        M = z[0], NC = z[1], LD = z[2];
        for (const char *t = tops; *t; t++) {
#if !defined(MPICH_VERSION)
            if (*t == ' ') continue;
#endif
            for (int late = 0; late < 2; late++)
                for (int root = 0; root < np; root += np - 1)
                    one(ctxt, (int)np, (int)me, *t, root, late);
        }
    }
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
