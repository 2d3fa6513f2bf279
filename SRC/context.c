/*
 * context.c -- BLACS state, contexts (grids) and scopes.
 *
 * A grid owns two MPI communicators of the same group, ranks in row-major
 * grid order: the one made with MPI_Comm_create over the system context,
 * handed to the user by BLACS_GET WHAT=10, and a private duplicate that
 * carries all of the library's traffic.  Point-to-point and the BLACS
 * topologies of all three scopes share the private one; the message-ID
 * scheme (msgid.c) keeps their traffic apart by tag, which is the purpose
 * the paper gives it (LAWN 73 6.1).  MPI's own collectives (TOP ' ',
 * barriers) need a communicator per scope that no other scope's
 * collectives use, since MPI matches them by call order alone: the 'All'
 * scope uses the private one; a row or column of several processes, but
 * not all of them, gets one made with the grid by MPI_Comm_create_group
 * over its members (scope_comm_make says why not later); a scope of one
 * process uses MPI_COMM_SELF.  A row or column that is the whole grid
 * (1 x P, P x 1) gets none (bi_scope_has_coll): its ' ' operations,
 * barrier and cross-check run the library's own point-to-point algorithms
 * on the private communicator, its message IDs keeping them apart from the
 * 'All' scope's (bi_gridmap says why a duplicate is no answer).  So a grid
 * holds four communicators when it has several rows and columns, two for
 * 1 x P, P x 1 and 1 x 1 (the reference four always), GRIDEXIT frees them
 * all, and creating and exiting grids in a loop never exhausts MPI's
 * context ids.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "core.h"
#include "model.h"


static bi_ctx **ctxs;     /* context table; handle = index */
static int nctxs, nlive, live_hwm, warn_at = 512;

