/*
 * check.c -- BLACS_DEBUG=3's cross-check descriptions still to arrive
 * (entry_debug.c posts their receives, LAWN 73 7.1.4; its sends are
 * buffered, buffer.c): compared when they arrive, at every BLACS call
 * (bi_poll) and wait of the hang detection, at GRIDEXIT, and at
 * BLACS_EXIT given a moment with the library's other messages of its own
 * (buffer.c), then dropped.  Only MPI requests and the comparison: no call into the
 * rest of the library, so the buffer layer's poll can reach it.
 */
#include <stdio.h>
#include <stdlib.h>
#include "core.h"

static bi_chk *pending;

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

/* compare what has arrived and free it; with last (BLACS_EXIT) the
 * descriptions still to come are cancelled.  How many are still to come */
static int check_sweep(int last)
{
    int left = 0;
    for (bi_chk **pp = &pending, *p; (p = *pp);) {
        int done = 0;
        MPI_Status st;
        BI_MPI(MPI_Test(&p->r, &done, &st), "MPI_Test");
        if (!done && last) {
            BI_MPI(MPI_Cancel(&p->r), "MPI_Cancel");
            BI_MPI(MPI_Wait(&p->r, &st), "MPI_Wait");
            int cancelled = 0;
            MPI_Test_cancelled(&st, &cancelled);
            done = !cancelled ? 1 : -1;
        }
        if (!done) {
            left++;
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        if (done > 0) arrived(p);
        free(p);
    }
    return left;
}

void bi_check_poll(void)
{
    if (pending) check_sweep(0);
}

int bi_check_left(int last)
{
    return pending ? check_sweep(last) : 0;
}

void bi_check_track(bi_chk *p)
{
    p->next = pending;
    pending = p;
}
