/*
 * bi.h -- the interface of the dispatchers (bcast.c, combine.c, p2p.c) to
 * the entry points (SRC/entry_*.c, FORTRAN/), and the
 * umbrella those include: the core (core.h) and the selection step
 * (plan.h).  The layers and which header each includes: SRC/layers.txt.
 */
#ifndef BI_H
#define BI_H
#include "core.h"
#include "plan.h"
#pragma GCC visibility push(hidden)

/* ---- the entry points' bracket (LAWN 73 7.1.4) ----------------------------
 * every communication entry point brackets its work with bi_enter/bi_leave.
 * Inline: the head of a send (up to MPI_Isend) is on the critical path of
 * every exchange, and the calls and their eight arguments were a tenth of
 * it.  The debug level's checks at the start of a broadcast or combine are
 * entry_debug.c's (bi_enter_debug). */
void bi_enter_debug(const char *routine, Int ctxt, char kind, const char *scope, const bi_shape *s,
                    Int rr, Int rc);

/* the call's record (bi_cur) alone: count elements, bytes bytes */
static inline void bi_record(const char *routine, Int ctxt, char kind, const char *scope,
                             const char *top, size_t count, size_t bytes, Int rr, Int rc)
{
    atomic_store_explicit(&bi_inside, 1, memory_order_relaxed);
    bi_cur.routine = routine;
    bi_cur.ctxt = ctxt;
    bi_cur.kind = kind;
    bi_cur.scope = scope ? (char)(bi_up(scope) | 32) : 0;
    bi_cur.top = top ? bi_up(top) : 0;
    bi_cur.ran = 0;
    bi_cur.count = count;
    bi_cur.bytes = bytes;
    bi_cur.rr = rr;
    bi_cur.rc = rc;
    bi_cur.twait = 0;
    if (bi_g.stats) bi_cur.t0 = MPI_Wtime();
}

static inline void bi_enter(const char *routine, Int ctxt, char kind, const char *scope,
                            const char *top, const bi_shape *s, Int rr, Int rc)
{
    const size_t count = bi_shape_count(s);
    bi_record(routine, ctxt, kind, scope, top, count, count * bi_types[s->type].size, rr, rc);
    if (bi_g.debug >= 1 && (kind == 'r' || kind == 'b' || kind == 'c'))
        bi_enter_debug(routine, ctxt, kind, scope, s, rr, rc);
}

