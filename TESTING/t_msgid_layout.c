/*
 * t_msgid_layout.c -- the message-ID arithmetic of SRC/msgid.c (LAWN 73
 * 6.1) at sizes this machine cannot run: any range of at least 64 IDs must
 * give every grid up to 100,000 processes four disjoint classes inside the
 * range (point-to-point, row, column, all), every ID of every process and
 * count inside its own class, and the two IDs of a scoped operation inside
 * one group's subrange; a wide range must give every process its own
 * subrange (the paper's scheme).  Pure arithmetic: one process, no grid.
 * Correctness of ID reuse itself rests on receives naming their source,
 * which the scale test list exercises end to end.
 */
#include <limits.h>
#include "tutil.h"
#include "bi.h"

static long checks_bad;

static void check_class(const char *what, const bi_idclass *k, long lo, long hi, int nproc,
                        int n, long *prev_end)
{
    long end = (long)k->base + (long)k->groups * k->width - 1;
    int ok = k->groups >= 1 && k->width >= n && k->base >= lo && end <= hi &&
             k->base > *prev_end && k->groups <= (nproc > 0 ? nproc : 1);
    TU_CHECK(ok, "%s class base %d groups %d width %d (range [%ld,%ld], %d processes, "
                 "previous class ends at %ld)", what, k->base, k->groups, k->width, lo, hi, nproc,
             *prev_end);
    *prev_end = end;
    /* sampled processes and counts: IDs stay in the class, and an
     * operation's n IDs stay in its group's subrange */
    int who[] = {0, 1, nproc / 2, nproc - 1};
    unsigned counts[] = {0, 1, 2, 7, 63, 64, 1000, 123457, UINT_MAX - 1, UINT_MAX};
    for (int w = 0; w < 4; w++) {
        if (who[w] < 0 || who[w] >= nproc) continue;
        long sub = (long)k->base + (long)(who[w] % k->groups) * k->width;
        for (int c = 0; c < 10; c++) {
            unsigned first = n > 1 ? bi_msgid_next(counts[c], n, k->width) : counts[c];
            for (int t = 0; t < n; t++) {
                long id = bi_msgid_id(k, who[w], first) + t;
                if (id < sub || id >= sub + k->width || id > hi) {
                    if (checks_bad++ < 5)
                        fprintf(stderr, "%s: process %d count %u ID %ld outside [%ld,%ld]\n",
                                what, who[w], counts[c], id, sub, sub + k->width - 1);
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const long ranges[][2] = {{0, 63},   {0, 255},    {0, 1000},      {0, 32767},
                              {100, 163}, {0, 131071}, {0, 524287},   {0, 8388607},
                              {5, 268435455}};
    const int grids[][2] = {{1, 1},   {1, 2},     {1, 3},       {2, 2},     {3, 4},
                            {32, 32}, {316, 316}, {100000, 1},  {1, 100000}, {1000, 100},
                            {2, 50000}};
    for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++)
        for (size_t g = 0; g < sizeof grids / sizeof *grids; g++) {
            long lo = ranges[r][0], hi = ranges[r][1];
            int P = grids[g][0], Q = grids[g][1], np = P * Q;
            bi_idlayout l;
            const char *why = bi_msgid_layout(lo, hi, P, Q, &l);
            TU_CHECK(why == NULL, "range [%ld,%ld] refused for a %dx%d grid: %s", lo, hi, P, Q,
                     why ? why : "");
            if (why) continue;
            long end = lo - 1;
            check_class("point-to-point", &l.p2p, lo, hi, np, 1, &end);
            check_class("row", &l.row, lo, hi, Q, 2, &end);
            check_class("column", &l.col, lo, hi, P, 2, &end);
            check_class("all", &l.all, lo, hi, np, 2, &end);
            /* the paper's scheme whenever the range is wide enough */
            if ((hi - lo + 1) / 2 >= np)
                TU_CHECK(l.p2p.groups == np, "range [%ld,%ld] %dx%d: %d p2p groups for %d senders",
                         lo, hi, P, Q, l.p2p.groups, np);
            if ((hi - lo + 1) / 12 >= np)
                TU_CHECK(l.all.groups == np && l.row.groups == Q && l.col.groups == P,
                         "range [%ld,%ld] %dx%d: root groups %d/%d/%d", lo, hi, P, Q, l.row.groups,
                         l.col.groups, l.all.groups);
        }
    TU_CHECK(checks_bad == 0, "%ld IDs outside their subrange", checks_bad);
    bi_idlayout l;
    TU_CHECK(bi_msgid_layout(0, 14, 2, 2, &l) != NULL, "a range of 15 IDs was accepted");
    TU_CHECK(bi_msgid_layout(0, 15, 100000, 1, &l) == NULL, "a range of 16 IDs was refused");
    return tu_finish();
}
