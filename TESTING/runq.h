/* runq.h -- seconds the threads of this process have spent ready to run
 * but waiting for a CPU (/proc/self/task/N/schedstat, second field, ns,
 * summed over the threads; 0 where unreadable).  A send that took long
 * because the machine was busy (four processes and their threads on two
 * cores, make test's other jobs) did not wait for a receiver: the stall
 * checks of t_randprog.c and t_offmpi.c leave that time out.  Every thread
 * counts, not only the caller: the library's progress thread (and MPI's
 * own) may hold a lock the send needs while it waits for a CPU, and the
 * caller then sleeps on the lock without queueing (an Open MPI fuzz run
 * beside two simulations: a 4 KB send took 0.40 s, 0.011 s of it queued).
 * Header only: t_randprog's reference build links nothing of the tests'
 * own. */
#ifndef RUNQ_H
#define RUNQ_H
#include <dirent.h>
#include <stdio.h>

static inline double runq_wait(void)
{
    DIR *d = opendir("/proc/self/task");
    unsigned long long sum = 0;
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        unsigned long long run = 0, wait = 0;
        if (!f) continue; /* a thread that ended meanwhile */
        if (fscanf(f, "%llu %llu", &run, &wait) == 2) sum += wait;
        fclose(f);
    }
    closedir(d);
    return 1e-9 * (double)sum;
}
#endif
