/*
 * agree.c -- the settings a grid's processes must share, checked (or
 * agreed on) when the grid is made, from the table of settings.def.
 */
#include <stdio.h>
#include <stdint.h>
#include "core.h"
#include "model.h"

/* Settings that decide what goes over the wire, read by each process on
 * its own (environment, BLACS_SET before the grid), must be alike on every
 * member of a grid, or operations would wait for messages nobody sends,
 * take the wrong ones, or fail with false errors.  One small reduction when
 * the grid is made (MPI_MAX over doubles, exact for these values) settles
 * them all: a setting that may differ only in speed is agreed on, process
 * 0's value for the whole grid; the others must be equal, each sent as
 * (v, -v) so that the maximum and the minimum come back, and a difference
 * is an error on every member naming the variable.
 * Which settings are which is the table's AGREE column (settings.def);
 * here is what each one's value in effect is.  Besides the environment,
 * the message-ID range (BLACS_SET WHAT=1) must be equal: IDs are
 * computed, never exchanged.  BLACS_SET WHAT=11 to 16 are set on a grid
 * after it is made, on every process alike, as in the reference. */
/* the value in effect of a setting that must agree (settings.def), where
 * the code derives it or reads it through its own layer */
static double in_effect(int id)
{
    const bi_machine *m = bi_machine_default();
    switch (id) {
    case BI_SET_DEBUG: return bi_g.debug >= 3; /* its cross-check is a collective of its own */
    case BI_SET_STATS: return bi_g.stats;
    case BI_SET_COUNT_LIMIT: return (double)bi_count_piece(SIZE_MAX);
    case BI_SET_ALPHA: return m->tc.a;
    case BI_SET_SEND_ALPHA: return m->ts.a;
    case BI_SET_POST_ALPHA: return m->tp;
    case BI_SET_BETA: return m->tc.b;
    case BI_SET_GAMMA: return m->to.b;
    case BI_SET_MEMCPY_BETA: return m->tm.b;
    case BI_SET_PIPE_SEGMENT: return bi_pipe_segment();
    case BI_SET_COMB_NSHORT: return bi_comb_nshort();
    case BI_SET_P2P_SCHEDULE: return bi_g.p2p_sched;
    default:
        bi_error(-1, __LINE__, __FILE__, "settings.def: %s must agree, but nothing reads it here",
                 bi_settings[id].name);
    }
}

void bi_settings_agree(MPI_Comm comm, int *p2p_sched, const char *routine)
{
    enum { MAXCHK = BI_NSETTINGS + 2 };
    const char *what[MAXCHK];
    double mine[MAXCHK], v[2 * MAXCHK + 1];
    int n = 0, rank = 0;
    what[n] = "message-ID ranges (BLACS_SET WHAT=1), lower ends";
    mine[n++] = bi_g.idlo;
    what[n] = "message-ID ranges (BLACS_SET WHAT=1), upper ends";
    mine[n++] = bi_g.idhi;
    char names[BI_NSETTINGS][96];
    for (int i = 0; i < BI_NSETTINGS; i++) {
        const bi_setting *s = &bi_settings[i];
        if (s->agree != BI_AG_EQUAL && s->agree != BI_AG_LEVEL3) continue;
        if (s->agree == BI_AG_LEVEL3)
            snprintf(names[i], sizeof names[i], "%s cross-check settings (1: level 3, 0: below)", s->name);
        else if (s->kind == BI_SK_FLAG)
            snprintf(names[i], sizeof names[i], "values of %s (1: on, 0: off)", s->name);
        else snprintf(names[i], sizeof names[i], "values of %s", s->name);
        what[n] = names[i];
        mine[n++] = in_effect(i);
    }
    BI_MPI_IN(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", -1, routine);
    for (int i = 0; i < n; i++) {
        v[2 * i] = mine[i];
        v[2 * i + 1] = -mine[i];
    }
    /* agreed: process 0's value is the only one above -1 (one setting) */
    v[2 * n] = rank == 0 ? in_effect(BI_SET_P2P_SCHEDULE) : -1;
    BI_MPI_IN(MPI_Allreduce(MPI_IN_PLACE, v, 2 * n + 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce",
              -1, routine);
    for (int i = 0; i < n; i++)
        if (v[2 * i] != mine[i] || -v[2 * i + 1] != mine[i])
            bi_error(-1, -1, routine,
                     "the processes of this grid were given different %s: from %.15g to %.15g, "
                     "%.15g here; every process of a grid must use the same",
                     what[i], -v[2 * i + 1], v[2 * i], mine[i]);
    *p2p_sched = (int)v[2 * n];
    /* BLACS_DEBUG >= 1: the settings in effect, once, by process 0 of the
     * first grid this process makes */
    static int shown;
    if (bi_g.debug >= 1 && !shown) {
        shown = 1;
        if (rank == 0) {
            char head[160];
            snprintf(head, sizeof head, "BLACS settings in effect (BLACS_DEBUG=%d; process 0 of the "
                     "first grid, pnum %d):", bi_g.debug, bi_g.world_rank);
            bi_settings_print(head);
        }
    }
}
