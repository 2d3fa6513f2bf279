/*
 * tutil.h -- small helpers shared by the C test programs (TESTING/t_*.c):
 * a check counter that ends with "N passed, M failed", and guarded matrices
 * (guard zones before and after the matrix and in the LDA-M gap of each
 * column) so an overwrite anywhere is caught with its position.
 */
#ifndef TUTIL_H
#define TUTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "blacs.h"

extern int tu_pass, tu_fail, tu_verbose;
extern int tu_rank;

/* one checked assertion; prints the failure with file/line and rank */
#define TU_CHECK(cond, ...)                                                        \
    do {                                                                           \
        if (cond) tu_pass++;                                                       \
        else {                                                                     \
            tu_fail++;                                                             \
            fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", tu_rank,       \
                    __FILE__, __LINE__, #cond);                                    \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
        }                                                                          \
    } while (0)

void tu_init(int *argc, char ***argv);   /* MPI_Init if needed, rank */
/* a watchdog: after seconds, "<prog>: HANG: ..." on stderr and exit 3, so a
 * hang is a failure with a message, not the runner's timeout */
void tu_watchdog(const char *prog, unsigned seconds);
/* message traces for this run (before the BLACS start): a fresh prefix the
 * same on every process (TMPDIR/PROG.pid.time, rank 0's), BLACS_TRACE set to
 * it, and this process's trace file named in name (removed if present) */
void tu_trace_setup(const char *prog, char *name, size_t size);
/* sums the counts over MPI_COMM_WORLD, rank 0 prints "N passed, M failed";
 * returns the exit status (0 when nothing failed anywhere) */
int tu_finish(void);
/* the end of a test that read its message trace: closes tf (if open),
 * removes the trace file name, sums the counts (tu_finish) and exits the
 * BLACS (Cblacs_exit(0)); returns tu_finish's status */
int tu_trace_end(FILE *tf, const char *name);
/* 1 under MPICH (or SMPI standing for it, as the library's BI_MPICH) */
int tu_mpich(void);
/* the pieces of the rings of 3 processes or more under MPICH: a vector of
 * up to 128 KB in the 8 KB pieces MPICH sends eagerly, on one node or
 * across nodes (SRC/plan.c, eager_pieces); 0 where the rule does not apply */
size_t tu_eager_pieces(int np, double bytes);
/* the items of a two-process exchange's or broadcast's pieces (but the
 * last, shorter one) under MPICH, written out: what MPI sends eagerly,
 * 8,255 bytes on one node, between nodes 16 KB and 63 bytes (so that no
 * power-of-two count is a multiple), over item bytes (SRC/core.h) */
size_t tu_pair_piece(size_t isize, int onenode);

/* guarded matrix of element size esz: GUARD elements before and after */
#define TU_GUARD 16
typedef struct {
    size_t esz;
    blacs_int m, n, lda;
    unsigned char *mem;  /* whole allocation */
    void *a;             /* first element of the matrix */
    size_t total;        /* elements in the allocation */
} tu_mat;
void tu_mat_alloc(tu_mat *t, size_t esz, blacs_int m, blacs_int n, blacs_int lda);
void tu_mat_free(tu_mat *t);
/* fill every byte of the allocation with pad */
void tu_mat_pad(tu_mat *t, unsigned char pad);
/* element (i,j) pointer */
static inline void *tu_el(tu_mat *t, blacs_int i, blacs_int j)
{
    return (char *)t->a + ((size_t)j * t->lda + i) * t->esz;
}
/* value v(seed,i,j) written as element type letter ('I','S','D','C','Z'),
 * only where in(i,j) says (NULL: everywhere in the M x N matrix) */
typedef int (*tu_in_fn)(blacs_int i, blacs_int j, void *arg);
void tu_mat_fill(tu_mat *t, char type, int seed, tu_in_fn in, void *arg);
/* checks: elements where in() holds equal the fill of seed, every other byte
 * still equals pad; reports each mismatch (at most a few) with its position;
 * returns the number of bad elements/bytes */
long tu_mat_check(tu_mat *t, char type, int seed, tu_in_fn in, void *arg, unsigned char pad,
                  const char *what);
/* value generator shared with the checks */
double tu_val(int seed, blacs_int i, blacs_int j);

/* each type's point-to-point routines, by letter (t_p2p, t_p2p_long):
 * tu_p2p_types[k] for k = 0..4, the types I, S, D, C and Z */
typedef void (*tu_gesd_fn)(blacs_int, blacs_int, blacs_int, void *, blacs_int, blacs_int, blacs_int);
typedef void (*tu_trsd_fn)(blacs_int, char *, char *, blacs_int, blacs_int, void *, blacs_int,
                           blacs_int, blacs_int);
typedef struct {
    char t;
    size_t esz;
    tu_gesd_fn gesd, gerv;
    tu_trsd_fn trsd, trrv;
} tu_p2p_type;
extern const tu_p2p_type tu_p2p_types[5];

/* trapezoid membership as the reference BLACS defines it (arg: tu_tr*) */
typedef struct { char uplo, diag; blacs_int m, n; } tu_tr;
int tu_in_tr(blacs_int i, blacs_int j, void *arg);

/* run this test in its own MPI job expecting a BLACS error: helpers for
 * error tests simply call the bad routine; the runner checks the message. */
#endif
