/*
 * check.c -- BLACS_DEBUG=3's cross-check descriptions still in flight
 * (entry_debug.c posts them, LAWN 73 7.1.4): compared when they arrive, at every
 * BLACS call (bi_poll) and wait of the hang detection, at GRIDEXIT, and
 * at BLACS_EXIT dropped (receives) or drained (sends, bi_check_drain).  Only MPI requests and the comparison: no call
 * into the rest of the library, so the buffer layer's poll can reach it.
 */
#include <stdio.h>
#include <stdlib.h>
#include "core.h"

static bi_chk *pending;
/* BLACS_EXIT: descriptions still being sent, whose memory MPI may read
 * until their requests complete (bi_check_drain), and those it never
 * finished within the drain's bound, kept for the rest of the process */
static bi_chk *orphans, *kept;

/* why two descriptions of one operation disagree ("" if they agree): mine
 * at scope rank me, o at scope rank k */
void bi_check_differ(const bi_sig *m, int me, const bi_sig *o, int k, char *why, size_t n)
{
    why[0] = 0;
    if (m->kind == 'B' && o->kind == 'B' && m->root == me && o->root == k && k != me)
        snprintf(why, n, "two broadcast sources in one operation: scope ranks %d and %d",
                 me < k ? me : k, me < k ? k : me);
    else if (o->kind != m->kind)
        snprintf(why, n, "this process called %s but scope rank %d called %s", m->routine, k, o->routine);
    else if (o->top != m->top)
        snprintf(why, n, "topology '%c' here, '%c' at scope rank %d (%s)", m->top, o->top, k, o->routine);
    else if (o->count != m->count)
        snprintf(why, n, "%ld elements (M*N) here, %ld at scope rank %d (%s)", m->count, o->count, k, o->routine);
    else if (o->root != m->root)
        snprintf(why, n, "root/destination is scope rank %ld here, %ld at scope rank %d (%s)", m->root, o->root, k, o->routine);
}

BI_NORETURN void bi_check_fail(Int ctxt, const char *routine, const char *call, const char *why)
{
    bi_error(ctxt, -1, routine, "BLACS_DEBUG=3 cross-check failed in %s: %s", call, why);
}

/* a peer's description that has arrived, compared with mine */
static void arrived(const bi_chk *p)
{
    char why[400];
    bi_check_differ(&p->mine, p->me, &p->sig, p->peer, why, sizeof why);
    if (why[0]) bi_check_fail(p->ctxt, p->mine.routine, p->call, why);
}

/* compare what has arrived, free what is done; with last (BLACS_EXIT)
 * unfinished receives are cancelled and unfinished sends freed */
/* unlinks *pp from its list and pushes it onto *dst */
static void move_to(bi_chk **pp, bi_chk **dst)
{
    bi_chk *p = *pp;
    *pp = p->next;
    p->next = *dst;
    *dst = p;
}

static void check_sweep(int last)
{
    for (bi_chk **pp = &pending, *p; (p = *pp);) {
        int done = 0;
        MPI_Status st;
        BI_MPI(MPI_Test(&p->r, &done, &st), "MPI_Test");
        if (!done && last) {
            if (p->recv) {
                BI_MPI(MPI_Cancel(&p->r), "MPI_Cancel");
                BI_MPI(MPI_Wait(&p->r, &st), "MPI_Wait");
                int cancelled = 0;
                MPI_Test_cancelled(&st, &cancelled);
                done = !cancelled ? 1 : -1;
            } else {
                move_to(pp, &orphans); /* MPI still reads it: drained after the buffered sends */
                continue;
            }
        }
        if (!done) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        if (p->recv && done > 0) arrived(p);
        free(p);
    }
}

void bi_check_poll(void)
{
    if (pending) check_sweep(0);
}

void bi_check_exit(Int ctxt)
{
    if (pending) check_sweep(ctxt < 0);
}

/* BLACS_EXIT, after the buffered sends: the descriptions still being sent
 * are waited for, at most limit seconds in all (every process of the job
 * is in BLACS_EXIT, whose waits let MPI move them), and freed once done.
 * Freed before, MPI would read freed memory while it finished them (the
 * buffered sends' last waits progress every request).  One MPI never
 * finished in time is let go (MPI_Request_free) and its memory kept. */
void bi_check_drain(double limit)
{
    const double t0 = MPI_Wtime();
    while (orphans) {
        for (bi_chk **pp = &orphans, *p; (p = *pp);) {
            int done = 0;
            BI_MPI(MPI_Test(&p->r, &done, MPI_STATUS_IGNORE), "MPI_Test");
            if (!done && MPI_Wtime() - t0 > limit) {
                BI_MPI(MPI_Request_free(&p->r), "MPI_Request_free");
                move_to(pp, &kept);
                continue;
            }
            if (!done) {
                pp = &p->next;
                continue;
            }
            *pp = p->next;
            free(p);
        }
    }
}

void bi_check_track(bi_chk *p)
{
    p->next = pending;
    pending = p;
}
