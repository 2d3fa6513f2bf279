/*
 * tcommon.h -- what the four timers of LAWN 73 appendix D share (tc.c: the
 * T_c echo test, ts.c: the T_s post-send test, tbs.c: broadcasts, tg.c:
 * combines).  Only the public BLACS interface and MPI appear here: the same
 * sources are linked once against this library and once against the
 * reference BLACS (TIMING_REF defined), so the two are timed by one code.
 *
 * Conventions kept from the paper: one 1 x nnodes process grid (the paper's
 * blacsinit_(1, nnodes)); the system's barrier before each timed loop (its
 * Tsync); a wall clock (the printed codes mapped dwalltime00 onto
 * dcputime00, i.e. measured CPU time -- wrong for waiting processes).
 */
#ifndef TCOMMON_H
#define TCOMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <mpi.h>
#include "blacs.h"
#include "tpingpong.h" /* MPI_COMM_WORLD helpers: mpi_echo, tbusy */

#if defined(TIMING_MKL)
#define TLIB "mkl" /* Intel MKL's BLACS (TIMING/timing.mk, with TIMING_REF) */
#elif defined(TIMING_REF)
#define TLIB "reference"
#else
#define TLIB "ours"
#endif
/* the paper's PLAT: the machine, here the MPI library and which BLACS */
#define TPLAT "MPICH " TLIB

static inline double twall(void) { return MPI_Wtime(); }
static inline void tsync(void) { MPI_Barrier(MPI_COMM_WORLD); }

/* TIMING_BEST_OF=k (environment, default 1 = the paper's method): each
 * timed loop is run k times and the fastest kept.  Not in the paper; on a
 * machine with other work, one descheduling (milliseconds) in a loop of
 * microsecond operations swamps the average, and the minimum of a few
 * loops is what the library can do.  Every process must see the same k. */
static inline int tbestof(void)
{
    const char *s = getenv("TIMING_BEST_OF");
    int k = s ? atoi(s) : 1;
    return k < 1 ? 1 : k > 1000 ? 1000 : k;
}

/* BLACS 1.1 wants LDA >= max(1, M); the printed codes passed LDA = 0 for
 * their zero-length wake-up messages */
static inline blacs_int tld(long m) { return m > 0 ? (blacs_int)m : 1; }

/* The length step.  The printed codes disagree with their own usage notes
 * and with each other (add when inclen < lenN, or when inclen > 0; else
 * len *= len, which never moves from 0 or 1 and squares otherwise).  Here,
 * in all four: inclen > 0 adds inclen, inclen <= 0 doubles (0 -> 1 -> 2 ...). */
static inline long tnext(long len, long inclen)
{
    if (inclen > 0) return len + inclen;
    return len > 0 ? 2 * len : 1;
}
static inline int tcount(long len1, long lenN, long inclen)
{
    int n = 0;
    for (long l = len1; l <= lenN; l = tnext(l, inclen)) n++;
    return n;
}

/* strict integer argument */
static inline int targ(const char *s, long *v)
{
    char *end;
    if (!s || !*s) return 0;
    *v = strtol(s, &end, 10);
    return *end == '\0';
}

/* "stdout", "stderr" or a file to create; NULL (with a message) if it fails */
static inline FILE *topen(const char *name)
{
    if (!name || !strcmp(name, "stdout")) return stdout;
    if (!strcmp(name, "stderr")) return stderr;
    FILE *f = fopen(name, "w");
    if (!f) perror(name);
    return f;
}
static inline void tclose(FILE *f)
{
    if (f && f != stdout && f != stderr) fclose(f);
    else if (f) fflush(f);
}

/* the separator line of the broadcast and combine reports */
static inline void trule(FILE *fp)
{
    for (int i = 0; i < 78; i++) fputc('=', fp);
    fputc('\n', fp);
}

/* 1 x nnodes grid over all processes, as the paper's codes used */
static inline blacs_int tgrid(blacs_int nnodes)
{
    blacs_int ctxt;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, nnodes);
    return ctxt;
}

/* the median of k times (sorts v) -- make bench's programs */
static inline int tcmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static inline double tmedian(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, tcmpd);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* two processes (tword.c, tplace.c): the median of each one's k times;
 * process 0 gets process 1's in *other (returns its own; process 1 its) */
static inline double tmedian_pair(double *v, int k, int me, double *other)
{
    double mine = tmedian(v, k);
    *other = 0;
    if (me == 1) MPI_Send(&mine, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    else MPI_Recv(other, 1, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return mine;
}

/* the wrong items of all processes, said by process 0 ("prog: N what");
 * returns their total there, 0 elsewhere */
static inline long tbad_all(long bad, int me, const char *prog, const char *what)
{
    long all = 0;
    MPI_Reduce(&bad, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0 && all) printf("%s: %ld %s\n", prog, all, what);
    return all;
}

#endif
