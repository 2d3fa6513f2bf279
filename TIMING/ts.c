/*
 * ts.c -- T_s, the time to post a send (LAWN 73 section 3.3), by the
 * post-send test of its appendix D.2, rewritten for the BLACS 1.1 context
 * interface and MPI.
 *
 *   Ts [p|b] <outfile> <reps> <len1> <lenN> <inclen> <sender> <recv1> [.. <recvN>]
 *
 * Lengths are in bytes; outfile may be stdout or stderr.  After an empty
 * wake-up message and answer with every receiver, the sender times reps
 * sends of len bytes, dealt to the receivers in turn; T_s is one send.  The
 * optional first argument picks the system: b (default) the BLACS
 * (Csgesd2d/Csgerv2d of len/4 floats), p MPI's MPI_Send/MPI_Recv.  Defaults,
 * with fewer arguments: stdout, 1 repetition, lengths 0..100 step 10,
 * sender 0, receiver 1.
 *
 * Output, on the sender:
 *   Start of <nnodes> node '<PLAT> <BLACS|primitive>' run: sender=, nlengths=, nrecvs=, reps=.
 *   Receivers: <r> ...
 *    Message Len=<len>.
 *     <sender>: length=<len>, Ts = <us> (us).
 *    End of tests, length=<len>.
 *   End of Run.
 *
 * Fixed with respect to the printed code: nnodes was overwritten with the
 * largest receiver + 1; processes that are neither sender nor receiver
 * called exit(0) without leaving the message-passing system (they now wait
 * in BLACS_EXIT); a lenN of 0 with doubling never ended (tnext()); the
 * braces around "Receivers:" did not match; zero-length messages passed
 * LDA = 0; the clock was CPU time; a receiver equal to the sender or
 * outside the grid hung the run (it is refused now).  TIMING_BEST_OF: see
 * tcommon.h (the wake-up handshake precedes each timed loop).
 */
#include "tcommon.h"

int main(int nargs, char *args[])
{
    blacs_int iam, nnodes;
    Cblacs_pinfo(&iam, &nnodes);

    int prim = 0, a0 = 1;
    if (nargs > 1 && (!strcmp(args[1], "p") || !strcmp(args[1], "b"))) {
        prim = args[1][0] == 'p';
        a0 = 2;
    }
    long reps, len1, lenN, inclen, sender;
    const char *outfile = "stdout";
    int nrecv = nargs - a0 - 6, ok = nrecv >= 1;
    long *recv = malloc(sizeof *recv * (size_t)(nrecv > 1 ? nrecv : 1));
    if (ok) {
        outfile = args[a0];
        ok = targ(args[a0 + 1], &reps) && targ(args[a0 + 2], &len1) && targ(args[a0 + 3], &lenN) &&
             targ(args[a0 + 4], &inclen) && targ(args[a0 + 5], &sender);
        for (int i = 0; ok && i < nrecv; i++) ok = targ(args[a0 + 6 + i], &recv[i]);
    }
    if (!ok) {
        if (iam == 0)
            fprintf(stderr, "Incorrect number of parameters. Should be >= 7: outfile reps len1 lenN "
                            "inclen sender recv1 [.. recvN]. Using defaults.\n");
        outfile = "stdout";
        reps = 1;
        len1 = 0;
        lenN = 100;
        inclen = 10;
        sender = 0;
        nrecv = 1;
        recv[0] = 1;
    }
    if (len1 < 0) len1 = 0;
    if (reps < 1) reps = 1;
    int bad = sender < 0 || sender >= nnodes;
    for (int i = 0; i < nrecv; i++) bad |= recv[i] < 0 || recv[i] >= nnodes || recv[i] == sender;
    if (bad) {
        if (iam == 0)
            fprintf(stderr, "Ts: sender and receivers must be distinct nodes of 0..%ld\n",
                    (long)nnodes - 1);
        Cblacs_exit(0);
        return 1;
    }
    blacs_int ctxt = tgrid(nnodes);
    const int bestof = tbestof();

    FILE *fp = stdout;
    int me_recv = 0;
    for (int i = 0; i < nrecv; i++) me_recv |= recv[i] == iam;
    if (iam == sender) {
        if (!(fp = topen(outfile))) fp = stdout;
        fprintf(fp, "Start of %d node '%s %s' run: sender=%ld, nlengths=%d, nrecvs=%d, reps=%ld.\n",
                (int)nnodes, TPLAT, prim ? "primitive" : "BLACS", sender, tcount(len1, lenN, inclen),
                nrecv, reps);
        fprintf(fp, "Receivers:");
        for (int i = 0; i < nrecv; i++) fprintf(fp, " %ld", recv[i]);
        fprintf(fp, "\n");
    }

    char *buf = malloc((size_t)(lenN > 0 ? lenN : 1));
    if (!buf) Cblacs_abort(ctxt, 1);
    const int tag = 0, src = (int)sender;
    if (iam == sender || me_recv) {
        for (long len = len1; len <= lenN; len = tnext(len, inclen)) {
            blacs_int length = (blacs_int)(len / 4);
            int ilen = (int)len;
            float *f = (float *)buf;
            if (iam == sender) fprintf(fp, " Message Len=%ld.\n", len);
            memset(buf, 0, (size_t)len); /* page the buffer in */
            double best = 0;
            for (int b = 0; b < bestof; b++) {
                if (iam == sender) {
                    for (int i = 0; i < nrecv; i++) { /* wake-up and ready answer */
                        int r = (int)recv[i];
                        if (prim) {
                            MPI_Send(buf, 0, MPI_BYTE, r, tag, MPI_COMM_WORLD);
                            MPI_Recv(buf, 0, MPI_BYTE, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        } else {
                            Csgesd2d(ctxt, 0, 1, f, 1, 0, r);
                            Csgerv2d(ctxt, 0, 1, f, 1, 0, r);
                        }
                    }
                    double t0 = twall();
                    if (prim)
                        for (long j = 0; j < reps; j++)
                            MPI_Send(buf, ilen, MPI_BYTE, (int)recv[j % nrecv], tag, MPI_COMM_WORLD);
                    else
                        for (long j = 0; j < reps; j++)
                            Csgesd2d(ctxt, length, 1, f, tld(length), 0, (blacs_int)recv[j % nrecv]);
                    double t = twall() - t0;
                    if (b == 0 || t < best) best = t;
                } else {
                    /* a process named twice answers each wake-up */
                    for (int i = 0; i < nrecv; i++) {
                        if (recv[i] != iam) continue;
                        if (prim) {
                            MPI_Recv(buf, 0, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                            MPI_Send(buf, 0, MPI_BYTE, src, tag, MPI_COMM_WORLD);
                        } else {
                            Csgerv2d(ctxt, 0, 1, f, 1, 0, src);
                            Csgesd2d(ctxt, 0, 1, f, 1, 0, src);
                        }
                    }
                    for (long j = 0; j < reps; j++) {
                        if (recv[j % nrecv] != iam) continue;
                        if (prim)
                            MPI_Recv(buf, ilen, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        else
                            Csgerv2d(ctxt, length, 1, f, tld(length), 0, src);
                    }
                }
            }
            if (iam == sender) {
                fprintf(fp, "  %ld: length=%ld, Ts = %8.2f (us).\n", sender, len, 1.0e6 * best / (double)reps);
                fprintf(fp, " End of tests, length=%ld.\n", len);
            }
        }
    }
    if (iam == sender) {
        fprintf(fp, "End of Run.\n");
        tclose(fp);
    }
    free(buf);
    free(recv);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
