/*
 * t_sendrecv.c -- Cdsendrecv (Intel MKL's extension), checked on its own and
 * differentially: the same program is built against our library and against
 * MKL's BLACS (TESTING/mkl.mk), and TESTING/run_mkl_diff.sh compares what
 * the two leave in memory, guard zones included, byte for byte.
 *
 *   t_sendrecv diff [DUMP]   every case below on a 1 x P and a P x 1 grid;
 *                            with DUMP, each process writes all its matrices
 *                            (guards included) after each case to DUMP.<pnum>
 *   t_sendrecv interleave    vGESD2D, Cdsendrecv, vGERV2D between a pair:
 *                            the two streams stay apart (as in MKL's BLACS,
 *                            where a Cdsendrecv never matches a vGERV2D)
 *   t_sendrecv fortran       the Fortran spellings dsendrecv_, DSENDRECV ...
 *   t_sendrecv badldb|badsrc bad LDB (C), bad RSRC/CSRC (Fortran): must stop
 *                            with a BLACS error naming routine and argument
 *
 * Patterns: "exchange" (two processes send to each other at once), "ring"
 * (send right, receive from the left), "self", "oneway" (process 0 sends, 1
 * receives; the other directions carry 0 x 0).  Shapes: square, rectangular,
 * LDA > M on both sides, a reshaping transfer (2 x 6 into 3 x 4: element k
 * of the sent column-major sequence lands at element k of the receiving
 * shape) and a long message (the point-to-point's pieces).  Every element of
 * every matrix, the LDA-M gaps and GUARD elements on each side are checked
 * against their expected values; A must be left as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blacs.h"

#define GUARD 5
typedef blacs_int Int;

static int fails;
static FILE *dump;

/* sent element (i,j) of case k at process p: every value distinct */
static double sval(int p, int k, Int i, Int j) { return p * 1e7 + k * 1e5 + (double)j * 300 + (double)i + 0.25; }
static double guardval(size_t idx, int which) { return -1.0 - (double)idx - which * 0.5; }