static MPI_Comm *syscomms; /* C system-context handles; world is 0 */
static int nsys;

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
    const int progress = bi_env_number("BLACS_PROGRESS", 1, 0, 1, BI_ENV_INT) != 0;
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
    bi_g.debug = (int)bi_env_number("BLACS_DEBUG", 0, 0, 3, BI_ENV_INT);
    bi_g.bufwait = bi_env_number("BLACS_BUFWAIT", bi_g.bufwait, 0, HUGE_VAL, 0);
    if (!bi_g.bufmax) bi_g.bufmax = (size_t)bi_env_number("BLACS_BUFMAX", 0, 0, 0x1p62, BI_ENV_SIZE);
    bi_g.trace = getenv("BLACS_TRACE") != NULL;
    const char *st = getenv("BLACS_STATS");
    bi_g.stats = st && *st && *st != '0';
    bi_g.hang_timeout = bi_env_number("BLACS_HANG_TIMEOUT", 10.0, 0, HUGE_VAL, 0);
    {
        const char *e = getenv("BLACS_P2P_SCHEDULE");
        bi_g.p2p_sched = e && *e == 'n' ? (e[1] == 'o' ? 1 : 2) : 0; /* "node" / "net" */
        char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
        int len = 0;
        BI_MPI_IN(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name", -1, "BLACS_PINFO");
        uint64_t h = 1469598103934665603u; /* FNV-1a */
        for (int i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 1099511628211u;
        bi_g.node_key = h;
    }
    bi_g.wait_warn = bi_env_number("BLACS_WAIT_WARN", 300.0, 0, HUGE_VAL, 0);
    /* short sends straight from A with MPI_Send are gone (p2p.c): they
     * waited for a receiver outside MPI once MPI's queue to it was full */
    const char *ed = getenv("BLACS_EAGER_DIRECT");
    if (ed && bi_env_number("BLACS_EAGER_DIRECT", 0, 0, HUGE_VAL, 0) != 0)
        bi_error(-1, -1, "BLACS_PINFO",
                 "BLACS_PINFO: environment variable BLACS_EAGER_DIRECT='%s' is refused: a send "
                 "straight from A with MPI_Send waits for its receiver's process to enter MPI "
                 "once MPI's queue to it is full, so a valid program could hang (only 0 is "
                 "accepted: every short message goes through a buffer)",
                 ed);
    /* read now, not at the first strided TOP ' ' broadcast: a bad value is
     * reported at BLACS_PINFO whatever path the program takes (env.c) */
    (void)bi_bcast_mpi_inplace();
    bi_g.initialized = 1;
    at_finalize_hook();
    bi_watch_start(bi_g.wait_warn);
    if (progress) bi_progress_start();
}

bi_ctx *bi_ctx_find(Int h)
{
    return (h >= 0 && h < nctxs) ? ctxs[h] : NULL;
}

bi_ctx *bi_ctx_get(Int h, const char *routine)
{
    bi_ctx *c = bi_ctx_find(h);
    if (!c)
        bi_argerr(h, routine, 1, "ICONTXT",
                  "%ld is not a valid BLACS context (never made, or already exited)", (long)h);
    bi_poll();
    return c;
}

bi_scope *bi_scope_get(bi_ctx *c, const char *scope, const char *routine, int argno)
{
    switch (bi_up(scope)) {
    case 'R': return &c->row;
    case 'C': return &c->col;
    case 'A': return &c->all;
    default:
        bi_argerr(c->handle, routine, argno, "SCOPE", "Unknown scope '%c'", scope ? *scope : ' ');
    }
}

int bi_scope_rank(const bi_scope *s, Int prow, Int pcol)
{
    switch (s->id) {
    case 'r': return (int)pcol;
    case 'c': return (int)prow;
    default: return (int)(prow * s->ctx->npcol + pcol);
    }
}

/* the scope's communicator, over its members only (MPI_Comm_create_group
 * involves no one else); called for every scope of several processes while
 * the grid is made, when all of them are in GRIDINIT or GRIDMAP anyway.
 * Made on first use instead, it would make the first ' ' operation of a
 * scope wait for every member to arrive: two scopes whose first operations
 * come in opposite orders on their processes (row broadcast then column
 * receive on some, the reverse on others, a legal program) would deadlock. */
static void scope_comm_make(bi_scope *s, const char *routine)
{
    MPI_Group g, sg;
    int *r = bi_alloc(NULL, (size_t)s->np * sizeof(int), routine, "a scope's ranks");
    for (int k = 0; k < s->np; k++) r[k] = bi_scope_commrank(s, k);
    BI_MPI_IN(MPI_Comm_group(s->ctx->comm, &g), "MPI_Comm_group", s->ctx->handle, routine);
    BI_MPI_IN(MPI_Group_incl(g, s->np, r, &sg), "MPI_Group_incl", s->ctx->handle, routine);
    BI_MPI_IN(MPI_Comm_create_group(s->ctx->comm, sg, s->id, &s->comm), "MPI_Comm_create_group",
              s->ctx->handle, routine);
    BI_MPI_IN(MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler",
              s->ctx->handle, routine);
    BI_MPI_IN(MPI_Group_free(&sg), "MPI_Group_free", s->ctx->handle, routine);
    BI_MPI_IN(MPI_Group_free(&g), "MPI_Group_free", s->ctx->handle, routine);
    free(r);
}

static void scope_init(bi_scope *s, bi_ctx *c, char id, int np, int me, int base, int stride)
{
    s->ctx = c;
    s->id = id;
    s->np = np;
    s->me = me;
    s->base = base;
    s->stride = stride;
    s->comm = MPI_COMM_NULL;
}

static Int new_slot(const char *routine)
{
    for (int i = 0; i < nctxs; i++)
        if (!ctxs[i]) return i;
    int old = nctxs, n = nctxs ? 2 * nctxs : 16;
    ctxs = bi_alloc(ctxs, (size_t)n * sizeof *ctxs, routine, "the context table");
    memset(ctxs + old, 0, (size_t)(n - old) * sizeof *ctxs);
    nctxs = n;
    return old;
}

/* Settings that decide what goes over the wire, read by each process on
 * its own (environment, BLACS_SET before the grid), must be alike on every
 * member of a grid, or operations would wait for messages nobody sends,
 * take the wrong ones, or fail with false errors.  One small reduction when
 * the grid is made (MPI_MAX over doubles, exact for these values) settles
 * them all: a setting that may differ only in speed is agreed on, process
 * 0's value for the whole grid; the others must be equal, each sent as
 * (v, -v) so that the maximum and the minimum come back, and a difference
 * is an error on every member naming the variable.
 *   agreed:   BLACS_P2P_SCHEDULE (p2p.c: the pieces a message is cut into)
 *   checked:  the message-ID range (BLACS_SET WHAT=1: IDs are computed,
 *             never exchanged), BLACS_COUNT_LIMIT (the pieces of long
 *             reductions), BLACS_DEBUG level 3 or not (its cross-check is
 *             a collective of its own), BLACS_STATS (BLACS_EXIT gathers the
 *             tables), and the machine parameters, BLACS_PIPE_SEGMENT and
 *             BLACS_COMB_NSHORT, from which 'A', 'P' and 'Y' choose their
 *             algorithm, segments and halvings locally.
 * BLACS_BCAST_DATATYPE needs neither: it only says whether a process packs
 * its own side (MPI matches type signatures, shape.c).  BLACS_SET WHAT=11
 * to 16 are set on a grid after it is made, on every process alike, as in
 * the reference. */
typedef struct {
    const char *name;   /* what differs, for the error */
    double v;           /* this process's value */
} setting;

static void check_settings(MPI_Comm comm, int *p2p_sched, const char *routine)
{
    const bi_machine *m = bi_machine_default();
    const setting chk[] = {
        {"message-ID ranges (BLACS_SET WHAT=1), lower ends", bi_g.idlo},
        {"message-ID ranges (BLACS_SET WHAT=1), upper ends", bi_g.idhi},
        {"values of BLACS_COUNT_LIMIT", (double)bi_count_piece(SIZE_MAX)},
        {"BLACS_DEBUG cross-check settings (1: level 3, 0: below)", bi_g.debug >= 3},
        {"values of BLACS_STATS (1: on, 0: off)", bi_g.stats},
        {"values of BLACS_ALPHA", m->tc.a},
        {"values of BLACS_SEND_ALPHA", m->ts.a},
        {"values of BLACS_POST_ALPHA", m->tp},
        {"values of BLACS_BETA", m->tc.b},
        {"values of BLACS_GAMMA", m->to.b},
        {"values of BLACS_MEMCPY_BETA", m->tm.b},
        {"values of BLACS_PIPE_SEGMENT", bi_pipe_segment()},
        {"values of BLACS_COMB_NSHORT", bi_comb_nshort()},
    };
    enum { NCHK = sizeof chk / sizeof chk[0], NV = 2 * NCHK + 1 };
    double v[NV];
    int rank = 0;
    BI_MPI_IN(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", -1, routine);
    for (int i = 0; i < NCHK; i++) {
        v[2 * i] = chk[i].v;
        v[2 * i + 1] = -chk[i].v;
    }
    /* agreed: process 0's value is the only one above -1 */
    v[2 * NCHK] = rank == 0 ? bi_g.p2p_sched : -1;
    BI_MPI_IN(MPI_Allreduce(MPI_IN_PLACE, v, NV, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce", -1,
              routine);
    for (int i = 0; i < NCHK; i++)
        if (v[2 * i] != chk[i].v || -v[2 * i + 1] != chk[i].v)
            bi_error(-1, -1, routine,
                     "the processes of this grid were given different %s: from %.15g to %.15g, "
                     "%.15g here; every process of a grid must use the same",
                     chk[i].name, -v[2 * i + 1], v[2 * i], chk[i].v);
    *p2p_sched = (int)v[2 * NCHK];
}

/* NPROW x NPCOL must fit in sys; the product is never formed (it may overflow) */
void bi_grid_check(MPI_Comm sys, Int nprow, Int npcol)
{
    bi_init();
    int size = -1;
    /* the user's communicator, with the user's handler (error.c) */
    BI_MPI(MPI_Comm_size(sys, &size), "MPI_Comm_size");
    if (nprow < 1 || npcol < 1 || nprow > size || npcol > size / nprow)
        bi_error(-1, -1, "BLACS_GRIDINIT/BLACS_GRIDMAP", "Illegal grid (%ld x %ld), #procs=%d",
                 (long)nprow, (long)npcol, size);
}

/* Which processes of the grid share a node, so that point-to-point can
 * send each peer the way its transport likes (p2p.c).  A node is named by
 * a hash of MPI_Get_processor_name (computed once, bi_init), as MPIs
 * themselves tell nodes apart by host name; the grid's members exchange
 * theirs in one small allgather when the grid is made -- never on first
 * use -- and cheaper than MPI_COMM_TYPE_SHARED's communicator would be for
 * programs that make many grids.  Two hosts that shared a name would just
 * use the node schedule between them, alike on both ends.  SimGrid's SMPI
 * names each simulated host, so ranks on different hosts of a simulated
 * cluster get the network schedule, as on a real one (PDPOTRF 4 x 4,
 * N = 4096, in make bench-scalapack: 0.98-0.99 of the reference's time in
 * the communication mode, 0.995 with computation, where 40 KB pieces,
 * each sent at once, gave 0.998 and 1.00004). */
static void node_map(bi_ctx *c, const char *routine)
{
    BI_MPI_IN(MPI_Allgather(&bi_g.node_key, 1, MPI_UINT64_T, c->node, 1, MPI_UINT64_T, c->comm),
              "MPI_Allgather", c->handle, routine);
}

void bi_gridmap(Int *ctxt, MPI_Comm sys, const Int *map, Int ldup, Int nprow, Int npcol,
                const char *routine)
{
    bi_grid_check(sys, nprow, npcol);
    int size;
    /* calls on the user's communicator report to the user's handler (error.c) */
    BI_MPI_IN(MPI_Comm_size(sys, &size), "MPI_Comm_size", -1, routine);
    if (ldup < nprow)
        bi_argerr(-1, routine, 3, "LDUMAP", "LDUMAP=%ld is smaller than NPROW=%ld", (long)ldup,
                  (long)nprow);
    int np = (int)(nprow * npcol);
    int *ranks = bi_alloc(NULL, (size_t)np * sizeof(int), routine, "the grid's ranks");
    char *seen = bi_alloc(NULL, (size_t)size, routine, "the grid's ranks");
    memset(seen, 0, (size_t)size);
    for (Int i = 0; i < nprow; i++)
        for (Int j = 0; j < npcol; j++) {
            Int r = map[(size_t)j * (size_t)ldup + (size_t)i];
            if (r < 0 || r >= size || seen[r])
                bi_argerr(-1, routine, 2, "USERMAP",
                          "entry (%ld,%ld) = %ld is %s", (long)i + 1, (long)j + 1, (long)r,
                          (r < 0 || r >= size) ? "not a process of the system context"
                                               : "a process placed twice");
            seen[r] = 1;
            ranks[i * npcol + j] = (int)r; /* row-major grid order */
        }
    free(seen);
    MPI_Group sg, gg;
    MPI_Comm comm;
    BI_MPI_IN(MPI_Comm_group(sys, &sg), "MPI_Comm_group", -1, routine);
    BI_MPI_IN(MPI_Group_incl(sg, np, ranks, &gg), "MPI_Group_incl", -1, routine);
    BI_MPI_IN(MPI_Comm_create(sys, gg, &comm), "MPI_Comm_create", -1, routine);
    /* the new communicator is the user's (BLACS_GET WHAT=10): it gets the
     * handler the user gave the system context (read, never changed there),
     * whatever an MPI copies into a communicator it creates */
    if (comm != MPI_COMM_NULL) {
        MPI_Errhandler uh;
        BI_MPI_IN(MPI_Comm_get_errhandler(sys, &uh), "MPI_Comm_get_errhandler", -1, routine);
        BI_MPI_IN(MPI_Comm_set_errhandler(comm, uh), "MPI_Comm_set_errhandler", -1, routine);
        BI_MPI_IN(MPI_Errhandler_free(&uh), "MPI_Errhandler_free", -1, routine);
    }
    BI_MPI_IN(MPI_Group_free(&gg), "MPI_Group_free", -1, routine);
    BI_MPI_IN(MPI_Group_free(&sg), "MPI_Group_free", -1, routine);
    free(ranks);
    if (comm == MPI_COMM_NULL) {
        *ctxt = -1;
        return;
    }
    int p2p_sched = 0;
    check_settings(comm, &p2p_sched, routine);
    Int h = new_slot(routine);
    bi_ctx *c = bi_alloc(NULL, sizeof *c, routine, "a context");
    memset(c, 0, sizeof *c);
    ctxs[h] = c;
    c->handle = h;
    c->ucomm = comm;
    /* the library's own traffic goes over a private duplicate: whatever the
     * user sends on the communicator of BLACS_GET WHAT=10, with any tag,
     * can never match a BLACS receive, nor a BLACS message a user's */
    BI_MPI_IN(MPI_Comm_dup(comm, &c->comm), "MPI_Comm_dup", -1, routine);
    BI_MPI_IN(MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", -1,
              routine);
    /* the cross-checks of BLACS_DEBUG=3 travel apart from everything else */
    c->chk = MPI_COMM_NULL;
    if (bi_g.debug >= 3)
        BI_MPI_IN(MPI_Comm_dup(c->comm, &c->chk), "MPI_Comm_dup", -1, routine);
    c->nprow = (int)nprow;
    c->npcol = (int)npcol;
    c->np = np;
    BI_MPI_IN(MPI_Comm_rank(comm, &c->iam), "MPI_Comm_rank", h, routine);
    c->myrow = c->iam / c->npcol;
    c->mycol = c->iam % c->npcol;
    scope_init(&c->row, c, 'r', c->npcol, c->mycol, c->myrow * c->npcol, 1);
    scope_init(&c->col, c, 'c', c->nprow, c->myrow, c->mycol, c->npcol);
    scope_init(&c->all, c, 'a', np, c->iam, 0, 1);
    c->all.comm = c->comm; /* MPI collectives of the all scope use the private communicator */
    /* Each scope's collectives need a communicator no other scope uses:
     * MPI matches collectives on a communicator by call order alone, and
     * the BLACS let a process run its row and all operations in any order
     * relative to each other (a row broadcast then an all broadcast at the
     * source, the reverse at the receivers), so two scopes on one
     * communicator would take each other's data.  A row or column that is
     * the whole grid (1 x P, P x 1) gets none at all (MPI_COMM_NULL, see
     * bi_scope_has_coll) rather than a duplicate of the private one: a
     * third communicator per such grid exhausts MPICH's 2048 context ids
     * in programs that keep a thousand grids alive, and the library's own
     * algorithms serve that scope on the private one, tags apart.  Row,
     * then column: every member of a row makes the row's first, so the
     * two collective creations cannot cross. */
    bi_scope *rc[2] = {&c->row, &c->col};
    for (int k = 0; k < 2; k++)
        if (rc[k]->np < 2) rc[k]->comm = MPI_COMM_SELF; /* alone in it: nothing to make */
        else if (rc[k]->np == np) rc[k]->comm = MPI_COMM_NULL; /* the whole grid: none */
        else scope_comm_make(rc[k], routine);
    c->rings_bs = c->branches_bs = c->rings_comb = c->branches_comb = 1;
    c->lastsrc = -1;
    c->syshandle = -1;
    c->p2p_sched = p2p_sched;
    c->world = bi_alloc(NULL, (size_t)np * sizeof(int), routine, "the grid's ranks");
    {
        MPI_Group cg, wg;
        int *seq = bi_alloc(NULL, (size_t)np * sizeof(int), routine, "the grid's ranks");
        for (int i = 0; i < np; i++) seq[i] = i;
        BI_MPI_IN(MPI_Comm_group(comm, &cg), "MPI_Comm_group", h, routine);
        BI_MPI_IN(MPI_Comm_group(MPI_COMM_WORLD, &wg), "MPI_Comm_group", h, routine);
        BI_MPI_IN(MPI_Group_translate_ranks(cg, np, seq, wg, c->world), "MPI_Group_translate_ranks",
                  h, routine);
        BI_MPI_IN(MPI_Group_free(&cg), "MPI_Group_free", h, routine);
        BI_MPI_IN(MPI_Group_free(&wg), "MPI_Group_free", h, routine);
        free(seq);
    }
    c->node = bi_alloc(NULL, (size_t)np * sizeof *c->node, routine, "the grid's nodes");
    node_map(c, routine);
    bi_msgid_setup(c);
    bi_error_grid(h, c->myrow, c->mycol);
    *ctxt = h;
    if (++nlive > live_hwm) live_hwm = nlive;
    bi_g.ctx_hwm = live_hwm; /* for the statistics (stats.c) */
    if (nlive >= warn_at) {
        BI_WARN(h, "%d grids are alive in this process: is BLACS_GRIDEXIT missing?", nlive);
        warn_at *= 2;
    }
}

void bi_gridexit(Int h, const char *routine)
{
    if (h < 0 || h >= nctxs)
        bi_error(h, -1, routine, "Trying to exit non-existent context");
    bi_ctx *c = ctxs[h];
    if (!c) bi_error(h, -1, routine, "Trying to exit an already freed context");
    bi_poll();
    bi_scope *rc[2] = {&c->row, &c->col};
    for (int k = 0; k < 2; k++)
        if (rc[k]->comm != MPI_COMM_NULL && rc[k]->comm != MPI_COMM_SELF)
            BI_MPI_IN(MPI_Comm_free(&rc[k]->comm), "MPI_Comm_free", h, routine);
    /* the handle of BLACS_GET WHAT=10 goes with the grid, but only while
     * its slot still holds the grid's communicator: the program may have
     * freed it (Cfree_blacs_system_handle) and got the slot back from
     * Csys2blacs_handle for a communicator of its own */
    if (c->syshandle > 0) bi_sys_release(c->syshandle, c->ucomm);
    if (c->chk != MPI_COMM_NULL) {
        bi_check_exit(h);
        BI_MPI_IN(MPI_Comm_free(&c->chk), "MPI_Comm_free", h, routine);
    }
    /* buffered sends and a TOP ' ' source's MPI_Ibcast still in flight
     * keep their own reference to the communicator: MPI lets pending
     * operations on a freed one complete, and frees it after them */
    BI_MPI_IN(MPI_Comm_free(&c->comm), "MPI_Comm_free", h, routine);
    BI_MPI_IN(MPI_Comm_free(&c->ucomm), "MPI_Comm_free", h, routine);
    bi_msgid_free(c);
    free(c->world);
    free(c->node);
    free(c);
    ctxs[h] = NULL;
    bi_error_grid(h, -1, -1);
    nlive--;
}

int bi_ctx_live(void) { return nlive; }

void bi_ctx_exit_all(void)
{
    for (int i = 0; i < nctxs; i++)
        if (ctxs[i]) bi_gridexit(i, "BLACS_EXIT");
    free(ctxs);
    ctxs = NULL;
    nctxs = 0;
    bi_check_exit(-1);
    bi_run_cleanups();
    bi_error_grid(-1, -1, -1);
}

/* ---- C system-context handles (Csys2blacs_handle); handles stay stable -- */
Int bi_sys_handle(MPI_Comm comm)
{
    bi_init();
    if (comm == MPI_COMM_NULL)
        bi_error(-1, __LINE__, __FILE__, "Cannot define a BLACS system handle based on MPI_COMM_NULL");
    if (nsys == 0) {
        nsys = 8;
        syscomms = bi_alloc(NULL, (size_t)nsys * sizeof *syscomms, "Csys2blacs_handle",
                            "the system-context table");
        for (int i = 0; i < nsys; i++) syscomms[i] = MPI_COMM_NULL;
        syscomms[0] = MPI_COMM_WORLD;
    }
    for (int i = 0; i < nsys; i++)
        if (syscomms[i] == comm) return i;
    for (int i = 1; i < nsys; i++)
        if (syscomms[i] == MPI_COMM_NULL) {
            syscomms[i] = comm;
            return i;
        }
    int n = 2 * nsys;
    syscomms = bi_alloc(syscomms, (size_t)n * sizeof *syscomms, "Csys2blacs_handle",
                        "the system-context table");
    for (int i = nsys; i < n; i++) syscomms[i] = MPI_COMM_NULL;
    syscomms[nsys] = comm;
    nsys = n;
    return n / 2;
}

MPI_Comm bi_sys_comm(Int h, const char *routine, const char *argname)
{
    bi_init();
    if (h == 0) return MPI_COMM_WORLD;
    if (h < 0 || h >= nsys || syscomms[h] == MPI_COMM_NULL)
        bi_argerr(-1, routine, 1, argname,
                  "%ld is not a BLACS system context handle (BLACS_GET WHAT=0 or "
                  "Csys2blacs_handle gives them)", (long)h);
    return syscomms[h];
}

/* A Fortran system context is any Fortran communicator handle of the
 * user's, so there is no table to look it up in.  MPI_Comm_f2c of a number
 * that is none (an ICONTXT that BLACS_GET never set) makes a handle that
 * MPI rejects at its first use, deep inside GRIDINIT, with MPI's own
 * message naming no BLACS routine.  Asking MPI about it would report to the
 * handler of MPI_COMM_WORLD (or MPI_COMM_SELF), which is the user's and
 * never switched (error.c), so the handle's form is checked instead: in
 * MPICH a communicator handle carries its object kind (bits 26-29, 1 for a
 * communicator) and a non-zero handle kind (bits 30-31); Open MPI's
 * MPI_Comm_f2c gives NULL for an index that names no communicator.  A
 * well-formed handle of a freed communicator still reaches MPI. */
static int fcomm_plausible(Int h, MPI_Comm comm)
{
    if ((Int)(MPI_Fint)h != h || comm == MPI_COMM_NULL) return 0;
#if defined(MPICH_VERSION) && !defined(SMPI_H)
    unsigned u = (unsigned)(MPI_Fint)h;
    return ((u >> 30) & 3u) != 0 && ((u >> 26) & 15u) == 1;
#else
    return (void *)comm != NULL;
#endif
}

MPI_Comm bi_sys_fcomm(Int h, const char *routine)
{
    bi_init();
    MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)h);
    if (!fcomm_plausible(h, comm))
        bi_argerr(-1, routine, 1, "ICONTXT",
                  "%ld is not a system context (a Fortran MPI communicator handle, as BLACS_GET "
                  "WHAT=0 gives)", (long)h);
    return comm;
}

void bi_sys_free(Int h, int quiet)
{
    if (h == 0) return;
    if (h < 0 || h >= nsys || syscomms[h] == MPI_COMM_NULL) {
        if (!quiet) BI_WARN(-1, "Trying to free non-existent system context handle %ld", (long)h);
        return;
    }
    syscomms[h] = MPI_COMM_NULL;
}

void bi_sys_release(Int h, MPI_Comm comm)
{
    if (h > 0 && h < nsys && syscomms[h] == comm) syscomms[h] = MPI_COMM_NULL;
}

void bi_sys_reset(void)
{
    free(syscomms);
    syscomms = NULL;
    nsys = 0;
}
