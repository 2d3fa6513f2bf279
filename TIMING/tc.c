/*
 * tc.c -- T_c, the time of a complete communication, by the echo test of
 * LAWN 73 section 3.3 (its appendix D.1 code, rewritten for the BLACS 1.1
 * context interface and MPI).
 *
 *   Tc [p|b] <len1> <lenN> <inclen> <reps> <sender> <recv1> <recvN> <recvinc> [<outfile>]
 *
 * Lengths are in bytes.  The sender wakes each receiver in turn with an empty
 * message, waits for its empty answer, then times reps round trips of len
 * bytes; T_c is half a round trip.  The optional first argument picks the
 * system: b (default) the BLACS (Csgesd2d/Csgerv2d of len/4 floats, one
 * column), p MPI's own MPI_Send/MPI_Recv of len bytes.  A recvinc below 1 or
 * above recvN steps the receivers as r -> 2r+1 (1, 3, 7: one more hypercube
 * dimension each).  Defaults, when fewer arguments are given: one length of
 * 1024 bytes, 10 repetitions, sender 0, receivers 1 .. nnodes-1.
 *
 * Output, on the sender (outfile, default stdout):
 *   Start of <nnodes> node '<PLAT> <BLACS|primitive>' run: sender=, nlengths=, nrecvs=, reps=.
 *    Message Len=<len>, reps=, sender=, recv1=, recvN=, recvinc=.
 *    Node <s> send to <d>: length=<len>, Tc = <us> (us), ThruPut = <KB/s> (KB/s).
 *    End of tests, length=<len>.
 *   End of Run.
 *
 * Fixed with respect to the printed code: the default branch left len1,
 * lenN and inclen unset (and tested iam == sender before sender was set);
 * the length step squared (len *= len) -- see tnext(); its note says
 * "increment greater than last receiver" for the power-of-2 receiver step
 * but the code tested recvinc < 0 (both are accepted now; recvinc = 0 looped
 * forever); nnodes was overwritten with recvN+1; the echo node's loop reused
 * the sender's receiver counter i; every node opened (and truncated) the
 * output file; zero-length messages passed LDA = 0; the clock was CPU time;
 * ThruPut divided the bytes of one message by a whole round trip (it is
 * len / T_c now); receivers outside the grid or equal to the sender are
 * skipped instead of hanging.  TIMING_BEST_OF: see tcommon.h.
 */
#include "tcommon.h"

static int next_recv(int d, int recvinc, int recvN)
{
    return (recvinc < 1 || recvinc > recvN) ? 2 * d + 1 : d + recvinc;
}

