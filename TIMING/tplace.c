/*
 * tplace.c -- a non-contiguous matrix (M x NC in LDA > M, a GE shape, as
 * ScaLAPACK's panels are) sent to a receiver that waits for it: what the
 * source's call costs, and when the receiver has it.  A BLACS hands such a
 * shape to MPI in place, through an MPI datatype, or packs it into a run
 * first and unpacks it after (SRC/shape.c, BLACS_BCAST_DATATYPE).  Built,
 * like tword.c, against this library and the reference BLACS (TIMING_REF);
 * 2 processes, 1 x 2.
 *
 *   tplace [ops] [reps] [M NC LDA ...]
 *
 * ops: letters of broadcast topologies (Cdgebs2d/Cdgebr2d, scope "Row")
 * and 'P' for Cdgesd2d/Cdgerv2d (default "SP"); reps trials per shape
 * (default 31, medians); shapes as triples (default 100 100 200, 256 64
 * 2048, 1984 64 2048, 1000 1000 1200: 78 KB, 128 KB, PDPOTRF's 992 KB
 * panel of a 2048-row A on 1 x 2, 7.8 MB).  Each trial: process 0 writes
 * A (a panel just computed), a barrier, then the receiver calls at once
 * and the source after TPLACE_LATE_US (default 20) us outside MPI, so
 * that the receiver is waiting, as PDPOTRF's are; the receiver checks the
 * data.  Then the same trials with MPI alone in the same run, through the
 * shape's datatype on both sides: MPI_Send, MPI_Recv.  Times from the
 * barrier's exit on one node (one clock).
 *
 * Output, process 0, two lines per (op, shape):
 *   place,<lib>,<op>,<M>,<NC>,<LDA>,<send_us>,<recv_done_us>
 *   place,mpi,<op>,<M>,<NC>,<LDA>,<send_us>,<recv_done_us>
 * send_us: the source's call; recv_done_us: from the barrier to the
 * receiver's return, i.e. when it has the data (the source's start is
 * TPLACE_LATE_US after the barrier).
 */
#include "tcommon.h"

static double value(long i, long j, int k) { return (double)(i + 7 * j + k % 97); }

int main(int argc, char **argv)
{
    blacs_int me, np, ctxt;
    Cblacs_pinfo(&me, &np);
    const char *ops = argc > 1 ? argv[1] : "SP";
    int reps = argc > 2 ? atoi(argv[2]) : 31;
    static const long defs[] = {100, 100, 200, 256, 64, 2048, 1984, 64, 2048, 1000, 1000, 1200};
    int ns = argc > 3 ? (argc - 3) / 3 : 4;
    long *sh = malloc(sizeof *sh * 3 * (size_t)ns);
    int ok = np == 2 && reps >= 1 && reps <= 100000 && (argc <= 3 || (argc - 3) % 3 == 0);
    for (int i = 0; ok && i < 3 * ns; i++) {
        sh[i] = argc > 3 ? atol(argv[3 + i]) : defs[i];
        if (sh[i] < 1 || sh[i] > 100000) ok = 0;
    }
    for (int s = 0; ok && s < ns; s++)
        if (sh[3 * s + 2] < sh[3 * s] || sh[3 * s] * sh[3 * s + 1] > 50000000) ok = 0;
    for (const char *o = ops; ok && *o; o++)
        if (!strchr(" 123456789IDSMFHTCP", *o)) ok = 0;
    if (!ok) {
        if (me == 0)
            fprintf(stderr, "tplace [ops] [reps] [M NC LDA ...]: on 2 processes, LDA >= M, "
                            "ops of \" 123456789IDSMFHTC\" and P\n");
        free(sh);
        Cblacs_exit(0);
        return 2;
    }
    const char *lenv = getenv("TPLACE_LATE_US");
    const double late = 1e-6 * (lenv ? atof(lenv) : 20);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, 2);
    double *t = malloc(sizeof *t * (size_t)reps);
    long bad = 0;
    for (int s = 0; s < ns; s++) {
        const long m = sh[3 * s], nc = sh[3 * s + 1], lda = sh[3 * s + 2];
        double *A = malloc(sizeof *A * (size_t)(lda * nc));
        MPI_Datatype dt;
        MPI_Type_vector((int)nc, (int)m, (int)lda, MPI_DOUBLE, &dt);
        MPI_Type_commit(&dt);
        for (const char *o = ops; *o; o++) {
            char top[2] = {*o, 0};
            for (int mpi = 0; mpi < 2; mpi++) {
                for (int k = -1; k < reps; k++) { /* k = -1: a warm-up, untimed */
                    for (long j = 0; j < nc; j++)
                        for (long i = 0; i < lda; i++)
                            A[i + j * lda] = me == 0 ? value(i, j, k + 1) : -1.0;
                    tsync();
                    const double t0 = twall();
                    double t1;
                    if (me == 0) {
                        tbusy(late);
                        const double ts = twall();
                        if (mpi) MPI_Send(A, 1, dt, 1, 8, MPI_COMM_WORLD);
                        else if (*o == 'P') Cdgesd2d(ctxt, (blacs_int)m, (blacs_int)nc, A, (blacs_int)lda, 0, 1);
                        else Cdgebs2d(ctxt, "R", top, (blacs_int)m, (blacs_int)nc, A, (blacs_int)lda);
                        t1 = twall() - ts;
                    } else {
                        if (mpi) MPI_Recv(A, 1, dt, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        else if (*o == 'P') Cdgerv2d(ctxt, (blacs_int)m, (blacs_int)nc, A, (blacs_int)lda, 0, 0);
                        else Cdgebr2d(ctxt, "R", top, (blacs_int)m, (blacs_int)nc, A, (blacs_int)lda, 0, 0);
                        t1 = twall() - t0;
                        for (long j = 0; j < nc; j++) /* the shape, and nothing between its columns */
                            for (long i = 0; i < lda; i++)
                                bad += A[i + j * lda] != (i < m ? value(i, j, k + 1) : -1.0);
                    }
                    if (k >= 0) t[k] = t1;
                }
                double other, mine = tmedian_pair(t, reps, (int)me, &other);
                if (me == 0) {
                    printf("place,%s,%c,%ld,%ld,%ld,%.1f,%.1f\n", mpi ? "mpi" : TLIB, *o, m, nc, lda,
                           1e6 * mine, 1e6 * other);
                    fflush(stdout);
                }
            }
        }
        MPI_Type_free(&dt);
        free(A);
    }
    const long badall = tbad_all(bad, (int)me, "tplace", "wrong elements");
    free(t);
    free(sh);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return badall ? 1 : 0;
}
