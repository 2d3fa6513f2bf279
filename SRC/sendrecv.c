/*
 * sendrecv.c -- Intel MKL's BLACS extension Cdsendrecv (Fortran DSENDRECV),
 * which MKL's PBLAS transposes (PDTRAN, PZTRANC, ...) call:
 *
 *   Cdsendrecv(ICTXT, M, N, A, LDA, RDEST, CDEST, M2, N2, B, LDB, RSRC, CSRC)
 *
 * sends the M x N double matrix A to {RDEST,CDEST} and receives M2 x N2
 * into B from {RSRC,CSRC}, as MPI_Sendrecv: two processes exchanging do not
 * deadlock.  What MKL's own BLACS does, found by running the same programs
 * against it (TESTING/t_sendrecv.c, run_mkl_diff.sh) and watching its MPI
 * calls: one MPI_Sendrecv on the grid's communicator with tag 0, each side
 * described by its own shape (a reshaping transfer, 2 x 6 into 3 x 4, puts
 * element k of the column-major sequence at element k of B), a 0 x 0 side
 * still a (zero-byte) message, and a tag no vGESD2D/vGERV2D uses, so its
 * messages are a stream of their own: a Cdsendrecv never matches a
 * vGERV2D, and interleaving the two between a pair of processes is safe
 * when each side makes its calls of each kind in the same order.  We do
 * the same with one message ID of our own (msgid.c: the range's last).
 *
 * Here: the arguments and the entry bracket; the messages go by p2p.c's
 * path (bi_p2p_sendrecv), the send locally blocking like vGESD2D's.
 */
#include "bi.h"

void bi_mkl_sendrecv(Int ctxt, Int m, Int n, const double *A, Int lda, Int rdest, Int cdest,
                     Int m2, Int n2, double *B, Int ldb, Int rsrc, Int csrc, const char *routine)
{
    bi_shape ss, rs;
    bi_make_shape(&ss, ctxt, routine, BI_D, 0, NULL, 0, NULL, 0, m, n, lda, 2);
    if (m2 < 0) bi_argerr(ctxt, routine, 8, "M2", "M2=%ld is negative", (long)m2);
    if (n2 < 0) bi_argerr(ctxt, routine, 9, "N2", "N2=%ld is negative", (long)n2);
    if (ldb < m2 && n2 > 1)
        bi_argerr(ctxt, routine, 11, "LDB", "LDB=%ld is smaller than M2=%ld", (long)ldb, (long)m2);
    bi_make_shape(&rs, ctxt, routine, BI_D, 0, NULL, 0, NULL, 0, m2, n2, ldb, 8);
    /* hang reports and statistics see the call as the receive it waits in */
    bi_enter(routine, ctxt, 'v', NULL, NULL, &rs, rsrc, csrc);
    bi_p2p_sendrecv(ctxt, &ss, A, rdest, cdest, &rs, B, rsrc, csrc, routine);
    bi_leave();
}

BI_API void Cdsendrecv(Int ctxt, Int m, Int n, double *A, Int lda, Int rdest, Int cdest, Int m2,
                       Int n2, double *B, Int ldb, Int rsrc, Int csrc)
{
    bi_mkl_sendrecv(ctxt, m, n, A, lda, rdest, cdest, m2, n2, B, ldb, rsrc, csrc, "Cdsendrecv");
}
