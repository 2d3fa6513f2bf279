/*
 * core.h -- the core layer (SRC/layers.txt lists the layers): element types
 * and shapes, MPI counts, contexts and scopes, message IDs (LAWN 73 6.1),
 * buffers (6.2), waits, the collective transport and the descriptor every
 * algorithm reads (bi_coll, with its plan), the element operations, and the
 * debug and statistics levels.  Everything has hidden visibility and the
 * prefix bi_; only blacs.h names are exported.
 */
#ifndef BI_CORE_H
#define BI_CORE_H

#include "base.h"

#pragma GCC visibility push(hidden)

/* ---- element types ---------------------------------------------------- */
enum { BI_I, BI_S, BI_D, BI_C, BI_Z, BI_NTYPE };
typedef struct {
    char letter;       /* 'I','S','D','C','Z' */
    size_t size;       /* bytes per element */
    int cplx;          /* 1 for C and Z */
} bi_typeinfo;
extern const bi_typeinfo bi_types[BI_NTYPE];
/* MPI's type of one element (inline: the head of every send asks) */
static inline MPI_Datatype bi_mpitype(int type)
{
    switch (type) {
    case BI_I: return sizeof(Int) == 8 ? MPI_INT64_T : MPI_INT;
    case BI_S: return MPI_FLOAT;
    case BI_D: return MPI_DOUBLE;
    case BI_C: return MPI_C_FLOAT_COMPLEX;
    default: return MPI_C_DOUBLE_COMPLEX;
    }
}

/* ---- shapes (shape.c) -------------------------------------------------- */
typedef struct {
    int type;          /* BI_I .. BI_Z */
    int tr;            /* 0: general (GE), 1: trapezoidal (TR) */
    int upper, unit;   /* TR only: UPLO='U', DIAG='U' */
    Int m, n, lda;     /* lda is the effective one, max(LDA, M, 1) */
} bi_shape;
size_t bi_shape_count_tr(const bi_shape *s);
int bi_shape_contig_tr(const bi_shape *s);
/* elements communicated (inline: every call asks, a GE shape is M*N) */
static inline size_t bi_shape_count(const bi_shape *s)
{
    if (s->tr) return bi_shape_count_tr(s);
    return s->m > 0 && s->n > 0 ? (size_t)s->m * (size_t)s->n : 0;
}
/* lies as one block in A */
static inline int bi_shape_contig(const bi_shape *s)
{
    if (s->tr) return bi_shape_contig_tr(s);
    return s->m <= 0 || s->n <= 1 || s->lda == s->m;
}
void bi_shape_rows(const bi_shape *s, Int j, Int *lo, Int *hi); /* rows of column j: [lo,hi) */
void bi_pack(const bi_shape *s, const void *A, void *buf);
void bi_unpack(const bi_shape *s, const void *buf, void *A);
void bi_pack_range(const bi_shape *s, const void *A, void *buf, size_t a, size_t b); /* GE (or contiguous, s NULL): bytes [a,b) */
MPI_Datatype bi_shape_mpitype(const bi_shape *s);  /* committed; free with MPI_Type_free */
/* non-contiguous shapes to MPI in place through their datatypes (else packed):
 * BLACS_BCAST_DATATYPE=0|1, default by MPI (shape.c) */
int bi_bcast_mpi_inplace(void);
/* the same for the letters' and point-to-point messages of `bytes`, net:
 * to or from a peer on another node, where they go in place unless
 * BLACS_BCAST_DATATYPE=0; on one node in place with MPIs other than
 * MPICH, and with MPICH from 96 KiB (shape.c) */
int bi_inplace(int net, size_t bytes, int recv);
extern int bi_bcast_datatype; /* 0, 1 as set; 2 not set (by node); -1 not read yet */
/* the same type kept for reuse (typekeep.c keeps the last 24 datatypes):
 * not to be freed; valid until the next call (which may replace it) or
 * BLACS_EXIT */
MPI_Datatype bi_shape_mpitype_cached(const bi_shape *s);
/* typekeep.c: the datatypes last used, found by a key of plain bytes that
 * starts with a letter naming the kind of type; make(arg) builds a missing
 * one.  Keys are put together value by value (no struct padding in them). */
#define BI_TYPEKEY_MAX 64
typedef struct {
    unsigned char b[BI_TYPEKEY_MAX];
    size_t n;
} bi_typekey;
static inline void bi_typekey_put(bi_typekey *k, const void *v, size_t len)
{
    memcpy(k->b + k->n, v, len); /* a few fixed values: their users assert they fit */
    k->n += len;
}
MPI_Datatype bi_type_kept(const bi_typekey *key, MPI_Datatype (*make)(const void *arg),
                          const void *arg);

/* ---- MPI counts (count.c): runs past INT_MAX items as derived types ------ */
extern size_t bi_count_limit;  /* INT_MAX; lower for tests (BLACS_COUNT_LIMIT); 0: unread */
typedef struct { int n; MPI_Datatype dt; int made; } bi_mpicount;
/* n items of el as the (count, datatype) of one MPI call: (n, el) within the
 * limit, else (1, a committed derived type); bi_mpicount_free after the call */
