/* runq.h -- seconds this thread has spent ready to run but waiting for a
 * CPU (/proc/thread-self/schedstat, second field, ns; 0 where unreadable).
 * A send that took long because the machine was busy (four processes and
 * their threads on two cores, make test's other jobs) did not wait for a
 * receiver: the stall checks of t_randprog.c and t_offmpi.c leave that
 * time out.  Header only: t_randprog's reference build links nothing of
 * the tests' own. */
#ifndef RUNQ_H
#define RUNQ_H
#include <stdio.h>

static inline double runq_wait(void)
{
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    unsigned long long run = 0, wait = 0;
    if (!f) return 0;
    if (fscanf(f, "%llu %llu", &run, &wait) != 2) wait = 0;
    fclose(f);
    return 1e-9 * (double)wait;
}
#endif
