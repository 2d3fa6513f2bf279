/*
 * watch.c -- the long-wait warning, at every debug level.  At levels 0 and
 * 1 the library waits in blocking MPI calls, where a cut link or a missing
 * partner is an endless silent wait; only another thread can notice.  So
 * bi_init starts one (bi_watch_start) that sleeps, wakes every few seconds
 * and, when one wait has been in progress for BLACS_WAIT_WARN seconds
 * (default 300, 0: no thread), prints ONE warning naming the routine, the
 * peer and the message; the process keeps waiting.
 *
 * The thread never calls MPI (so any MPI thread level will do) and reads
 * nothing of the library but the record below.  The main thread fills the
 * record at the start of each wait (bi_watch_mark: a dozen plain stores,
 * nothing next to an MPI wait) and bumps its sequence number around it, so
 * each wait has its own odd number.  The thread copies the record
 * seqlock-style: sequence, fields, sequence again; a changed number means
 * the wait ended while it looked, and the copy is dropped.  The fields are
 * relaxed atomics, so the concurrent copy is no data race; on x86 and ARM
 * they compile to plain loads and stores.
 *
 * Not under SimGrid's SMPI, which runs the ranks as threads of one process
 * with their globals privatized.
 */
#define _GNU_SOURCE /* pthread_setname_np: the thread shows as blacs_watch */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core.h"

int bi_watch_on;

#define RLX memory_order_relaxed
_Atomic unsigned long bi_watch_seq; /* odd: a wait in progress, rec describes it */
static struct {
    _Atomic(const char *) routine;
    _Atomic long long ctxt, rr, rc;
    _Atomic size_t count, bytes;
    _Atomic int kind, peer, tag; /* kind: call kind, scope, top, wait direction */
    _Atomic int ran;             /* the letter the plan runs */
} rec;

/* Written by the main thread only (the BLACS are not thread-safe), so the
 * sequence is bumped with a load and a store, not a locked add. */
void bi_watch_mark(const char *outside, char dir, int peer, int tag, size_t bytes)
{
    unsigned long s = atomic_load_explicit(&bi_watch_seq, RLX);
    if (s & 1) atomic_store_explicit(&bi_watch_seq, ++s, RLX); /* an unended wait: end it */
    /* a reader that sees any field below also sees the even number */
    atomic_thread_fence(memory_order_release);
    const bi_call *c = &bi_cur;
    atomic_store_explicit(&rec.routine, c->routine ? c->routine : outside, RLX);
    atomic_store_explicit(&rec.ctxt, c->routine ? (long long)c->ctxt : -1, RLX);
    atomic_store_explicit(&rec.rr, (long long)c->rr, RLX);
    atomic_store_explicit(&rec.rc, (long long)c->rc, RLX);
    atomic_store_explicit(&rec.count, c->count, RLX);
    atomic_store_explicit(&rec.bytes, bytes, RLX);
    int k = 0;
    if (c->routine)
        k = (unsigned char)c->kind | (unsigned char)c->scope << 8 | (unsigned char)c->top << 16;
    atomic_store_explicit(&rec.kind, k | (unsigned char)dir << 24, RLX);
    atomic_store_explicit(&rec.ran, c->routine ? (unsigned char)c->ran : 0, RLX);
    atomic_store_explicit(&rec.peer, peer, RLX);
    atomic_store_explicit(&rec.tag, tag, RLX);
    atomic_store_explicit(&bi_watch_seq, s + 1, memory_order_release);
}

/* ---- the thread ----------------------------------------------------------- */
static pthread_t thread;
static int running;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
static int stopping;
static double limit; /* seconds; set before the thread starts */
static int pnum;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the record of wait seq, or 0 if that wait ended meanwhile */
static int copy(unsigned long seq, bi_call *c, char *dir, int *peer, int *tag, size_t *bytes)
{
    memset(c, 0, sizeof *c);
    c->routine = atomic_load_explicit(&rec.routine, RLX);
    c->ctxt = (Int)atomic_load_explicit(&rec.ctxt, RLX);
    c->rr = (Int)atomic_load_explicit(&rec.rr, RLX);
    c->rc = (Int)atomic_load_explicit(&rec.rc, RLX);
    c->count = atomic_load_explicit(&rec.count, RLX);
    *bytes = atomic_load_explicit(&rec.bytes, RLX);
    int k = atomic_load_explicit(&rec.kind, RLX), ran = atomic_load_explicit(&rec.ran, RLX);
    *peer = atomic_load_explicit(&rec.peer, RLX);
    *tag = atomic_load_explicit(&rec.tag, RLX);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&bi_watch_seq, RLX) != seq) return 0;
    c->kind = (char)(k & 255);
    c->scope = (char)(k >> 8 & 255);
    c->top = (char)(k >> 16 & 255);
    c->ran = (char)ran;
    *dir = (char)(k >> 24 & 255);
    return 1;
}