bi_mpicount bi_mpicount_of(size_t n, MPI_Datatype el);
bi_mpicount bi_mpicount_bytes(size_t n, size_t size, MPI_Datatype el);
void bi_mpicount_free(bi_mpicount *k);
/* n blocks of blen items of t, block k at byte offset k*stride, for any n:
 * a new uncommitted type (blen <= the limit) */
MPI_Datatype bi_type_blocks(size_t n, int blen, MPI_Aint stride, MPI_Datatype t);
/* the first piece of n items for an MPI call that needs a predefined
 * datatype (reductions) or an int count (user combines): at most the limit */
size_t bi_count_piece(size_t n);

typedef struct bi_ctx bi_ctx;
typedef struct bi_scope bi_scope;

/* one class of message IDs (msgid.c): process k uses the width IDs from
 * base + (k mod groups) * width */
typedef struct { int base, groups, width; } bi_idclass;

struct bi_scope {
    bi_ctx *ctx;
    char id;           /* 'r', 'c' or 'a' */
    int np, me;        /* scope size and my rank in it */
    int base, stride;  /* rank in ctx->comm of scope rank k: base + k*stride */
    MPI_Comm comm;     /* for MPI's collectives (TOP ' ', barriers), made with the grid;
                          MPI_COMM_NULL: none (bi_scope_has_coll) */
    bi_idclass ids;    /* message IDs of this scope's operations (msgid.c) */
    unsigned *count;   /* operation counters, one per ID group of roots */
    /* a scope across nodes (else nnodes 1 -- every member on one node, for
     * the plan's direct sends -- and the arrays NULL): its members
     * grouped by node, for the short TOP ' ' broadcasts' node phases
     * (bcast_tree.c).  Nodes are numbered in the order of their keys
     * (ctx->node); mem lists the members of node n, in scope-rank order, at
     * mem[nstart[n]] to mem[nstart[n+1]-1]; nodeof[k] is scope rank k's
     * node and pos[k] its index in mem; lead: room for one member of each
     * node (one allocation, grid.c) */
    int nnodes;
    int *nodeof, *pos, *mem, *nstart, *lead;
    /* scope rank 0 alone on its node while another node holds two or more
     * members: where MPICH's MPI_Reduce before 4.2 is wrong (BI_REDUCE_LONE) */
    int first_alone;
};

struct bi_ctx {
    Int handle;
    MPI_Comm comm;     /* the library's private communicator: all scopes and pt2pt, row-major ranks */
    MPI_Comm ucomm;    /* same group and order, handed to the user (BLACS_GET WHAT=10) */
    int nprow, npcol, myrow, mycol, iam, np;
    bi_scope row, col, all;
    bi_idclass p2p;               /* point-to-point message IDs (msgid.c) */
    /* per virtual process id, np each: the count of the next message to
     * (from) it, modulo the subrange's width, and the first ID of its
     * subrange (msgid.c: no division on the way to MPI_Isend) */
    unsigned *sndcount, *rcvcount;
    int *p2pbase;
    unsigned char *lastlong;      /* 2 np: [v] v's last message to us was long, [np+v] our last to v (p2p.c) */
    int sendrecv_id;              /* message ID of Cdsendrecv (msgid.c, sendrecv.c) */
    Int rings_bs, branches_bs;    /* BLACS_SET WHAT 11, 12 */
    Int rings_comb, branches_comb;/* WHAT 13, 14 */
    Int repeat, coherent;         /* WHAT 15, 16 */
    int lastsrc;                  /* vpid of the sender of the last message received */
    int *world;                   /* MPI_COMM_WORLD rank of each vpid (diagnostics) */
    uint64_t *node;               /* each vpid's node (its host and MPI's node, grid.c node_map) */
    Int syshandle;                /* C system handle made for GET 10, or -1 */
    int p2p_sched;                /* BLACS_P2P_SCHEDULE agreed on by the grid (bi_g.p2p_sched) */
    MPI_Comm chk;                 /* BLACS_DEBUG=3 cross-checks (entry_debug.c), else MPI_COMM_NULL */
};

/* ---- debug and statistics levels (LAWN 73 7.1.4) -------------------------
 * The entry points' bracket (bi_enter/bi_leave) is entry_debug.c's (bi.h).
 * check.c: BLACS_DEBUG=3 cross-check descriptions in flight.  One
 * process's description of an operation, and one message of it (mine
 * leaving, or a peer's arriving, with mine to compare) */
typedef struct {
    char routine[16];
    int kind, scope, top;
    long count, root;
} bi_sig;

typedef struct bi_chk {
    struct bi_chk *next;
    Int ctxt;
    int me, peer;          /* scope ranks */
    bi_sig sig;            /* the peer's description, arriving */
    bi_sig mine;           /* my description of the same operation */
    char call[300];        /* my call, for the report */
    MPI_Request r;
} bi_chk;
/* follow a peer's description p until it arrives, and compare it then */
void bi_check_track(bi_chk *p);
/* why two descriptions of one operation disagree ("" if they agree): mine
 * at scope rank me, o at scope rank k */
