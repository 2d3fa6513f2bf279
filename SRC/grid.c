/*
 * grid.c -- contexts (grids) and their scopes: the context table,
 * BLACS_GRIDMAP (GRIDINIT comes here too) and BLACS_GRIDEXIT.
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

bi_ctx **bi_ctxs; /* context table; handle = index (core.h: bi_ctx_find) */
int bi_nctxs;
static int nlive, live_hwm, warn_at = 512;

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
    *s = (bi_scope){.ctx = c, .id = id, .np = np, .me = me, .base = base, .stride = stride,
                    .comm = MPI_COMM_NULL};
}

static Int new_slot(const char *routine)
{
    for (int i = 0; i < bi_nctxs; i++)
        if (!bi_ctxs[i]) return i;
    int old = bi_nctxs, n = bi_nctxs ? 2 * bi_nctxs : 16;
    bi_ctxs = bi_alloc(bi_ctxs, (size_t)n * sizeof *bi_ctxs, routine, "the context table");
    memset(bi_ctxs + old, 0, (size_t)(n - old) * sizeof *bi_ctxs);
    bi_nctxs = n;
    return old;
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
 * send each peer the way its transport likes (p2p.c), and the short ' '
 * broadcast and the MPI reductions can be told where MPI's node-aware
 * collectives run (group_by_node below).  A node is what MPI itself
 * calls one: the members that MPI_COMM_TYPE_SHARED puts together, within
 * a host (a hash of MPI_Get_processor_name, computed once, bi_init).  The
 * host name alone is not enough: MPICH can split a host into several
 * nodes of its own (MPIR_CVAR_NUM_CLIQUES, MPIR_CVAR_ODD_EVEN_CLIQUES),
 * and its node-aware MPI_Reduce is then wrong in scopes whose first
 * member is alone in such a node (core.h, BI_REDUCE_LONE: a 2 x 3 grid of
 * 6 ranks on one host, row 0 world ranks 0, 1 and 3, summed wrong with
 * the odd-even split until the library asked MPI).  The split costs one
 * communicator, made and freed while the grid is made, never on first
 * use; the grid's members then exchange their keys in one small
 * allgather.  SimGrid's SMPI puts the ranks of one simulated host
 * together, so ranks on different hosts of a simulated cluster get the
 * network schedule, as on a real one. */
static void node_map(bi_ctx *c, const char *routine)
{
    MPI_Comm sh;
    MPI_Group shg, cg;
    int zero = 0, lead = 0;
    BI_MPI_IN(MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &sh),
              "MPI_Comm_split_type", c->handle, routine);
    BI_MPI_IN(MPI_Comm_group(sh, &shg), "MPI_Comm_group", c->handle, routine);
    BI_MPI_IN(MPI_Comm_group(c->comm, &cg), "MPI_Comm_group", c->handle, routine);
    /* the node's first member names it (its rank in the grid) */
    BI_MPI_IN(MPI_Group_translate_ranks(shg, 1, &zero, cg, &lead), "MPI_Group_translate_ranks",
              c->handle, routine);
    BI_MPI_IN(MPI_Group_free(&shg), "MPI_Group_free", c->handle, routine);
    BI_MPI_IN(MPI_Group_free(&cg), "MPI_Group_free", c->handle, routine);
    BI_MPI_IN(MPI_Comm_free(&sh), "MPI_Comm_free", c->handle, routine);
    /* one FNV-1a step more over the host's hash */
    const uint64_t key = (bi_g.node_key ^ (uint64_t)(unsigned)lead) * 1099511628211u;
    BI_MPI_IN(MPI_Allgather(&key, 1, MPI_UINT64_T, c->node, 1, MPI_UINT64_T, c->comm),
              "MPI_Allgather", c->handle, routine);
}

/* a member of a scope and its node, for sorting by node, then rank */
typedef struct { uint64_t node; int k; } member;

static int by_node(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->node != y->node) return x->node < y->node ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* a scope across nodes: its members grouped by node (bi_scope.mem etc.),
 * the same on every member, from the same node map */
static void group_by_node(bi_ctx *c, bi_scope *s, const char *routine)
{
    const int np = s->np;
    member *m = bi_alloc(NULL, (size_t)np * sizeof *m, routine, "the scope's nodes");
    for (int k = 0; k < np; k++) m[k] = (member){c->node[bi_scope_commrank(s, k)], k};
    qsort(m, (size_t)np, sizeof *m, by_node);
    int nn = 1;
    for (int j = 1; j < np; j++) nn += m[j].node != m[j - 1].node;
    /* nodeof, pos, mem: np each; nstart: nn + 1; lead: nn */
    int *a = bi_alloc(NULL, (size_t)(3 * np + 2 * nn + 1) * sizeof *a, routine, "the scope's nodes");
    s->nnodes = nn;
    s->nodeof = a;
    s->pos = a + np;
    s->mem = a + 2 * np;
    s->nstart = a + 3 * np;
    s->lead = a + 3 * np + nn + 1;
    int n = -1;
    for (int j = 0; j < np; j++) {
        if (!j || m[j].node != m[j - 1].node) s->nstart[++n] = j;
        s->mem[j] = m[j].k;
        s->pos[m[j].k] = j;
        s->nodeof[m[j].k] = n;
    }
    s->nstart[nn] = np;
    const int n0 = s->nodeof[0];
    s->first_alone = nn < np && s->nstart[n0 + 1] - s->nstart[n0] == 1;
    free(m);
}

/* whether each scope's members share one node, and if not which do: the
 * same on every member, from the same node map */
static void scopes_on_nodes(bi_ctx *c, const char *routine)
{
    bi_scope *s[3] = {&c->row, &c->col, &c->all};
    for (int k = 0; k < 3; k++) {
        int onenode = 1;
        s[k]->nnodes = 1;
        for (int j = 1; j < s[k]->np; j++)
            if (c->node[bi_scope_commrank(s[k], j)] != c->node[s[k]->base]) onenode = 0;
        if (!onenode) group_by_node(c, s[k], routine);
    }
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
    bi_settings_agree(comm, &p2p_sched, routine);
    Int h = new_slot(routine);
    bi_ctx *c = bi_alloc(NULL, sizeof *c, routine, "a context");
    memset(c, 0, sizeof *c);
    bi_ctxs[h] = c;
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
    scopes_on_nodes(c, routine);
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
    if (h < 0 || h >= bi_nctxs)
        bi_error(h, -1, routine, "Trying to exit non-existent context");
    bi_ctx *c = bi_ctxs[h];
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
        bi_check_poll();
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
    free(c->row.nodeof);
    free(c->col.nodeof);
    free(c->all.nodeof);
    free(c);
    bi_ctxs[h] = NULL;
    bi_error_grid(h, -1, -1);
    nlive--;
}

int bi_ctx_live(void) { return nlive; }

void bi_ctx_exit_all(void)
{
    for (int i = 0; i < bi_nctxs; i++)
        if (bi_ctxs[i]) bi_gridexit(i, "BLACS_EXIT");
    free(bi_ctxs);
    bi_ctxs = NULL;
    bi_nctxs = 0;
    bi_check_poll(); /* what is still to come: BLACS_EXIT's last wait (buffer.c) */
    bi_run_cleanups();
    bi_error_grid(-1, -1, -1);
}

