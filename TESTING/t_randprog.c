/*
 * t_randprog.c -- random valid BLACS programs with exact answers.
 *
 *   t_randprog gen SEED [NP] [NOPS] [portable]  > prog   a program, as text
 *   mpiexec -n NP t_randprog run prog                    run it, check everything
 *   t_randprog reduce prog K > smaller                   the K-th simplification
 *   t_randprog emit prog > repro.c                       a standalone C reproducer
 *   t_randprog np prog                                   prints NP
 *
 * A program is made by simulating an abstract execution of the BLACS
 * semantics, so every program it makes is valid and every order of calls
 * it gives a process is one the semantics allow:
 *   - sends and broadcast sends are locally blocking: a process issues them
 *     whenever it likes;
 *   - a receive (point-to-point or broadcast) is issued only after its
 *     message was sent; messages between two processes of a grid are
 *     received in the order sent;
 *   - broadcast receives, combines, barriers, Cdsendrecv (pairs and rings)
 *     and the user's own MPI_Send/MPI_Recv pairs are globally blocking: a
 *     member may wait until every other member has arrived (a broadcast's
 *     receivers may forward to each other, whatever the topology);
 *   - BLACS_GRIDINIT/GRIDMAP are globally blocking for the whole system
 *     context they are made from (the world; for a user's communicator,
 *     MPI_Comm_split by the world then GRIDINIT by its members),
 *     BLACS_GRIDEXIT for the grid's members, BLACS_EXIT(1) for everybody
 *     (and only where nothing sent waits for its receiver);
 *   - the members of a scope (a row, a column or all of a grid) meet that
 *     scope's broadcasts, combines and barriers in the same order.
 * The execution is a random sequence of events: one process's send,
 * broadcast send or point-to-point receive, or one globally blocking
 * operation done by all its members at once.  Each process's program is
 * its projection of the sequence, and the sequence shows an execution in
 * which nobody waits forever: a valid program by construction.
 *
 * Everything else is drawn at random: 1-6 processes, up to three grids
 * alive at once, up to MAXG in a program, made ('G' ops) and exited ('X'
 * ops: a grid closes to new operations, and its members exit it once
 * nothing sent on it waits, so a sender may be in GRIDEXIT before its
 * receivers received) as the program goes (BLACS_GRIDINIT in 'R' or 'C'
 * order, BLACS_GRIDMAP, grids on a communicator of the user's via
 * Csys2blacs_handle in 'R' or 'C' order, so that some processes may never
 * call the BLACS); a new grid checks BLACS_GRIDINFO, that BLACS_GET 11-16
 * are a new grid's (nothing leaks from an exited grid whose handle it
 * reuses) and BLACS_GET 22, an exited one that GRIDINFO gives -1s; a
 * BLACS_SET 1 range per grid ('i' ops, by everyone who makes it, just
 * before), now and then BLACS_EXIT(1) and a restart ('E'), KSENDID and
 * KRECVID ('k': within the grid's range, unchanged when asked twice; 9977
 * on the reference), calls through the Fortran entry points (none, all or
 * some ops of a program; blacs_int arguments by reference, the hidden
 * lengths last), a BLACS_ABORT ending (below), BLACS_SET values, environment
 * settings (per process where they must agree, which the library must
 * then agree on or reject by name), all five types, GE and TR shapes, M
 * and N from 0 past a point-to-point piece, LDA >= M per process, every
 * topology letter, leave-on-one and leave-on-all, RA/CA, vTUOP2D, short
 * sleeps; signals outside MPI (files) between processes, and the source
 * of a long broadcast or send that goes away right after its call,
 * waiting outside MPI for one receiver's "got it" while the receivers come
 * late (a hang wherever the data moves only while the source is inside
 * MPI).  Data are small integers, exact in every type, and AMX/AMN keys
 * are distinct between processes, so every value, sum, maximum and owner
 * coordinate is known in advance whatever the order of combination.
 * Every matrix has guard zones before, after and in the LDA - M gap (and,
 * for TR receives, outside the trapezoid) that must come back untouched.
 *
 * Oracle: each process prints "randprog: rank R ok, N checks" or a line per
 * failure; a watchdog (RANDPROG_WATCHDOG seconds, default 60) reports the
 * operation a process waits in and ends the job.  A program with an
 * "abort R E" line then ends with rank R in BLACS_ABORT(ctxt, E) while the
 * others wait in a receive nobody sends: the job must end at once with a
 * non-zero status and the abort message.  Reduce never drops an 'i' op
 * (other grids' makers must agree on the range) and drops a 'G' op with
 * every op of its grid.  TESTING/randprog.sh
 * drives seeds, shrinks failures with `reduce` and writes the reproducer.
 * Built with -DRP_REFERENCE it links against the reference BLACS
 * (Debian's libscalapack-mpich) and runs the portable programs only.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "runq.h"
#include <mpi.h>
#ifdef RP_REFERENCE
typedef int blacs_int;
void Cblacs_pinfo(int *, int *);
void Cblacs_get(int, int, int *);
void Cblacs_set(int, int, int *);
void Cblacs_gridinit(int *, char *, int, int);
void Cblacs_gridmap(int *, int *, int, int, int);
void Cblacs_gridexit(int);
void Cblacs_exit(int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_barrier(int, char *);
int Csys2blacs_handle(MPI_Comm);
MPI_Comm Cblacs2sys_handle(int);
void Cfree_blacs_system_handle(int);
#define RP_PROTOS(v, T)                                                                            \
    void C##v##gesd2d(int, int, int, T *, int, int, int);                                         \
    void C##v##gerv2d(int, int, int, T *, int, int, int);                                         \
    void C##v##trsd2d(int, char *, char *, int, int, T *, int, int, int);                         \
    void C##v##trrv2d(int, char *, char *, int, int, T *, int, int, int);                         \
    void C##v##gebs2d(int, char *, char *, int, int, T *, int);                                   \
    void C##v##gebr2d(int, char *, char *, int, int, T *, int, int, int);                         \
    void C##v##trbs2d(int, char *, char *, char *, char *, int, int, T *, int);                   \
    void C##v##trbr2d(int, char *, char *, char *, char *, int, int, T *, int, int, int);         \
    void C##v##gsum2d(int, char *, char *, int, int, T *, int, int, int);                         \
    void C##v##gamx2d(int, char *, char *, int, int, T *, int, int *, int *, int, int, int);      \
    void C##v##gamn2d(int, char *, char *, int, int, T *, int, int *, int *, int, int, int);
RP_PROTOS(i, int)
RP_PROTOS(s, float)
RP_PROTOS(d, double)
RP_PROTOS(c, float)
RP_PROTOS(z, double)
void Cblacs_freebuff(int, int);
void Cblacs_abort(int, int);
int Cksendid(int, int, int);
int Ckrecvid(int, int, int);
typedef int fI;
#else
#include "blacs.h"
/* the Fortran entry points (FORTRAN/), as gfortran calls them: every
 * argument by reference, the hidden lengths of CHARACTER arguments last */
typedef blacs_int fI;
typedef size_t fL;
void blacs_get_(fI *, fI *, fI *);
void blacs_gridinit_(fI *, char *, fI *, fI *, fL);
void blacs_gridmap_(fI *, fI *, fI *, fI *, fI *);
void blacs_gridexit_(fI *);
void blacs_gridinfo_(fI *, fI *, fI *, fI *, fI *);
void blacs_barrier_(fI *, char *, fL);
fI sys2blacs_handle_(fI *);
fI ksendid_(fI *, fI *, fI *);
fI krecvid_(fI *, fI *, fI *);
void dsendrecv_(fI *, fI *, fI *, double *, fI *, fI *, fI *, fI *, fI *, double *, fI *, fI *, fI *);
#define RP_FPROTOS(v, T)                                                                           \
    void v##gesd2d_(fI *, fI *, fI *, T *, fI *, fI *, fI *);                                     \
    void v##gerv2d_(fI *, fI *, fI *, T *, fI *, fI *, fI *);                                     \
    void v##trsd2d_(fI *, char *, char *, fI *, fI *, T *, fI *, fI *, fI *, fL, fL);             \
    void v##trrv2d_(fI *, char *, char *, fI *, fI *, T *, fI *, fI *, fI *, fL, fL);             \
    void v##gebs2d_(fI *, char *, char *, fI *, fI *, T *, fI *, fL, fL);                         \
    void v##gebr2d_(fI *, char *, char *, fI *, fI *, T *, fI *, fI *, fI *, fL, fL);             \
    void v##trbs2d_(fI *, char *, char *, char *, char *, fI *, fI *, T *, fI *, fL, fL, fL, fL); \
    void v##trbr2d_(fI *, char *, char *, char *, char *, fI *, fI *, T *, fI *, fI *, fI *, fL, fL, fL, fL); \
    void v##gsum2d_(fI *, char *, char *, fI *, fI *, T *, fI *, fI *, fI *, fL, fL);             \
    void v##gamx2d_(fI *, char *, char *, fI *, fI *, T *, fI *, fI *, fI *, fI *, fI *, fI *, fL, fL); \
    void v##gamn2d_(fI *, char *, char *, fI *, fI *, T *, fI *, fI *, fI *, fI *, fI *, fI *, fL, fL);
RP_FPROTOS(i, blacs_int)
RP_FPROTOS(s, float)
RP_FPROTOS(d, double)
RP_FPROTOS(c, float)
RP_FPROTOS(z, double)
#endif

#define MAXW 8      /* processes */
#define MAXG 16     /* grids in a program (made and exited as it goes) */
#define MAXLIVE 3   /* grids alive at once */
#define GUARD 24    /* guard elements before and after every matrix */
#define SENT(k) (-20000.0 - (double)((k) % 997)) /* guard value of element k */

static int esz(char t);

