/*
 * stats.c -- BLACS_STATS=1 (LAWN 73 7.1.4): per-routine statistics of the
 * calls completed (calls, bytes, time in the routine and waiting), printed
 * at BLACS_EXIT, or at MPI_Finalize without it (init.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "core.h"

typedef struct {
    const char *routine;
    long calls;
    double bytes, tin, twait, minmsg, maxmsg;
} bi_stat;
#define NSTAT 128
static bi_stat stats[NSTAT];
static int nstats;

static bi_stat *stat_of(const char *routine)
{
    for (int i = 0; i < nstats; i++)
        if (stats[i].routine == routine || strcmp(stats[i].routine, routine) == 0) return &stats[i];
    if (nstats == NSTAT) return NULL;
    bi_stat *s = &stats[nstats++];
    memset(s, 0, sizeof *s);
    s->routine = routine;
    s->minmsg = -1;
    return s;
}

void bi_stats_add(const bi_call *c, double seconds_in)
{
    bi_stat *s = stat_of(c->routine);
    if (!s) return;
    double b = (double)c->bytes;
    s->calls++;
    s->bytes += b;
    s->tin += seconds_in;
    s->twait += c->twait;
    if (s->minmsg < 0 || b < s->minmsg) s->minmsg = b;
    if (b > s->maxmsg) s->maxmsg = b;
}

/* Printing, at BLACS_EXIT (or MPI_Finalize: init.c).  Each process prints its own table: no MPI call, so nothing waits for
 * processes that never used the BLACS (a job whose other ranks never call
 * them, grids over a communicator of some ranks only).  The table goes out
 * with one write, so the tables of different processes do not mix line by
 * line; BLACS_STATS_CSV=file writes the rows as CSV to file.<pnum>. */
static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

void bi_stats_report(void)
{
    if (!bi_g.stats) return;
    const int pn = bi_g.world_rank;
    /* a line is at most about 160 characters (the routine names are short) */
    size_t max = (size_t)(nstats + 3) * 256, off = 0;
    char *tab = bi_alloc(NULL, max, "BLACS_EXIT", "the statistics");
    off += (size_t)snprintf(tab + off, max - off,
                            "BLACS statistics (BLACS_STATS=1) of pnum %d\n%5s %-12s %8s %12s %10s %10s "
                            "%10s %10s %10s %10s %6s\n",
                            pn, "pnum", "routine", "calls", "bytes", "in (s)", "wait (s)", "min msg",
                            "max msg", "mean msg", "buf hwm", "grids");
    const char *csv = bi_env_text(BI_SET_STATS_CSV);
    FILE *f = NULL;
    if (csv && *csv) {
        size_t len = strlen(csv) + 16;
        char *name = bi_alloc(NULL, len, "BLACS_EXIT", "the statistics");
        snprintf(name, len, "%s.%d", csv, pn);
        f = fopen(name, "w");
        free(name);
    }
    if (f)
        fprintf(f, "pnum,routine,calls,bytes,time_in_s,time_wait_s,min_msg,max_msg,mean_msg,"
                   "buffer_hwm_bytes,live_grids_hwm\n");
    for (int i = 0; i < nstats; i++) {
        const bi_stat *s = &stats[i];
        double mn = s->minmsg < 0 ? 0 : s->minmsg, me = s->calls ? s->bytes / (double)s->calls : 0.0;
        off += (size_t)snprintf(tab + off, max - off,
                                "%5d %-12s %8ld %12.0f %10.4f %10.4f %10.0f %10.0f %10.1f %10zu %6d\n",
                                pn, s->routine, s->calls, s->bytes, s->tin, s->twait, mn, s->maxmsg,
                                me, bi_buf_hwm(), bi_g.ctx_hwm);
        if (off >= max) off = max - 1; /* cut, never overrun */
        if (f)
            fprintf(f, "%d,%s,%ld,%.0f,%.6f,%.6f,%.0f,%.0f,%.1f,%zu,%d\n", pn, s->routine, s->calls,
                    s->bytes, s->tin, s->twait, mn, s->maxmsg, me, bi_buf_hwm(), bi_g.ctx_hwm);
    }
    if (f) fclose(f);
    fflush(stdout); /* the program's own output first */
    write_all(STDOUT_FILENO, tab, off);
    free(tab);
    nstats = 0;
}
