/*
 * tbs.c -- broadcast timer of LAWN 73 section 4.4 (its appendix D.3 code,
 * rewritten for the BLACS 1.1 context interface and MPI).
 *
 *   Tbs <top> <len1> <lenN> <inclen> <reps> <src node> [<outfile>]
 *
 * Lengths are double precision elements (one column); inclen < 1 doubles.
 * top is a BLACS topology letter (Cdgebs2d/Cdgebr2d, scope "All" of a
 * 1 x nnodes grid), or p for MPI's own MPI_Bcast.  After a barrier every
 * process times reps broadcasts; the source's time and the minimum, maximum
 * and average over all processes are printed by node 0 in milliseconds.
 * One untimed broadcast of lenN elements comes first (the paper did this
 * on its buffering platforms to allocate the buffer; here for every system,
 * so that none pays first-touch costs in the timed loops).
 *
 * Output (node 0, outfile or stdout):
 *   <rule>
 *   Time in milliseconds for double precision '<PLAT> <BLACS|primitive>' bcast, top='<top>',
 *   nnodes=, reps=, src=, ntests=.
 *   <rule>
 *     ELEMENTS   SRC TIME   MIN TIME   MAX TIME   AVG TIME
 *   <len> <ms> <ms> <ms> <ms>         (one line per length)
 *   <rule>
 *   End of Run.
 *
 * Fixed with respect to the printed code: it declared inlen and used
 * inclen; the length step squared (len *= len); ntests counted with
 * len < lenN, one short; "#ifdef SP1 || CM5" is not C; Tsync was undefined
 * for the BLACS build; the min/max reductions passed the double work buffer
 * as the integer RA/CA arrays (and clobbered it) -- RCFLAG -1 now; srcT was
 * read uninitialised when src was 0; zero lengths passed LDA = 0; the clock
 * was CPU time; three decimals of a millisecond are a microsecond, coarser
 * than today's latencies, so times are printed with six.  TIMING_BEST_OF:
 * see tcommon.h (each process keeps its fastest loop; a barrier before each).
 */
#include "tcommon.h"

int main(int nargs, char *args[])
{
    blacs_int iam, nnodes;
    Cblacs_pinfo(&iam, &nnodes);

    long len1, lenN, inclen, reps, src;
    if (nargs < 7 || !targ(args[2], &len1) || !targ(args[3], &lenN) || !targ(args[4], &inclen) ||
        !targ(args[5], &reps) || !targ(args[6], &src) || !args[1][0]) {
        if (iam == 0)
            fprintf(stderr, "\nIncorrect usage\n"
                            "Tbs <top> <len1> <lenN> <inclen> <reps> <src node> [<outfile>]\n");
        Cblacs_exit(0);
        return 1;
    }
    char top = args[1][0];
    const int prim = top == 'p';
    if (len1 < 0) len1 = 0;
    if (reps < 1) reps = 1;
    if (src < 0 || src >= nnodes) {
        if (iam == 0) fprintf(stderr, "Tbs: src %ld is not one of the %ld nodes\n", src, (long)nnodes);
        Cblacs_exit(0);
        return 1;
    }
    blacs_int ctxt = tgrid(nnodes);
    FILE *fp = stdout;
    if (iam == 0 && nargs > 7 && !(fp = topen(args[7]))) fp = stdout;

    double *dbuff = malloc(sizeof *dbuff * (size_t)(lenN > 0 ? lenN : 1));
    if (!dbuff) Cblacs_abort(ctxt, 1);
    char tops[2] = {top, 0};
    const int isrc = (int)src, bestof = tbestof();

    /* warm-up with the largest message */
    for (long j = 0; j < lenN; j++) dbuff[j] = 1.0;
    if (prim) MPI_Bcast(dbuff, (int)lenN, MPI_DOUBLE, isrc, MPI_COMM_WORLD);
    else if (iam == src) Cdgebs2d(ctxt, "All", tops, (blacs_int)lenN, 1, dbuff, tld(lenN));
    else Cdgebr2d(ctxt, "All", tops, (blacs_int)lenN, 1, dbuff, tld(lenN), 0, (blacs_int)src);

    if (iam == 0) {
        fputc('\n', fp);
        trule(fp);
        fprintf(fp, "Time in milliseconds for double precision '%s %s' bcast, top='%c',\n", TPLAT,
                prim ? "primitive" : "BLACS", top);
        fprintf(fp, "nnodes=%d, reps=%ld, src=%ld, ntests=%d.\n", (int)nnodes, reps, src,
                tcount(len1, lenN, inclen));
        trule(fp);
        fprintf(fp, "\n    ELEMENTS        SRC TIME      MIN TIME      MAX TIME      AVG TIME\n");
        fprintf(fp, "    --------        --------      --------      --------      --------\n\n");
    }

    for (long len = len1; len <= lenN; len = tnext(len, inclen)) {
        blacs_int m = (blacs_int)len, lda = tld(len);
        for (long j = 0; j < len; j++) dbuff[j] = 1.0;
        double t = 0, srcT = 0;
        for (int b = 0; b < bestof; b++) {
            tsync();
            double t0 = twall();
            if (prim)
                for (long j = 0; j < reps; j++) MPI_Bcast(dbuff, (int)len, MPI_DOUBLE, isrc, MPI_COMM_WORLD);
            else if (iam == src)
                for (long j = 0; j < reps; j++) Cdgebs2d(ctxt, "All", tops, m, 1, dbuff, lda);
            else
                for (long j = 0; j < reps; j++) Cdgebr2d(ctxt, "All", tops, m, 1, dbuff, lda, 0, (blacs_int)src);
            double tb = twall() - t0;
            if (b == 0 || tb < t) t = tb;
        }

        t = t * 1000.0 / (double)reps; /* ms */
        if (iam == src) srcT = t;
        if (src != 0) { /* the source's time to node 0 */
            if (iam == src) Cdgesd2d(ctxt, 1, 1, &srcT, 1, 0, 0);
            else if (iam == 0) Cdgerv2d(ctxt, 1, 1, &srcT, 1, 0, (blacs_int)src);
        }
        double minT = t, maxT = t, avgT = t;
        blacs_int rA, cA;
        Cdgamn2d(ctxt, "All", "1", 1, 1, &minT, 1, &rA, &cA, -1, 0, 0);
        Cdgamx2d(ctxt, "All", "1", 1, 1, &maxT, 1, &rA, &cA, -1, 0, 0);
        Cdgsum2d(ctxt, "All", "1", 1, 1, &avgT, 1, 0, 0);
        avgT /= (double)nnodes;
        if (iam == 0)
            fprintf(fp, "%11ld      %13.6f %13.6f %13.6f %13.6f\n", len, srcT, minT, maxT, avgT);
    }
    if (iam == 0) {
        fputc('\n', fp);
        trule(fp);
        fprintf(fp, "End of Run.\n");
        tclose(fp);
    }
    free(dbuff);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
