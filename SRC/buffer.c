/*
 * buffer.c -- buffering for locally-blocking sends, LAWN 73 section 6.2.2.
 *
 * A buffer is ready (unused, kept for reuse), active (non-blocking sends
 * are being performed from it: a queue), or inactive (its sends are done;
 * found by polling).  An inactive buffer becomes a ready one; of the ready
 * ones at most NREADY stay allocated (the largest).  The paper keeps one;
 * we keep a few because one call may hold several at once (a combine's
 * result and partner buffers, MPI's pair vector of comb_mpi.c, a receive's
 * scratch), and with one ready buffer each such call would allocate and
 * free the others every time.  A request takes the smallest ready buffer
 * that fits (a short one the calling thread's own first: below).  All
 * queue work happens after the sends are started, so receivers never pay
 * for it.  When memory runs out (malloc fails or the
 * BLACS_BUFMAX cap is reached) we wait, oldest send first, up to
 * BLACS_BUFWAIT seconds (BLACS_SET WHAT=20) for active buffers to drain,
 * then stop with an error naming the routine and how many sends are
 * outstanding to whom; at once when no wait can make room.
 */
#define _GNU_SOURCE /* PTHREAD_MUTEX_RECURSIVE */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core.h"

/* ---- sharing with the progress thread (progress.c) --------------------
 * While the progress thread runs, every function of this file that the
 * main thread calls holds mu, and the thread tests the active buffers
 * (bi_buf_progress) only when it gets mu at once: so the queue is never
 * touched by both, and the thread never makes the main thread wait long
 * (it holds mu for a bounded number of MPI tests).  Recursive: the error
 * paths that stop the job run cleanups that come back here.  Without the
 * thread (shared 0) nothing locks.  armed says that sends posted from the
 * active buffers may not be complete, so the thread has work: set by
 * bi_buf_post, cleared when no active buffer is left whose sends were not
 * known complete when it was posted (unsure: the count of those); all
 * under mu, so no post is ever missed.  A short send is mostly complete
 * as MPI_Isend returns (in MPICH's shared-memory queue): bi_buf_post asks
 * (MPI_Request_get_status, which costs nothing then), and such a buffer
 * does not arm the thread, which would otherwise wake every millisecond
 * to see whether the main thread still communicates -- a stream of short
 * exchanges paid 8% of T_c for that on 2 ranks of this 2-core machine
 * (1,800 context switches a second, against 64 with no thread).  The
 * thread reads armed without mu to go back to sleep. */
static int shared, made;
static pthread_mutex_t mu;
static pthread_cond_t wake;
static int sleeping, unsure;
static atomic_int armed;
static atomic_int stopping;
static unsigned posts, completed; /* buffers posted, sends seen complete */

static inline void lock(void)
{
    if (shared) pthread_mutex_lock(&mu);
}

static inline void unlock(void)
{
    if (shared) pthread_mutex_unlock(&mu);
}

#define NREADY 4
static bi_buf *ready[NREADY], *head, *tail, *cursor;
/* Short buffers the calling thread released are kept apart (own): the
 * progress thread never touches them, so a short send takes one without
 * mu.  The head of a send (up to MPI_Isend) is on the critical path of
 * every exchange, and with the thread running mu's lock and unlock were a
 * quarter of it (callgrind, DGESD2D of one double, MPICH 4.0.2: 172 of the
 * 656 instructions before MPI_Isend went to taking the buffer).  Filled by
 * the calling thread's releases (its polls, bi_buf_release), up to NREADY
 * buffers of at most OWN_BYTES each, freed with the ready ones. */
#define OWN_BYTES ((size_t)65536)
static bi_buf *own[NREADY];
static int nown;
static int nready;
static int nactive;
static size_t active_bytes; /* bytes of the active buffers */
/* poll_due() as it was when the queue last changed (under mu), read
 * without mu by bi_poll: every broadcast, combine and receive starts with
 * that poll, and mu's lock was most of it when no poll was due (a stale
 * value only moves a poll to the next call, or makes one that finds
 * nothing) */
static atomic_int due;

/* Polling is lazy (below: bi_poll) */
#define POLL_BYTES ((size_t)65536)

static inline int poll_due(void)
{
    return head && (nactive >= NREADY || active_bytes >= POLL_BYTES);
}

