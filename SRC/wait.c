/*
 * wait.c -- every wait of the library for one request (transport.c,
 * p2p.c, the TOP ' ' collectives, the cross-check): BLACS_DEBUG=2's hang
 * detection (LAWN 73 7.1.4: every wait polls; when nothing arrives for
 * BLACS_HANG_TIMEOUT seconds the process says what it waits in and what it
 * last completed, then the job stops with a BLACS error), BLACS_STATS's
 * waiting time, and the long-wait warning's marks (watch.c).
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core.h"

void bi_hang(char dir, int peer, int tag, size_t bytes, double waited)
{
    char now[300], last[300], what[200];
    bi_call_text(&bi_cur, now, sizeof now);
    bi_call_text(&bi_last, last, sizeof last);
    bi_wait_text(dir, peer, tag, bytes, what, sizeof what);
    /* let every stuck process say its piece before the job stops */
    fprintf(stderr,
            "BLACS HANG (BLACS_DEBUG=2) on pnum %d: nothing arrived for %.0f s\n"
            "  waiting in: %s\n  for: %s\n  last completed: %s\n",
            bi_g.world_rank, waited, now, what, last);
    fflush(stderr);
    struct timespec ts = {2, 0};
    nanosleep(&ts, NULL);
    bi_error(bi_cur.ctxt, -1, bi_cur.routine ? bi_cur.routine : "BLACS",
             "hang detected: waited %.0f s in %s for %s", waited, now, what);
}

int bi_wait(MPI_Request *r, MPI_Status *st, char dir, int peer, int tag, size_t bytes)
{
    double t0 = (bi_g.stats || bi_g.debug >= 2) ? MPI_Wtime() : 0;
    /* an error of MPI_Wait/MPI_Test reaches MPI_COMM_WORLD's handler first
     * under MPICH (error.c) */
    bi_watch_begin(dir, peer, tag, bytes);
    if (bi_g.debug >= 2) {
        int done = 0;
        long spins = 0;
        while (!done) {
            BI_MPI(MPI_Test(r, &done, st), "MPI_Test");
            if (!done && (++spins & 1023) == 0) {
                double w = MPI_Wtime() - t0;
                if (w > bi_g.hang_timeout) bi_hang(dir, peer, tag, bytes, w);
                bi_poll();
            }
        }
    } else {
        BI_MPI(MPI_Wait(r, st), "MPI_Wait");
    }
    bi_watch_end();
    if (bi_g.stats) bi_cur.twait += MPI_Wtime() - t0;
    return MPI_SUCCESS;
}


/* The broadcast source's order (transport.c): a send waited for at most
 * limit seconds, by polling, so the source never depends on a receiver
 * that is not there.  (Under SimGrid's SMPI each MPI_Test costs the
 * simulated time TIMING/sim/smpi.sh gives it, MPICH's, measured by make
 * calibrate: the poll is the same code there.)
 * Returns whether the send completed; *waited the seconds spent. */
int bi_wait_bounded(MPI_Request *r, double limit, double *waited)
{
    const double t0 = MPI_Wtime();
    double w = 0;
    int done = 0;
    BI_MPI(MPI_Test(r, &done, MPI_STATUS_IGNORE), "MPI_Test");
    while (!done && (w = MPI_Wtime() - t0) < limit) {
        sched_yield(); /* more ranks than cores: the receiver may need this one */
        BI_MPI(MPI_Test(r, &done, MPI_STATUS_IGNORE), "MPI_Test");
    }
    w = MPI_Wtime() - t0;
    if (bi_g.stats) bi_cur.twait += w;
    *waited = w;
    return done;
}

/* A long message's source that may send straight from A once its
 * receivers have said they are there (their words: p2p.c, transport.c)
 * copies A in the meantime, a chunk at a time with a look at the words
 * between chunks, and once the copy is done waits on to the limit
 * (seconds since the start, what the copy should cost; BLACS_SOURCE_WAIT
 * at most).  src is contiguous, or a GE shape s to pack; *done: the bytes
 * of dst already copied, on entry and on return.  Returns 1 when all n requests r completed -- the copy may be
 * unfinished, the caller sends from A -- else 0 with the copy complete (no
 * copy when src is NULL).  A source that waited first and copied after
 * paid up to twice the copy when its receivers came late, as ScaLAPACK's
 * do; this pays the longer of the copy and the wait. */
#define COPY_CHUNK ((size_t)32768)

int bi_copy_waiting(MPI_Request *r, int n, void *dst, const void *src, const bi_shape *s,
                    size_t bytes, double limit, size_t *done)
{
    const double t0 = MPI_Wtime();
    int i = 0, in = 0;
    size_t off = *done;
    while (src) {
        while (i < n) { /* a failed test naps in the simulated build (TIMING/sim/simmpi.c) */
            BI_MPI(MPI_Test(&r[i], &in, MPI_STATUS_IGNORE), "MPI_Test");
            if (!in) break;
            i++;
        }
        if (i == n || off >= bytes) break;
        size_t k = bytes - off < COPY_CHUNK ? bytes - off : COPY_CHUNK;
        bi_pack_range(s, src, dst, off, off + k);
        off += k;
    }
    if (off > *done) *done = off;
    for (double w; i < n; i++) {
        const double left = limit - (MPI_Wtime() - t0);
        if (!bi_wait_bounded(&r[i], left > 0 ? left : 0, &w)) break;
    }
    return i == n;
}