void bi_check_differ(const bi_sig *m, int me, const bi_sig *o, int k, char *why, size_t n);
BI_NORETURN void bi_check_fail(Int ctxt, const char *routine, const char *call, const char *why);
/* compare the descriptions that have arrived (every BLACS call, through
 * bi_poll; GRIDEXIT); bi_check_left: the same, and how many are still to
 * come; with last (BLACS_EXIT, after WORDS_WAIT: buffer.c) those are
 * dropped */
void bi_check_poll(void);
int bi_check_left(int last);
/* wait.c: wait for one request; notices hangs at BLACS_DEBUG >= 2 and
 * counts waiting time for BLACS_STATS.  What it waits for (dir, peer as
 * bi_wait_text, base.h) goes into reports.  An MPI error stops the job
 * (BI_MPI), so it returns MPI_SUCCESS. */
int bi_wait(MPI_Request *r, MPI_Status *st, char dir, int peer, int tag, size_t bytes);
/* waits for a send at most limit seconds: whether it completed, and the
 * seconds waited */
int bi_wait_bounded(MPI_Request *r, double limit, double *waited);
/* copies while it waits for n requests, limit seconds in all: whether they
 * all completed (else the copy is complete) */
int bi_copy_waiting(MPI_Request *r, int n, void *dst, const void *src, const bi_shape *s,
                    size_t bytes, double limit, size_t *done);
/* report a hang (what we wait in, what completed last) and stop the job */
BI_NORETURN void bi_hang(char dir, int peer, int tag, size_t bytes, double waited);
/* stats.c: BLACS_STATS=1, per-routine statistics of the calls completed
 * (bi_leave), printed by each process for itself at BLACS_EXIT or
 * MPI_Finalize */
void bi_stats_add(const bi_call *c, double seconds_in);
void bi_stats_report(void);

/* ---- the long-wait warning (watch.c): a thread, started by bi_init unless
 * BLACS_WAIT_WARN=0, warns once about a wait in progress for that long.
 * Every wait marks itself (bi_watch_begin ... bi_watch_end, dir and peer as
 * bi_wait's); bi_wait does so itself.  outside names the routine when no
 * entry point is in progress (bi_cur.routine NULL). */
extern int bi_watch_on; /* the thread runs; read by the main thread only */
/* odd while a wait is in progress (watch.c); inline, the end of a wait is
 * the start of what a receiver does with its message */
extern _Atomic unsigned long bi_watch_seq;
void bi_watch_mark(const char *outside, char dir, int peer, int tag, size_t bytes);
static inline void bi_watch_done(void)
{
    unsigned long s = atomic_load_explicit(&bi_watch_seq, memory_order_relaxed);
    if (s & 1) atomic_store_explicit(&bi_watch_seq, s + 1, memory_order_relaxed);
}
static inline void bi_watch_begin(char dir, int peer, int tag, size_t bytes)
{
    if (bi_watch_on) bi_watch_mark(NULL, dir, peer, tag, bytes);
}
static inline void bi_watch_end(void)
{
    if (bi_watch_on) bi_watch_done();
}
void bi_watch_start(double seconds); /* no thread if seconds <= 0 or under SMPI */
void bi_watch_stop(void);            /* joins it; bi_watch_start may follow */

/* ---- the progress thread (progress.c): moves the buffered sends while the
 * program computes outside MPI; started by bi_init when MPI gives
 * MPI_THREAD_MULTIPLE and BLACS_PROGRESS is not 0 (never under SMPI) */
void bi_progress_start(void);         /* BLACS_PROGRESS read by bi_init */
void bi_progress_stop(void);         /* joins it; bi_progress_start may follow */
int bi_progress_running(void);

void bi_init(void);                          /* PINFO's work: MPI up, state ready (init.c) */
/* grids (grid.c) */
bi_ctx *bi_ctx_get(Int handle, const char *routine);   /* valid live context or error */
extern bi_ctx **bi_ctxs; /* grid.c's context table, a handle its index */
extern int bi_nctxs;
static inline bi_ctx *bi_ctx_find(Int h) /* NULL if not a live context */
{
    return h >= 0 && h < bi_nctxs ? bi_ctxs[h] : NULL;
}
/* "Illegal grid" error unless 1 <= NPROW, NPCOL and NPROW*NPCOL <= size of sys */
void bi_grid_check(MPI_Comm sys, Int nprow, Int npcol);
void bi_gridmap(Int *ctxt, MPI_Comm sys, const Int *map, Int ldup, Int nprow, Int npcol,
                const char *routine);
void bi_gridexit(Int ctxt, const char *routine);
int bi_ctx_live(void);
void bi_ctx_exit_all(void);
/* the settings that must be alike on a grid's processes (settings.def),
 * checked over comm when the grid is made; *p2p_sched gets process 0's */
void bi_settings_agree(MPI_Comm comm, int *p2p_sched, const char *routine);
/* system contexts (syshandle.c) */
Int bi_sys_handle(MPI_Comm comm);
/* the communicator of C system handle h (Csys2blacs_handle, BLACS_GET
 * WHAT=0), or an error naming routine and argument 1 (argname) */
