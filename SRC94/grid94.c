/*
 * grid94.c -- initialisation and support routines of the 1994 BLACS
 * interface (LAWN 73 appendix C), on top of the BLACS 1.1 C interface.
 *
 *   INITPINFO(MYNUM, NPROCS)            Cblacs_pinfo
 *   AUXSETUP(MYNUM, NPROCS)             Cblacs_setup (PVM set-up; nothing to do on MPI)
 *   SETPVMTIDS(NTASKS, TIDS)            no operation (PVM only)
 *   BLACSINIT(NPROW, NPCOL)             row-major natural grid of the first NPROW*NPCOL
 *                                       processes (Cblacs_gridinit on MPI_COMM_WORLD)
 *   GRIDMAP(USERMAP, LDUMAP, NPROW, NPCOL)  USERMAP(i,j) = process number (INITPINFO
 *                                       numbering) at grid position (i,j) (Cblacs_gridmap)
 *   GRIDINFO(NPROW, NPCOL, MYROW, MYCOL)
 *   SETBRANCHES(BRANCHES)               rings for TOP 'M' and branches for TOP 'T', for
 *                                       broadcasts and combines (BLACS_SET 11-14); kept
 *                                       for later grids too
 *   BARRIER(SCOPE)
 *   KPNUM(PROW, PCOL)                   integer function: process number at (PROW,PCOL)
 *   PCOORD(PNUM, PROW, PCOL)            its inverse
 *   FREEBUF / FREEBUFF                  release the BLACS buffers not in use
 *   BLACSEXIT(CONTINUE)                 Cblacs_exit
 *   IDRANGES(MINSND, MAXSND, MINBS, MAXBS)    message-ID ranges in use
 *   SHIFT_RANGE(MINSND, MAXSND, MINBS, MAXBS) ranges the BLACS may use (next grid on)
 *
 * Differences forced by MPI, documented in README ("The 1994 interface"):
 * BLACSINIT and GRIDMAP are collective over all processes (as BLACS 1.1
 * GRIDINIT/GRIDMAP are); a process outside the grid gets -1 for all four
 * GRIDINFO values, so appendix A's test "MYROW .GE. NPROW" sends it to the
 * end of the program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "b94.h"

static blacs_int cur = -1;         /* current BLACS 1.1 context, -1: none / not a member */
static int have_grid;              /* a grid was made (this process may be outside it) */
static blacs_int g_nprow, g_npcol; /* shape of the current grid */
static blacs_int *g_map;           /* process number at (i,j): g_map[j*g_nprow+i] */
static blacs_int branches;         /* value of the last SETBRANCHES, 0: never called */

blacs_int b94_ctxt_or_none(void) { return cur; }

blacs_int b94_ctxt(const char *routine)
{
    if (cur < 0) {
        blacs_int me, np;
        Cblacs_pinfo(&me, &np);
        fprintf(stderr,
                "BLACS ERROR (1994 interface) in %s, process %ld: %s; call BLACSINIT or "
                "GRIDMAP first (on every process), and call communication routines only "
                "on processes of the grid\n",
                routine, (long)me,
                have_grid ? "this process is not in the current grid" : "no process grid");
        fflush(stderr);
        Cblacs_abort(-1, 1);
    }
    return cur;
}

static void apply_branches(void)
{
    if (cur < 0 || branches == 0) return;
    blacs_int v = branches;
    Cblacs_set(cur, 11, &v); /* broadcast 'M': rings */
    Cblacs_set(cur, 13, &v); /* combine 'M': rings */
    if (branches > 0) {
        Cblacs_set(cur, 12, &v); /* broadcast 'T': branches */
        Cblacs_set(cur, 14, &v); /* combine 'T': branches */
    }
}

/* exits the previous grid, makes the new one from map (ldmap x npcol) */
static void new_grid(const blacs_int *map, blacs_int ldmap, blacs_int nprow, blacs_int npcol)
{
    if (cur >= 0) Cblacs_gridexit(cur);
    cur = -1;
    free(g_map);
    g_map = NULL;
    g_nprow = g_npcol = 0;
    have_grid = 0;

    blacs_int sys = 0;
    Cblacs_get(0, 0, &sys); /* system context of MPI_COMM_WORLD */
    blacs_int ctxt = sys;
    Cblacs_gridmap(&ctxt, (blacs_int *)map, ldmap, nprow, npcol); /* collective */
    cur = ctxt;
    have_grid = 1;
    if (nprow > 0 && npcol > 0) {
        g_map = malloc((size_t)nprow * (size_t)npcol * sizeof *g_map);
        for (blacs_int j = 0; j < npcol; j++)
            for (blacs_int i = 0; i < nprow; i++) g_map[j * nprow + i] = map[j * ldmap + i];
        g_nprow = nprow;
        g_npcol = npcol;
    }
    apply_branches();
}

B94_EXPORT void B94F(initpinfo, INITPINFO)(blacs_int *mynum, blacs_int *nprocs)
{
    Cblacs_pinfo(mynum, nprocs);
}

B94_EXPORT void B94F(auxsetup, AUXSETUP)(blacs_int *mynum, blacs_int *nprocs)
{
    Cblacs_setup(mynum, nprocs);
}

B94_EXPORT void B94F(setpvmtids, SETPVMTIDS)(blacs_int *ntasks, blacs_int *tids)
{
    (void)ntasks;
    (void)tids;
}