static void warn(unsigned long seq, double waited)
{
    bi_call c;
    char dir, where[300], what[200], line[700];
    int peer, tag;
    size_t bytes;
    if (!copy(seq, &c, &dir, &peer, &tag, &bytes)) return;
    if (c.kind) bi_call_text(&c, where, sizeof where);
    else snprintf(where, sizeof where, "%s", c.routine ? c.routine : "BLACS");
    bi_wait_text(dir, peer, tag, bytes, what, sizeof what);
    int n = snprintf(line, sizeof line,
                     "BLACS WARNING on pnum %d: %s for %.0f s in %s waiting for %s; still waiting "
                     "(BLACS_WAIT_WARN=%g)\n",
                     pnum, dir == 's' ? "no send completed" : "nothing arrived", waited, where,
                     what, limit);
    if (n > (int)sizeof line - 1) n = (int)sizeof line - 1;
    /* one write: no stdio lock shared with the main thread, and the line
     * is not cut by other output */
    for (const char *p = line; n > 0;) {
        ssize_t w = write(STDERR_FILENO, p, (size_t)n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        p += w;
        n -= (int)w;
    }
}

static void *watch(void *arg)
{
    (void)arg;
    /* wake often enough to warn within a quarter of the limit, at most every 5 s */
    double period = limit / 4 < 5 ? limit / 4 : 5;
    if (period < 0.2) period = 0.2;
    unsigned long seen = 0, warned = 0;
    double since = now();
    pthread_mutex_lock(&mu);
    while (!stopping) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        double end = (double)t.tv_nsec * 1e-9 + period;
        t.tv_sec += (time_t)end;
        t.tv_nsec = (long)((end - (double)(time_t)end) * 1e9);
        int rc = pthread_cond_timedwait(&wake, &mu, &t);
        if (stopping || (rc != 0 && rc != ETIMEDOUT)) break;
        pthread_mutex_unlock(&mu); /* not held while writing: stop never waits for it */
        unsigned long s = atomic_load_explicit(&bi_watch_seq, memory_order_acquire);
        double tn = now();
        if (s != seen) { /* another wait, or none: its clock starts now */
            seen = s;
            since = tn;
        } else if ((s & 1) && s != warned && tn - since >= limit) {
            warned = s; /* one warning per stuck wait */
            warn(s, tn - since);
        }
        pthread_mutex_lock(&mu);
    }
    pthread_mutex_unlock(&mu);
    return NULL;
}

/* a forked child has no watchdog: forget it, or its exit would wait for
 * a thread that is not there */
static void forget(void)
{
    running = 0;
    bi_watch_on = 0;
    pthread_mutex_init(&mu, NULL);
}

void bi_watch_start(double seconds)
{
#ifdef SMPI_H
    return; /* ranks are threads of one process there */
#endif
    static int forkhook;
    if (running || !(seconds > 0)) return;
    if (!forkhook) forkhook = pthread_atfork(NULL, NULL, forget) == 0;
    limit = seconds;
    pnum = bi_g.world_rank;
    stopping = 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&wake, &ca);
    pthread_condattr_destroy(&ca);
    /* signals are the user's and stay with the user's threads */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&thread, NULL, watch, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        pthread_cond_destroy(&wake);
        BI_WARN(-1, "cannot start the thread of BLACS_WAIT_WARN (%s); no long-wait warnings",
                strerror(rc));
        return;
    }
#ifdef __GLIBC__
    pthread_setname_np(thread, "blacs_watch");
#endif
    running = 1;
    bi_watch_on = 1;
}

void bi_watch_stop(void)
{
    bi_watch_on = 0;
    bi_watch_done();
    if (!running) return;
    pthread_mutex_lock(&mu);
    stopping = 1;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&mu);
    pthread_join(thread, NULL);
    pthread_cond_destroy(&wake);
    running = 0;
}

/* a program that never calls BLACS_EXIT nor MPI_Finalize, or unloads the
 * shared library: no thread may outlive the code it runs */
__attribute__((destructor)) static void watch_fini(void) { bi_watch_stop(); }