MPI_Comm bi_sys_comm(Int h, const char *routine, const char *argname);
/* the communicator of Fortran system context h (a Fortran MPI handle), or
 * an error naming routine and ICONTXT when MPI knows no such communicator */
MPI_Comm bi_sys_fcomm(Int h, const char *routine);
void bi_sys_free(Int h, int quiet);
/* frees handle h only if it still stands for comm (GRIDEXIT: a grid's own) */
void bi_sys_release(Int h, MPI_Comm comm);
void bi_sys_reset(void);
/* scope by its letter (first char, any case); error naming routine/argument if unknown */
bi_scope *bi_scope_get(bi_ctx *c, const char *scope, const char *routine, int argno);
static inline MPI_Comm bi_scope_comm(const bi_scope *s) { return s->comm; }
/* Whether the scope may run MPI collectives on bi_scope_comm.  A row or
 * column that is the whole grid (1 x P, P x 1) may not: its only
 * communicator would be the private one, whose collectives are the 'All'
 * scope's, and MPI matches collectives by call order alone, across scopes
 * (grid.c).  Its TOP ' ' operations run the binomial tree instead (the
 * plan, plan.c), its barrier and BLACS_DEBUG=3 cross-check
 * go point to point (support.c, entry_debug.c), all on its own message IDs. */
static inline int bi_scope_has_coll(const bi_scope *s) { return s->comm != MPI_COMM_NULL; }
static inline int bi_scope_commrank(const bi_scope *s, int k) { return s->base + k * s->stride; }
/* virtual process id prow*Q+pcol of grid coordinates; error naming the
 * routine and argument when they lie outside the grid (p2p.c) */
int bi_vpid(bi_ctx *c, Int prow, Int pcol, Int ctxt, const char *routine, int argno,
            const char *name);
/* scope rank of grid coordinates (prow,pcol); the other coordinate is ignored for r/c */
int bi_scope_rank(const bi_scope *s, Int prow, Int pcol);

/* ---- message IDs (msgid.c, LAWN 73 section 6.1) ------------------------ */
#define BI_MIN_IDS 16                        /* four classes of at least 2 IDs a group */
typedef struct { bi_idclass p2p, row, col, all; int sendrecv; } bi_idlayout;
/* the classes of range [lo,hi] for an nprow x npcol grid; NULL, or why not */
const char *bi_msgid_layout(long lo, long hi, int nprow, int npcol, bi_idlayout *l);
int bi_msgid_id(const bi_idclass *k, int who, unsigned count); /* ID of who's count-th */
unsigned bi_msgid_next(unsigned count, int n, int width);    /* first count of n IDs */
void bi_msgid_setup(bi_ctx *c);              /* carve the ranges for a new grid */
void bi_msgid_free(bi_ctx *c);
/* the ID of the next point-to-point message to dest (from src); advance
 * counts it.  Inline and without a division: the head of every send */
static inline int bi_msgid_p2p_next(const bi_ctx *c, unsigned *count, int base, int advance)
{
    unsigned k = *count;
    if (advance) *count = k + 1 == (unsigned)c->p2p.width ? 0 : k + 1;
    return base + (int)k;
}
static inline int bi_msgid_p2p_send(bi_ctx *c, int dest_vpid, int advance)
{
    return bi_msgid_p2p_next(c, &c->sndcount[dest_vpid], c->p2pbase[c->iam], advance);
}
static inline int bi_msgid_p2p_recv(bi_ctx *c, int src_vpid, int advance)
{
    return bi_msgid_p2p_next(c, &c->rcvcount[src_vpid], c->p2pbase[src_vpid], advance);
}
/* a receiver's word to sender `owner` that it waits (p2p.c): an ID of the
 * owner's own subrange, which the receiver's messages to it never carry --
 * when the two do not share a subrange (bi_msgid_p2p_apart) */
static inline int bi_msgid_p2p_word(const bi_ctx *c, int owner) { return c->p2pbase[owner]; }
static inline int bi_msgid_p2p_apart(const bi_ctx *c, int a, int b)
{
    return c->p2pbase[a] != c->p2pbase[b];
}
/* reserve n (1 or 2) consecutive IDs for an operation of scope s rooted at
 * scope rank root (broadcast source, combine destination, 0 for leave-on-all);
 * returns the first.  advance = 0 only peeks. */
int bi_msgid_scoped(bi_scope *s, int root, int n, int advance);

