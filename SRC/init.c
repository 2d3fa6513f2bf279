/*
 * init.c -- the library's start (bi_init, from BLACS_PINFO or the first
 * call that needs it: MPI, the settings of the environment, the threads)
 * and its end when the program leaves by MPI_Finalize or unloads the
 * library without BLACS_EXIT.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "core.h"
#include "model.h"

/* A program may end with MPI_Finalize alone (GPAW never calls BLACS_EXIT).
 * MPI deletes MPI_COMM_SELF's attributes first thing in MPI_Finalize, with
 * MPI still usable, so the delete callback of an attribute there prints
 * the statistics (BLACS_STATS) and frees the MPI objects we keep
 * (datatypes, operations), unless BLACS_EXIT has already done both: it
 * leaves bi_g.initialized at 0.  So does the callback, so that a BLACS_EXIT
 * called after it (from another library's delete callback on
 * MPI_COMM_SELF, which MPI runs in the reverse order of setting) finds
 * nothing left to report.
 *   The callback is code of this library: were the library unloaded
 * (dlclose) while MPI is up, MPI_Finalize would call into unmapped memory.
 * So unloading removes the attribute and its key (self_unhook, from the
 * library's destructor).  BLACS_EXIT does not: it may itself run inside
 * such a delete callback of another library, and adding or deleting
 * attributes of MPI_COMM_SELF while MPI deletes them is not allowed (Open
 * MPI says so; MPICH walks the list it would change).  The attribute then
 * stays until MPI_Finalize or the unloading, doing nothing, and is reused
 * if PINFO comes again. */
static int self_key = MPI_KEYVAL_INVALID;
static int self_quiet; /* the attribute is being removed: no report */

static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    bi_progress_stop(); /* no MPI call of ours may run into MPI_Finalize */
    if (bi_g.initialized && !self_quiet) {
        bi_stats_report();
        bi_run_cleanups();
        bi_g.initialized = 0; /* as after BLACS_EXIT: nothing to report twice */
    }
    bi_watch_stop();
    self_key = MPI_KEYVAL_INVALID; /* MPI frees the key with MPI_COMM_SELF */
    return MPI_SUCCESS;
}

/* The library is being unloaded, or the program ends without MPI_Finalize:
 * with MPI still up, what the callback would have done at MPI_Finalize is
 * done now (the statistics, the MPI objects we keep), and the attribute
 * and key go, so that MPI never calls the callback after the code is gone.
 * Nothing to do once MPI is finalized (it called the callback then). */
__attribute__((destructor)) static void self_unhook(void)
{
    int up = 0, down = 0;
    if (self_key == MPI_KEYVAL_INVALID || MPI_Initialized(&up) != MPI_SUCCESS || !up) return;
    if (MPI_Finalized(&down) != MPI_SUCCESS || down) return;
    bi_progress_stop();
    if (bi_g.initialized) {
        bi_stats_report();
        bi_run_cleanups();
        bi_g.initialized = 0;
    }
    bi_watch_stop();
    int key = self_key;
    self_quiet = 1;
    /* errors here would go to MPI_COMM_SELF's handler, the user's: the
     * codes are not worth more than that while the library goes away */
    MPI_Comm_delete_attr(MPI_COMM_SELF, key);
    self_key = MPI_KEYVAL_INVALID;
    MPI_Comm_free_keyval(&key);
    self_quiet = 0;
}

static void at_finalize_hook(void)
{
    if (self_key != MPI_KEYVAL_INVALID) return;
    BI_MPI_IN(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &self_key, NULL),
              "MPI_Comm_create_keyval", -1, "BLACS_PINFO");
    BI_MPI_IN(MPI_Comm_set_attr(MPI_COMM_SELF, self_key, NULL), "MPI_Comm_set_attr", -1,
              "BLACS_PINFO");
}

void bi_init(void)
{
    if (bi_g.initialized) return;
    int up = 0;
    const int progress = bi_env_num(BI_SET_PROGRESS) != 0;
    BI_MPI_IN(MPI_Initialized(&up), "MPI_Initialized", -1, "BLACS_PINFO");
    if (!up) {
        /* MPI_THREAD_MULTIPLE for the progress thread (progress.c), unless
         * BLACS_PROGRESS=0; MPI may give less, and then there is none */
        int want = progress ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, got = 0;
        BI_MPI_IN(MPI_Init_thread(NULL, NULL, want, &got), "MPI_Init_thread", -1, "BLACS_PINFO");
        bi_g.we_init_mpi = 1;
    }
    /* on the user's MPI_COMM_WORLD, whose handler we never change: these
     * queries cannot fail on it (error.c) */
    BI_MPI_IN(MPI_Comm_rank(MPI_COMM_WORLD, &bi_g.world_rank), "MPI_Comm_rank", -1, "BLACS_PINFO");
    BI_MPI_IN(MPI_Comm_size(MPI_COMM_WORLD, &bi_g.world_size), "MPI_Comm_size", -1, "BLACS_PINFO");
    int *ub = NULL, flag = 0;
    BI_MPI_IN(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag), "MPI_Comm_get_attr", -1,
              "BLACS_PINFO");
    bi_g.tag_ub = flag ? *ub : 32767;
    if (bi_g.idhi <= bi_g.idlo) { /* not set by BLACS_SET WHAT=1 */
        bi_g.idlo = 0;
        bi_g.idhi = bi_g.tag_ub;
    }
    bi_g.debug = (int)bi_env_num(BI_SET_DEBUG);
    bi_g.bufwait = bi_env_num_or(BI_SET_BUFWAIT, bi_g.bufwait);
    if (!bi_g.bufmax) bi_g.bufmax = (size_t)bi_env_num(BI_SET_BUFMAX);
    bi_g.trace = bi_env_text(BI_SET_TRACE) != NULL;
    bi_g.stats = bi_env_flag(BI_SET_STATS);
    bi_g.hang_timeout = bi_env_num(BI_SET_HANG_TIMEOUT);
    {
        bi_g.p2p_sched = bi_env_choice(BI_SET_P2P_SCHEDULE); /* auto, node, net */
        char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
        int len = 0;
        BI_MPI_IN(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name", -1, "BLACS_PINFO");
        uint64_t h = 1469598103934665603u; /* FNV-1a */
        for (int i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 1099511628211u;
        bi_g.node_key = h;
    }
    bi_g.wait_warn = bi_env_num(BI_SET_WAIT_WARN);
    /* short sends straight from A with MPI_Send are gone (p2p.c): they
     * waited for a receiver outside MPI once MPI's queue to it was full */
    if (bi_env_num(BI_SET_EAGER_DIRECT) != 0)
        bi_error(-1, -1, "BLACS_PINFO",
                 "BLACS_PINFO: environment variable BLACS_EAGER_DIRECT='%s' is refused: a send "
                 "straight from A with MPI_Send waits for its receiver's process to enter MPI "
                 "once MPI's queue to it is full, so a valid program could hang (only 0 is "
                 "accepted: every short message goes through a buffer)",
                 bi_env_text(BI_SET_EAGER_DIRECT));
    /* read now, not at the first strided TOP ' ' broadcast: a bad value is
     * reported at BLACS_PINFO whatever path the program takes (env.c) */
    (void)bi_bcast_mpi_inplace();
    bi_g.initialized = 1;
    at_finalize_hook();
    bi_watch_start(bi_g.wait_warn);
    if (progress) bi_progress_start();
}

