/*
 * tsimcal.c -- Tsim: what the simulated MPI of make bench-scalapack takes
 * from this machine's MPI (TIMING/sim/smpi.sh, SIM_MPICH), measured on 2
 * processes and printed as the settings to export:
 *   SIM_OS     the time to post a send of 8 bytes (MPI_Isend, median of 5
 *              rounds of 2,000), charged by SMPI to every send;
 *   SIM_OR     charged by SMPI to every receive: the time of an MPI_Recv
 *              of 8 bytes that are already there (sent while the receiver
 *              computed 2 ms outside MPI; median of 9 rounds), but no more
 *              than the ping-pong's one-way time (SIM_LAT) leaves after
 *              SIM_OS, so that a simulated short message takes no longer
 *              than a real one.  SIM_OS at both ends did: over TCP between
 *              the bed's namespaces posting a send costs 7-11 us of a
 *              one-way 9-13 (the kernel carries the bytes through the veth
 *              pair inside the sender's call), and a simulated 8 bytes took
 *              about twice the real time;
 *   SIM_EAGER  the longest message (a power of two, 1 KB to 1 MB) whose
 *              MPI_Send returns while its receiver is 20 ms away outside
 *              MPI: the eager threshold;
 *   SIM_LAT    a ping-pong's one-way time of 8 bytes (median of 5 rounds of
 *              1,000 round trips), in seconds;
 *   SIM_BW     bytes a second of a 4 MB ping-pong, its 8-byte time left
 *              out (median of 5 rounds of 4 round trips);
 *   SIM_COPY   us a byte of a memcpy of 256 KB, warm (median of 5 rounds of
 *              50): what a BLACS's own copies cost in the simulations
 *              (SL_COPY_BETA, TIMING/sim/sl_copy.c);
 *   SIM_BWF    SMPI's smpi/bw-factor list: by message size, 1 KB to 1 MB
 *              in powers of two, the bandwidth of one message sent after
 *              2 ms of computation outside MPI, its receiver waiting
 *              (fastest of 9 rounds, as a pause may lose the core on a
 *              busy machine; its one-way time less what the 1 KB message
 *              pays besides its bytes at SIM_BW: the pause's cost, which
 *              every size of a run pays alike and which moves between
 *              runs, 17-47 us over the bed's 1 Gbit/s) over SIM_BW, 1 to
 *              64, and 1 from 2 MB on; below 1 is taken as 1.  ScaLAPACK
 *              sends between computations, not back to back: over a link
 *              held to a rate by a token bucket (the test bed's tc tbf,
 *              64 KB of burst) such a message of up to 16 KB crosses at
 *              the speed of memory, not of the rate;
 * and, for the record, a failed MPI_Test and MPI_Iprobe (the simulation's
 * polls nap instead: TIMING/sim/simmpi.c), and a send and a receive made
 * after 50 us of computation through memory (the simulation charges
 * neither more than SIM_OS and SIM_OR: TIMING/README, section 8.3).
 * Part of make calibrate; TIMING/sim/sl_real.sh makes its two-host
 * platforms from SIM_LAT and SIM_BW.
 * Usage: mpiexec -n 2 Tsim
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>
#include "tpingpong.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void away(double s) /* outside MPI for s seconds */
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 2) {
        if (!me) fprintf(stderr, "Tsim: run on 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    enum { K = 2000, R = 5 };
    static MPI_Request req[K];
    double x = 0, post[R];
    for (int r = 0; r < R; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            double t0 = MPI_Wtime();
            for (int i = 0; i < K; i++) MPI_Isend(&x, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &req[i]);
            post[r] = (MPI_Wtime() - t0) / K;
            for (int i = 0; i < K; i++) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
        } else
            for (int i = 0; i < K; i++) MPI_Recv(&x, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    qsort(post, R, sizeof *post, cmp);
    /* failed tests and probes: a receive nobody sends to yet */
    double ttest = 0, tprobe = 0;
    if (me == 0) {
        MPI_Request rq;
        int f;
        MPI_Irecv(&x, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &rq);
        double t0 = MPI_Wtime();
        for (int i = 0; i < 100000; i++) MPI_Test(&rq, &f, MPI_STATUS_IGNORE);
        ttest = (MPI_Wtime() - t0) / 100000;
        t0 = MPI_Wtime();
        for (int i = 0; i < 100000; i++) MPI_Iprobe(1, 3, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE);
        tprobe = (MPI_Wtime() - t0) / 100000;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    }
    /* a receive of 8 bytes that are already there: sent (eagerly) while the
     * receiver computes outside MPI, then its MPI_Recv alone */
    enum { RR = 9 };
    double orecv[RR];
    for (int r = 0; r < RR; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        orecv[r] = 0;
        if (me == 0) MPI_Send(&x, 1, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD);
        else {
            tbusy(0.002);
            double t0 = MPI_Wtime();
            MPI_Recv(&x, 1, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            orecv[r] = MPI_Wtime() - t0;
        }
    }
    qsort(orecv, RR, sizeof *orecv, cmp);
    /* (rank 1 measured it: to rank 0, which prints) */
    double orx = orecv[RR / 2];
    if (me == 1) MPI_Send(&orx, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    else MPI_Recv(&orx, 1, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* ping-pong: 8 bytes and 4 MB */
    enum { BIG = 1 << 22 };
    char *buf = calloc(BIG, 1);
    if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
    double lat[R], big[R];
    for (int r = 0; r < R; r++)
        for (int k = 0; k < 2; k++) {
            int sz = k ? BIG : 8, n = k ? 4 : 1000;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < n; i++) mpi_echo(buf, sz, MPI_BYTE, me, 5);
            (k ? big : lat)[r] = (MPI_Wtime() - t0) / (2.0 * n);
        }
    qsort(lat, R, sizeof *lat, cmp);
    qsort(big, R, sizeof *big, cmp);
    double bw = BIG / (big[R / 2] - lat[R / 2]);
    /* messages between pauses: 1 KB .. 1 MB, each sent after 2 ms of
     * computation outside MPI to a receiver waiting for it, answered by 8
     * bytes.  Computing, not sleeping: a process that sleeps leaves its
     * core idle, and waking it costs the first message 15-25 us here (a
     * virtual machine), which ScaLAPACK's processes, computing, never pay */
    enum { GK0 = 10, GK1 = 20, GR = 9 };
    double gap[GK1 + 1] = {0};
    for (int k = GK0; k <= GK1; k++) {
        double t[GR];
        for (int r = 0; r < GR; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (me == 0) tbusy(0.002); /* (the receiver waits in MPI: its own wake-up is not timed) */
            double t0 = MPI_Wtime();
            if (me == 0) {
                MPI_Send(buf, 1 << k, MPI_BYTE, 1, 6, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, 1 << k, MPI_BYTE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, 0, 6, MPI_COMM_WORLD);
            }
            t[r] = MPI_Wtime() - t0 - lat[R / 2]; /* the message's one-way time */
        }
        qsort(t, GR, sizeof *t, cmp);
        gap[k] = t[0];
    }
    /* for the record, MPI calls after a computation: a process streams
     * through memory for CP seconds (as ScaLAPACK's BLAS between two BLACS
     * calls), then (cs) sends 8 bytes to a receiver waiting in MPI, which
     * answers at once: the round trip less two one-way times; or (cr)
     * receives 8 bytes that came while it computed, against the same
     * receive made as soon as a probe in MPI sees them (wr).  Means of CK,
     * medians of R rounds.  The simulation charges a message no more than
     * SIM_OS and SIM_OR either way (TIMING/README, section 8.3) */
    enum { CK = 400 };
    const double CP = 50e-6;
    const size_t SN = (size_t)1 << 21; /* 16 MB of doubles */
    double *sw = calloc(SN, sizeof *sw), csend[R], crecv[R], wrecv[R];
    if (!sw) MPI_Abort(MPI_COMM_WORLD, 2);
    size_t spos = 0;
    for (int r = 0; r < R; r++) {
        double sum[3] = {0, 0, 0}, y = 0;
        for (int k = 0; k < 3; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            for (int i = 0; i < CK; i++) {
                const int busy = k == 0 ? 0 : 1; /* the rank that computes (k < 2) or probes */
                if (me == busy && k < 2)
                    for (double t0 = MPI_Wtime(); MPI_Wtime() - t0 < CP;)
                        for (int j = 0; j < 512; j++, spos = (spos + 1) % SN) sw[spos] = sw[spos] * 0.999 + 1.0;
                if (k == 0) { /* 0 computes, sends; 1 waits and answers */
                    double t0 = MPI_Wtime();
                    if (me == 0) {
                        MPI_Send(&x, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
                        MPI_Recv(&y, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        sum[0] += MPI_Wtime() - t0;
                    } else {
                        MPI_Recv(&y, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(&x, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
                    }
                } else if (me == 0) { /* 0 sends, 1 takes it after computing (k 1) or at once (k 2) */
                    MPI_Send(&x, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
                    MPI_Recv(&y, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    for (int f = k == 1; !f;) MPI_Iprobe(0, 7, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE);
                    double t0 = MPI_Wtime();
                    MPI_Recv(&y, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    sum[k] += MPI_Wtime() - t0;
                    MPI_Send(&x, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
                }
            }
        }
        MPI_Bcast(&sum[0], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(&sum[1], 2, MPI_DOUBLE, 1, MPI_COMM_WORLD);
        csend[r] = sum[0] / CK;
        crecv[r] = sum[1] / CK;
        wrecv[r] = sum[2] / CK;
    }
    qsort(csend, R, sizeof *csend, cmp);
    qsort(crecv, R, sizeof *crecv, cmp);
    qsort(wrecv, R, sizeof *wrecv, cmp);
    free(sw);
    /* the eager threshold */
    if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
    int eager = 0;
    for (int sz = 1024; sz <= (1 << 20); sz *= 2) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            double t0 = MPI_Wtime();
            MPI_Send(buf, sz, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
            if (MPI_Wtime() - t0 < 0.005 && eager == sz / 2) eager = sz;
            if (sz == 1024 && MPI_Wtime() - t0 < 0.005) eager = sz;
        } else {
            away(0.02);
            MPI_Recv(buf, sz, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    /* a copy of 256 KB, warm */
    enum { CB = 1 << 18, CN = 50 };
    double cpy[R];
    char *cs = malloc(CB), *cd = malloc(CB);
    if (!cs || !cd) MPI_Abort(MPI_COMM_WORLD, 2);
    memset(cs, 1, CB);
    memcpy(cd, cs, CB);
    for (int r = 0; r < R; r++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < CN; i++) {
            cs[i] = (char)i;
            memcpy(cd, cs, CB);
        }
        cpy[r] = (MPI_Wtime() - t0) / CN / CB * 1e6;
    }
    qsort(cpy, R, sizeof *cpy, cmp);
    volatile char sink = cd[CN - 1];
    (void)sink;
    free(cs);
    free(cd);
    free(buf);
    if (me == 0) {
        printf("# the simulated MPI of make bench-scalapack (TIMING/sim/smpi.sh), from this MPI:\n");
        printf("#   posting a send of 8 bytes %.3f us (median of %d rounds), a failed MPI_Test %.3f us,\n",
               post[R / 2] * 1e6, R, ttest * 1e6);
        printf("#   a failed MPI_Iprobe %.3f us; sends of up to %d bytes return while the receiver is away\n",
               tprobe * 1e6, eager);
        /* no more than the one-way time leaves after the send's post */
        const double orcap = lat[R / 2] - post[R / 2] > 0 ? lat[R / 2] - post[R / 2] : 0;
        printf("#   a receive of 8 bytes already there %.3f us (median of %d rounds)%s\n", orx * 1e6, RR,
               orx > orcap ? ", more than the one-way time leaves after the post" : "");
        if (orx > orcap) orx = orcap;
        printf("#   a ping-pong's one-way time: 8 bytes %.3f us, 4 MB %.1f us (%.3g bytes/s)\n", lat[R / 2] * 1e6,
               big[R / 2] * 1e6, bw);
        printf("#   after %.0f us of computation: a send of 8 bytes %.3f us beyond a ping-pong's (round trip\n"
               "#   less two one-way times), a receive of 8 bytes already there %.3f us (%.3f us at once)\n",
               CP * 1e6, (csend[R / 2] - 2 * lat[R / 2]) * 1e6, crecv[R / 2] * 1e6, wrecv[R / 2] * 1e6);
        printf("#   a copy of 256 KB: %.3g us a byte (%.1f GB/s)\n", cpy[R / 2], 1e-3 / cpy[R / 2]);
        /* the factors: bandwidth between pauses over SIM_BW, within 1 and 64 */
        char bwf[512];
        int o = 0;
        printf("#   one message after a pause, one-way (us) and bandwidth over SIM_BW:");
        /* what a message after a pause pays besides its bytes: the 1 KB
         * one's time less its bytes at SIM_BW.  It moves between runs on
         * the bed (17-47 us for 1 KB, fastest of 9 rounds, four runs in a
         * row over 1 Gbit/s), and every size of a run pays the same, so it
         * is not taken for bandwidth */
        const double pause = gap[GK0] - (double)(1 << GK0) / bw;
        for (int k = GK0; k <= GK1; k++) {
            const double x = gap[k] - pause; /* what the bytes took */
            double f = x > 0 ? (double)(1 << k) / x / bw : 64; /* (none: as fast as it gets) */
            if (!(f < 64)) f = 64;
            if (f < 1) f = 1; /* (slower than SIM_BW: the cost of the pause itself, not of the bytes) */
            printf("%s %d KB %.1f %.2f", k == GK0 ? "" : ",", 1 << (k - 10), gap[k] * 1e6, f);
            o += snprintf(bwf + o, sizeof bwf - (size_t)o, "%d:%.3g;", k == GK0 ? 0 : 1 << k, f);
        }
        snprintf(bwf + o, sizeof bwf - (size_t)o, "%d:1", 1 << (GK1 + 1));
        printf("\n");
        printf("export SIM_OS=%.3g SIM_OR=%.3g SIM_EAGER=%d SIM_LAT=%.3g SIM_BW=%.3g SIM_COPY=%.3g SIM_BWF='%s'\n",
               post[R / 2], orx, eager, lat[R / 2], bw, cpy[R / 2], bwf);
    }
    MPI_Finalize();
    return 0;
}