/* ---- buffers (buffer.c, LAWN 73 section 6.2.2) -------------------------- */
typedef struct bi_buf {
    struct bi_buf *next, *prev;
    size_t size;                   /* capacity of data */
    int nreq, maxreq;
    MPI_Request *req;              /* sends posted from data */
    int *peer;                     /* world rank of each send's destination (diagnostics) */
    char *data;                    /* 64-byte aligned */
    int unsure;                    /* active, its sends not known complete when posted */
    int lib;                       /* the library's own messages (BLACS_DEBUG=3's descriptions):
                                      FREEBUFF does not wait for them, EXIT not for ever */
} bi_buf;
bi_buf *bi_buf_get(size_t nbytes);           /* ready buffer or a new one; emergency wait */
bi_buf *bi_buf_take(size_t nbytes);          /* the same without polling first */
bi_buf *bi_buf_own(size_t nbytes);           /* the calling thread's own buffer, or NULL */
bi_buf *bi_buf_scratch(size_t nbytes);       /* a receive's, outside the BLACS_BUFMAX cap */
void bi_buf_grow(bi_buf *b);                 /* room for more requests */
/* slot for one more send (inline: the head of every send) */
static inline MPI_Request *bi_buf_req(bi_buf *b, int peer_world_rank)
{
    if (b->nreq == b->maxreq) bi_buf_grow(b);
    b->peer[b->nreq] = peer_world_rank;
    return &b->req[b->nreq++];
}
/* the peer of a request that receives a point-to-point word (p2p.c): FREEBUFF
 * does not wait for it, EXIT waits a moment and cancels it */
#define BI_WORD_PEER(world_rank) (-2 - (world_rank))
void bi_buf_post(bi_buf *b);                 /* sends posted: to the active queue */
void bi_buf_release(bi_buf *b);              /* not used for sends: back to ready/free */
void bi_poll(void);                          /* test the active queue (every BLACS call) */
void bi_buf_freeall(int wait, const char *routine); /* FREEBUFF (wait 0/1) / EXIT (2) */
void bi_buf_adopt(MPI_Request *r);           /* a receiver's word sent: complete, or left to the orphans */
void bi_buf_finalized(void);                 /* MPI_Finalize has returned: EXIT's sends let go are freed */
size_t bi_buf_hwm(void);                     /* most bytes ever held (BLACS_STATS) */
/* the progress thread's side (progress.c): share 1 before it starts (every
 * function above then holds the buffers' lock), 0 after it is joined;
 * progress tests the active buffers if the lock is free at once: -1 it was
 * not, 1 sends may be left, 0 none (*events: buffers posted and sends seen
 * complete so far, which changes while data moves);
 * progress_wait sleeps until a buffer is posted, seconds at most: -1 the
 * thread must stop, else 1 if sends are waiting; progress_stop(1) wakes it
 * to stop */
void bi_buf_share(int on);
int bi_buf_progress(unsigned *events);
int bi_buf_armed(void);                      /* sends not known complete are out */
int bi_buf_progress_wait(double seconds);
void bi_buf_progress_stop(int stop);

/* ---- element operations of the combines (ops.c) ---------------------- */
enum { BI_SUM, BI_AMX, BI_AMN, BI_USER };
/* a user-defined combine (LAWN 73 7.1.3): init(n, x) on each contribution,
 * op(n, in, inout) inout = inout (op) in, post(n, x) on the result; the
 * pointers are Fortran-style (n by reference), element type as the routine */
typedef void (*bi_ufn)(void);
typedef struct { bi_ufn init, op, post; } bi_uop;
extern bi_uop bi_cur_uop;
typedef struct bi_op bi_op;
struct bi_op {
    int kind, type;    /* BI_SUM..; BI_I.. */
    int owners;        /* bytes of the owner key after each item's value: 0 (no
                        * RA/CA), 2, or 4 in a scope of more than 65,536 */
    size_t isize;      /* bytes per item (value and owner key) */
    const bi_uop *user;/* BI_USER: the user's routines */
    /* acc[i] = acc[i] (op) in[i] for n items */
    void (*fn)(void *acc, const void *in, size_t n, const bi_op *op);
};

/* the owner key of a scope of np processes: 2 bytes (as the reference
 * BLACS's), 4 past 65,536 processes; with RA/CA wanted the key is the
 * item's owner (combine.c), at most np - 1 */
static inline int bi_okey_bytes(int np) { return np <= 65536 ? 2 : 4; }
static inline uint32_t bi_okey_get(const char *p, int w)
{
    if (w == 2) {
        uint16_t k;
        memcpy(&k, p, 2);
        return k;
    }
    uint32_t k;
    memcpy(&k, p, 4);
    return k;
}
static inline void bi_okey_put(char *p, int w, uint32_t key)
{
    if (w == 2) {
        const uint16_t k = (uint16_t)key;
        memcpy(p, &k, 2);
    } else memcpy(p, &key, 4);
}

/* the element operation of a combine; owners: the owner key's bytes (0
 * without RA/CA) */
void bi_op_setup(bi_op *op, int kind, int type, int owners);
/* the operation of (kind, type, owners), made once, and *dt its item
 * datatype (contiguous isize bytes, carrying the bi_op in attribute
 * bi_comb_keyval, so that MPI's user operations find it: comb_mpi.c) */
const bi_op *bi_op_for(int kind, int type, int owners, MPI_Datatype *dt);
extern int bi_comb_keyval;
/* INIT or POST of a user combine on n items of isize bytes at x */
void bi_uop_apply(bi_ufn f, size_t n, void *x, size_t isize);