int main(int nargs, char *args[])
{
    blacs_int iam, nnodes;
    Cblacs_pinfo(&iam, &nnodes);

    int prim = 0, a0 = 1;
    if (nargs > 1 && (!strcmp(args[1], "p") || !strcmp(args[1], "b"))) {
        prim = args[1][0] == 'p';
        a0 = 2;
    }
    long len1, lenN, inclen, reps, sender, recv1, recvN, recvinc;
    const char *outfile = NULL;
    int given = nargs - a0;
    if (given >= 8 && targ(args[a0], &len1) && targ(args[a0 + 1], &lenN) &&
        targ(args[a0 + 2], &inclen) && targ(args[a0 + 3], &reps) &&
        targ(args[a0 + 4], &sender) && targ(args[a0 + 5], &recv1) &&
        targ(args[a0 + 6], &recvN) && targ(args[a0 + 7], &recvinc)) {
        if (given > 8) outfile = args[a0 + 8];
    } else {
        if (iam == 0)
            fprintf(stderr, "Incorrect number of parameters. Should be 8 (+ outfile): "
                            "len1 lenN inclen reps sender recv1 recvN recvinc. Using defaults.\n");
        len1 = lenN = inclen = 1024;
        reps = 10;
        sender = 0;
        recv1 = 1;
        recvN = nnodes - 1;
        recvinc = 1;
    }
    if (len1 < 0) len1 = 0;
    if (recv1 < 0) recv1 = 0;
    if (reps < 1) reps = 1;
    if (recvN > nnodes - 1) recvN = nnodes - 1;
    if (sender < 0 || sender >= nnodes) {
        if (iam == 0) fprintf(stderr, "Tc: sender %ld is not one of the %ld nodes\n", sender, (long)nnodes);
        Cblacs_exit(0);
        return 1;
    }
    blacs_int ctxt = tgrid(nnodes);
    const int bestof = tbestof();

    FILE *fp = stdout;
    if (iam == sender && outfile && !(fp = topen(outfile))) fp = stdout;

    int nrecv = 0;
    for (long d = recv1; d <= recvN; d = next_recv((int)d, (int)recvinc, (int)recvN)) nrecv += d != sender;
    int nlen = tcount(len1, lenN, inclen);
    double *tm = calloc((size_t)(recvN > 0 ? recvN : 0) + 2, sizeof *tm);
    char *buf = malloc((size_t)(lenN > 0 ? lenN : 1));
    if (!tm || !buf) {
        fprintf(stderr, "Tc: out of memory\n");
        Cblacs_abort(ctxt, 1);
    }
    if (iam == sender)
        fprintf(fp, "Start of %d node '%s %s' run: sender=%ld, nlengths=%d, nrecvs=%d, reps=%ld.\n",
                (int)nnodes, TPLAT, prim ? "primitive" : "BLACS", sender, nlen, nrecv, reps);

    for (long len = len1; len <= lenN; len = tnext(len, inclen)) {
        blacs_int length = (blacs_int)(len / 4); /* floats */
        int ilen = (int)len;
        if (iam == sender)
            fprintf(fp, " Message Len=%ld, reps=%ld, sender=%ld, recv1=%ld, recvN=%ld, recvinc=%ld.\n",
                    len, reps, sender, recv1, recvN, recvinc);
        int i = 0;
        for (long d = recv1; d <= recvN; d = next_recv((int)d, (int)recvinc, (int)recvN), i++) {
            int dest = (int)d, src = (int)sender, tag = dest;
            memset(buf, 0, (size_t)len); /* page the buffer in */
            tm[i] = -1;
            if (d < 0 || d == sender) continue;
            for (int b = 0; b < bestof; b++) {
                if (iam == sender) {
                    double t0;
                    if (prim) {
                        MPI_Send(buf, 0, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
                        MPI_Recv(buf, 0, MPI_BYTE, dest, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        t0 = twall();
                        for (long j = 0; j < reps; j++) {
                            MPI_Send(buf, ilen, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
                            MPI_Recv(buf, ilen, MPI_BYTE, dest, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        }
                    } else {
                        float *f = (float *)buf;
                        Csgesd2d(ctxt, 0, 1, f, 1, 0, dest);
                        Csgerv2d(ctxt, 0, 1, f, 1, 0, dest);
                        t0 = twall();
                        for (long j = 0; j < reps; j++) {
                            Csgesd2d(ctxt, length, 1, f, tld(length), 0, dest);
                            Csgerv2d(ctxt, length, 1, f, tld(length), 0, dest);
                        }
                    }
                    double t = twall() - t0;
                    if (b == 0 || t < tm[i]) tm[i] = t;
                } else if (iam == dest) {
                    if (prim) {
                        MPI_Recv(buf, 0, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(buf, 0, MPI_BYTE, src, tag, MPI_COMM_WORLD);
                        for (long j = 0; j < reps; j++) {
                            MPI_Recv(buf, ilen, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                            MPI_Send(buf, ilen, MPI_BYTE, src, tag, MPI_COMM_WORLD);
                        }
                    } else {
                        float *f = (float *)buf;
                        Csgerv2d(ctxt, 0, 1, f, 1, 0, src);
                        Csgesd2d(ctxt, 0, 1, f, 1, 0, src);
                        for (long j = 0; j < reps; j++) {
                            Csgerv2d(ctxt, length, 1, f, tld(length), 0, src);
                            Csgesd2d(ctxt, length, 1, f, tld(length), 0, src);
                        }
                    }
                }
            }
        }
        if (iam == sender) {
            i = 0;
            for (long d = recv1; d <= recvN; d = next_recv((int)d, (int)recvinc, (int)recvN), i++) {
                if (tm[i] < 0) continue;
                double tc = 0.5e6 * tm[i] / (double)reps; /* us */
                fprintf(fp, " Node %ld send to %ld: length=%ld, Tc = %8.2f (us), ThruPut = %f (KB/s).\n",
                        sender, d, len, tc, tc > 0 ? 1000.0 * (double)len / tc : 0.0);
            }
            fprintf(fp, " End of tests, length=%ld.\n", len);
        }
    }
    if (iam == sender) {
        fprintf(fp, "End of Run.\n");
        tclose(fp);
    }
    free(tm);
    free(buf);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
