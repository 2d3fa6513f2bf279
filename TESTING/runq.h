/* runq.h -- seconds this process could not run for reasons that are not
 * MPI's nor the library's, over an interval (the difference of two calls):
 *  - the time its threads spent ready to run but waiting for a CPU
 *    (/proc/self/task/N/schedstat, second field, ns, summed over the
 *    threads);
 *  - the time the hypervisor ran something else on this machine's CPUs
 *    (steal, /proc/stat, summed over the CPUs: an upper bound for one
 *    process);
 *  - the time some task of the machine was stalled on the disk
 *    (/proc/pressure/io, "some", us): a page of a shared library read back
 *    in, which blocks without queueing (again an upper bound).
 * Each is 0 where unreadable.  A send that took long because the machine
 * was busy (four processes and their threads on two cores, make test's
 * other jobs) did not wait for a receiver: the stall checks of
 * t_randprog.c and t_offmpi.c leave that time out.  Every thread counts,
 * not only the caller: the library's progress thread (and MPI's own) may
 * hold a lock the send needs while it waits for a CPU, and the caller then
 * sleeps on the lock without queueing (an Open MPI fuzz run beside two
 * simulations: a 4 KB send took 0.40 s, 0.011 s of it queued).  The steal
 * and the disk came in after an MPICH fuzz run beside an Open MPI one: a
 * send of 16 bytes took 0.335 s with no time queued, and did not come back
 * in 65 reruns of its program; this machine's disk stalls came to 51 ms in
 * one minute of compiling, and its steal to 0.45 s.
 * Header only: t_randprog's reference build links nothing of the tests'
 * own. */
#ifndef RUNQ_H
#define RUNQ_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the first line of file that starts with key, or "" */
static inline void runq_line(const char *file, const char *key, char *line, int size)
{
    FILE *f = fopen(file, "r");
    line[0] = 0;
    if (!f) return;
    while (fgets(line, size, f))
        if (!strncmp(line, key, strlen(key))) break;
    if (strncmp(line, key, strlen(key))) line[0] = 0;
    fclose(f);
}

static inline double runq_wait(void)
{
    DIR *d = opendir("/proc/self/task");
    unsigned long long sum = 0;
    if (d) {
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
    }
    char line[512];
    unsigned long long steal = 0, io = 0;
    long hz = sysconf(_SC_CLK_TCK);
    runq_line("/proc/stat", "cpu ", line, sizeof line); /* cpu user nice system idle iowait irq softirq steal */
    if (hz <= 0 || sscanf(line, "cpu %*u %*u %*u %*u %*u %*u %*u %llu", &steal) != 1) steal = 0;
    runq_line("/proc/pressure/io", "some ", line, sizeof line);
    const char *t = strstr(line, "total=");
    if (!t || sscanf(t, "total=%llu", &io) != 1) io = 0;
    return 1e-9 * (double)sum + (hz > 0 ? (double)steal / (double)hz : 0) + 1e-6 * (double)io;
}
#endif