/* ---- transport for collective algorithms (transport.c) ----------------- */
typedef struct bi_reqs { int n, max; MPI_Request *r; } bi_reqs;

typedef struct bi_coll bi_coll;
typedef void (*bi_alg)(bi_coll *c);

/* What one broadcast or combine runs, settled by the selection step
 * (plan.c) before anything moves: the algorithm reads these and nothing
 * else about the choice. */
typedef struct {
    bi_alg run;        /* the algorithm; NULL: nothing to run */
    char top;          /* the letter named in traces */
    int param;         /* rings, branches or paths */
    int ntags, first;  /* message IDs reserved, and which of them the algorithm starts at */
    int agree;         /* the scope agrees on the element count first (repeatable ' ') */
    int mpi;           /* run is MPI's collective on the scope communicator (TOP ' ') */
    size_t nseg;       /* 'P': segments; 'I' 'D' 'S' 'M': pieces (0: one); the
                          exchange 'H': pieces, all of xpiece items but a
                          shorter last (0: one message) */
    size_t xpiece;     /* the exchange's pieces: items in each but the last */
    int halve;         /* 'Y': halving steps before whole-vector ones (-1: all);
                          the exchange 'H' on two processes: 1 each combines half */
    double serial;     /* fan-ins: bytes from which contributions come one at a time */
    /* broadcast source: how long (seconds) it may wait for one send before
     * posting the next, ord_a + ord_b * bytes, ord_cap in all (transport.c);
     * ord_cap 0: every send posted at once */
    double ord_a, ord_b, ord_cap;
    /* long vectors: the receivers tell the source they are there, on the
     * one message ID the plan reserves (TOP ' ') or the letter's first, so
     * that it may send straight from A (bcast.c, bcast_mpi.c): 1 once every
     * receiver's word is in, 2 to each receiver whose word is in
     * (transport.c); ready_wait: how long (seconds) the source may wait for
     * them, copying A meanwhile: what the copy should cost */
    int direct;
    double ready_wait;
    /* TOP ' ' of more than BI_BCAST_SHORT bytes (or none) where short ones
     * are a tree: a message of no bytes goes down that tree (mark: its
     * radix; 0 none) on the plan's message ID beside MPI's broadcast, so
     * that processes that disagree on the length -- one taking the tree,
     * another MPI's broadcast -- get the count error instead of waiting
     * forever (bcast_mpi.c) */
    int mark;
    /* the short TOP ' ' tree and the mark in a scope across nodes: one
     * tree among the nodes, then one in each node (bcast_tree.c) */
    int nodes;
} bi_plan;
/* MPICH, or SimGrid's SMPI standing for it: the simulated library makes
 * MPICH's plans and sends MPICH's messages (doc/internals.md, "The
 * simulated build") */
#if defined(MPICH_VERSION) || defined(SMPI_H)
#define BI_MPICH 1
#else
#define BI_MPICH 0
#endif
/* where MPI checks a broadcast's count itself (MPICH): the ' ' broadcasts
 * of BI_DIRECT_MIN bytes or more (BI_BCAST_DIRECT_MIN on one node) are
 * plan.direct; the library's own
 * topologies are, everywhere (bcast.c; their receivers check every
 * message's count themselves) */
#define BI_BCAST_DIRECT BI_MPICH
/* MPICH before 4.2 (ch4, the default since 4.0) reduces wrong across
 * nodes: its MPI_Reduce of more than 2 KB with a commutative operation
 * (MPI_SUM or a user's) runs a node-aware composition that skips the
 * in-node stage for a process alone on its node, then takes comm rank 0's
 * data from its receive buffer, not its send buffer (fixed in 4.2.0 by
 * pmodels/mpich f623723).  So where the scope's rank 0 is alone on its node
 * and another node holds two or more members (bi_scope.first_alone: a
 * column of a 3 x 2 grid on two nodes of 3, columns 4-11 of a 4 x 12 grid
 * on nodes of 16), every root gets garbage summed in: a wrong result past
 * 64 KB, a count error below (comb_mpi.c's header).  TOP ' ' leave-on-one
 * combines there take the fixed-order algorithm the models pick instead
 * (plan.c); leave-on-all ones keep MPI_Allreduce, which is right.  SMPI
 * stands for MPICH 4.0.2, the MPI the simulation is set up like. */
#if defined(SMPI_H) || (defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40200000)
#define BI_REDUCE_LONE 1
#else
#define BI_REDUCE_LONE 0
#endif
#define BI_DIRECT_MIN 65536.0
/* TOP ' ' broadcasts of 1 to BI_BCAST_SHORT bytes in a scope with MPI
 * collectives run a tree, bi_bcast_short_tree (plan.c); on two processes
 * every length does */
#define BI_BCAST_SHORT 12288.0
/* in a scope on one node, broadcasts (' ' under MPICH, and the letters)
 * go straight from A to receivers that said they are there from this
 * length on, not BI_DIRECT_MIN: the short ' ' broadcasts' bound (plan.c) */
