/*
 * progress.c -- the progress thread: long messages move while their
 * source computes outside MPI.
 *
 * A BLACS send or broadcast source returns once A may be reused, leaving
 * its data in a buffer and MPI requests (buffer.c's active queue).  MPICH
 * and Open MPI move a request only while its owner is inside an MPI call
 * (weak progress): a long message by rendezvous, or a non-blocking
 * broadcast's schedule, waits for the source's next MPI call.  ScaLAPACK's
 * processes compute outside MPI most of the time, so a receiver could wait
 * for the source's whole computation, and a program whose source waits
 * outside MPI for its receivers (a file, shared memory, another library)
 * would hang.  So while sends are outstanding this thread tests the
 * active buffers, which drives MPI's progress engine.
 *
 * It needs MPI_THREAD_MULTIPLE: bi_init asks for it when it starts MPI
 * itself, and the thread runs only where MPI gives it.  It costs nothing
 * while no send is outstanding (it sleeps on a condition variable, woken
 * by the post of a buffer).  While sends are outstanding it tests them
 * only when the main thread computes: no BLACS call in progress and none
 * ended since its last look (bi_inside, bi_calls: bi.h's bracket).  A main
 * thread that communicates progresses its sends itself, and tests of ours
 * would only take its core and MPI's lock (T_c doubled on 2 ranks of this
 * 2-core machine when the thread tested whenever sends were out); so it
 * looks every IDLE0 (50 us) to IDLE1 (1 ms) then.  Once the main thread is
 * quiet, it tests every GAP0 (10 us) while sends complete (a receiver
 * taking a long message piece by piece) and every GAP1 (200 us) while
 * nothing moves: a receiver that comes while the source computes gets its
 * data within about IDLE1 + GAP1, at a cost of a few microseconds of CPU
 * each time.  After the queue drains it lingers LINGER seconds before
 * sleeping, so a burst of short sends wakes it once.  It takes the
 * buffers' lock only when it is free at once (bi_buf_progress), so the
 * main thread never waits on it for more than a
 * bounded number of tests.  With MPI_THREAD_SINGLE, FUNNELED or SERIALIZED
 * there is no thread: a long message then moves at its source's next MPI
 * call, as MPI's own non-blocking sends do (TIMING/README, the late-source
 * benchmark).  BLACS_PROGRESS=0: never a thread, and MPI started with
 * MPI_Init.  Not under SimGrid's SMPI, whose ranks are threads of one
 * process and whose messages move without their sender.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "core.h"

#define GAP0 10e-6   /* between tests while sends complete */
#define GAP1 200e-6  /* between tests while nothing moves */
#define IDLE0 50e-6  /* between looks while the main thread communicates */
#define IDLE1 1e-3
#define LINGER 0.02

static pthread_t thread;
static int running;
static atomic_int stop;

static void nap(double s)
{
    struct timespec t = {0, (long)(s * 1e9)};
    nanosleep(&t, NULL);
}

static double twice(double g, double most) { return g * 2 < most ? g * 2 : most; }

static void *run(void *arg)
{
    (void)arg;
#ifdef PR_SET_TIMERSLACK
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); /* naps of 10 us, not 60 */
#endif
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        int w = bi_buf_progress_wait(1.0); /* asleep until a buffer is posted */
        if (w < 0) break;
        if (w == 0) continue;
        /* sends outstanding: test them only while the main thread computes
         * (no call in progress, none ended since the last look); while it
         * communicates it progresses them itself, and tests of ours would
         * only take its core and MPI's lock */
        double gap = IDLE0, quiet = 0;
        unsigned calls = atomic_load_explicit(&bi_calls, memory_order_relaxed), seen = 0;
        while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
            nap(gap);
            unsigned c = atomic_load_explicit(&bi_calls, memory_order_relaxed);
            if (c != calls || atomic_load_explicit(&bi_inside, memory_order_relaxed)) {
                if (!bi_buf_armed()) break; /* the main thread saw them complete */
                calls = c;
                gap = twice(gap, IDLE1);
                quiet = 0;
                continue;
            }
            unsigned events = 0;
            int left = bi_buf_progress(&events);
            if (left < 0) continue; /* the main thread is in the buffers */
            if (!left) { /* drained: linger for the next burst, then sleep */
                quiet += gap;
                if (quiet >= LINGER || bi_buf_progress_wait(0) != 0) break;
                gap = twice(gap, IDLE1);
                continue;
            }
            quiet = 0;
            gap = events != seen ? GAP0 : twice(gap, GAP1); /* moving: keep close */
            seen = events;
        }
    }
    return NULL;
}

int bi_progress_running(void) { return running; }

void bi_progress_start(void)
{
#ifdef SMPI_H
    return;
#endif
    if (running) return; /* BLACS_PROGRESS=0: bi_init does not call this */
    int level = MPI_THREAD_SINGLE;
    BI_MPI_IN(MPI_Query_thread(&level), "MPI_Query_thread", -1, "BLACS_PINFO");
    if (level != MPI_THREAD_MULTIPLE) return;
    atomic_store(&stop, 0);
    bi_buf_share(1);
    sigset_t all, old; /* signals are the user's and stay with the user's threads */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&thread, NULL, run, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        bi_buf_share(0);
        BI_WARN(-1, "cannot start the BLACS progress thread (%s): long messages move only "
                    "while their source is inside MPI", strerror(rc));
        return;
    }
#ifdef __GLIBC__
    pthread_setname_np(thread, "blacs_progress");
#endif
    running = 1;
}

void bi_progress_stop(void)
{
    if (!running) return;
    atomic_store(&stop, 1);
    bi_buf_progress_stop(1);
    pthread_join(thread, NULL);
    bi_buf_share(0);
    running = 0;
}

/* no thread may outlive the code it runs (a program that never calls
 * BLACS_EXIT nor MPI_Finalize, or unloads the shared library) */
__attribute__((destructor)) static void progress_fini(void) { bi_progress_stop(); }