static size_t inuse, hwm; /* bytes held by all buffers, and the most ever */

#define ALIGN 64

static bi_buf *alloc_buf_capped(size_t n, int capped)
{
    if (capped && bi_g.bufmax && inuse + n > bi_g.bufmax) return NULL;
    bi_buf *b = malloc(sizeof *b + n + ALIGN);
    if (!b) return NULL;
    memset(b, 0, sizeof *b);
    b->size = n;
    uintptr_t p = (uintptr_t)(b + 1);
    b->data = (char *)((p + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
    inuse += n;
    if (inuse > hwm) hwm = inuse;
    return b;
}

static bi_buf *alloc_buf(size_t n) { return alloc_buf_capped(n, 1); }

size_t bi_buf_hwm(void) { return hwm; }

static void free_buf(bi_buf *b)
{
    inuse -= b->size;
    free(b->req);
    free(b->peer);
    free(b);
}

/* index of the smallest ready buffer of at least n bytes (-1: none) */
static int ready_fit(size_t n)
{
    int k = -1;
    for (int i = 0; i < nready; i++)
        if (ready[i]->size >= n && (k < 0 || ready[i]->size < ready[k]->size)) k = i;
    return k;
}

/* index of the smallest ready buffer (nready > 0) */
static int ready_smallest(void)
{
    int k = 0;
    for (int i = 1; i < nready; i++)
        if (ready[i]->size < ready[k]->size) k = i;
    return k;
}

static bi_buf *ready_take(int k)
{
    bi_buf *b = ready[k];
    ready[k] = ready[--nready];
    b->nreq = 0;
    return b;
}

/* a buffer nobody sends from any more: ready for reuse, unless NREADY
 * larger ones are kept already */
static void release(bi_buf *b, int mine);

/* keeps b as one of the calling thread's own buffers, if there is room */
static int own_keep(bi_buf *b)
{
    if (nown == NREADY || b->size > OWN_BYTES) return 0;
    b->nreq = 0;
    b->lib = 0;
    own[nown++] = b;
    return 1;
}

void bi_buf_release(bi_buf *b)
{
    if (!b) return;
    if (!bi_g.bufmax && own_keep(b)) return; /* without mu (above); the cap reads inuse */
    lock();
    release(b, 1);
    unlock();
}

/* mine: the calling thread releases (not the progress thread), so the
 * buffer may be kept as its own (above) */
static void release(bi_buf *b, int mine)
{
    b->nreq = 0;
    b->lib = 0;
    /* a receive's scratch may have gone past the cap (bi_buf_scratch):
     * kept, it would let sends hold more than BLACS_BUFMAX */
    if (bi_g.bufmax && inuse > bi_g.bufmax) {
        free_buf(b);
        return;
    }
    if (mine && own_keep(b)) return;
    if (nready < NREADY) {
        ready[nready++] = b;
        return;
    }
    int k = ready_smallest();
    if (b->size > ready[k]->size) {
        free_buf(ready[k]);
        ready[k] = b;
    } else free_buf(b);
}

static void free_ready(void)
{
    while (nready) free_buf(ready[--nready]);
    while (nown) free_buf(own[--nown]);
}

static void unlink_active(bi_buf *b)
{
    if (b->prev) b->prev->next = b->next;
    else head = b->next;
    if (b->next) b->next->prev = b->prev;
    else tail = b->prev;
    if (cursor == b) cursor = b->next;
    b->next = b->prev = NULL;
    nactive--;
    active_bytes -= b->size;
    atomic_store_explicit(&due, poll_due(), memory_order_relaxed);
    if (b->unsure) {
        b->unsure = 0;
        if (--unsure == 0) armed = 0;
    }
}

/* a buffered send that MPI says failed: name its destination */
static void send_failed(int rc, const char *call, const bi_buf *b, int i)
{
    char what[96];
    if (b->peer[i] <= BI_WORD_PEER(0))
        snprintf(what, sizeof what, "%s (the word of a receiver, pnum %d, that it waits)", call,
                 BI_WORD_PEER(b->peer[i]));
    else if (b->peer[i] < 0) /* a collective's (bi_coll_finish, bcast_mpi.c) */
        snprintf(what, sizeof what, "%s (a buffered send of a broadcast or combine)", call);
    else snprintf(what, sizeof what, "%s (a buffered send to pnum %d)", call, b->peer[i]);
    BI_MPI(rc, what);
}

/* Receives of point-to-point words (p2p.c) hold no buffer and are waited
 * for by nobody: the word comes when the receiver gets to its receive,
 * which may depend on what this process does later.  A buffer whose sends
 * are done hands its word's receive over to this list (orphans) and is
 * released; the list is tested when it is full and at FREEBUFF, and EXIT
 * gives what is left up to WORDS_WAIT seconds (a receiver a moment
 * behind), then cancels it.  The words' sends that are not complete when
 * their receive has its data join the same list (bi_buf_adopt); EXIT lets
 * those go (MPI_Request_free) rather than cancel them.  BLACS_DEBUG=3's
 * descriptions (entry_debug.c, check.c) are the library's own messages
 * too, and get the same at EXIT (lib_end). */
#define WORDS_WAIT 1.0
static MPI_Request *orphan;
static unsigned char *orphan_send; /* a word's send (bi_buf_adopt), not its receive */
static int norphan, maxorphan;

static void words_end(int cancel);

static void adopt(MPI_Request r, int send)
{
    if (norphan == maxorphan) words_end(0); /* the words come: most are in */
    if (norphan == maxorphan) {
        maxorphan = maxorphan ? 2 * maxorphan : 8;
        orphan = bi_alloc(orphan, (size_t)maxorphan * sizeof *orphan, NULL, "MPI requests");
        orphan_send = bi_alloc(orphan_send, (size_t)maxorphan, NULL, "MPI requests");
    }
    orphan_send[norphan] = (unsigned char)send;
    orphan[norphan++] = r;
}

/* n requests tested once (complete ones become MPI_REQUEST_NULL): how
 * many are left */
static int reqs_left(MPI_Request *r, int n)
{
    int left = 0;
    for (int i = 0; i < n; i++) {
        int done = 0;
        if (r[i] != MPI_REQUEST_NULL) MPI_Test(&r[i], &done, MPI_STATUS_IGNORE);
        left += r[i] != MPI_REQUEST_NULL;
    }
    return left;
}

/* the orphans tested once: how many are left */
static int words_left(void) { return reqs_left(orphan, norphan); }

/* tested (cancel 0); at EXIT (1), after WORDS_WAIT (lib_end), what is left
 * goes: a receive is cancelled; a send is let go (MPICH 4.0.2 with UCX and
 * Open MPI 4.1 cancel no send: MPI_Wait then waits for its receiver) */
static void words_end(int cancel)
{
    words_left();
    for (int i = 0; cancel && i < norphan; i++)
        if (orphan[i] != MPI_REQUEST_NULL && orphan_send[i]) MPI_Request_free(&orphan[i]);
        else if (orphan[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&orphan[i]);
            MPI_Wait(&orphan[i], MPI_STATUS_IGNORE);
        }
    int k = 0;
    for (int i = 0; i < norphan; i++)
        if (orphan[i] != MPI_REQUEST_NULL) orphan_send[k] = orphan_send[i], orphan[k++] = orphan[i];
    norphan = k;
    if (!norphan) {
        free(orphan);
        free(orphan_send);
        orphan = NULL;
        orphan_send = NULL;
        maxorphan = 0;
    }
}

/* A receiver's word to its source (p2p.c, bcast.c, bcast_mpi.c) once the
 * receive has its data: the send of no bytes is nearly always complete by
 * then, but MPI may still hold it until the source is inside MPI (MPICH
 * 4.0.2 with UCX, 3 processes on one node: the receiver of a DGESD2D that
 * followed a long one waited in its word's MPI_Wait while the source,
 * its send returned, waited outside MPI for a signal from the receiver --
 * a hang; offmpi.list, offmpi_lazy_word_full).  The receive is done, and
 * nothing the program does may have to wait for its source's next MPI
 * call: so the send is tested once and, if it is not complete, left to
 * the orphans (tested with them; FREEBUFF does not wait for it, EXIT
 * gives it WORDS_WAIT as the words' receives, then lets it go).  A word
 * is the library's own message, not a send of the program's, so nothing
 * waits for it. */
void bi_buf_adopt(MPI_Request *r)
{
    if (*r == MPI_REQUEST_NULL) return;
    int done = 0;
    BI_MPI(MPI_Test(r, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    lock();
    adopt(*r, 1);
    unlock();
    *r = MPI_REQUEST_NULL;
}

/* is request i complete?  (asked without driving MPI's progress when it is) */
static int req_done(bi_buf *b, int i)
{
    int done = 0, rc = MPI_Request_get_status(b->req[i], &done, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) send_failed(rc, "MPI_Request_get_status", b, i);
    return done;
}

/* frees request i, known complete */
static void req_free(bi_buf *b, int i)
{
    int rc = MPI_Wait(&b->req[i], MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) send_failed(rc, "MPI_Wait", b, i);
}

/* request by request: finished ones become MPI_REQUEST_NULL.  Asked with
 * MPI_Request_get_status first, which drives MPI's progress only when the
 * request is not complete yet (MPI_Test always does: in MPICH 4.0 it costs
 * as much again as the MPI_Isend, where most short sends are complete on
 * return); a complete one is then freed by MPI_Wait, which returns at once.
 * A buffer whose requests bi_buf_post found complete (with the progress
 * thread, !unsure) is not asked again: DGESD2D of one double took 2,180
 * instructions there, now 1,870 (callgrind, MPICH 4.0.2).  One MPI_Testall
 * over several buffers cost more than their requests' own questions
 * without the thread, and one MPI_Waitall saved no more than this with
 * it. */
static int test_buf(bi_buf *b)
{
    for (int i = 0; i < b->nreq; i++) {
        if (b->req[i] == MPI_REQUEST_NULL) continue;
        const int done = !b->unsure || req_done(b, i);
        if (!done && b->peer[i] <= BI_WORD_PEER(0)) { /* a word to come: not the buffer's */
            adopt(b->req[i], 0);
            b->req[i] = MPI_REQUEST_NULL;
            continue;
        }
        if (!done) return 0;
        completed++;
        req_free(b, i);
    }
    return 1;
}

/* test a bounded number of active buffers (round robin), so that
 * thousands of outstanding sends do not make every BLACS call slow: at most
 * 32, and no more once two are found still in flight.  A test of a send
 * still in flight runs MPI's progress engine, which costs the most while
 * the receiver is away (Open MPI retries its full shared-memory queue each
 * time: 1,000 sends of 1 KB to a process outside MPI took 0.5-0.9 s when
 * every send tested 32 of them, against 45 ms for MPI_Isend alone).
 * thread: the progress thread's sweep, which wraps around the queue and
 * keeps no buffer as the calling thread's own */
static void sweep(int budget, int most_busy, int thread)
{
    int busy = 0;
    while (head && budget-- > 0) {
        bi_buf *b = cursor ? cursor : head;
        cursor = b->next;
        if (test_buf(b)) {
            unlink_active(b);
            release(b, !thread);
        } else if (++busy == most_busy) break;
        if (!cursor && !thread) break;
    }
}

static void poll_active(void) { sweep(32, 2, 0); }

/* Polling is lazy: the active buffers are tested once NREADY of them are
 * waiting or they hold POLL_BYTES, not after every send.  A test is not
 * free (MPI's own work).  A short send is asked once as it is posted
 * (post_done) and queued only if still in flight, so the queue holds long
 * messages and sends whose receivers are away; a stream of those pays one
 * poll per NREADY sends, while a long message is still reclaimed at once.
 * Nothing waits on the test: MPI progresses the sends in every call we
 * make. */

void bi_poll(void)
{
    if (bi_g.debug >= 3) bi_check_poll();
    if (!atomic_load_explicit(&due, memory_order_relaxed)) return;
    lock();
    if (poll_due()) poll_active();
    unlock();
}


/* release (not keep) every active buffer whose sends are done */
static void free_finished(void)
{
    if (!head) return;
    for (bi_buf *a = head, *nx; a; a = nx) {
        nx = a->next;
        if (test_buf(a)) {
            unlink_active(a);
            free_buf(a);
        }
    }
}

static BI_NORETURN void out_of_space(size_t n, double waited, const char *why)
{
    /* who are the outstanding sends to? */
    char text[700];
    int len = snprintf(text, sizeof text,
                       "%s: BLACS out of buffer space: no room for %zu bytes (%s, waited %g s); "
                       "%d buffered sends outstanding",
                       bi_cur.routine ? bi_cur.routine : "BLACS", n, why, waited, nactive);
    int *cnt = bi_alloc(NULL, (size_t)bi_g.world_size * sizeof(int), NULL, "an error report");
    memset(cnt, 0, (size_t)bi_g.world_size * sizeof(int));
    /* messages per destination: a long one goes as several sends (p2p.c) */
    for (bi_buf *b = head; b; b = b->next)
        for (int i = 0; i < b->nreq; i++) {
            int dup = 0;
            for (int k = 0; k < i && !dup; k++) dup = b->peer[k] == b->peer[i];
            if (!dup && b->peer[i] >= 0 && b->peer[i] < bi_g.world_size) cnt[b->peer[i]]++;
        }
    const char *sep = ": ";
    for (int r = 0; r < bi_g.world_size && len < (int)sizeof text - 40; r++)
        if (cnt[r]) {
            len += snprintf(text + len, sizeof text - (size_t)len, "%s%d to pnum %d", sep, cnt[r], r);
            sep = ", ";
        }
    free(cnt);
    bi_error(bi_cur.routine ? bi_cur.ctxt : -1, __LINE__, __FILE__, "%s%s", text,
             nactive ? " (are the receives missing?)" : "");
}

/* the BLACS_BUFMAX cap leaves no room for n bytes even once every active
 * buffer is freed (the buffers of the call in progress stay) */
static int cap_hopeless(size_t n)
{
    return bi_g.bufmax && (n > bi_g.bufmax || inuse - active_bytes > bi_g.bufmax - n);
}

/* a ready buffer that fits, or a new one; polls (once) if polled is 0 and
 * none fits, since sends already done may free one that does */
static bi_buf *take(size_t n, int polled)
{
    int k = ready_fit(n);
    if (k >= 0) return ready_take(k);
    if (!polled && poll_due()) {
        poll_active();
        if ((k = ready_fit(n)) >= 0) return ready_take(k);
    }
    /* none fits: make room by releasing the smallest, allocate the size needed */
    if (nready == NREADY) free_buf(ready_take(ready_smallest()));
    bi_buf *b = alloc_buf(n);
    if (b) return b;
    /* emergency (6.2.2): the ready buffers are too small, so their memory
     * goes first; then the active ones as their sends complete, oldest
     * first, each waited for in turn (up to BLACS_BUFWAIT in all).  When
     * no send is outstanding, or the cap cannot fit n even without them,
     * waiting cannot help: the error comes at once. */
    free_ready();
    if ((b = alloc_buf(n))) return b;
    char why[96] = "malloc failed";
    if (bi_g.bufmax)
        snprintf(why, sizeof why, "BLACS_BUFMAX=%zu bytes, %zu of them held", bi_g.bufmax, inuse);
    if (!head || cap_hopeless(n)) out_of_space(n, 0, why);
    double t0 = MPI_Wtime();
    bi_watch_begin('s', -1, -1, 0); /* BLACS_BUFWAIT may be longer than BLACS_WAIT_WARN */
    while (head && MPI_Wtime() - t0 < bi_g.bufwait) {
        if (!test_buf(head)) continue; /* MPI progresses while we ask */
        bi_buf *a = head;
        unlink_active(a);
        free_buf(a);
        if ((b = alloc_buf(n))) break;
    }
    bi_watch_end();
    if (b) return b;
    out_of_space(n, MPI_Wtime() - t0, head ? "its receivers have not taken the buffered sends" : why);
}

/* one of the calling thread's own buffers that fits (NULL: none), the
 * last released first; without mu (above) */
static bi_buf *own_take(size_t n)
{
    for (int i = nown - 1; i >= 0; i--)
        if (own[i]->size >= n) {
            bi_buf *b = own[i];
            own[i] = own[--nown];
            b->nreq = 0;
            return b;
        }
    return NULL;
}

bi_buf *bi_buf_get(size_t n)
{
    bi_poll();
    bi_buf *o = own_take(n);
    if (o) return o;
    lock();
    bi_buf *b = take(n, 1); /* the poll just ran: not again before allocating */
    unlock();
    return b;
}

bi_buf *bi_buf_own(size_t n) { return own_take(n); }

bi_buf *bi_buf_take(size_t n)
{
    bi_buf *o = own_take(n);
    if (o) return o;
    lock();
    bi_buf *b = take(n, 0);
    unlock();
    return b;
}

/* BLACS_BUFMAX caps what locally-blocking sends hold while their receivers
 * are away; a receive's scratch is held for the length of the call only,
 * so it is not counted against the cap: a ready buffer if one fits, else
 * a new one whatever the cap says (out of memory is still an error) */
bi_buf *bi_buf_scratch(size_t n)
{
    bi_buf *o = own_take(n);
    if (o) return o;
    lock();
    int k = ready_fit(n);
    bi_buf *b;
    if (k >= 0) b = ready_take(k);
    else {
        if (nready == NREADY) free_buf(ready_take(ready_smallest()));
        b = alloc_buf_capped(n, 0);
        if (!b) {
            free_ready(); /* the ready buffers are too small: their memory first */
            b = alloc_buf_capped(n, 0);
        }
        if (!b) out_of_space(n, 0, "malloc failed");
    }
    unlock();
    return b;
}

void bi_buf_grow(bi_buf *b)
{
    int m = b->maxreq ? 2 * b->maxreq : 4;
    b->req = bi_alloc(b->req, (size_t)m * sizeof *b->req, NULL, "MPI requests");
    b->peer = bi_alloc(b->peer, (size_t)m * sizeof *b->peer, NULL, "MPI requests");
    b->maxreq = m;
}

/* A short buffer whose one send MPI has completed as MPI_Isend returned
 * is waited for and kept as the calling thread's own at once: never
 * queued, so no mu, no link, no later test.  With the progress thread
 * DGESD2D of one double spent 770 instructions in bi_buf_post, 320 of them
 * on the queue's lock, link and test.  Without it (a program that started
 * MPI itself, BLACS_PROGRESS=0) the buffer used to be queued and tested
 * with the others every NREADY sends: asking at once costs less there too
 * (DGESD2D of one double 1,043 instructions queued, 897 asked; callgrind,
 * MPICH 4.0.2, 1 x 2 echo), and a send not complete yet is queued as
 * before. */
static int post_done(bi_buf *b)
{
    if (b->nreq != 1 || b->size > OWN_BYTES || nown == NREADY || bi_g.bufmax) return 0;
    if (!req_done(b, 0)) return -1;
    req_free(b, 0);
    own_keep(b);
    return 1;
}

void bi_buf_post(bi_buf *b)
{
    if (b->nreq == 0) {
        bi_buf_release(b);
        return;
    }
    const int fast = post_done(b);
    if (fast > 0) {
        bi_poll();
        return;
    }
    lock();
    b->next = NULL;
    b->prev = tail;
    if (tail) tail->next = b;
    else head = b;
    tail = b;
    nactive++;
    active_bytes += b->size;
    atomic_store_explicit(&due, poll_due(), memory_order_relaxed);
    /* known complete already?  (above; only asked with the thread) */
    int done = 0;
    for (int i = 0; shared && !fast && i < b->nreq; i++)
        if (!(done = req_done(b, i))) break;
    b->unsure = !done;
    unsure += !done;
    if (shared) {
        posts++;
        if (!done && !armed) {
            armed = 1;
            if (sleeping) pthread_cond_signal(&wake);
        }
    }
    if (bi_g.debug >= 3) bi_check_poll();
    if (poll_due()) poll_active();
    unlock();
}

/* EXIT's sends of the library's own (b->lib) not complete after
 * WORDS_WAIT: let go, their memory kept until MPI_Finalize has returned
 * (bi_buf_finalized), or for good if the program finalizes MPI itself */
static bi_buf *parked, *let_go;

/* a parked buffer's sends tested once: how many are left */
static int lib_left(void)
{
    int left = 0;
    for (bi_buf *b = parked; b; b = b->next) left += reqs_left(b->req, b->nreq);
    return left;
}

/* BLACS_EXIT, once the program's sends are done: the library's own
 * messages still in flight -- the words' sends and receives, and at
 * BLACS_DEBUG=3 the descriptions' sends (parked) and receives (check.c) --
 * get WORDS_WAIT together (a peer a moment behind: its part comes, and
 * it finds this process inside MPI).  Then receives are dropped and sends
 * let go: a peer may send its part only after this process has gone, and
 * a send whose receive was dropped never completes where MPI completes it
 * only once it is matched. */
static void lib_end(void)
{
    const double t0 = MPI_Wtime();
    while (words_left() + lib_left() + bi_check_left(0) && MPI_Wtime() - t0 < WORDS_WAIT) {}
    if (norphan) words_end(1);
    bi_check_left(1);
    while (parked) {
        bi_buf *b = parked;
        parked = b->next;
        int left = 0;
        for (int i = 0; i < b->nreq; i++)
            if (b->req[i] != MPI_REQUEST_NULL) MPI_Request_free(&b->req[i]), left++;
        if (left) {
            b->next = let_go;
            let_go = b;
        } else free_buf(b);
    }
}

void bi_buf_finalized(void)
{
    lock();
    while (let_go) {
        bi_buf *b = let_go;
        let_go = b->next;
        free_buf(b);
    }
    unlock();
}

void bi_buf_freeall(int wait, const char *routine)
{
    lock();
    if (wait && head) {
        for (bi_buf *b = head, *nx; b; b = nx) {
            nx = b->next;
            if (b->lib) { /* not the program's: EXIT's last (lib_end); FREEBUFF leaves it */
                if (wait == 2) {
                    unlink_active(b);
                    b->next = parked;
                    parked = b;
                }
                continue;
            }
            for (int i = 0; i < b->nreq; i++) {
                if (b->peer[i] <= BI_WORD_PEER(0)) {
                    if (b->req[i] != MPI_REQUEST_NULL) adopt(b->req[i], 0);
                    b->req[i] = MPI_REQUEST_NULL;
                    continue;
                }
                if (bi_watch_on) bi_watch_mark(routine, 's', -1, -1, 0);
                int rc = MPI_Wait(&b->req[i], MPI_STATUS_IGNORE);
                bi_watch_end();
                if (rc != MPI_SUCCESS) send_failed(rc, "MPI_Wait", b, i);
            }
            unlink_active(b);
            free_buf(b);
        }
    } else {
        free_finished();
    }
    free_ready();
    if (wait == 2) lib_end();
    else if (norphan) words_end(0);
    unlock();
}

/* ---- the progress thread's side (progress.c) ---------------------------- */
void bi_buf_share(int on)
{
    /* made once and never destroyed: the job may end (an error, exit)
     * while the main thread holds mu */
    if (on && !made) {
        pthread_mutexattr_t a;
        pthread_mutexattr_init(&a);
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
        pthread_mutex_init(&mu, &a);
        pthread_mutexattr_destroy(&a);
        pthread_cond_init(&wake, NULL);
        made = 1;
    }
    if (on && !shared) {
        armed = unsure > 0;
        sleeping = 0;
        atomic_store(&stopping, 0);
        shared = 1;
    } else if (!on) {
        shared = 0;
    }
}

int bi_buf_armed(void) { return atomic_load_explicit(&armed, memory_order_relaxed); }

int bi_buf_progress(unsigned *events)
{
    if (pthread_mutex_trylock(&mu)) return -1;
    sweep(64, 64, 1); /* a bounded hold of mu: the rest at the next turn */
    if (!unsure) armed = 0;
    *events = posts + completed;
    int left = armed;
    pthread_mutex_unlock(&mu);
    return left;
}

int bi_buf_progress_wait(double seconds)
{
    /* never blocked on mu: the main thread may hold it while the job ends
     * (an error), and then waits for this thread to stop */
    while (pthread_mutex_trylock(&mu)) {
        if (atomic_load(&stopping)) return -1;
        struct timespec t = {0, 100000};
        nanosleep(&t, NULL);
    }
    if (!armed && !stopping && seconds > 0) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        double ns = (double)t.tv_nsec + seconds * 1e9;
        t.tv_sec += (time_t)(ns / 1e9);
        t.tv_nsec = (long)(ns - 1e9 * (double)(time_t)(ns / 1e9));
        sleeping = 1;
        while (!armed && !stopping && pthread_cond_timedwait(&wake, &mu, &t) == 0) {}
        sleeping = 0;
    }
    int r = stopping ? -1 : armed;
    pthread_mutex_unlock(&mu);
    return r;
}

void bi_buf_progress_stop(int stop)
{
    atomic_store(&stopping, stop);
    pthread_mutex_lock(&mu); /* recursive: the main thread may hold it already */
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&mu);
}