#define BI_BCAST_DIRECT_MIN BI_BCAST_SHORT
/* what MPICH sends eagerly on shared memory, without its receiver: 8 KB
 * (MPICH 4.0.2 sends up to 8,255 bytes eagerly there, so 8 KB -- 1,024
 * doubles, a size ScaLAPACK's broadcasts often have -- too; the
 * simulation's SIM_EAGER, make calibrate); between hosts, with UCX over
 * TCP, up to 16 KB (Tsim), so pieces of 8 KB go eagerly there too */
#define BI_NODE_EAGER 8192.0
/* the longest message MPICH 4.0.2 sends eagerly on shared memory (one node,
 * 1 x 2: DGSUM2D of 1,031 doubles, 8,248 bytes, 2.6 us; of 1,032 doubles,
 * 8,256 bytes, a rendezvous, 11 us) */
#define BI_NODE_EAGER_MAX 8255.0
/* and how many such pieces MPICH holds for a receiver that is not there:
 * 32 of 8 KB went (a relay of 256 KB returned within 0.5 ms while its next
 * hop was 20 ms late), 40 did not (the relay waited 20 ms, and the late
 * receiver 16 ms more than for one message: the pieces left over move only
 * with their sender's progress).  Half of that, for a margin */
#define BI_NODE_EAGER_PIECES 16
/* between nodes, what MPICH with UCX over TCP sends eagerly (Tsim: up to
 * 16 KB; a message of 20 to 64 KB is a rendezvous there, and on the test
 * bed's bare link a two-process exchange of 20-32 KB took 55-58 us where
 * its two halves, eager, took 28-33 and MPI_Allreduce 33-36).  The
 * exchange 'H' between nodes sends vectors of BI_NET_EAGER_MAX to
 * BI_XCHG_PIECED bytes in pieces of up to that many bytes, on one node
 * under MPICH pieces of up to BI_NODE_EAGER_MAX bytes (plan.c,
 * xchg_pieces) */
#define BI_NET_EAGER 16384.0
#define BI_XCHG_PIECED (4 * BI_NET_EAGER)
/* the pieces between nodes: 16 KB and 63 bytes, as on one node 8 KB and
 * 63, so that no count of a power of two items is a multiple of a piece,
 * which would cost an empty last piece (the pieces' end mark, plan.c): a
 * 32 x 64 block of doubles went in 2,048 items and an empty piece and its
 * receiver waited 36-38 us between two hosts, whole 14-25.  MPICH 4.0.2
 * with UCX 1.13.1 over TCP sends up to 19,456 bytes eagerly (test bed,
 * MPI_Send while its receiver computes 300 us: 12-24 us to 19,456 bytes,
 * 350-410 from 19,712) */
#define BI_NET_EAGER_MAX 16447.0
/* the items of each piece but the last: as many as fit in BI_NODE_EAGER_MAX
 * on one node, BI_NET_EAGER_MAX between nodes */
static inline size_t bi_xchg_piece(size_t isize, int onenode)
{
    const size_t k = (size_t)(onenode ? BI_NODE_EAGER_MAX : BI_NET_EAGER_MAX) / (isize ? isize : 1);
    return k ? k : 1;
}
/* a broadcast source waits for its last send (bi_coll_finish) only from
 * this length: shorter ones go eagerly */
#define BI_SETTLE_MIN (BI_NODE_EAGER + 1)

struct bi_coll {
    bi_scope *sc;
    int np, me;        /* scope size and my scope rank */
    int root;          /* broadcast source / combine destination scope rank; -1 leave-on-all */
    int tag;           /* first message ID the algorithm uses (reserved + plan.first) */
    char *buf;         /* contiguous items (bcast data / combine result buffer) */
    const bi_shape *shape; /* TOP ' ' broadcasts only: buf is the user's A, this
                              non-contiguous shape, moved in place at a receiver,
                              packed by the source (bcast_mpi.c) */
    void *into;        /* the letters' receivers (bcast.c): the user's A, of the
                          non-contiguous shape intoshape, where a receiver that passes
                          nothing on may take the whole vector from another node in
                          place (bi_recv_vector), then NULL; else buf is unpacked */
    const bi_shape *intoshape;
    size_t count;      /* items */
    size_t isize;      /* bytes per item */
    MPI_Datatype dt;   /* MPI type of one item (contiguous isize bytes for combines) */
    bi_plan plan;      /* what runs, with its parameters */
    const bi_op *op;   /* combines */
    int repeat, coherent;
    bi_reqs reqs;      /* sends posted from buf, waited or queued by the caller */
    bi_buf *owner;     /* buffer holding buf if it is a BLACS buffer, else NULL */
    int step;          /* trace: sends so far in this operation */
    size_t lastbytes;  /* the latest send's length (the source's order) */
    double ordspent;   /* seconds the source has waited for its order */
    MPI_Request *words; /* a source's receivers' words (c->np - 1, some done): plan.direct 1,
                           those not in when it copied, also on its buffer's queue, not yet
                           posted; 2, all, queued at the end (each_finish) */
    const char *from;  /* a broadcast source's A, copied into buf as it is sent: bytes
                          [0, copied) are in (bi_isend); contiguous, or the GE shape
                          fromshape */
    const bi_shape *fromshape;
    size_t copied;
    /* plan.direct 2 (transport.c): words holds every receiver's word, looked
     * at as the source sends to it; wordleft: seconds it may still wait for
     * them; direct: the sends from A, waited for before the source returns;
     * lastdirect: the latest send is one of them */
    bi_reqs direct;
    int lastdirect;
    double wordleft;
    /* every receiver's word came before the source's first send (a letter's
     * plan.direct, or MPI_Ibcast): words is then NULL, and the source may
     * wait for its sends to the end (bi_source_settle) */
    int allthere;
};