/* ---- random numbers: splitmix64 --------------------------------------- */
static uint64_t rs;
static uint64_t rnext(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static int rint_(int n) { return n <= 1 ? 0 : (int)(rnext() % (uint64_t)n); }
static int chance(int pct) { return rint_(100) < pct; }
static uint64_t hash4(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t h = 1469598103934665603u;
    uint64_t v[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) {
        h ^= v[i] + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
        h *= 1099511628211u;
        h ^= h >> 29;
    }
    return h;
}

/* ---- the program -------------------------------------------------------- */
typedef struct {
    int id;
    char kind;          /* p2p 'p', bcast 'b', combine 'c', sendrecv 's', barrier 'r', user MPI 'u',
                           signal outside MPI 'g' (a emits, b waits; world ranks) */
    int g;              /* grid (user MPI on the world: -1) */
    char scope;         /* 'R' 'C' 'A' (bcast, combine, barrier) */
    char top;           /* letter, '_' for blank */
    char type;          /* I S D C Z */
    char uplo, diag;    /* 'G' general; 'U'/'L' trapezoid, DIAG 'U'/'N' */
    int m, n;
    int a, b;           /* p2p src, dst; bcast src; combine/barrier scope index; sendrecv and user pair */
    int rd;             /* combine destination vpid or -1 (leave on all) */
    int rdq;            /* leave-on-all spelled RDEST=-1 (0) or CDEST=-1 (1) */
    int rcf;            /* AMX/AMN RCFLAG: -1, or the LDIA */
    int m2, n2;         /* sendrecv: b's matrix */
    char opk;           /* combine: S sum, X amx, N amn, U vTUOP2D (max) */
    int uc;             /* user MPI: 0 MPI_COMM_WORLD, 1 the grid's BLACS_GET 10 communicator */
    unsigned ldp;       /* LDA padding of each vpid, 3 bits each */
    int rep;            /* p2p: the message sent (received) this many times in a row */
    int wild;           /* p2p receive: 1 RSRC = -1, 2 CSRC = -1, 3 both (a wildcard) */
    int ring;           /* sendrecv: 0 a pair (a, b); k >= 3 a ring of k vpids (rmem) */
    unsigned rmem;      /* the ring's vpids in ring order, 3 bits each */
    int ft;             /* 1: through the Fortran entry points */
} op_t;

typedef struct {
    char kind;          /* 'I' GRIDINIT on the default system context, 'M' GRIDMAP, 'U' a user communicator */
    char order;         /* 'R' or 'C' (GRIDINIT) */
    int nprow, npcol, np;
    int mem[MAXW];      /* world rank of each vpid (row-major) */
    int set[7];         /* BLACS_SET WHAT 11..16 (index what-10), 0: not set */
    int late;           /* 1: made by a 'G' op of the sequences, else before them */
} grid_t;

typedef struct {
    uint64_t seed;
    int W, portable, idlo, idhi;
    int fmode;          /* Fortran entry points: 0 never, 1 always, 2 per op */
    char init;          /* who starts MPI: 'L' the library (PINFO first), 'M' the program with
                           MPI_THREAD_MULTIPLE, 'S' the program with MPI_Init (old files) */
    int ngrid;
    grid_t gr[MAXG];
    int nenv;
    struct { int rank; char var[40], val[40]; } env[24];
    int ndis;
    char dis[4][40];    /* variables set differently on different processes */
    int nops;
    op_t *ops;
    int nseq[MAXW];
    int *seq[MAXW];     /* op ids; negative: sleep of -t microseconds */
    int abort_rank, abort_err; /* abort_err > 0: ends with rank abort_rank in BLACS_ABORT */
} prog_t;

static void seq_push(prog_t *P, int w, int tok)
{
    if ((P->nseq[w] & (P->nseq[w] + 1)) == 0 || P->nseq[w] == 0)
        P->seq[w] = realloc(P->seq[w], (size_t)(2 * P->nseq[w] + 2) * sizeof(int));
    P->seq[w][P->nseq[w]++] = tok;
}

/* long sleeps outside MPI: at most AWAY_MAX us a process in a program */
#define AWAY_MAX 2000000
/* w sleeps lo + [0, span) us outside MPI, within that budget (away_us: each
 * process's long sleeps so far) */
static void sleep_away(prog_t *P, int *away_us, int w, int lo, int span)
{
    if (away_us[w] >= AWAY_MAX) return;
    int t = lo + rint_(span);
    away_us[w] += t;
    seq_push(P, w, -t);
}

/* the last operation of w's sequence, sleeps skipped (-1: none) */
static int seq_last_op(const prog_t *P, int w)
{
    for (int i = P->nseq[w] - 1; i >= 0; i--)
        if (P->seq[w][i] >= 0) return P->seq[w][i];
    return -1;
}

static int vrow(const grid_t *G, int v) { return v / G->npcol; }
static int vcol(const grid_t *G, int v) { return v % G->npcol; }
static int vpid_of(const grid_t *G, int w)
{
    for (int v = 0; v < G->np; v++)
        if (G->mem[v] == w) return v;
    return -1;
}
/* scope members of a scope instance (scope letter, index), in scope-rank order */
static int scope_members(const grid_t *G, char sc, int idx, int *v)
{
    int n = 0;
    if (sc == 'R') for (int c = 0; c < G->npcol; c++) v[n++] = idx * G->npcol + c;
    else if (sc == 'C') for (int r = 0; r < G->nprow; r++) v[n++] = r * G->npcol + idx;
    else for (int k = 0; k < G->np; k++) v[n++] = k;
    return n;
}
static int scope_index(const grid_t *G, char sc, int v)
{
    return sc == 'R' ? vrow(G, v) : sc == 'C' ? vcol(G, v) : 0;
}
static int scope_rank(const grid_t *G, char sc, int v)
{
    return sc == 'R' ? vcol(G, v) : sc == 'C' ? vrow(G, v) : v;
}
/* a sendrecv ring's i-th vpid (i modulo the ring); its message's rows */
static int ring_at(const op_t *o, int i) { return (int)((o->rmem >> (3 * (i % o->ring))) & 7u); }
static int ring_m(const op_t *o, int i) { return o->m > 0 ? o->m + (i % o->ring) % 3 : 0; }
/* the rank of vpid v in the grid's communicator (BLACS_GET 10: the grid's
 * numbering; a user's communicator: ranked for GRIDINIT in the grid's order) */
static int comm_rank(const grid_t *G, int v)
{
    return G->kind == 'U' && G->order == 'C' ? vcol(G, v) * G->nprow + vrow(G, v) : v;
}
static int lda_of(const op_t *o, int v, int m)
{
    int pad = (int)((o->ldp >> (3 * v)) & 7u);
    int base = m > 1 ? m : 1;
    return base + (pad == 7 ? 13 : pad > 4 ? pad - 4 : 0);
}

/* ---- generation by abstract execution ----------------------------------- */
#define MAXSI (MAXG * (2 * MAXW + 1))
typedef struct {
    int g; char sc; int idx;
    int nops, cap, *ops;        /* the scope's collective operations in order */
    int cur[MAXW];              /* per world rank: next position */
} scopeinst;

static const char *BC_TOPS = "_IDSMHFT123456789CPA";
static const char *BC_TOPS_REF = "_IDSMHFT123456789";
static const char *CB_TOPS = "_IDSMHFT123456789RBYA";
static const char *CB_TOPS_REF = "_IDSMHFT123456789";

static void gen_shape(op_t *o, int big_ok)
{
    static const char types[] = "ISDCZ";
    o->type = types[rint_(5)];
    int r = rint_(100);
    if (r < 10) { o->m = rint_(2); o->n = rint_(3); }            /* empty and tiny */
    else if (r < 65) { o->m = 1 + rint_(9); o->n = 1 + rint_(5); }
    else if (r < 88) { o->m = 5 + rint_(120); o->n = 1 + rint_(12); }
    else if (big_ok && r < 96) { /* a long vector, past a piece; now and then 1-4 MB */
        o->m = 2000 + rint_(26000); o->n = 1;
        if (chance(12)) o->m = 131072 + rint_(393216);
    }
    else if (big_ok) { o->m = 100 + rint_(250); o->n = 10 + rint_(40); }
    else { o->m = 1 + rint_(40); o->n = 1 + rint_(4); }
    o->ldp = 0;
    for (int v = 0; v < MAXW; v++)
        if (chance(35)) o->ldp |= (unsigned)(1 + rint_(7)) << (3 * v);
    o->uplo = 'G'; o->diag = 'N';
}

static void gen_tr(op_t *o)
{
    if (chance(30)) {
        o->uplo = chance(50) ? 'U' : 'L';
        o->diag = chance(50) ? 'U' : 'N';
    }
}

static int gen_ops_budget;

/* the world ranks that call BLACS_GRIDINIT/GRIDMAP to make grid g: all of
 * the system context (the world, or the user's communicator) */
static int makers(const grid_t *G, int W, int *w)
{
    int n = 0;
    if (G->kind == 'U') for (int v = 0; v < G->np; v++) w[n++] = G->mem[v];
    else for (int k = 0; k < W; k++) w[n++] = k;
    return n;
}


/* the generator's state of the abstract execution, besides its locals */
typedef struct { int n, cap, head, *ids; } chan;
static chan ch[MAXG][MAXW][MAXW]; /* messages sent and not yet received, per grid, src, dst (vpids) */
static scopeinst si[MAXSI];
static int nsi;
static int g_alive[MAXG], g_closing[MAXG]; /* made and not exited; no new operations */
static int cur_rng[MAXW][2];      /* each process's BLACS_SET WHAT=1 range so far (0 0: none set) */

static void blank_op(op_t *o, int id, char kind, int g)
{
    memset(o, 0, sizeof *o);
    o->id = id; o->kind = kind; o->g = g; o->rd = -1; o->rcf = -1; o->top = '_';
    o->type = 'D'; o->uplo = 'G'; o->diag = 'N'; o->scope = '-'; o->opk = 'S'; o->rep = 1;
}

/* Fortran entry points for this op? (the program's mode: none, all, some) */
static int draw_ft(const prog_t *P) { return P->fmode == 1 || (P->fmode == 2 && chance(50)); }

/* the events that make grid g (drawn): its WHAT=1 range set by every
 * process that takes part in making it, if one is drawn or they do not
 * agree yet, then BLACS_GRIDINIT/GRIDMAP by all of the system context (for
 * a user communicator, MPI_Comm_split by all of the world first), one
 * globally blocking event; returns the ops made */
static int gen_make(prog_t *P, int made, int g, int W, int portable)
{
    const grid_t *G = &P->gr[g];
    int mk[MAXW], nm = makers(G, W, mk), agree = 1;
    for (int q = 1; q < nm; q++)
        if (cur_rng[mk[q]][0] != cur_rng[mk[0]][0] || cur_rng[mk[q]][1] != cur_rng[mk[0]][1]) agree = 0;
    if (!portable && (!agree || chance(30))) {
        op_t *o = &P->ops[made];
        blank_op(o, made, 'i', -1);
        o->a = 100 + rint_(1000); o->b = o->a + 63 + rint_(200); o->rd = g;
        for (int q = 0; q < nm; q++) { seq_push(P, mk[q], made); cur_rng[mk[q]][0] = o->a; cur_rng[mk[q]][1] = o->b; }
        made++;
    }
    op_t *o = &P->ops[made];
    blank_op(o, made, 'G', g);
    o->ft = draw_ft(P);
    for (int w = 0; w < W; w++) seq_push(P, w, made);
    made++;
    g_alive[g] = 1; g_closing[g] = 0;
    for (int r = 0; r < G->nprow; r++) si[nsi++] = (scopeinst){.g = g, .sc = 'R', .idx = r};
    for (int c = 0; c < G->npcol; c++) si[nsi++] = (scopeinst){.g = g, .sc = 'C', .idx = c};
    si[nsi++] = (scopeinst){.g = g, .sc = 'A', .idx = 0};
    return made;
}

/* nothing sent on grid g waits for its receiver */
static int gen_drained(const prog_t *P, const int *bsi, int made, int g)
{
    for (int a = 0; a < MAXW; a++)
        for (int b = 0; b < MAXW; b++) if (ch[g][a][b].head < ch[g][a][b].n) return 0;
    for (int k = 0; k < made; k++) if (bsi[k] >= 0 && P->ops[k].g == g) return 0;
    return 1;
}
static int nlive(void)
{
    int n = 0;
    for (int g = 0; g < MAXG; g++) n += g_alive[g];
    return n;
}
/* can p start an operation on grid g */
static int g_open(const prog_t *P, int g, int p) { return g_alive[g] && !g_closing[g] && vpid_of(&P->gr[g], p) >= 0; }

/* how many times the op being run (described) came before in this
 * process's sequence: a send to oneself comes twice, send then receive */
static int op_pass;

/* a signal op: world rank a emits, b will wait (the ops array has room) */
static int new_signal(prog_t *P, int made, int a, int b)
{
    op_t o;
    memset(&o, 0, sizeof o);
    o.id = made; o.kind = 'g'; o.g = -1; o.a = a; o.b = b; o.rd = -1; o.rcf = -1; o.top = '_';
    o.type = 'D'; o.uplo = 'G'; o.diag = 'N'; o.scope = '-'; o.opk = 'S'; o.rep = 1;
    P->ops[made] = o;
    seq_push(P, a, made);
    return made;
}

/* signals to p emitted and not yet waited for */
static int sig_to(int nsig[MAXW][MAXW], int W, int p)
{
    int n = 0;
    for (int q = 0; q < W; q++) n += nsig[q][p];
    return n;
}

/* a new grid g of W processes: kind, order, shape, members, BLACS_SET values */
static void draw_grid(prog_t *P, int g, int W, int portable)
{
    grid_t *G = &P->gr[g];
    memset(G, 0, sizeof *G);
    int r = rint_(100);
    G->kind = r < 45 ? 'I' : r < 75 ? 'M' : 'U';
    G->order = chance(50) ? 'R' : 'C';  /* GRIDINIT, on the default system context or the user's */
    G->late = 1;
    int np = W == 1 ? 1 : (chance(60) ? W : 1 + rint_(W));
    if (np > 1 && chance(10)) np = 1 + rint_(np);
    /* a shape of np processes */
    int divs[MAXW] = {1}, nd = 0;
    for (int d = 1; d <= np; d++) if (np % d == 0) divs[nd++] = d;
    G->nprow = divs[rint_(nd)];
    G->npcol = np / G->nprow;
    G->np = np;
    if (G->kind == 'I') {
        for (int k = 0; k < np; k++) {   /* pnum k of the system context */
            int row = G->order == 'R' ? k / G->npcol : k % G->nprow;
            int col = G->order == 'R' ? k % G->npcol : k / G->nprow;
            G->mem[row * G->npcol + col] = k;
        }
    } else {
        int perm[MAXW];
        for (int k = 0; k < W; k++) perm[k] = k;
        for (int k = W - 1; k > 0; k--) { int j = rint_(k + 1), t = perm[k]; perm[k] = perm[j]; perm[j] = t; }
        for (int v = 0; v < np; v++) G->mem[v] = perm[v];
    }
    for (int w = 11; w <= 16; w++)
        if (chance(15)) {
            int val;
            if (w == 11 || w == 13) { val = 1 + rint_(3); if (chance(30)) val = -val; }
            else if (w == 12 || w == 14) val = 1 + rint_(4);
            else val = rint_(2);
            G->set[w - 10] = val;
        }
    if (portable) G->set[5] = G->set[6] = 0; /* repeat/coherent: kept out of reference comparisons */
}

static void gen_program(prog_t *P, uint64_t seed, int W, int nops, int portable)
{
    memset(P, 0, sizeof *P);
    rs = seed * 0x2545F4914F6CDD1Du + 7;
    P->seed = seed;
    P->portable = portable;
    if (W <= 0) { static const int ws[] = {1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6}; W = ws[rint_(11)]; }
    P->W = W;
    if (nops <= 0) nops = 20 + rint_(100);
    gen_ops_budget = nops;

    /* ---- grids: drawn as they are made (draw_grid), the first ones at the start */
    int ng = 0, ng0 = 1 + (chance(40) ? 1 + rint_(MAXLIVE - 1) : 0);

    /* ---- who starts MPI, and whether processes leave MPI for long: signals
     * outside MPI (files) make a process's dependence on a peer that is
     * outside MPI a hang, and need the progress thread (MPI_THREAD_MULTIPLE,
     * BLACS_PROGRESS not 0) wherever a long message's source may wait for
     * its receiver outside MPI; with MPI_THREAD_SINGLE only long sleeps */
    { int r = rint_(100); P->init = portable ? 'S' : r < 40 ? 'L' : r < 80 ? 'M' : 'S'; }
    int signals = !portable && P->init != 'S' && W > 1 && chance(70);
    /* ---- environment */
    if (!portable) {
        if (!signals && chance(15)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_PROGRESS"); strcpy(P->env[P->nenv++].val, "0"); }
        if (chance(8)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_EAGER_DIRECT"); strcpy(P->env[P->nenv++].val, "0"); }
        if (chance(10)) { static const char *v[] = {"0", "50", "100000"}; P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_SOURCE_WAIT"); strcpy(P->env[P->nenv++].val, v[rint_(3)]); }
        if (chance(10)) { static const char *v[] = {"0", "1e-5", "0.01"}; P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_MEMCPY_BETA"); strcpy(P->env[P->nenv++].val, v[rint_(3)]); }
        if (chance(8)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_BUFWAIT"); strcpy(P->env[P->nenv++].val, chance(50) ? "5" : "30"); }
        if (chance(8)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_HANG_TIMEOUT"); strcpy(P->env[P->nenv++].val, chance(50) ? "8" : "20"); }
        int d = rint_(100);
        if (d >= 55) {
            char v[8]; snprintf(v, sizeof v, "%d", d < 65 ? 1 : d < 78 ? 2 : 3);
            P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_DEBUG"); strcpy(P->env[P->nenv++].val, v);
        }
        if (chance(35)) {
            static const char *s[] = {"node", "net", "auto"};
            if (W > 1 && chance(50)) { /* different on different processes, at least two */
                int first = rint_(2);
                for (int w = 0; w < W; w++) {
                    P->env[P->nenv].rank = w; strcpy(P->env[P->nenv].var, "BLACS_P2P_SCHEDULE");
                    strcpy(P->env[P->nenv++].val, s[w == W - 1 ? !first : w == 0 ? first : rint_(2)]);
                }
                strcpy(P->dis[P->ndis++], "BLACS_P2P_SCHEDULE");
            } else {
                P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_P2P_SCHEDULE");
                strcpy(P->env[P->nenv++].val, s[rint_(3)]);
            }
        }
        if (chance(15)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_BCAST_DATATYPE"); strcpy(P->env[P->nenv++].val, chance(50) ? "1" : "0"); }
        if (chance(10)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_PIPE_SEGMENT"); strcpy(P->env[P->nenv++].val, chance(50) ? "24" : "4096"); }
        if (chance(10)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_COUNT_LIMIT"); strcpy(P->env[P->nenv++].val, chance(50) ? "1000" : "77"); }
        if (chance(10)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_COMB_NSHORT"); strcpy(P->env[P->nenv++].val, chance(50) ? "64" : "100000"); }
        if (chance(25)) { /* machine parameters that move 'A''s choice */
            static const char *al[] = {"0.01", "0.5", "2", "50", "1000"};
            static const char *be[] = {"1e-6", "1e-4", "1e-2"};
            P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_ALPHA"); strcpy(P->env[P->nenv++].val, al[rint_(5)]);
            P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_BETA"); strcpy(P->env[P->nenv++].val, be[rint_(3)]);
            if (chance(50)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_SEND_ALPHA"); strcpy(P->env[P->nenv++].val, al[rint_(5)]); }
            if (chance(30)) { P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_POST_ALPHA"); strcpy(P->env[P->nenv++].val, chance(50) ? "0" : al[rint_(5)]); }
        }
        if (chance(10)) { P->idlo = 100 + rint_(1000); P->idhi = P->idlo + 40 + rint_(200); }
    }

    /* ---- scope instances: added as grids are made */
    nsi = 0;
    memset(g_alive, 0, sizeof g_alive);
    memset(g_closing, 0, sizeof g_closing);
    memset(cur_rng, 0, sizeof cur_rng);
    P->fmode = portable ? 0 : rint_(100) < 55 ? 0 : chance(45) ? 1 : 2;

    memset(ch, 0, sizeof ch);
    /* signals emitted and not yet waited for, per emitter and waiter */
    static int sig[MAXW][MAXW][8], nsig[MAXW][MAXW];
    memset(nsig, 0, sizeof nsig);
    int away_us[MAXW] = {0}; /* long sleeps so far (AWAY_MAX) */
    /* a source that goes away: after a long broadcast or send, now and
     * then its process starts nothing more (hold: the operation) until
     * the receivers have it; then, if it still did nothing since (what
     * other processes start may need it), it waits outside MPI for one
     * receiver's "got it" -- ScaLAPACK's panel source that broadcasts and
     * computes, here made a hang where the data moves only while the
     * source is inside MPI (issue 39's finding 3) */
    int hold[MAXW];
    for (int w = 0; w < MAXW; w++) hold[w] = -1;
    int cap = 64, made = 0;
    P->ops = malloc((size_t)cap * sizeof(op_t));
    int *bsi = malloc((size_t)cap * sizeof(int)); /* a broadcast's scope instance; -1 once received */
    /* An abstract execution: a sequence of events.  A send, a broadcast's
     * send and a point-to-point receive are events of one process; the
     * receipt of a broadcast by all its receivers, a combine, a barrier, a
     * Cdsendrecv and a user MPI pair are each one event of all their
     * members at once (they are globally blocking: each member may wait
     * for every other).  Each process's program is its projection, so the
     * sequence itself is an execution in which nobody waits forever.
     * Making a grid is one event of all of its system context, exiting it
     * one of its members (both globally blocking), BLACS_EXIT(1) one of
     * everybody. */
    for (int g = 0; g < ng0; g++) {
        draw_grid(P, ng, W, portable);
        int m0 = made;
        made = gen_make(P, made, ng++, W, portable);
        for (int k = m0; k < made; k++) bsi[k] = -1;
    }
    int nexit = 0; /* BLACS_EXIT(1) events so far */
    for (int step = 0; step < 400000; step++) {
        int draining = made >= nops;
        int ev = draining ? 1 + rint_(2) : rint_(100);
        int p = rint_(W);
        if (draining) hold[p] = -1; /* else the receipt of its operation releases it */
        /* a held process starts nothing: only broadcast receipts and the
         * grids' lives go on (others' events may still need it) */
        if (hold[p] >= 0 && !(ev == 2 || (ev >= 4 && ev < 10) || (ev >= 30 && ev < 45))) continue;
        if (made + 8 >= cap) {
            cap *= 2;
            P->ops = realloc(P->ops, (size_t)cap * sizeof(op_t));
            bsi = realloc(bsi, (size_t)cap * sizeof(int));
        }
        { /* a closing grid with nothing left to receive: its members exit it */
            int gx = -1;
            for (int g = 0; g < ng && gx < 0; g++)
                if (g_alive[g] && g_closing[g] && gen_drained(P, bsi, made, g) && chance(draining ? 100 : 40)) gx = g;
            if (gx >= 0) {
                const grid_t *G = &P->gr[gx];
                blank_op(&P->ops[made], made, 'X', gx);
                P->ops[made].ft = draw_ft(P);
                bsi[made] = -1;
                for (int v = 0; v < G->np; v++) seq_push(P, G->mem[v], made);
                made++;
                g_alive[gx] = g_closing[gx] = 0;
                continue;
            }
        }
        if (!draining && ev >= 4 && ev < 10 && chance(nlive() ? 50 : 90)) { /* the grids' lives */
            int r = rint_(100);
            if ((r < 40 || !nlive()) && nlive() < MAXLIVE && ng < MAXG) { /* a new grid */
                draw_grid(P, ng, W, portable);
                int m0 = made;
                made = gen_make(P, made, ng++, W, portable);
                for (int k = m0; k < made; k++) bsi[k] = -1;
            } else if (r < 70) { /* a grid starts closing: no new operations on it */
                int gs[MAXG], n = 0;
                for (int g = 0; g < ng; g++) if (g_alive[g] && !g_closing[g]) gs[n++] = g;
                if (n) g_closing[gs[rint_(n)]] = 1;
            } else if (r < 80 && !portable && nexit < 2) {
                /* BLACS_EXIT(1) by everybody where nothing waits for a receiver
                 * (it waits for every buffered send); every grid is then gone */
                int ok = 1;
                for (int g = 0; g < ng && ok; g++) ok = gen_drained(P, bsi, made, g);
                for (int a = 0; a < W && ok; a++) ok = !sig_to(nsig, W, a);
                if (!ok) continue;
                blank_op(&P->ops[made], made, 'E', -1);
                bsi[made] = -1;
                for (int w = 0; w < W; w++) seq_push(P, w, made);
                made++;
                nexit++;
                memset(g_alive, 0, sizeof g_alive);
                memset(g_closing, 0, sizeof g_closing);
            } else { /* KSENDID/KRECVID by p on one of its grids */
                int gs[MAXG], n = 0;
                for (int g = 0; g < ng; g++) if (g_open(P, g, p)) gs[n++] = g;
                if (!n) continue;
                int g = gs[rint_(n)];
                op_t *o = &P->ops[made];
                blank_op(o, made, 'k', g);
                o->a = vpid_of(&P->gr[g], p); o->b = rint_(P->gr[g].np); o->ft = draw_ft(P);
                bsi[made] = -1;
                seq_push(P, p, made++);
            }
            continue;
        }
        if (draining) { /* receive what is left: any channel, any broadcast */
            int left = 0;
            for (int g = 0; g < ng; g++)
                for (int a = 0; a < MAXW; a++)
                    for (int b = 0; b < MAXW; b++) if (ch[g][a][b].head < ch[g][a][b].n) left = 1;
            for (int k = 0; k < made; k++) if (bsi[k] >= 0) left = 1;
            if (!left) break;
        }
        if (ev == 1 || (ev >= 10 && ev < 30)) { /* a point-to-point receive by p */
            int opts[MAXG * MAXW][2], no = 0;
            for (int g = 0; g < ng; g++) {
                int vp = vpid_of(&P->gr[g], p);
                if (vp < 0) continue;
                for (int s = 0; s < P->gr[g].np; s++)
                    if (ch[g][s][vp].head < ch[g][s][vp].n) opts[no][0] = g, opts[no][1] = s, no++;
            }
            if (!no) continue;
            int c = rint_(no), g = opts[c][0], s = opts[c][1];
            chan *cc = &ch[g][s][vpid_of(&P->gr[g], p)];
            int got = cc->ids[cc->head++];
            /* on a closing grid the sender may be in BLACS_GRIDEXIT already:
             * now and then let it get there well before this receive */
            if (g_closing[g] && chance(30)) seq_push(P, p, -(1000 + rint_(20000)));
            /* the sender went away right after it (hold, below): this
             * receiver now and then comes late, and tells it "got it" */
            int snd = P->gr[g].mem[s];
            int away = signals && snd != p && seq_last_op(P, snd) == got &&
                       chance(hold[snd] == got ? 90 : 30);
            if (away && away_us[p] < AWAY_MAX && chance(50)) sleep_away(P, away_us, p, 20000, 180000);
            seq_push(P, p, got);
            if (hold[snd] == got) hold[snd] = -1;
            if (away) {
                bsi[made] = -1;
                seq_push(P, snd, new_signal(P, made++, p, snd));
            }
            /* "got it", outside MPI, to the sender: the sender that then
             * waits for it outside MPI needs its message to move meanwhile */
            else if (signals && snd != p && nsig[p][snd] < 8 && chance(35)) {
                bsi[made] = -1;
                sig[p][snd][nsig[p][snd]++] = new_signal(P, made++, p, snd);
            }
        } else if (ev == 2 || (ev >= 30 && ev < 45)) { /* the receivers of a broadcast, together */
            int opts[64], no = 0;
            for (int k = 0; k < made && no < 64; k++) {
                if (bsi[k] < 0) continue;
                scopeinst *S = &si[bsi[k]];
                const grid_t *G = &P->gr[S->g];
                int vs[MAXW], nv = scope_members(G, S->sc, S->idx, vs), ready = 1, pos = -1;
                for (int q = 0; q < S->nops; q++) if (S->ops[q] == k) pos = q;
                for (int q = 0; q < nv; q++) {
                    int w = G->mem[vs[q]];
                    if (vs[q] != P->ops[k].a && S->cur[w] != pos) ready = 0;
                }
                if (ready) opts[no++] = k;
            }
            if (!no) continue;
            int k = opts[rint_(no)];
            scopeinst *S = &si[bsi[k]];
            const grid_t *G = &P->gr[S->g];
            int vs[MAXW], nv = scope_members(G, S->sc, S->idx, vs);
            int src = G->mem[P->ops[k].a];
            /* the source went away right after it (hold, above): the
             * receivers now and then come late, and one tells it "got it" */
            int away = signals && seq_last_op(P, src) == k && chance(hold[src] == k ? 90 : 30);
            for (int q = 0; q < nv; q++) {
                if (vs[q] == P->ops[k].a) continue;
                int w = G->mem[vs[q]];
                if (away && away_us[w] < AWAY_MAX && chance(50)) sleep_away(P, away_us, w, 20000, 180000);
                seq_push(P, w, k);
                S->cur[w]++;
            }
            if (away) {
                int r = rint_(nv - 1), w;
                for (int q = 0;; q++)
                    if (vs[q] != P->ops[k].a && r-- == 0) { w = G->mem[vs[q]]; break; }
                bsi[made] = -1;
                seq_push(P, src, new_signal(P, made++, w, src));
            }
            if (hold[src] == k) hold[src] = -1;
            /* receivers' "got it" to the source, outside MPI (as above) */
            for (int q = 0; signals && q < nv; q++) {
                int w = G->mem[vs[q]];
                if (vs[q] == P->ops[k].a || nsig[w][src] == 8 || !chance(35)) continue;
                if (made + 1 >= cap) break;
                bsi[made] = -1;
                sig[w][src][nsig[w][src]++] = new_signal(P, made++, w, src);
            }
            bsi[k] = -1;
        } else if (!draining && ev == 3 && chance(50)) { /* BLACS_FREEBUFF by p on one of its grids */
            int gs[MAXG], ngs = 0;
            for (int g = 0; g < ng; g++) if (g_alive[g] && vpid_of(&P->gr[g], p) >= 0) gs[ngs++] = g;
            if (!ngs) continue;
            int g = gs[rint_(ngs)], v = vpid_of(&P->gr[g], p), wait = chance(50);
            /* WAIT = 1 waits until p's sends are received: only once every
             * message and broadcast p sent, on any grid, has been */
            for (int gg = 0; wait && gg < ng; gg++) {
                int vv = vpid_of(&P->gr[gg], p);
                for (int d = 0; vv >= 0 && d < MAXW; d++) if (ch[gg][vv][d].head < ch[gg][vv][d].n) wait = 0;
            }
            for (int k = 0; wait && k < made; k++)
                if (bsi[k] >= 0 && P->ops[k].kind == 'b' && P->gr[P->ops[k].g].mem[P->ops[k].a] == p) wait = 0;
            op_t o;
            memset(&o, 0, sizeof o);
            o.id = made; o.kind = 'f'; o.g = g; o.a = v; o.b = v; o.rd = wait; o.rcf = -1; o.top = '_';
            o.type = 'D'; o.uplo = 'G'; o.diag = 'N'; o.scope = '-'; o.opk = 'S'; o.rep = 1;
            bsi[made] = -1;
            P->ops[made++] = o;
            seq_push(P, p, o.id);
        } else if (signals && !draining && ev >= 45 && ev < 60 && sig_to(nsig, W, p) && chance(60)) {
            /* p waits outside MPI for a signal */
            int from[MAXW], nf = 0;
            for (int q = 0; q < W; q++) if (nsig[q][p]) from[nf++] = q;
            int q = from[rint_(nf)];
            seq_push(P, p, sig[q][p][0]);
            memmove(sig[q][p], sig[q][p] + 1, (size_t)(--nsig[q][p]) * sizeof(int));
        } else if (signals && !draining && ev >= 60 && ev < 75 && chance(40)) { /* p signals q outside MPI */
            int q = rint_(W - 1); if (q >= p) q++;
            if (nsig[p][q] == 8) continue;
            bsi[made] = -1;
            sig[p][q][nsig[p][q]++] = new_signal(P, made++, p, q);
        } else if (!draining) { /* a new operation started by p */
            op_t o;
            memset(&o, 0, sizeof o);
            o.id = made; o.rd = -1; o.rcf = -1; o.top = '_'; o.opk = 'S'; o.uplo = 'G'; o.diag = 'N'; o.scope = '-';
            o.rep = 1;
            o.type = 'D';
            int gs[MAXG], ngs = 0;
            for (int g = 0; g < ng; g++) if (g_open(P, g, p)) gs[ngs++] = g;
            int parts[MAXW], np_ = 0; /* world ranks taking part */
            if (ngs == 0 || ev >= 94) { /* user MPI traffic: a pair, blocking */
                if (W < 2) continue;
                int q = rint_(W - 1); if (q >= p) q++;
                o.kind = 'u'; o.g = -1; o.uc = 0; o.a = p; o.b = q;
                if (ngs && chance(50)) { /* the grid's own communicator (BLACS_GET 10) */
                    int g = gs[rint_(ngs)];
                    if (vpid_of(&P->gr[g], q) >= 0) { o.g = g; o.uc = 1; }
                }
                o.m = 1 + rint_(chance(10) ? 5000 : 20);
                parts[np_++] = p; parts[np_++] = q;
            } else {
                int g = gs[rint_(ngs)];
                grid_t *G = &P->gr[g];
                int v = vpid_of(G, p);
                o.g = g;
                if (ev < 60) { /* point-to-point send */
                    if (G->np < 2) continue;
                    int d = rint_(G->np - 1); if (d >= v) d++;
                    if (!portable && chance(5)) d = v; /* to oneself: received later, by the same process */
                    o.kind = 'p'; o.a = v; o.b = d;
                    gen_shape(&o, !portable); gen_tr(&o);
                    if (!portable && chance(6)) { /* a burst: many short messages in a row */
                        o.rep = 40 + rint_(160);
                        o.m = 1 + rint_(64); o.n = 1; o.uplo = 'G';
                    }
                    chan *c = &ch[g][v][d];
                    if (c->n == c->cap) { c->cap = c->cap ? 2 * c->cap : 8; c->ids = realloc(c->ids, (size_t)c->cap * sizeof(int)); }
                    c->ids[c->n++] = made;
                    parts[np_++] = p;
                } else if (ev < 88) { /* a scope operation */
                    static const char scs[] = "RCA";
                    char sc = scs[rint_(3)];
                    int idx = scope_index(G, sc, v);
                    int k = 0;
                    while (!(si[k].g == g && si[k].sc == sc && si[k].idx == idx)) k++;
                    scopeinst *S = &si[k];
                    if (S->cur[p] != S->nops) continue; /* p must catch up first */
                    o.scope = sc;
                    int vs[MAXW], nv = scope_members(G, sc, idx, vs);
                    if (ev < 75) {
                        o.kind = 'b'; o.a = v;
                        const char *t = portable ? BC_TOPS_REF : BC_TOPS;
                        o.top = chance(30) ? '_' : t[rint_((int)strlen(t))]; /* ' ' is what most programs use */
                        gen_shape(&o, !portable); gen_tr(&o);
                        parts[np_++] = p;
                        bsi[made] = nv > 1 ? k : -1;
                    } else {
                        int ready = 1;
                        for (int q = 0; q < nv; q++) if (S->cur[G->mem[vs[q]]] != S->nops) ready = 0;
                        if (!ready) continue;
                        if (ev < 85) {
                            o.kind = 'c'; o.a = idx;
                            const char *t = portable ? CB_TOPS_REF : CB_TOPS;
                            o.top = chance(30) ? '_' : t[rint_((int)strlen(t))];
                            gen_shape(&o, !portable);
                            int ko = rint_(100);
                            o.opk = ko < 45 ? 'S' : ko < 70 ? 'X' : ko < 90 || portable ? 'N' : 'U';
                            if (o.opk == 'U') gen_tr(&o);
                            o.rd = chance(40) ? -1 : vs[rint_(nv)];
                            o.rdq = chance(20);
                            if ((o.opk == 'X' || o.opk == 'N') && chance(60)) o.rcf = (o.m > 0 ? o.m : 1) + rint_(3); /* LDIA < M is an argument error */
                        } else {
                            o.kind = 'r'; o.a = idx;
                        }
                        for (int q = 0; q < nv; q++) parts[np_++] = G->mem[vs[q]];
                    }
                    if (S->nops == S->cap) { S->cap = S->cap ? 2 * S->cap : 16; S->ops = realloc(S->ops, (size_t)S->cap * sizeof(int)); }
                    S->ops[S->nops++] = made;
                    for (int q = 0; q < np_; q++) S->cur[parts[q]] = S->nops;
                } else if (!portable && G->np >= 3 && chance(40)) {
                    /* a Cdsendrecv ring of k processes: each sends to the next
                     * and receives from the previous, in one call */
                    int k = 3 + rint_(G->np - 2), perm[MAXW];
                    for (int q = 0; q < G->np; q++) perm[q] = q;
                    for (int q = G->np - 1; q > 0; q--) { int j = rint_(q + 1), t = perm[q]; perm[q] = perm[j]; perm[j] = t; }
                    int at = 0;
                    while (perm[at] != v) at++;
                    if (at >= k) { perm[at] = perm[0]; perm[0] = v; }
                    o.kind = 's'; o.ring = k; o.a = v; o.b = -1;
                    for (int q = 0; q < k; q++) { o.rmem |= (unsigned)perm[q] << (3 * q); parts[np_++] = G->mem[perm[q]]; }
                    gen_shape(&o, 0);
                    o.type = 'D';
                } else if (!portable) { /* Cdsendrecv with another process */
                    if (G->np < 2) continue;
                    int q = rint_(G->np - 1); if (q >= v) q++;
                    o.kind = 's'; o.a = v; o.b = q;
                    gen_shape(&o, 0);
                    o.type = 'D';
                    o.m2 = rint_(30); o.n2 = rint_(4);
                    parts[np_++] = p; parts[np_++] = G->mem[q];
                } else continue;
            }
            if (o.kind != 'b') bsi[made] = -1;
            if (o.kind != 'u' && o.opk != 'U') o.ft = draw_ft(P);
            P->ops[made] = o;
            for (int q = 0; q < np_; q++) seq_push(P, parts[q], made);
            /* a long broadcast's source, or a long message's sender, may go
             * away (hold, above; not from a message to itself, which it
             * receives itself) */
            if (signals && (size_t)o.m * (size_t)o.n * (size_t)esz(o.type) >= 16384 &&
                ((o.kind == 'b' && bsi[made] >= 0) || (o.kind == 'p' && o.a != o.b && o.rep == 1)) &&
                chance(60))
                hold[p] = made;
            made++;
        } else continue;
        if (chance(3)) seq_push(P, p, -(1 + rint_(3000)));
        else if (!portable && chance(1)) sleep_away(P, away_us, p, 50000, 750000); /* outside MPI for long */
    }
    free(bsi);
    P->nops = made;
    P->ngrid = ng;
    /* now and then the program ends in BLACS_ABORT by one process while the
     * others wait for what never comes (after every check passed) */
    if (!portable && !signals && W > 1 && chance(5)) { P->abort_rank = rint_(W); P->abort_err = 1 + rint_(99); }
    /* wildcard receives (LAWN 73 7.1.2), where nothing else can match: no
     * other process of the allowed row, column or grid ever sends to the
     * receiver on that grid (point to point or Cdsendrecv), since a
     * locally-blocking send may run ahead of the order above */
    for (int k = 0; !portable && k < made; k++) {
        op_t *o = &P->ops[k];
        if (o->kind != 'p' || o->a == o->b || !chance(30)) continue;
        const grid_t *G = &P->gr[o->g];
        int w = 1 + rint_(3), ok = 1;
        for (int j = 0; j < made && ok; j++) {
            const op_t *x = &P->ops[j];
            if (x->g != o->g || (x->kind != 'p' && x->kind != 's')) continue;
            int from[MAXW], to[MAXW], ne = x->kind == 's' ? 2 : 1;
            from[0] = x->a; from[1] = x->b; to[0] = x->b; to[1] = x->a;
            if (x->kind == 's' && x->ring)
                for (ne = 0; ne < x->ring; ne++) from[ne] = ring_at(x, ne), to[ne] = ring_at(x, ne + 1);
            for (int e = 0; e < ne; e++) {
                if (to[e] != o->b || from[e] == o->a) continue;
                int f = from[e];
                if ((w == 1 && vcol(G, f) == vcol(G, o->a)) || (w == 2 && vrow(G, f) == vrow(G, o->a)) || w == 3) ok = 0;
            }
        }
        if (ok) o->wild = w;
    }
    if (!portable && chance(15)) { /* a cap on send buffers that the program's sends fit in */
        double tot = 0;
        for (int k = 0; k < made; k++) {
            const op_t *o = &P->ops[k];
            if (o->kind == 'p' || o->kind == 'b' || o->kind == 's')
                tot += (double)(o->m + 2) * o->n * esz(o->type) * (o->kind == 'b' ? P->gr[o->g].np : 1);
            /* a combine sends its contribution (with owner keys) through a
             * buffer too: the cap must fit it (seed 82) */
            if (o->kind == 'c') tot += (double)o->m * o->n * (esz(o->type) + 2 * (int)sizeof(blacs_int));
        }
        tot = 3 * tot + 4096;
        if (tot < 600 * 1024) tot = 600 * 1024;
        P->env[P->nenv].rank = -1; strcpy(P->env[P->nenv].var, "BLACS_BUFMAX");
        snprintf(P->env[P->nenv++].val, 40, "%.0f", tot);
    }
    for (int k = 0; k < nsi; k++) free(si[k].ops);
    for (int g = 0; g < MAXG; g++) for (int a = 0; a < MAXW; a++) for (int b = 0; b < MAXW; b++) free(ch[g][a][b].ids);
}

/* ---- text form ---------------------------------------------------------- */
static void prog_write(const prog_t *P, FILE *f)
{
    fprintf(f, "randprog 1\nseed %llu\nnp %d\nportable %d\ninit %c\n", (unsigned long long)P->seed, P->W, P->portable,
            P->init ? P->init : 'S');
    for (int k = 0; k < P->nenv; k++)
        fprintf(f, "env %d %s %s\n", P->env[k].rank, P->env[k].var, P->env[k].val);
    for (int k = 0; k < P->ndis; k++) fprintf(f, "disagree %s\n", P->dis[k]);
    if (P->idhi > P->idlo) fprintf(f, "idrange %d %d\n", P->idlo, P->idhi);
    for (int g = 0; g < P->ngrid; g++) {
        const grid_t *G = &P->gr[g];
        fprintf(f, "grid %d %c %c %d %d", g, G->kind, G->order, G->nprow, G->npcol);
        for (int v = 0; v < G->np; v++) fprintf(f, " %d", G->mem[v]);
        fprintf(f, "\n");
        for (int w = 11; w <= 16; w++) if (G->set[w - 10]) fprintf(f, "gset %d %d %d\n", g, w, G->set[w - 10]);
        if (G->late) fprintf(f, "glate %d\n", g); /* made by its 'G' op, not before the sequences */
    }
    if (P->abort_err > 0) fprintf(f, "abort %d %d\n", P->abort_rank, P->abort_err);
    for (int k = 0; k < P->nops; k++) {
        const op_t *o = &P->ops[k];
        if (o->id < 0) continue;
        fprintf(f, "op %d %c %d %c %c %c %c %c %d %d %d %d %d %d %d %d %d %c %d %u %d %d %d %u %d\n", o->id, o->kind, o->g,
                o->scope, o->top, o->type ? o->type : 'D', o->uplo, o->diag, o->m, o->n, o->a, o->b, o->rd,
                o->rdq, o->rcf, o->m2, o->n2, o->opk, o->uc, o->ldp, o->rep > 1 ? o->rep : 1, o->wild, o->ring,
                o->rmem, o->ft);
    }
    for (int w = 0; w < P->W; w++) {
        fprintf(f, "seq %d", w);
        for (int k = 0; k < P->nseq[w]; k++) {
            int t = P->seq[w][k];
            if (t >= 0) fprintf(f, " %d", t);
            else fprintf(f, " z%d", -t);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "end\n");
}

static int prog_read(prog_t *P, FILE *f)
{
    memset(P, 0, sizeof *P);
    char line[1 << 16];
    int cap = 0;
    char *big = NULL;
    size_t bigcap = 0;
    while (getline(&big, &bigcap, f) > 0) {
        char *s = big;
        char w[32];
        if (sscanf(s, "%31s", w) != 1) continue;
        if (!strcmp(w, "seed")) { unsigned long long x; sscanf(s, "seed %llu", &x); P->seed = x; }
        else if (!strcmp(w, "np")) sscanf(s, "np %d", &P->W);
        else if (!strcmp(w, "portable")) sscanf(s, "portable %d", &P->portable);
        else if (!strcmp(w, "init")) sscanf(s, "init %c", &P->init);
        else if (!strcmp(w, "env") && P->nenv < 24) {
            sscanf(s, "env %d %39s %39s", &P->env[P->nenv].rank, P->env[P->nenv].var, P->env[P->nenv].val);
            P->nenv++;
        } else if (!strcmp(w, "disagree") && P->ndis < 4) sscanf(s, "disagree %39s", P->dis[P->ndis++]);
        else if (!strcmp(w, "idrange")) sscanf(s, "idrange %d %d", &P->idlo, &P->idhi);
        else if (!strcmp(w, "grid")) {
            int g, n = 0;
            grid_t G;
            memset(&G, 0, sizeof G);
            if (sscanf(s, "grid %d %c %c %d %d%n", &g, &G.kind, &G.order, &G.nprow, &G.npcol, &n) < 5 || g < 0 || g >= MAXG) return -1;
            G.np = G.nprow * G.npcol;
            char *q = s + n;
            for (int v = 0; v < G.np; v++) G.mem[v] = (int)strtol(q, &q, 10);
            P->gr[g] = G;
            if (g + 1 > P->ngrid) P->ngrid = g + 1;
        } else if (!strcmp(w, "gset")) {
            int g, what, val;
            if (sscanf(s, "gset %d %d %d", &g, &what, &val) == 3 && g >= 0 && g < MAXG && what >= 11 && what <= 16) P->gr[g].set[what - 10] = val;
        } else if (!strcmp(w, "glate")) {
            int g;
            if (sscanf(s, "glate %d", &g) == 1 && g >= 0 && g < MAXG) P->gr[g].late = 1;
        } else if (!strcmp(w, "abort")) {
            sscanf(s, "abort %d %d", &P->abort_rank, &P->abort_err);
        } else if (!strcmp(w, "op")) {
            op_t o;
            memset(&o, 0, sizeof o);
            o.rep = 1; /* files of before bursts and wildcards have 20 fields */
            if (sscanf(s, "op %d %c %d %c %c %c %c %c %d %d %d %d %d %d %d %d %d %c %d %u %d %d %d %u %d", &o.id, &o.kind, &o.g, &o.scope,
                       &o.top, &o.type, &o.uplo, &o.diag, &o.m, &o.n, &o.a, &o.b, &o.rd, &o.rdq, &o.rcf, &o.m2, &o.n2,
                       &o.opk, &o.uc, &o.ldp, &o.rep, &o.wild, &o.ring, &o.rmem, &o.ft) < 20) return -1;
            if (o.ring && (o.ring < 3 || o.ring > MAXW)) return -1;
            if (o.rep < 1) o.rep = 1;
            if (o.id < 0 || o.id > 10000000) return -1;
            if (o.id >= cap) {
                int nc = cap ? cap : 64;
                while (nc <= o.id) nc *= 2;
                P->ops = realloc(P->ops, (size_t)nc * sizeof(op_t));
                for (int k = cap; k < nc; k++) P->ops[k].id = -1;
                cap = nc;
            }
            P->ops[o.id] = o;
            if (o.id + 1 > P->nops) P->nops = o.id + 1;
        } else if (!strcmp(w, "seq")) {
            int r, n = 0;
            if (sscanf(s, "seq %d%n", &r, &n) < 1 || r < 0 || r >= MAXW) return -1;
            char *q = s + n;
            for (;;) {
                while (*q == ' ') q++;
                if (*q == 'z') { q++; seq_push(P, r, -(int)strtol(q, &q, 10)); }
                else if (*q >= '0' && *q <= '9') seq_push(P, r, (int)strtol(q, &q, 10));
                else break;
            }
        }
    }
    (void)line;
    free(big);
    return P->W > 0 && P->W <= MAXW ? 0 : -1;
}

/* ---- values ---------------------------------------------------------------- */
static int esz(char t) { return t == 'I' ? (int)sizeof(blacs_int) : t == 'S' ? 4 : t == 'D' ? 8 : t == 'C' ? 8 : 16; }
static int cplx(char t) { return t == 'C' || t == 'Z'; }
static void el_set(char t, void *base, size_t k, double re, double im)
{
    switch (t) {
    case 'I': ((blacs_int *)base)[k] = (blacs_int)re; break;
    case 'S': ((float *)base)[k] = (float)re; break;
    case 'D': ((double *)base)[k] = re; break;
    case 'C': ((float *)base)[2 * k] = (float)re; ((float *)base)[2 * k + 1] = (float)im; break;
    default: ((double *)base)[2 * k] = re; ((double *)base)[2 * k + 1] = im; break;
    }
}
static void el_get(char t, const void *base, size_t k, double *re, double *im)
{
    *im = 0;
    switch (t) {
    case 'I': *re = (double)((const blacs_int *)base)[k]; break;
    case 'S': *re = ((const float *)base)[k]; break;
    case 'D': *re = ((const double *)base)[k]; break;
    case 'C': *re = ((const float *)base)[2 * k]; *im = ((const float *)base)[2 * k + 1]; break;
    default: *re = ((const double *)base)[2 * k]; *im = ((const double *)base)[2 * k + 1]; break;
    }
}
/* a general value of op, contributor (vpid or -1 for a source), element */
static void val_gen(const op_t *o, int who, int i, int j, double *re, double *im)
{
    uint64_t h = hash4((uint64_t)o->id, (uint64_t)(who + 1), (uint64_t)i, (uint64_t)j);
    *re = (double)((int)(h % 1001) - 500);
    *im = cplx(o->type) ? (double)((int)((h >> 20) % 1001) - 500) : 0;
}
/* AMX/AMN: a key distinct between the scope ranks (srank < 8), a sign, and
 * for complex a split of the key into |re| + |im| */
static void val_key(const op_t *o, int srank, int i, int j, double *re, double *im, double *key)
{
    uint64_t h0 = hash4((uint64_t)o->id, 99, (uint64_t)i, (uint64_t)j);
    uint64_t h = hash4((uint64_t)o->id, (uint64_t)(srank + 1), (uint64_t)i, (uint64_t)j);
    int k = 8 * (1 + (int)((h ^ (h0 * (uint64_t)(srank + 3))) % 120)) + srank;
    *key = k;
    double s1 = (h >> 40) & 1 ? -1 : 1, s2 = (h >> 41) & 1 ? -1 : 1;
    if (cplx(o->type)) {
        int t = (int)((h >> 8) % (uint64_t)(k + 1));
        *re = s1 * (k - t);
        *im = s2 * t;
    } else {
        *re = s1 * k;
        *im = 0;
    }
}
static int in_tr(char uplo, char diag, int m, int n, int i, int j)
{
    if (uplo == 'G') return 1;
    int unit = diag == 'U';
    if (uplo == 'U') {
        int k = j + (m > n ? m - n : 0);
        return unit ? i < k : i <= k;
    }
    int k = j - (n > m ? n - m : 0);
    return unit ? i > k : i >= k;
}

/* ---- guarded matrices ------------------------------------------------- */
typedef struct {
    char t;
    int m, n, lda;
    size_t total;
    unsigned char *mem;
    void *a;
} gmat;
static void gm_alloc(gmat *g, char t, int m, int n, int lda)
{
    g->t = t; g->m = m; g->n = n; g->lda = lda;
    size_t inner = (size_t)lda * (size_t)(n > 0 ? n : 0);
    g->total = inner + 2 * GUARD;
    g->mem = malloc(g->total * (size_t)esz(t));
    for (size_t k = 0; k < g->total; k++) el_set(t, g->mem, k, SENT(k), cplx(t) ? SENT(k + 1) : 0);
    g->a = g->mem + (size_t)GUARD * (size_t)esz(t);
}
static void gm_free(gmat *g) { free(g->mem); g->mem = NULL; }

/* ---- the run ------------------------------------------------------------ */
static int me = -1, nfail, nchecks;
static char where[512]; /* what this process is doing, for the watchdog */
static char sigdir[256];  /* the signals' directory, the same on every process */

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A send or a broadcast source returns once A may be reused, whatever its
 * receivers do: one that takes longer than STALL_S seconds (far more than
 * any transfer here, less than the long sleeps of the processes it could
 * be waiting for) waited for a receiver */
#define STALL_S 0.3

static const prog_t *RP;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    nfail++;
    if (nfail > 12) return;
    char b[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    fprintf(stderr, "randprog: rank %d: WRONG %s [in %s]\n", me, b, where);
}

static void on_alarm(int sig)
{
    (void)sig;
    char b[700];
    int n = snprintf(b, sizeof b, "randprog: rank %d: HANG: waits in %s\n", me, where);
    if (n > 0) { ssize_t r = write(2, b, (size_t)(n < (int)sizeof b ? n : (int)sizeof b - 1)); (void)r; }
    _exit(3);
}

/* expected value of element (i,j) of a check: kind 0 source values, and
 * compare each element of the allocation: inside(i,j) -> expected, else guard */
typedef int (*expect_fn)(const op_t *o, int i, int j, double *re, double *im, void *arg);
static void gm_check(const gmat *g, const op_t *o, expect_fn ex, void *arg, const char *what)
{
    int bad = 0;
    size_t esz_ = (size_t)esz(g->t);
    for (size_t k = 0; k < g->total; k++) {
        double re, im, er, ei;
        el_get(g->t, g->mem, k, &re, &im);
        long off = (long)k - GUARD;
        int i = -1, j = -1, inside = 0, known = 1;
        if (off >= 0 && (size_t)off < (size_t)g->lda * (size_t)(g->n > 0 ? g->n : 0)) {
            i = (int)(off % g->lda); j = (int)(off / g->lda);
            if (i < g->m) {
                int r = ex(o, i, j, &er, &ei, arg);
                if (r == 2) known = 0;  /* anything may be here */
                else inside = r;
            }
        }
        if (!known) continue;
        if (!inside) { er = SENT(k); ei = cplx(g->t) ? SENT(k + 1) : 0; }
        nchecks++;
        if (re != er || im != ei) {
            if (bad++ < 3)
                fail("%s: element %s(%d,%d) is %g%+gi, expected %g%+gi%s", what,
                     inside ? "" : "guard ", i, j, re, im, er, ei, inside ? "" : " (overwritten)");
        }
    }
    (void)esz_;
}

static int ex_source(const op_t *o, int i, int j, double *re, double *im, void *arg)
{
    int who = *(int *)arg;
    if (j >= o->n) return 0;
    val_gen(o, who, i, j, re, im);
    return 1;
}
static int ex_recv(const op_t *o, int i, int j, double *re, double *im, void *arg)
{
    int who = *(int *)arg;
    if (!in_tr(o->uplo, o->diag, o->m, o->n, i, j)) return 0;
    val_gen(o, who, i, j, re, im);
    return 1;
}
static void fill_source(gmat *g, const op_t *o, int who)
{
    for (int j = 0; j < g->n; j++)
        for (int i = 0; i < g->m; i++) {
            double re, im;
            val_gen(o, who, i, j, &re, &im);
            el_set(g->t, g->a, (size_t)j * g->lda + i, re, im);
        }
}

static const char *scname(char s) { return s == 'R' ? "Row" : s == 'C' ? "Column" : "All"; }
static char lc(char t) { return (char)(t - 'A' + 'a'); }

/* the call as C text (messages, reproducers) */
static void describe(const prog_t *P, const op_t *o, int w, char *b, size_t n)
{
    const grid_t *G = o->g >= 0 ? &P->gr[o->g] : NULL;
    int v = G ? vpid_of(G, w) : -1;
    char top[2] = {o->top == '_' ? ' ' : o->top, 0};
    int lda = lda_of(o, v < 0 ? 0 : v, o->m);
    switch (o->kind) {
    case 'p':
        if (v == o->a && !(o->a == o->b && op_pass > 0)) {
            if (o->uplo == 'G') snprintf(b, n, "op %d: C%cgesd2d(ctxt%d, %d, %d, A, %d, %d, %d)", o->id, lc(o->type), o->g, o->m, o->n, lda, vrow(G, o->b), vcol(G, o->b));
            else snprintf(b, n, "op %d: C%ctrsd2d(ctxt%d, \"%c\", \"%c\", %d, %d, A, %d, %d, %d)", o->id, lc(o->type), o->g, o->uplo, o->diag, o->m, o->n, lda, vrow(G, o->b), vcol(G, o->b));
        } else {
            int rs_ = o->wild & 1 ? -1 : vrow(G, o->a), cs_ = o->wild & 2 ? -1 : vcol(G, o->a);
            if (o->uplo == 'G') snprintf(b, n, "op %d: C%cgerv2d(ctxt%d, %d, %d, A, %d, %d, %d)", o->id, lc(o->type), o->g, o->m, o->n, lda, rs_, cs_);
            else snprintf(b, n, "op %d: C%ctrrv2d(ctxt%d, \"%c\", \"%c\", %d, %d, A, %d, %d, %d)", o->id, lc(o->type), o->g, o->uplo, o->diag, o->m, o->n, lda, rs_, cs_);
        }
        if (o->rep > 1) { size_t l = strlen(b); snprintf(b + l, n > l ? n - l : 0, ", %d times in a row", o->rep); }
        break;
    case 'b':
        if (v == o->a) {
            if (o->uplo == 'G') snprintf(b, n, "op %d: C%cgebs2d(ctxt%d, \"%s\", \"%s\", %d, %d, A, %d)", o->id, lc(o->type), o->g, scname(o->scope), top, o->m, o->n, lda);
            else snprintf(b, n, "op %d: C%ctrbs2d(ctxt%d, \"%s\", \"%s\", \"%c\", \"%c\", %d, %d, A, %d)", o->id, lc(o->type), o->g, scname(o->scope), top, o->uplo, o->diag, o->m, o->n, lda);
        } else {
            if (o->uplo == 'G') snprintf(b, n, "op %d: C%cgebr2d(ctxt%d, \"%s\", \"%s\", %d, %d, A, %d, %d, %d)", o->id, lc(o->type), o->g, scname(o->scope), top, o->m, o->n, lda, vrow(G, o->a), vcol(G, o->a));
            else snprintf(b, n, "op %d: C%ctrbr2d(ctxt%d, \"%s\", \"%s\", \"%c\", \"%c\", %d, %d, A, %d, %d, %d)", o->id, lc(o->type), o->g, scname(o->scope), top, o->uplo, o->diag, o->m, o->n, lda, vrow(G, o->a), vcol(G, o->a));
        }
        break;
    case 'c': {
        int rdest = o->rd < 0 ? (o->rdq ? 0 : -1) : vrow(G, o->rd), cdest = o->rd < 0 ? (o->rdq ? -1 : 0) : vcol(G, o->rd);
        if (o->opk == 'S') snprintf(b, n, "op %d: C%cgsum2d(ctxt%d, \"%s\", \"%s\", %d, %d, A, %d, %d, %d)", o->id, lc(o->type), o->g, scname(o->scope), top, o->m, o->n, lda, rdest, cdest);
        else if (o->opk == 'U') snprintf(b, n, "op %d: C%ctuop2d(ctxt%d, \"%s\", \"%s\", \"%c\", \"%c\", %d, %d, A, %d, %d, %d, init, max, post)", o->id, lc(o->type), o->g, scname(o->scope), top, o->uplo, o->diag, o->m, o->n, lda, rdest, cdest);
        else snprintf(b, n, "op %d: C%cgam%c2d(ctxt%d, \"%s\", \"%s\", %d, %d, A, %d, RA, CA, %d, %d, %d)", o->id, lc(o->type), o->opk == 'X' ? 'x' : 'n', o->g, scname(o->scope), top, o->m, o->n, lda, o->rcf, rdest, cdest);
        break;
    }
    case 's': {
        if (o->ring) {
            int at = 0;
            while (at < o->ring && ring_at(o, at) != v) at++;
            int nx = ring_at(o, at + 1), pv = ring_at(o, at + o->ring - 1), m1 = ring_m(o, at), m2 = ring_m(o, at + o->ring - 1);
            snprintf(b, n, "op %d: Cdsendrecv(ctxt%d, %d, %d, A, %d, %d, %d, %d, %d, B, %d, %d, %d) (a ring of %d)", o->id, o->g,
                     m1, o->n, m1 > 1 ? m1 : 1, vrow(G, nx), vcol(G, nx), m2, o->n, m2 > 1 ? m2 : 1, vrow(G, pv), vcol(G, pv), o->ring);
            break;
        }
        int q = v == o->a ? o->b : o->a;
        int m2 = v == o->a ? o->m2 : o->m, n2 = v == o->a ? o->n2 : o->n;
        int m1 = v == o->a ? o->m : o->m2, n1 = v == o->a ? o->n : o->n2;
        snprintf(b, n, "op %d: Cdsendrecv(ctxt%d, %d, %d, A, %d, %d, %d, %d, %d, B, %d, %d, %d)", o->id, o->g, m1, n1,
                 m1 > 1 ? m1 : 1, vrow(G, q), vcol(G, q), m2, n2, m2 > 1 ? m2 : 1, vrow(G, q), vcol(G, q));
        break;
    }
    case 'r': snprintf(b, n, "op %d: Cblacs_barrier(ctxt%d, \"%s\")", o->id, o->g, scname(o->scope)); break;
    case 'G':
        if (G->kind == 'U')
            snprintf(b, n, "op %d: MPI_Comm_split(MPI_COMM_WORLD, ...)%s", o->id,
                     v >= 0 ? "; ctxt = Csys2blacs_handle(comm); Cblacs_gridinit(&ctxt, order, ...): grid made" : "");
        else snprintf(b, n, "op %d: Cblacs_get(-1, 0, &ctxt); Cblacs_grid%s(&ctxt%d, ...): grid made", o->id, G->kind == 'M' ? "map" : "init", o->g);
        break;
    case 'X': snprintf(b, n, "op %d: Cblacs_gridexit(ctxt%d)", o->id, o->g); break;
    case 'i': snprintf(b, n, "op %d: Cblacs_set(-1, 1, {%d, %d}) (for grid %d)", o->id, o->a, o->b, o->rd); break;
    case 'k': snprintf(b, n, "op %d: Cksendid(ctxt%d, %d, %d), Ckrecvid(ctxt%d, %d, %d)", o->id, o->g, vrow(G, o->b), vcol(G, o->b), o->g, vrow(G, o->b), vcol(G, o->b)); break;
    case 'E': snprintf(b, n, "op %d: Cblacs_exit(1) (every grid gone), then Cblacs_pinfo, Cblacs_get(-1, 0)", o->id); break;
    case 'f': snprintf(b, n, "op %d: Cblacs_freebuff(ctxt%d, %d)", o->id, o->g, o->rd); break;
    case 'g':
        if (w == o->a) snprintf(b, n, "op %d: signal rank %d outside MPI (create a file)", o->id, o->b);
        else snprintf(b, n, "op %d: wait outside MPI for the signal of rank %d (a file)", o->id, o->a);
        break;
    default:
        if (w == o->a) snprintf(b, n, "op %d: MPI_Send(buf, %d, MPI_INT, %d, tag, %s)", o->id, o->m, o->b, o->uc ? "grid comm" : "MPI_COMM_WORLD");
        else snprintf(b, n, "op %d: MPI_Recv(buf, %d, MPI_INT, %d, tag, %s)", o->id, o->m, o->a, o->uc ? "grid comm" : "MPI_COMM_WORLD");
    }
    if (o->ft) { size_t l = strlen(b); snprintf(b + l, n > l ? n - l : 0, " [the Fortran entry point]"); }
}

/* ---- typed calls ------------------------------------------------------- */
/* the call through the Fortran entry point (f) or the C one (c) */
#ifndef RP_REFERENCE
#define FCALL(f, c) do { if (ft) { f; } else { c; } } while (0)
#else
#define FCALL(f, c) do { c; } while (0)
#endif
#define TSWITCH(t, CALL)                                                                        \
    switch (t) {                                                                                \
    case 'I': CALL(i); break;                                                                   \
    case 'S': CALL(s); break;                                                                   \
    case 'D': CALL(d); break;                                                                   \
    case 'C': CALL(c); break;                                                                   \
    default: CALL(z); break;                                                                    \
    }

#ifndef RP_REFERENCE
/* vTUOP2D: init x = x + 1, op componentwise max, post x = 2x */
#define TUOP_FNS(v, T, NC)                                                                      \
    static void init_##v(blacs_int *n, T *x) { for (blacs_int k = 0; k < NC * *n; k++) x[k] = (T)(x[k] + 1); } \
    static void max_##v(blacs_int *n, T *in, T *io) { for (blacs_int k = 0; k < NC * *n; k++) if (in[k] > io[k]) io[k] = in[k]; } \
    static void post_##v(blacs_int *n, T *x) { for (blacs_int k = 0; k < NC * *n; k++) x[k] = (T)(2 * x[k]); }
TUOP_FNS(i, blacs_int, 1)
TUOP_FNS(s, float, 1)
TUOP_FNS(d, double, 1)
TUOP_FNS(c, float, 2)
TUOP_FNS(z, double, 2)
#endif

typedef struct { blacs_int ctxt; MPI_Comm ucomm; blacs_int uh; int v, alive; blacs_int lo, hi; } gstate;
static gstate gs_[MAXG];
#ifndef RP_REFERENCE
static blacs_int exited[MAXG];    /* contexts this process exited, and how many */
static int nexited, nreused;      /* grids made on one of those handles */
static int fresh_seen;            /* WHAT 11..16 of this process's first grid, before any BLACS_SET */
static blacs_int fresh_val[7];
#endif

/* for the ok line: grids made on the handle of one exited before */
static const char *reuse_note(void)
{
    static char b[64];
    b[0] = 0;
#ifndef RP_REFERENCE
    if (nreused) snprintf(b, sizeof b, ", %d grid%s on a reused handle", nreused, nreused > 1 ? "s" : "");
#endif
    return b;
}

/* grids this process is in now; BLACS_GET 22 must say as many */
static void check_live(const prog_t *P, const char *when)
{
#ifndef RP_REFERENCE
    int n = 0;
    for (int g = 0; g < P->ngrid; g++) n += gs_[g].alive && gs_[g].v >= 0;
    blacs_int got = -1;
    Cblacs_get(-1, 22, &got);
    nchecks++;
    if (got != n) fail("BLACS_GET 22 (grids alive) is %ld %s, expected %d", (long)got, when, n);
#else
    (void)P; (void)when;
#endif
}

/* BLACS_GRIDINIT/GRIDMAP of grid g, by every process of its system
 * context (for a user communicator MPI_Comm_split by the whole world
 * first); ft: through the Fortran entry points */
static void make_grid(const prog_t *P, int g, int ft)
{
    const grid_t *G = &P->gr[g];
    gstate *S = &gs_[g];
    S->ctxt = -1;
    S->ucomm = MPI_COMM_NULL;
    S->v = vpid_of(G, me);
#ifdef RP_REFERENCE
    ft = 0;
#endif
    blacs_int rng[2] = {-1, -1};
    Cblacs_get(-1, 1, rng);
    S->lo = rng[0]; S->hi = rng[1];
    blacs_int nr = G->nprow, nc = G->npcol, m1 = -1, zero = 0;
    char ord[2] = {G->order, 0};
    (void)m1; (void)zero; (void)nr; (void)nc;
    if (G->kind == 'I') {
        blacs_int sys;
        if (ft) {
#ifndef RP_REFERENCE
            blacs_get_(&m1, &zero, &sys);
            S->ctxt = sys;
            blacs_gridinit_(&S->ctxt, ord, &nr, &nc, 1);
#endif
        } else {
            Cblacs_get(-1, 0, &sys);
            S->ctxt = sys;
            Cblacs_gridinit(&S->ctxt, ord, G->nprow, G->npcol);
        }
    } else if (G->kind == 'M') {
        blacs_int sys, ldu = G->nprow + (int)(P->seed % 2);
        blacs_int *map = calloc((size_t)(ldu * G->npcol), sizeof(blacs_int));
        for (int i = 0; i < G->nprow; i++)
            for (int j = 0; j < G->npcol; j++) map[j * ldu + i] = G->mem[i * G->npcol + j];
        if (ft) {
#ifndef RP_REFERENCE
            blacs_get_(&m1, &zero, &sys);
            S->ctxt = sys;
            blacs_gridmap_(&S->ctxt, map, &ldu, &nr, &nc);
#endif
        } else {
            Cblacs_get(-1, 0, &sys);
            S->ctxt = sys;
            Cblacs_gridmap(&S->ctxt, map, ldu, G->nprow, G->npcol);
        }
        free(map);
    } else {
        /* the user's communicator, ranked so that GRIDINIT in the grid's
         * order puts each process at its place: 'C' fills columns first */
        MPI_Comm uc;
        int key = S->v < 0 ? 0 : comm_rank(G, S->v);
        MPI_Comm_split(MPI_COMM_WORLD, S->v >= 0 ? 0 : MPI_UNDEFINED, key, &uc);
        if (S->v >= 0) {
            if (ft) {
#ifndef RP_REFERENCE
                blacs_int fc = (blacs_int)MPI_Comm_c2f(uc);
                S->ctxt = sys2blacs_handle_(&fc);
                blacs_gridinit_(&S->ctxt, ord, &nr, &nc, 1);
#endif
            } else {
                S->ctxt = Csys2blacs_handle(uc);
                Cblacs_gridinit(&S->ctxt, ord, G->nprow, G->npcol);
            }
            S->uh = -1;
            S->ucomm = uc; /* the user's: freed when the grid is exited */
        }
    }
    if (S->v < 0) return;
    S->alive = 1;
#ifndef RP_REFERENCE
    for (int k = 0; k < nexited; k++) if (exited[k] == S->ctxt) { nreused++; break; }
#endif
    blacs_int gnr, gnc, mr, mc;
    if (ft) {
#ifndef RP_REFERENCE
        blacs_gridinfo_(&S->ctxt, &gnr, &gnc, &mr, &mc);
#endif
    } else Cblacs_gridinfo(S->ctxt, &gnr, &gnc, &mr, &mc);
    nchecks++;
    if (gnr != G->nprow || gnc != G->npcol || mr != vrow(G, S->v) || mc != vcol(G, S->v))
        fail("grid %d (context %ld): gridinfo %ldx%ld at {%ld,%ld}, expected %dx%d at {%d,%d}", g, (long)S->ctxt, (long)gnr,
             (long)gnc, (long)mr, (long)mc, G->nprow, G->npcol, vrow(G, S->v), vcol(G, S->v));
#ifndef RP_REFERENCE
    /* a new grid has the values every new grid has: nothing set on a grid
     * exited before (whose handle it may reuse) leaks into it */
    blacs_int fv[7] = {0};
    for (int w = 11; w <= 16; w++) Cblacs_get(S->ctxt, w, &fv[w - 10]);
    if (!fresh_seen) { memcpy(fresh_val, fv, sizeof fv); fresh_seen = 1; }
    for (int w = 11; w <= 16; w++) {
        nchecks++;
        if (fv[w - 10] != fresh_val[w - 10])
            fail("grid %d (context %ld): BLACS_GET %d of the new grid is %ld, a new grid's is %ld", g, (long)S->ctxt, w,
                 (long)fv[w - 10], (long)fresh_val[w - 10]);
    }
#endif
    for (int w = 11; w <= 16; w++)
        if (G->set[w - 10]) { blacs_int val = G->set[w - 10]; Cblacs_set(S->ctxt, w, &val); }
    if (G->kind != 'U') { /* the grid's own communicator, for user traffic */
        blacs_int h;
        Cblacs_get(S->ctxt, 10, &h);
        S->uh = h;
        S->ucomm = Cblacs2sys_handle(h);
    }
    check_live(P, "after a grid was made");
}

/* BLACS_GRIDEXIT of grid g by its members */
static void exit_grid(const prog_t *P, int g, int ft)
{
    gstate *S = &gs_[g];
    if (S->v < 0 || !S->alive) return;
    S->alive = 0;
#ifdef RP_REFERENCE
    ft = 0;
#endif
    if (P->gr[g].kind == 'U') {
        if (ft) {
#ifndef RP_REFERENCE
            blacs_gridexit_(&S->ctxt);
#endif
        } else Cblacs_gridexit(S->ctxt);
        MPI_Comm_free(&S->ucomm);
    } else {
        if ((P->seed >> 3) % 2) Cfree_blacs_system_handle(S->uh);
        if (ft) {
#ifndef RP_REFERENCE
            blacs_gridexit_(&S->ctxt);
#endif
        } else Cblacs_gridexit(S->ctxt);
    }
#ifndef RP_REFERENCE
    if (nexited < MAXG) exited[nexited++] = S->ctxt;
    blacs_int a = 0, b = 0, c = 0, d = 0;
    Cblacs_gridinfo(S->ctxt, &a, &b, &c, &d);
    nchecks++;
    if (a != -1 || b != -1 || c != -1 || d != -1)
        fail("grid %d: gridinfo of its exited context %ld is %ldx%ld at {%ld,%ld}, expected -1s", g, (long)S->ctxt, (long)a,
             (long)b, (long)c, (long)d);
#endif
    check_live(P, "after a grid was exited");
}

typedef struct { const op_t *o; const grid_t *G; int me_v; int nv; int vs[MAXW]; int dest_all; int dest_v; } comb_arg;
static int ex_comb(const op_t *o, int i, int j, double *re, double *im, void *arg)
{
    comb_arg *c = arg;
    if (!c->dest_all && c->me_v != c->dest_v) return j < o->n && in_tr(o->uplo, o->diag, o->m, o->n, i, j) ? 2 : 0;
    if (!in_tr(o->uplo, o->diag, o->m, o->n, i, j)) return 0; /* outside the trapezoid: untouched */
    if (o->opk == 'S') {
        double sr = 0, si = 0;
        for (int k = 0; k < c->nv; k++) { double a, b; val_gen(o, c->vs[k], i, j, &a, &b); sr += a; si += b; }
        *re = sr; *im = si;
    } else if (o->opk == 'U') {
        double mr = -1e30, mi = -1e30;
        for (int k = 0; k < c->nv; k++) { double a, b; val_gen(o, c->vs[k], i, j, &a, &b); if (a + 1 > mr) mr = a + 1; if (b + 1 > mi) mi = b + 1; }
        *re = 2 * mr; *im = cplx(o->type) ? 2 * mi : 0;
    } else {
        double best = o->opk == 'X' ? -1 : 1e30;
        for (int k = 0; k < c->nv; k++) {
            double a, b, key;
            val_key(o, k, i, j, &a, &b, &key);
            if (o->opk == 'X' ? key > best : key < best) { best = key; *re = a; *im = b; }
        }
    }
    return 1;
}

static void run_op(const prog_t *P, const op_t *o)
{
    const grid_t *G = o->g >= 0 ? &P->gr[o->g] : NULL;
    gstate *S = o->g >= 0 ? &gs_[o->g] : NULL;
    int v = G ? vpid_of(G, me) : -1;
    describe(P, o, me, where, sizeof where);
    char top[2] = {o->top == '_' ? ' ' : o->top, 0};
    char uplo[2] = {o->uplo, 0}, diag[2] = {o->diag, 0};
    char sc[8];
    snprintf(sc, sizeof sc, "%s", o->scope == '-' ? "All" : scname(o->scope));
    int lda = lda_of(o, v < 0 ? 0 : v, o->m);
    blacs_int ctxt = S ? S->ctxt : -1;
    gmat A;
    char what[64];
#ifndef RP_REFERENCE
    int ft = o->ft;
    fI fctxt = ctxt, fm = o->m, fn = o->n, flda = lda;
    (void)ft, (void)fctxt, (void)fm, (void)fn, (void)flda;
#endif
    switch (o->kind) {
    case 'p':
    case 'b': {
        int src = o->a;
        gm_alloc(&A, o->type, o->m, o->n, lda);
        if (v == src && !(o->kind == 'p' && o->a == o->b && op_pass > 0)) {
            fill_source(&A, o, src);
            int rd = o->kind == 'p' ? vrow(G, o->b) : 0, cd = o->kind == 'p' ? vcol(G, o->b) : 0;
            (void)rd, (void)cd;
            fI frd = rd, fcd = cd;
            (void)frd, (void)fcd;
#define SEND_GE(x) FCALL(x##gesd2d_(&fctxt, &fm, &fn, A.a, &flda, &frd, &fcd), C##x##gesd2d(ctxt, o->m, o->n, A.a, lda, rd, cd))
#define SEND_TR(x) FCALL(x##trsd2d_(&fctxt, uplo, diag, &fm, &fn, A.a, &flda, &frd, &fcd, 1, 1), C##x##trsd2d(ctxt, uplo, diag, o->m, o->n, A.a, lda, rd, cd))
#define BS_GE(x) FCALL(x##gebs2d_(&fctxt, sc, top, &fm, &fn, A.a, &flda, strlen(sc), 1), C##x##gebs2d(ctxt, sc, top, o->m, o->n, A.a, lda))
#define BS_TR(x) FCALL(x##trbs2d_(&fctxt, sc, top, uplo, diag, &fm, &fn, A.a, &flda, strlen(sc), 1, 1, 1), C##x##trbs2d(ctxt, sc, top, uplo, diag, o->m, o->n, A.a, lda))
            double t0 = mono(), q0 = runq_wait();
            for (int r = 0; r < (o->kind == 'p' ? o->rep : 1); r++) {
                if (o->kind == 'p') { if (o->uplo == 'G') { TSWITCH(o->type, SEND_GE) } else { TSWITCH(o->type, SEND_TR) } }
                else { if (o->uplo == 'G') { TSWITCH(o->type, BS_GE) } else { TSWITCH(o->type, BS_TR) } }
            }
            double took = mono() - t0, queued = runq_wait() - q0;
            nchecks++;
            /* a tiny BLACS_PIPE_SEGMENT (24 bytes) makes a ring's source post
             * thousands of sends: its own work, 50 us each at most here */
            const char *seg = getenv("BLACS_PIPE_SEGMENT");
            double stall = STALL_S + (seg && atof(seg) > 0 && o->kind == 'b'
                                          ? 50e-6 * (double)o->m * o->n * esz(o->type) / atof(seg) : 0);
            if (took - queued > stall && !getenv("RANDPROG_NO_STALL"))
                fail("op %d: the %s took %.3f s (%.3f s of it the machine's: queued for a CPU, stolen, disk): it waited for a receiver "
                     "(locally blocking: it may not)", o->id, o->kind == 'p' ? "send" : "broadcast source", took,
                     queued);
            snprintf(what, sizeof what, "the source's A after op %d", o->id);
            gm_check(&A, o, ex_source, &src, what);
        } else {
            int rs_ = o->kind == 'p' && (o->wild & 1) ? -1 : vrow(G, src),
                cs_ = o->kind == 'p' && (o->wild & 2) ? -1 : vcol(G, src);
            fI frs = rs_, fcs = cs_;
            (void)frs, (void)fcs;
#define RV_GE(x) FCALL(x##gerv2d_(&fctxt, &fm, &fn, A.a, &flda, &frs, &fcs), C##x##gerv2d(ctxt, o->m, o->n, A.a, lda, rs_, cs_))
#define RV_TR(x) FCALL(x##trrv2d_(&fctxt, uplo, diag, &fm, &fn, A.a, &flda, &frs, &fcs, 1, 1), C##x##trrv2d(ctxt, uplo, diag, o->m, o->n, A.a, lda, rs_, cs_))
#define BR_GE(x) FCALL(x##gebr2d_(&fctxt, sc, top, &fm, &fn, A.a, &flda, &frs, &fcs, strlen(sc), 1), C##x##gebr2d(ctxt, sc, top, o->m, o->n, A.a, lda, rs_, cs_))
#define BR_TR(x) FCALL(x##trbr2d_(&fctxt, sc, top, uplo, diag, &fm, &fn, A.a, &flda, &frs, &fcs, strlen(sc), 1, 1, 1), C##x##trbr2d(ctxt, sc, top, uplo, diag, o->m, o->n, A.a, lda, rs_, cs_))
            for (int r = 0; r < (o->kind == 'p' ? o->rep : 1); r++) {
                if (r) { gm_free(&A); gm_alloc(&A, o->type, o->m, o->n, lda); }
                if (o->kind == 'p') { if (o->uplo == 'G') { TSWITCH(o->type, RV_GE) } else { TSWITCH(o->type, RV_TR) } }
                else { if (o->uplo == 'G') { TSWITCH(o->type, BR_GE) } else { TSWITCH(o->type, BR_TR) } }
                snprintf(what, sizeof what, "the received A of op %d (message %d)", o->id, r + 1);
                gm_check(&A, o, ex_recv, &src, what);
#ifndef RP_REFERENCE
                if (o->kind == 'p' && o->wild) { /* who sent, says the library */
                    blacs_int lr = -9, lc = -9;
                    Cblacs_lastsrc(ctxt, &lr, &lc);
                    nchecks++;
                    if (lr != vrow(G, src) || lc != vcol(G, src))
                        fail("op %d: Cblacs_lastsrc says {%ld,%ld} after a wildcard receive from {%d,%d}", o->id,
                             (long)lr, (long)lc, vrow(G, src), vcol(G, src));
                }
#endif
            }
        }
        gm_free(&A);
        break;
    }
    case 'c': {
        comb_arg ca = {.o = o, .G = G, .me_v = v};
        ca.nv = scope_members(G, o->scope, o->a, ca.vs);
        ca.dest_all = o->rd < 0;
        ca.dest_v = o->rd;
        int srank = scope_rank(G, o->scope, v);
        gm_alloc(&A, o->type, o->m, o->n, lda);
        for (int j = 0; j < o->n; j++)
            for (int i = 0; i < o->m; i++) {
                double re, im, key;
                if (o->opk == 'X' || o->opk == 'N') val_key(o, srank, i, j, &re, &im, &key);
                else val_gen(o, v, i, j, &re, &im);
                if (o->opk == 'U' && !in_tr(o->uplo, o->diag, o->m, o->n, i, j)) continue; /* left as guard */
                el_set(o->type, A.a, (size_t)j * lda + i, re, im);
            }
        /* the contributions of AMX/AMN are by scope rank: the expected value
         * reads them back by scope rank (vs[k] for val_gen, k for val_key) */
        int rdest = o->rd < 0 ? (o->rdq ? 0 : -1) : vrow(G, o->rd), cdest = o->rd < 0 ? (o->rdq ? -1 : 0) : vcol(G, o->rd);
        int ldia = o->rcf < 0 ? 1 : (o->rcf > o->m ? o->rcf : (o->m > 0 ? o->m : 1));
        fI frd = rdest, fcd = cdest, frcf = o->rcf;
        (void)frd, (void)fcd, (void)frcf;
        size_t nra = (size_t)ldia * (size_t)(o->n > 0 ? o->n : 0) + 2 * GUARD;
        blacs_int *ra = malloc(nra * sizeof(blacs_int)), *ca_ = malloc(nra * sizeof(blacs_int));
        for (size_t k = 0; k < nra; k++) ra[k] = ca_[k] = -77;
        if (o->opk == 'S') {
#define SUM(x) FCALL(x##gsum2d_(&fctxt, sc, top, &fm, &fn, A.a, &flda, &frd, &fcd, strlen(sc), 1), C##x##gsum2d(ctxt, sc, top, o->m, o->n, A.a, lda, rdest, cdest))
            TSWITCH(o->type, SUM)
        } else if (o->opk == 'X') {
#define AMX(x) FCALL(x##gamx2d_(&fctxt, sc, top, &fm, &fn, A.a, &flda, ra + GUARD, ca_ + GUARD, &frcf, &frd, &fcd, strlen(sc), 1), C##x##gamx2d(ctxt, sc, top, o->m, o->n, A.a, lda, ra + GUARD, ca_ + GUARD, o->rcf, rdest, cdest))
            TSWITCH(o->type, AMX)
        } else if (o->opk == 'N') {
#define AMN(x) FCALL(x##gamn2d_(&fctxt, sc, top, &fm, &fn, A.a, &flda, ra + GUARD, ca_ + GUARD, &frcf, &frd, &fcd, strlen(sc), 1), C##x##gamn2d(ctxt, sc, top, o->m, o->n, A.a, lda, ra + GUARD, ca_ + GUARD, o->rcf, rdest, cdest))
            TSWITCH(o->type, AMN)
        } else {
#ifndef RP_REFERENCE
#define TUOP(x) C##x##tuop2d(ctxt, sc, top, uplo, diag, o->m, o->n, A.a, lda, rdest, cdest, init_##x, max_##x, post_##x)
            TSWITCH(o->type, TUOP)
#endif
        }
        snprintf(what, sizeof what, "the combined A of op %d", o->id);
        gm_check(&A, o, ex_comb, &ca, what);
        int here = ca.dest_all || v == o->rd;
        for (size_t k = 0; k < nra; k++) {
            long off = (long)k - GUARD;
            int exr = -77, exc = -77;
            if (here && o->rcf >= 0 && off >= 0 && off < (long)ldia * o->n && off % ldia < o->m) {
                int i = (int)(off % ldia), j = (int)(off / ldia);
                double best = o->opk == 'X' ? -1 : 1e30; int bk = 0;
                for (int q = 0; q < ca.nv; q++) {
                    double a, b, key;
                    val_key(o, q, i, j, &a, &b, &key);
                    if (o->opk == 'X' ? key > best : key < best) best = key, bk = q;
                }
                int ov = ca.vs[bk];
                exr = vrow(G, ov); exc = vcol(G, ov);
            }
            nchecks++;
            if (ra[k] != exr || ca_[k] != exc)
                fail("RA/CA of op %d at offset %ld: (%ld,%ld), expected (%d,%d)", o->id, off, (long)ra[k], (long)ca_[k], exr, exc);
        }
        free(ra); free(ca_);
        gm_free(&A);
        break;
    }
    case 's': {
#ifndef RP_REFERENCE
        /* a pair: both send to and receive from each other; a ring: to the
         * next, from the previous */
        int q = v == o->a ? o->b : o->a, qs = q;
        int m1 = v == o->a ? o->m : o->m2, n1 = v == o->a ? o->n : o->n2;
        int m2 = v == o->a ? o->m2 : o->m, n2 = v == o->a ? o->n2 : o->n;
        if (o->ring) {
            int at = 0;
            while (at < o->ring && ring_at(o, at) != v) at++;
            q = ring_at(o, at + 1); qs = ring_at(o, at + o->ring - 1);
            m1 = ring_m(o, at); n1 = o->n; m2 = ring_m(o, at + o->ring - 1); n2 = o->n;
        }
        op_t o1 = *o, o2 = *o;
        o1.m = m1; o1.n = n1; o2.m = m2; o2.n = n2; o1.uplo = o2.uplo = 'G'; o1.type = o2.type = 'D';
        gmat B;
        gm_alloc(&A, 'D', m1, n1, m1 > 1 ? m1 : 1);
        gm_alloc(&B, 'D', m2, n2, m2 > 1 ? m2 : 1);
        fill_source(&A, &o1, v);
        fI a1 = m1, b1 = n1, l1 = m1 > 1 ? m1 : 1, rd = vrow(G, q), cd = vcol(G, q);
        fI a2 = m2, b2 = n2, l2 = m2 > 1 ? m2 : 1, rs_ = vrow(G, qs), cs_ = vcol(G, qs);
        FCALL(dsendrecv_(&fctxt, &a1, &b1, A.a, &l1, &rd, &cd, &a2, &b2, B.a, &l2, &rs_, &cs_),
              Cdsendrecv(ctxt, a1, b1, A.a, l1, rd, cd, a2, b2, B.a, l2, rs_, cs_));
        snprintf(what, sizeof what, "the sent A of op %d", o->id);
        gm_check(&A, &o1, ex_source, &v, what);
        snprintf(what, sizeof what, "the received B of op %d", o->id);
        gm_check(&B, &o2, ex_recv, &qs, what);
        gm_free(&A); gm_free(&B);
#endif
        break;
    }
    case 'G':
        make_grid(P, o->g, o->ft);
        break;
    case 'X':
        exit_grid(P, o->g, o->ft);
        break;
    case 'i': { /* the message-ID range of the grids made from now on */
        blacs_int r[2] = {o->a, o->b};
        Cblacs_set(-1, 1, r);
        break;
    }
    case 'k': {
        blacs_int r = vrow(G, o->b), c = vcol(G, o->b), s1, s2, r1, r2;
#ifndef RP_REFERENCE
        fI fr = r, fc = c;
        FCALL(s1 = ksendid_(&fctxt, &fr, &fc); s2 = ksendid_(&fctxt, &fr, &fc); r1 = krecvid_(&fctxt, &fr, &fc);
              r2 = krecvid_(&fctxt, &fr, &fc),
              s1 = Cksendid(ctxt, r, c); s2 = Cksendid(ctxt, r, c); r1 = Ckrecvid(ctxt, r, c); r2 = Ckrecvid(ctxt, r, c));
        /* this library: the ID the next message will use, within the grid's
         * range (as it was when the grid was made), not advanced by asking */
        nchecks += 2;
        if (s1 != s2 || r1 != r2 || s1 < S->lo || s1 > S->hi || r1 < S->lo || r1 > S->hi)
            fail("op %d: KSENDID %ld then %ld, KRECVID %ld then %ld; expected the same twice, within [%ld,%ld]", o->id,
                 (long)s1, (long)s2, (long)r1, (long)r2, (long)S->lo, (long)S->hi);
#else
        s1 = Cksendid(ctxt, r, c); s2 = Cksendid(ctxt, r, c); r1 = Ckrecvid(ctxt, r, c); r2 = Ckrecvid(ctxt, r, c);
        nchecks += 2; /* the reference: a constant */
        if (s1 != 9977 || s2 != 9977 || r1 != 9977 || r2 != 9977)
            fail("op %d: KSENDID %ld %ld, KRECVID %ld %ld, expected 9977", o->id, (long)s1, (long)s2, (long)r1, (long)r2);
#endif
        break;
    }
    case 'E': { /* BLACS_EXIT(1): every grid gone, then the BLACS again */
        Cblacs_exit(1);
        for (int g = 0; g < P->ngrid; g++)
            if (gs_[g].alive) {
                gs_[g].alive = 0;
#ifndef RP_REFERENCE
                if (nexited < MAXG) exited[nexited++] = gs_[g].ctxt;
#endif
                if (P->gr[g].kind == 'U') MPI_Comm_free(&gs_[g].ucomm); /* the user's own */
            }
        check_live(P, "after BLACS_EXIT(1)");
        blacs_int pm = -1, pn = -1, sys = -1;
        Cblacs_pinfo(&pm, &pn);
        nchecks++;
        if (pm != me || pn != P->W) fail("op %d: BLACS_PINFO after BLACS_EXIT(1) says %ld of %ld", o->id, (long)pm, (long)pn);
        Cblacs_get(-1, 0, &sys);
        break;
    }
    case 'r': {
        FCALL(blacs_barrier_(&fctxt, sc, strlen(sc)), Cblacs_barrier(ctxt, sc));
        break;
    }
    case 'f':
        Cblacs_freebuff(ctxt, o->rd);
        break;
    case 'g': { /* a signal outside MPI: a file; its wait never calls MPI */
        char f[300];
        snprintf(f, sizeof f, "%s/s%d", sigdir, o->id);
        if (me == o->a) {
            FILE *fp = fopen(f, "w");
            if (fp) fclose(fp);
            else fail("op %d: cannot create the signal file %s", o->id, f);
        } else {
            struct timespec nap = {0, 200000};
            while (access(f, F_OK) != 0) nanosleep(&nap, NULL); /* the watchdog ends a hang */
        }
        break;
    }
    default: {
        MPI_Comm comm = o->uc ? S->ucomm : MPI_COMM_WORLD;
        int *buf = malloc((size_t)(o->m + 1) * sizeof(int));
        int tag = 7000 + o->id % 1000;
        if (me == o->a) {
            for (int k = 0; k < o->m; k++) buf[k] = o->id * 31 + k;
            MPI_Send(buf, o->m, MPI_INT, o->uc ? comm_rank(G, vpid_of(G, o->b)) : o->b, tag, comm);
        } else {
            MPI_Recv(buf, o->m, MPI_INT, o->uc ? comm_rank(G, vpid_of(G, o->a)) : o->a, tag, comm, MPI_STATUS_IGNORE);
            for (int k = 0; k < o->m; k++) {
                nchecks++;
                if (buf[k] != o->id * 31 + k) { fail("user MPI message of op %d: element %d is %d", o->id, k, buf[k]); break; }
            }
        }
        free(buf);
    }
    }
}

/* The end of a program that ends in BLACS_ABORT: every process says how
 * its checks went, then rank abort_rank aborts while the others wait for
 * what never comes (a BLACS receive from it where they share a grid, an
 * MPI_Recv otherwise); the job must end at once, with a non-zero status
 * and the abort message (TESTING/randprog.sh checks) */
static void end_in_abort(const prog_t *P)
{
    int R = P->abort_rank;
    if (nfail) fprintf(stderr, "randprog: rank %d: %d WRONG of %d checks\n", me, nfail, nchecks);
    else printf("randprog: rank %d ok, %d checks%s\n", me, nchecks, reuse_note());
    fflush(stdout);
    fflush(stderr);
    alarm(30);
    /* nobody is still checking when the abort comes */
    snprintf(where, sizeof where, "MPI_Barrier before the abort");
    MPI_Barrier(MPI_COMM_WORLD);
    blacs_int ctxt = -1;
    int g = 0;
    for (; g < P->ngrid; g++)
        if (gs_[g].alive && gs_[g].v >= 0 && (me == R || vpid_of(&P->gr[g], R) >= 0)) { ctxt = gs_[g].ctxt; break; }
    if (me == R) {
        struct timespec nap = {0, 100000000}; /* the others wait meanwhile */
        nanosleep(&nap, NULL);
        snprintf(where, sizeof where, "Cblacs_abort(ctxt, %d)", P->abort_err);
        Cblacs_abort(ctxt, P->abort_err);
    } else if (ctxt >= 0) {
        int rv = vpid_of(&P->gr[g], R);
        double x;
        snprintf(where, sizeof where, "Cdgerv2d from {%d,%d} (never sent: waits for the abort of rank %d)", vrow(&P->gr[g], rv),
                 vcol(&P->gr[g], rv), R);
        Cdgerv2d(ctxt, 1, 1, &x, 1, vrow(&P->gr[g], rv), vcol(&P->gr[g], rv));
    } else {
        int x;
        snprintf(where, sizeof where, "MPI_Recv from rank %d (never sent: waits for its abort)", R);
        MPI_Recv(&x, 1, MPI_INT, R, 4242, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    fprintf(stderr, "randprog: rank %d: WRONG: still running after %s\n", me, where);
    _exit(4);
}

static int run_program(const prog_t *P)
{
    RP = P;
    int W;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &W);
    if (W != P->W) {
        if (me == 0) fprintf(stderr, "randprog: the program is for %d processes, this job has %d\n", P->W, W);
        return 2;
    }
    int has_sig = 0;
    for (int k = 0; k < P->nops; k++) has_sig |= P->ops[k].id == k && P->ops[k].kind == 'g';
    if (has_sig) { /* made by rank 0, named to all, removed at the end */
        if (me == 0) {
            const char *t = getenv("TMPDIR");
            snprintf(sigdir, sizeof sigdir, "%s/randprog_sig.XXXXXX", t && *t ? t : "/tmp");
            if (!mkdtemp(sigdir)) sigdir[0] = 0;
        }
        MPI_Bcast(sigdir, sizeof sigdir, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (!sigdir[0]) {
            if (me == 0) fprintf(stderr, "randprog: no directory for the signals\n");
            return 2;
        }
    }
    const char *wd = getenv("RANDPROG_WATCHDOG");
    signal(SIGALRM, on_alarm);
    alarm(wd && *wd ? (unsigned)atoi(wd) : 60);
    /* the environment, before the first BLACS call reads it */
    for (int k = 0; k < P->nenv; k++)
        if (P->env[k].rank < 0 || P->env[k].rank == me) setenv(P->env[k].var, P->env[k].val, 1);
    int uses = 0;
    for (int g = 0; g < P->ngrid; g++)
        if (P->gr[g].kind != 'U' || vpid_of(&P->gr[g], me) >= 0) uses = 1;
    snprintf(where, sizeof where, "making the grids");
    if (uses && P->idhi > P->idlo) {
        blacs_int r[2] = {P->idlo, P->idhi};
        Cblacs_set(-1, 1, r);
    }
    for (int g = 0; g < P->ngrid; g++) {
        gs_[g].v = vpid_of(&P->gr[g], me);
        if (P->gr[g].late) continue; /* made by its 'G' op */
        snprintf(where, sizeof where, "making grid %d (%c)", g, P->gr[g].kind);
        make_grid(P, g, 0);
    }
    for (int k = 0; k < P->nseq[me]; k++) {
        int t = P->seq[me][k];
        if (t < 0) { /* outside MPI */
            struct timespec ts = {-t / 1000000, 1000L * (-t % 1000000)};
            snprintf(where, sizeof where, "a sleep of %d us outside MPI", -t);
            nanosleep(&ts, NULL);
            continue;
        }
        if (t >= P->nops || P->ops[t].id != t) continue;
        op_pass = 0;
        for (int j = 0; j < k; j++) op_pass += P->seq[me][j] == t;
        run_op(P, &P->ops[t]);
    }
    if (P->abort_err > 0) end_in_abort(P);
    snprintf(where, sizeof where, "leaving the grids");
    for (int g = 0; g < P->ngrid; g++) exit_grid(P, g, 0);
    snprintf(where, sizeof where, "BLACS_EXIT");
    if (uses) Cblacs_exit(1);
    alarm(0);
    if (has_sig) {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; me == 0 && k < P->nops; k++)
            if (P->ops[k].id == k && P->ops[k].kind == 'g') {
                char f[300];
                snprintf(f, sizeof f, "%s/s%d", sigdir, k);
                unlink(f);
            }
        if (me == 0) rmdir(sigdir);
    }
    if (nfail) fprintf(stderr, "randprog: rank %d: %d WRONG of %d checks\n", me, nfail, nchecks);
    else printf("randprog: rank %d ok, %d checks%s\n", me, nchecks, reuse_note());
    fflush(stdout);
    fflush(stderr);
    return nfail ? 1 : 0;
}

/* ---- simplification: the K-th smaller program, or none ------------------- */
static void drop_op(prog_t *P, int id)
{
    if (P->ops[id].id < 0 || P->ops[id].kind == 'i') return; /* a range set: kept, the makers must agree */
    if (P->ops[id].kind == 'G') /* a grid never made: nothing on it either */
        for (int k = 0; k < P->nops; k++)
            if (k != id && P->ops[k].id == k && P->ops[k].g == P->ops[id].g) drop_op(P, k);
    P->ops[id].id = -1;
    for (int w = 0; w < P->W; w++) {
        int n = 0;
        for (int k = 0; k < P->nseq[w]; k++) if (P->seq[w][k] != id) P->seq[w][n++] = P->seq[w][k];
        P->nseq[w] = n;
    }
}

static int reduce(prog_t *P, int K)
{
    /* 0: all sleeps; then each op; then halve each op's sizes; then LDA pads;
     * then each environment line and BLACS_SET */
    int k = K;
    if (k-- == 0) {
        int any = 0;
        for (int w = 0; w < P->W; w++) {
            int n = 0;
            for (int i = 0; i < P->nseq[w]; i++) if (P->seq[w][i] >= 0) P->seq[w][n++] = P->seq[w][i]; else any = 1;
            P->nseq[w] = n;
        }
        return any ? 0 : 1; /* 1: nothing changed, try the next */
    }
    /* drop ops in chunks of halving size (delta debugging), later ones first */
    static int live[1 << 20];
    int nl = 0;
    for (int i = P->nops - 1; i >= 0; i--) if (P->ops[i].id >= 0 && P->ops[i].kind != 'i' && nl < (1 << 20)) live[nl++] = i;
    for (int sz = nl / 2 > 0 ? nl / 2 : 1;; sz /= 2) {
        int nch = (nl + sz - 1) / sz;
        if (k < nch) {
            for (int i = k * sz; i < (k + 1) * sz && i < nl; i++) drop_op(P, live[i]);
            return 0;
        }
        k -= nch;
        if (sz == 1) break;
    }
    if (k < nl) {
        op_t *o = &P->ops[live[k]];
        if (o->m <= 1 && o->n <= 1 && o->m2 <= 1 && o->n2 <= 1) return 1;
        o->m = o->m > 1 ? o->m / 2 : o->m; o->n = o->n > 1 ? o->n / 2 : o->n;
        o->m2 /= 2; o->n2 /= 2;
        if (o->rcf >= 0 && o->rcf < o->m) o->rcf = o->m;
        return 0;
    }
    k -= nl;
    if (k < nl) {
        op_t *o = &P->ops[live[k]];
        if (!o->ldp && o->top == '_' && o->uplo == 'G') return 1;
        if (o->ldp) o->ldp = 0;
        else if (o->kind != 'b' && o->kind != 'c') return 1;
        else if (o->uplo != 'G' && o->kind == 'b') o->uplo = 'G';
        else return 1;
        return 0;
    }
    k -= nl;
    if (k < P->nenv) {
        for (int i = k; i + 1 < P->nenv; i++) P->env[i] = P->env[i + 1];
        P->nenv--;
        return 0;
    }
    k -= P->nenv;
    for (int g = 0; g < P->ngrid; g++)
        for (int w = 1; w <= 6; w++)
            if (k-- == 0) { if (!P->gr[g].set[w]) return 1; P->gr[g].set[w] = 0; return 0; }
    if (k-- == 0) { if (!P->abort_err) return 1; P->abort_err = 0; return 0; }
    return -1;
}

/* ---- a standalone reproducer: the program embedded, its calls as comments */
static void emit(const prog_t *P, const char *path)
{
    printf("/*\n * Reproducer written by TESTING/t_randprog.c (seed %llu), %d processes.\n", (unsigned long long)P->seed, P->W);
    printf(" * Build and run (from the top of the tree, MPICH):\n");
    printf(" *   mpicc.mpich -std=c11 -D_POSIX_C_SOURCE=200809L -Ibuild/default -ISRC -ITESTING repro.c LIB/libblacs.a -lm -o repro\n");
    printf(" *   mpiexec.mpich -n %d ./repro\n *\n", P->W);
    for (int k = 0; k < P->nenv; k++) {
        if (P->env[k].rank < 0) printf(" * environment (every process): %s=%s\n", P->env[k].var, P->env[k].val);
        else printf(" * environment of rank %d: %s=%s\n", P->env[k].rank, P->env[k].var, P->env[k].val);
    }
    for (int g = 0; g < P->ngrid; g++) {
        const grid_t *G = &P->gr[g];
        printf(" * grid %d: %s %dx%d, world ranks by row-major grid position:", g,
               G->kind == 'I' ? (G->order == 'R' ? "BLACS_GRIDINIT 'R'" : "BLACS_GRIDINIT 'C'")
               : G->kind == 'M' ? "BLACS_GRIDMAP" : "BLACS_GRIDINIT on a user communicator (MPI_Comm_split)",
               G->nprow, G->npcol);
        for (int v = 0; v < G->np; v++) printf(" %d", G->mem[v]);
        for (int w = 11; w <= 16; w++) if (G->set[w - 10]) printf("; BLACS_SET %d = %d", w, G->set[w - 10]);
        printf("\n");
    }
    for (int w = 0; w < P->W; w++) {
        printf(" *\n * rank %d does, in this order:\n", w);
        for (int k = 0; k < P->nseq[w]; k++) {
            int t = P->seq[w][k];
            char b[400];
            if (t < 0) snprintf(b, sizeof b, "usleep(%d)", -t);
            else {
                op_pass = 0;
                for (int j = 0; j < k; j++) op_pass += P->seq[w][j] == t;
                describe(P, &P->ops[t], w, b, sizeof b);
            }
            printf(" *   %s\n", b);
        }
    }
    printf(" * Values: op-, process- and element-dependent integers (t_randprog.c val_gen,\n");
    printf(" * val_key); every matrix has guard zones that must stay untouched.\n */\n");
    printf("#define RANDPROG_EMBEDDED \\\n");
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    while (f && getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = 0;
        printf("    \"%s\\n\" \\\n", line);
    }
    printf("    \"\"\n#include \"t_randprog.c\"\n");
    free(line);
    if (f) fclose(f);
}

/* MPI started as the program says: by the library (BLACS_PINFO first, as
 * most ScaLAPACK programs do), or by the program, with MPI_THREAD_MULTIPLE
 * or plain MPI_Init */
static void start_mpi(const prog_t *P, int *argc, char ***argv)
{
#ifndef RP_REFERENCE
    if (P->init == 'L') {
        /* the settings PINFO reads: this process's rank from the launcher */
        const char *r = getenv("PMI_RANK");
        if (!r) r = getenv("OMPI_COMM_WORLD_RANK");
        int rank = r ? atoi(r) : -1;
        for (int k = 0; k < P->nenv; k++)
            if (P->env[k].rank < 0 || P->env[k].rank == rank) setenv(P->env[k].var, P->env[k].val, 1);
        blacs_int me_, np_;
        Cblacs_pinfo(&me_, &np_);
        return;
    }
#endif
    int got;
    if (P->init == 'M') MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &got);
    else MPI_Init(argc, argv);
}

int main(int argc, char **argv)
{
#ifdef RANDPROG_EMBEDDED
    static const char text[] = RANDPROG_EMBEDDED;
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    prog_t P;
    if (prog_read(&P, f)) return 2;
    fclose(f);
    start_mpi(&P, &argc, &argv);
    int rc = run_program(&P);
    MPI_Finalize();
    return rc;
#else
    if (argc >= 3 && !strcmp(argv[1], "gen")) {
        prog_t P;
        gen_program(&P, strtoull(argv[2], NULL, 10), argc > 3 ? atoi(argv[3]) : 0, argc > 4 ? atoi(argv[4]) : 0,
                    argc > 5 && !strcmp(argv[5], "portable"));
        prog_write(&P, stdout);
        return 0;
    }
    if (argc >= 3) {
        FILE *f = fopen(argv[2], "r");
        if (!f) { fprintf(stderr, "randprog: cannot read %s: %s\n", argv[2], strerror(errno)); return 2; }
        prog_t P;
        if (prog_read(&P, f)) { fprintf(stderr, "randprog: %s is not a program\n", argv[2]); return 2; }
        fclose(f);
        if (!strcmp(argv[1], "np")) { printf("%d\n", P.W); return 0; }
        if (!strcmp(argv[1], "info")) {
            int live = 0;
            for (int k = 0; k < P.nops; k++) live += P.ops[k].id == k;
            printf("%d %d", P.W, live);
            for (int k = 0; k < P.ndis; k++) printf(" %s", P.dis[k]);
            printf("\n");
            return 0;
        }
        if (!strcmp(argv[1], "emit")) { emit(&P, argv[2]); return 0; }
        if (!strcmp(argv[1], "reduce") && argc >= 4) {
            int r = reduce(&P, atoi(argv[3]));
            if (r < 0) return 1;   /* no more candidates */
            if (r > 0) return 3;   /* this one changes nothing */
            prog_write(&P, stdout);
            return 0;
        }
        if (!strcmp(argv[1], "run")) {
            start_mpi(&P, &argc, &argv);
            int rc = run_program(&P);
            MPI_Finalize();
            return rc;
        }
    }
    fprintf(stderr, "usage: t_randprog gen SEED [NP] [NOPS] [portable] | run|reduce K|emit|np|info PROGRAM\n");
    return 2;
#endif
}