static inline void bi_leave(void)
{
    if (bi_g.stats) bi_stats_add(&bi_cur, MPI_Wtime() - bi_cur.t0);
    /* the last call is told only by a hang report (BLACS_DEBUG=2, set at
     * the start): the copy of the record, just written in narrow stores,
     * stalls every call's end otherwise */
    if (bi_g.debug >= 2) bi_last = bi_cur;
    bi_cur.routine = NULL;
    atomic_store_explicit(&bi_calls, atomic_load_explicit(&bi_calls, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_store_explicit(&bi_inside, 0, memory_order_relaxed);
}

/* ---- operations behind the entry points ---------------------------------- */
void bi_p2p_send(Int ctxt, const bi_shape *s, const void *A, Int rdest, Int cdest,
                 const char *routine);
/* vGESD2D, bracket included: the usual message before the bracket (p2p.c) */
void bi_p2p_gesd(const char *routine, int type, Int ctxt, Int m, Int n, const void *A, Int lda,
                 Int rdest, Int cdest);
void bi_p2p_gerv(const char *routine, int type, Int ctxt, Int m, Int n, void *A, Int lda,
                 Int rsrc, Int csrc);
void bi_p2p_recv(Int ctxt, const bi_shape *s, void *A, Int rsrc, Int csrc,
                 const char *routine);
void bi_bcast_send(Int ctxt, const char *scope, const char *top, const bi_shape *s,
                   const void *A, const char *routine);
void bi_bcast_recv(Int ctxt, const char *scope, const char *top, const bi_shape *s, void *A,
                   Int rsrc, Int csrc, const char *routine);
void bi_combine(Int ctxt, const char *scope, const char *top, int opkind, const bi_shape *s,
                void *A, Int *rA, Int *cA, Int ldia, Int rdest, Int cdest,
                const char *routine);
/* Intel MKL's Cdsendrecv (sendrecv.c, through p2p.c's path): argument
 * numbers as in the C call */
void bi_p2p_sendrecv(Int ctxt, const bi_shape *ss, const void *A, Int rdest, Int cdest,
                     const bi_shape *rs, void *B, Int rsrc, Int csrc, const char *routine);
void bi_mkl_sendrecv(Int ctxt, Int m, Int n, const double *A, Int lda, Int rdest, Int cdest,
                     Int m2, Int n2, double *B, Int ldb, Int rsrc, Int csrc, const char *routine);
/* vTUOP2D: a user-defined combine on a general (UPLO 'G') or trapezoidal shape */
void bi_tuop(Int ctxt, const char *scope, const char *top, const bi_shape *s, void *A,
             Int rdest, Int cdest, bi_ufn init, bi_ufn op, bi_ufn post, const char *routine);

/* ---- argument decoding shared by the entry points ------------------------
 * The checks of a matrix argument (the reference's rules, stricter where it
 * would crash): M, N >= 0; LDA >= M whenever columns would overlap (N > 1);
 * UPLO in U/L and DIAG in U/N for trapezoids (first character, any case).
 * bi_make_shape builds and checks a shape: argument numbers of M (N, LDA
 * follow), UPLO and DIAG (0: none).  Inline, as the bracket above. */
static inline void bi_make_shape(bi_shape *s, Int ctxt, const char *routine, int type, int tr,
                                 const char *uplo, int argu, const char *diag, int argd, Int m,
                                 Int n, Int lda, int argm)
{
    if (m < 0) bi_argerr(ctxt, routine, argm, "M", "M=%ld is negative", (long)m);
    if (n < 0) bi_argerr(ctxt, routine, argm + 1, "N", "N=%ld is negative", (long)n);
    if (lda < m && n > 1)
        bi_argerr(ctxt, routine, argm + 3, "LDA", "LDA=%ld is smaller than M=%ld", (long)lda, (long)m);
    /* the memory A spans, ((N-1) LDA + M) elements, must be addressable
     * (MPI_Aint, ptrdiff_t): then no offset computed later can overflow */
    /* (below 2^26 each they span under 2^56 bytes: no divisions per call) */
    if (m > 0 && n > 0 && ((uint64_t)m | (uint64_t)n | (uint64_t)lda) >> 26) {
        size_t most = (size_t)PTRDIFF_MAX / bi_types[type].size, ld = (size_t)(lda > m ? lda : m);
        int bad_m = (size_t)m > most;
        if (bad_m || (size_t)(n - 1) > (most - (size_t)m) / ld)
            bi_argerr(ctxt, routine, bad_m ? argm : argm + 3, bad_m ? "M" : "LDA",
                      "M=%ld, N=%ld, LDA=%ld span more memory than can be addressed", (long)m,
                      (long)n, (long)lda);
    }
    s->type = type;
    s->tr = tr;
    s->upper = s->unit = 0;
    if (tr) {
        char u = bi_up(uplo), d = bi_up(diag);
        if (u != 'U' && u != 'L')
            bi_argerr(ctxt, routine, argu, "UPLO", "UPLO='%c' is neither 'U' nor 'L'", uplo ? *uplo : ' ');
        if (d != 'U' && d != 'N')
            bi_argerr(ctxt, routine, argd, "DIAG", "DIAG='%c' is neither 'U' nor 'N'", diag ? *diag : ' ');
        s->upper = u == 'U';
        s->unit = d == 'U';
    }
    s->m = m;
    s->n = n;
    s->lda = lda > m ? lda : (m > 0 ? m : 1);
}

#pragma GCC visibility pop
#endif
