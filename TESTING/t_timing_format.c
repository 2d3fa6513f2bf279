/*
 * t_timing_format.c -- checks that the output of one of the timers of
 * LAWN 73 appendix D (TIMING/tc.c, ts.c, tbs.c, tg.c, tmachine.c) keeps the
 * paper's format, line by line, and that its numbers make sense (lengths as
 * announced, times >= 0, MIN <= AVG <= MAX, SRC within [MIN, MAX]).
 *
 *   t_timing_format tc|ts|tbs|tg|tmo FILE [NLENGTHS [SYSTEM]]
 *
 * NLENGTHS: the number of lengths expected; SYSTEM: a word the quoted
 * system name must contain (e.g. "ours", "reference", "primitive").
 * Run by TIMING/smoke.sh; ends with "N passed, M failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tutil.h"

static char **L;
static int nl, at;

static const char *next(void) { return at < nl ? L[at++] : ""; }
static int is_rule(const char *s)
{
    int n = 0;
    while (*s == '=') s++, n++;
    return n >= 5 && (*s == '\n' || *s == ' ' || !*s);
}
static int blank(const char *s) { return strspn(s, " \n") == strlen(s); }

static void check_plat(const char *plat, const char *want)
{
    if (want) TU_CHECK(strstr(plat, want) != NULL, "system '%s' does not name '%s'", plat, want);
}

static void p2p(int tc, int nwant, const char *sys)
{
    int np, sender, nlen, nrecv, reps, n;
    char plat[128] = "";
    const char *s = next();
    n = sscanf(s, "Start of %d node '%127[^']' run: sender=%d, nlengths=%d, nrecvs=%d, reps=%d.", &np, plat,
               &sender, &nlen, &nrecv, &reps);
    TU_CHECK(n == 6, "Start line: %s", s);
    if (n != 6) return;
    check_plat(plat, sys);
    if (nwant >= 0) TU_CHECK(nlen == nwant, "nlengths=%d, want %d", nlen, nwant);
    if (!tc) TU_CHECK(!strncmp(next(), "Receivers:", 10), "Receivers: line");
    for (int k = 0; k < nlen; k++) {
        long len, l2;
        s = next();
        TU_CHECK(sscanf(s, " Message Len=%ld", &len) == 1, "Message Len line: %s", s);
        for (int r = 0; r < (tc ? nrecv : 1); r++) {
            double t, thru;
            int a, b;
            s = next();
            if (tc)
                TU_CHECK(sscanf(s, " Node %d send to %d: length=%ld, Tc = %lf (us), ThruPut = %lf (KB/s).", &a, &b,
                                &l2, &t, &thru) == 5 && a == sender && l2 == len && t >= 0 && thru >= 0,
                         "Tc line: %s", s);
            else
                TU_CHECK(sscanf(s, "  %d: length=%ld, Ts = %lf (us).", &a, &l2, &t) == 3 && a == sender &&
                             l2 == len && t >= 0,
                         "Ts line: %s", s);
        }
        s = next();
        TU_CHECK(sscanf(s, " End of tests, length=%ld.", &l2) == 1 && l2 == len, "End of tests line: %s", s);
    }
    TU_CHECK(!strcmp(next(), "End of Run.\n"), "End of Run.");
}

static void machine(int nwant)
{
    int nlen, reps;
    const char *s = next();
    TU_CHECK(sscanf(s, "Start of 1 node '%*[^']' run: Tm and To, nlengths=%d, reps=%d.", &nlen, &reps) == 2,
             "Start line: %s", s);
    if (nwant >= 0) TU_CHECK(nlen == nwant, "nlengths=%d, want %d", nlen, nwant);
    for (int k = 0; k < nlen; k++) {
        long len, l2, l3, l4;
        double tm, to;
        TU_CHECK(sscanf(next(), " Message Len=%ld.", &len) == 1, "Message Len");
        TU_CHECK(sscanf(next(), "  length=%ld, Tm = %lf (us).", &l2, &tm) == 2 && l2 == len && tm >= 0, "Tm line");
        TU_CHECK(sscanf(next(), "  length=%ld, To = %lf (us).", &l3, &to) == 2 && l3 == len && to >= 0, "To line");
        TU_CHECK(sscanf(next(), " End of tests, length=%ld.", &l4) == 1 && l4 == len, "End of tests");
    }
    TU_CHECK(!strcmp(next(), "End of Run.\n"), "End of Run.");
}

static void coll(int bc, int nwant, const char *sys)
{
    char plat[128] = "", top = 0, op = 0;
    int np, reps, root, ntests;
    const char *s = next();
    if (blank(s)) s = next();
    TU_CHECK(is_rule(s), "rule line: %s", s);
    s = next();
    if (bc)
        TU_CHECK(sscanf(s, "Time in milliseconds for double precision '%127[^']' bcast, top='%c',", plat, &top) == 2,
                 "title: %s", s);
    else
        TU_CHECK(sscanf(s, "Time in milliseconds for double precision '%127[^']' op='%c', top='%c',", plat, &op,
                        &top) == 3 && strchr("+<>", op),
                 "title: %s", s);
    check_plat(plat, sys);
    s = next();
    TU_CHECK(sscanf(s, bc ? "nnodes=%d, reps=%d, src=%d, ntests=%d." : "nnodes=%d, reps=%d, dest=%d, ntests=%d.",
                    &np, &reps, &root, &ntests) == 4,
             "nnodes line: %s", s);
    if (nwant >= 0) TU_CHECK(ntests == nwant, "ntests=%d, want %d", ntests, nwant);
    TU_CHECK(is_rule(next()), "rule");
    TU_CHECK(blank(next()), "blank");
    s = next();
    TU_CHECK(strstr(s, "ELEMENTS") && strstr(s, "MIN TIME") && strstr(s, "MAX TIME") && strstr(s, "AVG TIME") &&
                 (!bc || strstr(s, "SRC TIME")),
             "column heads: %s", s);
    TU_CHECK(strstr(next(), "--------") != NULL, "dashes");
    TU_CHECK(blank(next()), "blank");
    long prev = -1;
    for (int k = 0; k < ntests; k++) {
        long len;
        double src = 0, mn, mx, avg;
        s = next();
        int n = bc ? sscanf(s, "%ld %lf %lf %lf %lf", &len, &src, &mn, &mx, &avg)
                   : sscanf(s, "%ld %lf %lf %lf", &len, &mn, &mx, &avg);
        TU_CHECK(n == (bc ? 5 : 4), "row: %s", s);
        if (n != (bc ? 5 : 4)) return;
        TU_CHECK(len > prev && mn >= 0 && mn <= avg * (1 + 1e-9) + 1e-6 && avg <= mx * (1 + 1e-9) + 1e-6,
                 "row values: %s", s);
        if (bc) TU_CHECK(src >= mn - 1e-6 && src <= mx + 1e-6, "SRC TIME within [MIN, MAX]: %s", s);
        prev = len;
    }
    TU_CHECK(blank(next()), "blank after the rows");
    TU_CHECK(is_rule(next()), "closing rule");
    TU_CHECK(!strcmp(next(), "End of Run.\n"), "End of Run.");
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: t_timing_format tc|ts|tbs|tg|tmo FILE [NLENGTHS [SYSTEM]]\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    char buf[1024];
    while (fgets(buf, sizeof buf, f)) {
        L = realloc(L, sizeof *L * (size_t)(nl + 1));
        L[nl++] = strdup(buf);
    }
    fclose(f);
    int nwant = argc > 3 ? atoi(argv[3]) : -1;
    const char *sys = argc > 4 ? argv[4] : NULL;
    const char *k = argv[1];
    if (!strcmp(k, "tc")) p2p(1, nwant, sys);
    else if (!strcmp(k, "ts")) p2p(0, nwant, sys);
    else if (!strcmp(k, "tbs")) coll(1, nwant, sys);
    else if (!strcmp(k, "tg")) coll(0, nwant, sys);
    else if (!strcmp(k, "tmo")) machine(nwant);
    else TU_CHECK(0, "unknown timer %s", k);
    TU_CHECK(at == nl, "%d lines left after End of Run.", nl - at);
    if (tu_fail) fprintf(stderr, "in %s (%s)\n", argv[2], k);
    printf("%d passed, %d failed\n", tu_pass, tu_fail);
    for (int i = 0; i < nl; i++) free(L[i]);
    free(L);
    return tu_fail != 0;
}