B94_EXPORT void B94F(blacsinit, BLACSINIT)(blacs_int *nprow, blacs_int *npcol)
{
    blacs_int p = *nprow, q = *npcol, me, np, none = 0;
    Cblacs_pinfo(&me, &np);
    /* GRIDMAP refuses an illegal grid before it reads the map: build none
     * then (P*Q may not even fit an integer) */
    int legal = p > 0 && q > 0 && p <= np && q <= np / p;
    blacs_int *map = legal ? malloc((size_t)p * (size_t)q * sizeof *map) : &none;
    for (blacs_int i = 0; legal && i < p; i++)
        for (blacs_int j = 0; j < q; j++) map[j * p + i] = i * q + j; /* row-major natural */
    new_grid(map, p > 0 ? p : 1, p, q);
    if (legal) free(map);
}

B94_EXPORT void B94F(gridmap, GRIDMAP)(blacs_int *usermap, blacs_int *ldumap, blacs_int *nprow,
                                      blacs_int *npcol)
{
    new_grid(usermap, *ldumap, *nprow, *npcol);
}

B94_EXPORT void B94F(gridinfo, GRIDINFO)(blacs_int *nprow, blacs_int *npcol, blacs_int *myrow,
                                        blacs_int *mycol)
{
    Cblacs_gridinfo(cur, nprow, npcol, myrow, mycol); /* -1 everywhere when cur = -1 */
}

B94_EXPORT void B94F(setbranches, SETBRANCHES)(blacs_int *nbranches)
{
    branches = *nbranches;
    if (branches == 0) {
        blacs_int me, np;
        Cblacs_pinfo(&me, &np);
        fprintf(stderr, "BLACS WARNING (1994 interface) in SETBRANCHES, process %ld: "
                        "BRANCHES must be positive; ignored\n", (long)me);
        return;
    }
    apply_branches();
}

B94_EXPORT void B94F(barrier, BARRIER)(char *scope)
{
    Cblacs_barrier(b94_ctxt("BARRIER"), scope);
}

B94_EXPORT blacs_int B94F(kpnum, KPNUM)(blacs_int *prow, blacs_int *pcol)
{
    if (!g_map || *prow < 0 || *prow >= g_nprow || *pcol < 0 || *pcol >= g_npcol) return -1;
    return g_map[*pcol * g_nprow + *prow];
}

B94_EXPORT void B94F(pcoord, PCOORD)(blacs_int *pnum, blacs_int *prow, blacs_int *pcol)
{
    *prow = *pcol = -1;
    for (blacs_int j = 0; g_map && j < g_npcol; j++)
        for (blacs_int i = 0; i < g_nprow; i++)
            if (g_map[j * g_nprow + i] == *pnum) {
                *prow = i;
                *pcol = j;
                return;
            }
}

B94_EXPORT void B94F(freebuf, FREEBUF)(void)
{
    Cblacs_freebuff(cur, 0); /* frees what no pending send still uses; never waits */
}

B94_EXPORT void B94F(freebuff, FREEBUFF)(void)
{
    Cblacs_freebuff(cur, 0);
}

B94_EXPORT void B94F(blacsexit, BLACSEXIT)(blacs_int *cont)
{
    free(g_map);
    g_map = NULL;
    g_nprow = g_npcol = 0;
    cur = -1;
    have_grid = 0;
    Cblacs_exit(*cont); /* exits every grid; CONTINUE = 0 also ends MPI */
}

/* The library splits its one ID range [lo,hi] (BLACS_GET/SET WHAT=1) in two
 * halves, point-to-point first and scoped operations second (LAWN 73 6.1). */
B94_EXPORT void B94FU(idranges, IDRANGES)(blacs_int *minsnd, blacs_int *maxsnd, blacs_int *minbs,
                                         blacs_int *maxbs)
{
    blacs_int r[2] = {0, 0};
    Cblacs_get(0, 1, r);
    long long half = ((long long)r[1] - (long long)r[0] + 1) / 2; /* MPI_TAG_UB may be INT_MAX */
    *minsnd = r[0];
    *maxsnd = (blacs_int)(r[0] + half - 1);
    *minbs = (blacs_int)(r[0] + half);
    *maxbs = r[1];
}

/* The library takes one contiguous range.  When the two ranges given touch
 * or overlap, their union is used; otherwise the larger one alone, so that
 * the BLACS never use an ID the caller did not grant.  Takes effect at the
 * next BLACSINIT/GRIDMAP (appendix C). */
B94_EXPORT void B94FU(shift_range, SHIFT_RANGE)(blacs_int *minsnd, blacs_int *maxsnd,
                                               blacs_int *minbs, blacs_int *maxbs)
{
    blacs_int a0 = *minsnd, a1 = *maxsnd, b0 = *minbs, b1 = *maxbs, r[2];
    if (a0 > b0) { /* order the two ranges */
        blacs_int t0 = a0, t1 = a1;
        a0 = b0; a1 = b1; b0 = t0; b1 = t1;
    }
    if (b0 <= a1 + 1) {
        r[0] = a0;
        r[1] = a1 > b1 ? a1 : b1;
    } else if (a1 - a0 >= b1 - b0) {
        r[0] = a0;
        r[1] = a1;
    } else {
        r[0] = b0;
        r[1] = b1;
    }
    Cblacs_set(0, 1, r);
}