#define BI_ANY (-1)
/* all traffic of a scope goes over ctx->comm with scope ranks translated */
void bi_isend(bi_coll *c, int to, const void *p, size_t items, int tag);  /* into c->reqs */
void bi_copy_upto(bi_coll *c, size_t end); /* a source's copy of A, bytes up to end (c->from) */
/* the same for a process passing data on to several: unless it is the
 * source (scope rank c->root), it first waits for its previous send */
void bi_fwd(bi_coll *c, int to, const void *p, size_t items, int tag);
/* a broadcast source's wait for one of its sends (request r, bytes long),
 * in the bounds of its plan (transport.c); other processes return at once */
void bi_source_settle(bi_coll *c, MPI_Request *r, size_t bytes);
int bi_recv(bi_coll *c, int from, void *p, size_t items, int tag);        /* returns source */
/* the whole vector (c->count items) from scope rank from into c->buf, or
 * into c->into when the caller passes nothing on (last) and it may go there */
void bi_recv_vector(bi_coll *c, int from, int tag, int last);
/* a non-contiguous shape of `bytes` goes to or from scope rank k in place:
 * by BLACS_BCAST_DATATYPE, whose default depends on k's node and, on one
 * node, on the length (shape.c) */
int bi_inplace_with(const bi_scope *sc, int k, size_t bytes, int recv);
MPI_Request bi_irecv(bi_coll *c, int from, void *p, size_t items, int tag);
/* wait for a receive bi_irecv posted (items from scope rank from) and check
 * that exactly items arrived */
void bi_irecv_wait(bi_coll *c, MPI_Request *r, int from, size_t items, int tag);
/* a message shorter than its receive is no MPI error, but here always a
 * mistake (the sender's element count differs): error unless the status
 * says exactly items arrived (bi_recv checks; bi_irecv's waiters call it) */
void bi_recv_check(bi_coll *c, const MPI_Status *st, size_t items);
void bi_sendrecv(bi_coll *c, int to, const void *sp, size_t sitems, int from, void *rp,
                 size_t ritems, int tag);
void bi_waitall(bi_coll *c);                 /* wait every send in c->reqs */
void bi_reqs_free(bi_reqs *r);
/* end of an operation: sends posted from a BLACS buffer (c->owner) go with
 * it onto the active queue (the call returns at once: locally blocking);
 * sends posted from user memory are waited for.  Frees c->reqs. */
void bi_coll_finish(bi_coll *c);
/* receivers' words for a long broadcast from A (plan.direct, transport.c):
 * a receiver's "here" to the source (wait for it once received); the
 * source's wait for all of them, at most limit seconds, copying bytes of
 * src to dst meanwhile (none if src is NULL): 1 if all came, else 0, the
 * copy complete, and *rest the c->np - 1 requests, which bi_words_queue
 * puts on buffer w's queue and keeps in c->words until bi_words_forget
 * frees them */
MPI_Request bi_word_say(const bi_coll *c);
int bi_words_in(const bi_coll *c, double limit, void *dst, const void *src, size_t bytes,
                MPI_Request **rest);
void bi_words_queue(bi_coll *c, bi_buf *w, MPI_Request *rest);
/* plan.direct 2: every receiver's word posted, looked at one send at a
 * time (bi_isend); c->buf is the copy, c->from A */
void bi_words_each(bi_coll *c);
void bi_words_forget(bi_coll *c); /* before the buffer is posted */
/* one MPI reduction on the scope communicator comm, sbuf -> rbuf (rbuf ==
 * sbuf: in place, leave-on-all only; leave-on-one to c->root); waits as
 * bi_wait does at BLACS_DEBUG=2 or with statistics */
void bi_reduce(const bi_coll *c, MPI_Comm comm, int all, void *sbuf, void *rbuf, int n,
               MPI_Datatype dt, MPI_Op op);
/* every process of the scope learns whether all pass c->count items (one
 * short reduction); if not, a count-mismatch error on each */
void bi_count_agree(const bi_coll *c);

/* message trace (BLACS_TRACE=prefix: one file prefix.<world rank> per process,
 * one line per collective message sent:
 *   <ctx> <scope> <from> <to> <bytes> <tag> <step> <top> */
void bi_trace_send(bi_coll *c, int to, size_t bytes, int tag);
void bi_trace_plan(const bi_coll *c, char kind);
void bi_trace_p2p(long ctx, int me, int to, size_t bytes, int tag, int worded);

#pragma GCC visibility pop
#endif /* BI_CORE_H */
