/*
 * tg.c -- combine timer of LAWN 73 section 5.5 (its appendix D.4 code,
 * rewritten for the BLACS 1.1 context interface and MPI).
 *
 *   Tg <op> <top> <len1> <lenN> <inclen> <reps> <dest node> [<outfile>]
 *
 * op is + (Cdgsum2d), > (Cdgamx2d) or < (Cdgamn2d, both with RA/CA, as the
 * paper timed them); lengths are double precision elements, inclen < 1
 * doubles; dest < 0 leaves the result on every process (RDEST = -1).  top is
 * a BLACS topology letter (scope "All" of a 1 x nnodes grid) or p for MPI's
 * own MPI_Allreduce (dest < 0) or MPI_Reduce (MPI_SUM, MPI_MAX, MPI_MIN:
 * MPI has no absolute-value maximum with owners, so > and < against p are
 * only indicative, as in the paper).  One untimed combine of lenN elements
 * comes first.
 *
 * Output (node 0, outfile or stdout):
 *   <rule>
 *   Time in milliseconds for double precision '<PLAT> <BLACS|primitive>' op='<op>', top='<top>',
 *   nnodes=, reps=, dest=, ntests=.
 *   <rule>
 *     ELEMENTS   MIN TIME   MAX TIME   AVG TIME
 *   <len> <ms> <ms> <ms>              (one line per length)
 *   <rule>
 *   End of Run.
 *
 * Fixed with respect to the printed code: it declared inlen and used
 * inclen, and named the MPI work buffer dbuff2 and dbuf2; the warm-up
 * combine passed the unset len as LDIA; ntests was counted with one length
 * rule (inclen > 0) and the loop ran with another (inclen < lenN); the
 * min/max reductions of the times passed the double buffer as RA/CA (RCFLAG
 * -1 now); the '<' primitive on the SP1 gave a count of elements where bytes
 * were wanted; zero lengths passed LDA = 0; the clock was CPU time; times
 * are printed with six decimals (see tbs.c).  TIMING_BEST_OF: see tcommon.h.
 */
#include "tcommon.h"