typedef struct { Int m, n, lda, m2, n2, ldb; } shape;
static const shape cases[] = {
    {1, 1, 1, 1, 1, 1},       {4, 4, 4, 4, 4, 4},    {4, 4, 7, 4, 4, 5},
    {3, 5, 3, 3, 5, 8},       {7, 2, 9, 7, 2, 7},    {2, 6, 5, 3, 4, 3},
    {12, 1, 12, 1, 12, 1},    {1, 9, 3, 1, 9, 2},    {150, 140, 151, 150, 140, 150},
    {0, 3, 1, 0, 3, 1},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static size_t span(Int m, Int n, Int ld) { (void)m; return n > 0 ? (size_t)ld * (size_t)n : 0; }

/* one Cdsendrecv: send m x n to {rd,cd}, receive m2 x n2 from {rs,cs}
 * (whose pnum is src, -1 if nothing is expected), check everything */
static void one(Int ctxt, int me, int k, const char *what, Int m, Int n, Int lda, Int rd, Int cd,
                Int m2, Int n2, Int ldb, Int rs, Int cs, int src, Int sm)
{
    size_t la = 2 * GUARD + span(m, n, lda), lb = 2 * GUARD + span(m2, n2, ldb);
    double *A = malloc(la * sizeof *A), *A0 = malloc(la * sizeof *A), *B = malloc(lb * sizeof *B);
    for (size_t x = 0; x < la; x++) A[x] = guardval(x, 1);
    for (Int j = 0; j < n; j++)
        for (Int i = 0; i < m; i++) A[GUARD + (size_t)j * lda + i] = sval(me, k, i, j);
    memcpy(A0, A, la * sizeof *A);
    for (size_t x = 0; x < lb; x++) B[x] = guardval(x, 2);

    Cdsendrecv(ctxt, m, n, A + GUARD, lda, rd, cd, m2, n2, B + GUARD, ldb, rs, cs);

    int bad = 0;
    if (memcmp(A, A0, la * sizeof *A)) {
        printf("%s case %d: process %d: A changed\n", what, k, me);
        bad = 1;
    }
    for (size_t x = 0; x < lb && bad < 4; x++) {
        double want = guardval(x, 2);
        if (x >= GUARD && x < lb - GUARD) {
            Int i = (Int)((x - GUARD) % (size_t)ldb), j = (Int)((x - GUARD) / (size_t)ldb);
            if (i < m2 && j < n2 && src >= 0) {
                Int p = j * m2 + i; /* position in the message, column-major */
                want = sval(src, k, p % sm, p / sm);
            }
        }
        if (memcmp(&B[x], &want, sizeof want)) {
            printf("%s case %d: process %d: B[%zu] = %g, expected %g\n", what, k, me, x, B[x], want);
            bad++;
        }
    }
    fails += bad > 0;
    if (dump) {
        fwrite(B, sizeof *B, lb, dump);
        fwrite(A, sizeof *A, la, dump);
    }
    free(A);
    free(A0);
    free(B);
}

static void patterns(Int ctxt, int me, int np, int rows)
{
    Int nr, nc, r, c;
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    /* grid coordinates of process q, which is its pnum along the line */
#define CO(q) (rows ? (Int)(q) : 0), (rows ? 0 : (Int)(q))
    int right = (me + 1) % np, left = (me + np - 1) % np;
    for (int k = 0; k < NCASES; k++) {
        const shape *s = &cases[k];
        /* ring (an exchange when np == 2) */
        one(ctxt, me, k, np == 2 ? "exchange" : "ring", s->m, s->n, s->lda, CO(right), s->m2, s->n2,
            s->ldb, CO(left), left, s->m);
        /* self */
        one(ctxt, me, k, "self", s->m, s->n, s->lda, CO(me), s->m2, s->n2, s->ldb, CO(me), me, s->m);
        /* one way: 0 sends to 1, every other transfer is 0 x 0 */
        if (me == 0)
            one(ctxt, me, k, "oneway", s->m, s->n, s->lda, CO(1), 0, 0, 1, CO(np - 1), -1, 0);
        else if (me == 1)
            one(ctxt, me, k, "oneway", 0, 0, 1, CO(right), s->m2, s->n2, s->ldb, CO(0), 0, s->m);
        else
            one(ctxt, me, k, "oneway", 0, 0, 1, CO(right), 0, 0, 1, CO(left), -1, 0);
    }
    (void)nr; (void)nc; (void)r; (void)c;
#undef CO
}

/* Cdsendrecv's messages are a stream of their own, as in MKL's BLACS (whose
 * Cdsendrecv is MPI_Sendrecv with a tag vGESD2D never uses): processes 0
 * and 1 each send one ordinary message first, exchange with Cdsendrecv,
 * then receive the ordinary message.  Were the streams one, each
 * Cdsendrecv would take the other's vGESD2D message. */
static void interleave(Int ctxt, int me, int rows)
{
    if (me > 1) return;
    Int pr = rows ? 1 - me : 0, pc = rows ? 0 : 1 - me;
    double a[6], x[4], b[6], y[4];
    for (int i = 0; i < 6; i++) { a[i] = me * 10 + i; b[i] = -1; }
    for (int i = 0; i < 4; i++) { x[i] = me * 100 + i; y[i] = -1; }
    Cdgesd2d(ctxt, 2, 2, x, 2, pr, pc);
    Cdsendrecv(ctxt, 2, 3, a, 2, pr, pc, 3, 2, b, 3, pr, pc);
    Cdgerv2d(ctxt, 4, 1, y, 4, pr, pc);
    for (int i = 0; i < 6; i++)
        if (b[i] != (1 - me) * 10 + i) {
            printf("interleave: process %d: Cdsendrecv b[%d] = %g, expected %d\n", me, i, b[i], (1 - me) * 10 + i);
            fails++;
        }
    for (int i = 0; i < 4; i++)
        if (y[i] != (1 - me) * 100 + i) {
            printf("interleave: process %d: Cdgerv2d y[%d] = %g, expected %d\n", me, i, y[i], (1 - me) * 100 + i);
            fails++;
        }
}

/* the Fortran spellings, each called once on an exchange of one element */
typedef void (*fsr)(Int *, Int *, Int *, double *, Int *, Int *, Int *, Int *, Int *, double *, Int *,
                    Int *, Int *);
void dsendrecv_();
#ifdef T_MKL /* MKL's BLACS exports only dsendrecv_ */
static const fsr fnames[] = {(fsr)dsendrecv_};
#else
void dsendrecv(), DSENDRECV(), DSENDRECV_();
static const fsr fnames[] = {(fsr)dsendrecv_, (fsr)dsendrecv, (fsr)DSENDRECV, (fsr)DSENDRECV_};
#endif
static void fortran(Int ctxt, int me, int np)
{
    const fsr *f = fnames;
    Int one1 = 1, zero = 0, to = (me + 1) % np, from = (me + np - 1) % np;
    for (int v = 0; v < (int)(sizeof fnames / sizeof *f); v++) {
        double a = me * 100 + v, b = -1;
        f[v](&ctxt, &one1, &one1, &a, &one1, &zero, &to, &one1, &one1, &b, &one1, &zero, &from);
        if (b != from * 100 + v) {
            printf("fortran spelling %d: process %d got %g, expected %g\n", v, me, b, from * 100.0 + v);
            fails++;
        }
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "diff";
    Int me, np, ctxt;
    Cblacs_pinfo(&me, &np);
    if (np < 2) {
        printf("t_sendrecv needs 2 processes or more\n");
        Cblacs_exit(0);
        return 1;
    }
    if (argc > 2 && !strcmp(mode, "diff")) {
        char name[4096];
        snprintf(name, sizeof name, "%s.%d", argv[2], (int)me);
        dump = fopen(name, "wb");
        if (!dump) { perror(name); return 1; }
    }
    for (int rows = 0; rows < 2; rows++) {
        Cblacs_get(0, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "R", rows ? np : 1, rows ? 1 : np);
        if (!strcmp(mode, "diff")) patterns(ctxt, (int)me, (int)np, rows);
        else if (!strcmp(mode, "interleave")) interleave(ctxt, (int)me, rows);
        else if (!strcmp(mode, "fortran") && !rows) fortran(ctxt, (int)me, (int)np);
        else if (!strcmp(mode, "badldb") && !rows) { /* LDB = 2 < M2 = 3 */
            double a[6] = {0}, b[6];
            Cdsendrecv(ctxt, 2, 3, a, 2, 0, (me + 1) % np, 3, 2, b, 2, 0, (me + np - 1) % np);
        } else if (!strcmp(mode, "badsrc") && !rows) { /* CSRC = NP is off the grid */
            double a = 0, b;
            Int one1 = 1, zero = 0, to = (me + 1) % np, bad = np;
            dsendrecv_(&ctxt, &one1, &one1, &a, &one1, &zero, &to, &one1, &one1, &b, &one1, &zero, &bad);
        }
        Cblacs_gridexit(ctxt);
    }
    if (dump) fclose(dump);
    Int all = fails;
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 1, np);
    Cigsum2d(ctxt, "A", " ", 1, 1, &all, 1, -1, -1);
    Cblacs_gridexit(ctxt);
    if (me == 0) printf("t_sendrecv %s: %d processes, %s\n", mode, (int)np, all ? "FAILED" : "ok");
    Cblacs_exit(0);
    return all != 0;
}