int main(int nargs, char *args[])
{
    blacs_int iam, nnodes;
    Cblacs_pinfo(&iam, &nnodes);

    long len1, lenN, inclen, reps, dest;
    if (nargs < 8 || !targ(args[3], &len1) || !targ(args[4], &lenN) || !targ(args[5], &inclen) ||
        !targ(args[6], &reps) || !targ(args[7], &dest) || !strchr("+<>", args[1][0]) ||
        !args[1][0] || !args[2][0]) {
        if (iam == 0)
            fprintf(stderr, "\n Incorrect usage.\n"
                            " Tg <op: + > <> <top> <len1> <lenN> <inclen> <reps> <dest node> [<outfile>]\n");
        Cblacs_exit(0);
        return 1;
    }
    char op = args[1][0], top = args[2][0];
    const int prim = top == 'p';
    if (len1 < 0) len1 = 0;
    if (reps < 1) reps = 1;
    if (dest >= nnodes) {
        if (iam == 0) fprintf(stderr, "Tg: dest %ld is not one of the %ld nodes\n", dest, (long)nnodes);
        Cblacs_exit(0);
        return 1;
    }
    const blacs_int rdest = dest < 0 ? -1 : 0, cdest = (blacs_int)(dest < 0 ? -1 : dest);
    blacs_int ctxt = tgrid(nnodes);
    FILE *fp = stdout;
    if (iam == 0 && nargs > 8 && !(fp = topen(args[8]))) fp = stdout;

    size_t nmax = (size_t)(lenN > 0 ? lenN : 1);
    double *dbuff = malloc(sizeof *dbuff * nmax), *dbuff2 = NULL;
    blacs_int *rA = NULL, *cA = NULL;
    if (prim) dbuff2 = malloc(sizeof *dbuff2 * nmax);
    else if (op != '+') {
        rA = malloc(sizeof *rA * nmax);
        cA = malloc(sizeof *cA * nmax);
    }
    if (!dbuff || (prim && !dbuff2) || (!prim && op != '+' && (!rA || !cA))) Cblacs_abort(ctxt, 1);
    MPI_Op mop = op == '+' ? MPI_SUM : op == '>' ? MPI_MAX : MPI_MIN;
    char tops[2] = {top, 0};
    const int bestof = tbestof();

/* one operation on len elements */
#define COMBINE(len)                                                                             \
    do {                                                                                         \
        blacs_int m_ = (blacs_int)(len), ld_ = tld(len);                                         \
        if (prim) {                                                                              \
            if (dest < 0)                                                                        \
                MPI_Allreduce(dbuff, dbuff2, (int)m_, MPI_DOUBLE, mop, MPI_COMM_WORLD);          \
            else                                                                                 \
                MPI_Reduce(dbuff, dbuff2, (int)m_, MPI_DOUBLE, mop, (int)dest, MPI_COMM_WORLD);  \
        } else if (op == '+')                                                                    \
            Cdgsum2d(ctxt, "All", tops, m_, 1, dbuff, ld_, rdest, cdest);                        \
        else if (op == '>')                                                                      \
            Cdgamx2d(ctxt, "All", tops, m_, 1, dbuff, ld_, rA, cA, ld_, rdest, cdest);           \
        else                                                                                     \
            Cdgamn2d(ctxt, "All", tops, m_, 1, dbuff, ld_, rA, cA, ld_, rdest, cdest);           \
    } while (0)

    for (size_t j = 0; j < nmax; j++) dbuff[j] = 0.0;
    COMBINE(lenN);

    if (iam == 0) {
        fputc('\n', fp);
        trule(fp);
        fprintf(fp, "Time in milliseconds for double precision '%s %s' op='%c', top='%c',\n", TPLAT,
                prim ? "primitive" : "BLACS", op, top);
        fprintf(fp, "nnodes=%d, reps=%ld, dest=%ld, ntests=%d.\n", (int)nnodes, reps, dest,
                tcount(len1, lenN, inclen));
        trule(fp);
        fprintf(fp, "\n    ELEMENTS        MIN TIME      MAX TIME      AVG TIME\n");
        fprintf(fp, "    --------        --------      --------      --------\n\n");
    }

    for (long len = len1; len <= lenN; len = tnext(len, inclen)) {
        /* values >= 1 grow under repeated in-place sums but never through
         * the slow denormal range */
        srand((unsigned)len);
        for (long j = 0; j < len; j++) dbuff[j] = 1.0 + rand();
        double t = 0;
        for (int b = 0; b < bestof; b++) {
            tsync();
            double t0 = twall();
            for (long j = 0; j < reps; j++) COMBINE(len);
            double tb = twall() - t0;
            if (b == 0 || tb < t) t = tb;
        }
        t = t * 1000.0 / (double)reps; /* ms */

        double minT = t, maxT = t, avgT = t;
        blacs_int r1, c1;
        Cdgamn2d(ctxt, "All", "1", 1, 1, &minT, 1, &r1, &c1, -1, 0, 0);
        Cdgamx2d(ctxt, "All", "1", 1, 1, &maxT, 1, &r1, &c1, -1, 0, 0);
        Cdgsum2d(ctxt, "All", "1", 1, 1, &avgT, 1, 0, 0);
        avgT /= (double)nnodes;
        if (iam == 0) fprintf(fp, "%11ld          %13.6f %13.6f %13.6f\n", len, minT, maxT, avgT);
    }
#undef COMBINE
    if (iam == 0) {
        fputc('\n', fp);
        trule(fp);
        fprintf(fp, "End of Run.\n");
        tclose(fp);
    }
    free(dbuff);
    free(dbuff2);
    free(rA);
    free(cA);
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return 0;
}
