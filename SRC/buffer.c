/*
 * buffer.c -- buffering for locally-blocking sends, LAWN 73 section 6.2.2.
 *
 * A buffer is ready (at most one is kept, unused), active (non-blocking
 * sends are being performed from it: a queue), or inactive (its sends are
 * done; found by polling).  An inactive buffer becomes the ready one if
 * there is none or if it is larger (the old ready one is released),
 * otherwise it is released: at most one unused buffer stays allocated.  All
 * queue work happens after the sends are started, so receivers never pay
 * for it.  When memory runs out (malloc fails or the BLACS_BUFMAX cap is
 * reached) we wait up to BLACS_BUFWAIT seconds (BLACS_SET WHAT=20) for
 * active buffers to drain, then stop with an error that says how many sends
 * are outstanding to whom.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bi.h"

static bi_buf *ready, *head, *tail, *cursor;
static int nactive;
static size_t inuse; /* bytes held by all buffers */

#define ALIGN 64

static bi_buf *alloc_buf(size_t n)
{
    if (bi_g.bufmax && inuse + n > bi_g.bufmax) return NULL;
    bi_buf *b = malloc(sizeof *b + n + ALIGN);
    if (!b) return NULL;
    memset(b, 0, sizeof *b);
    b->size = n;
    uintptr_t p = (uintptr_t)(b + 1);
    b->data = (char *)((p + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
    inuse += n;
    if (bi_g.stats) bi_stats_buffers(inuse);
    return b;
}

static void free_buf(bi_buf *b)
{
    inuse -= b->size;
    free(b->req);
    free(b->peer);
    free(b);
}

/* a buffer nobody sends from any more: keep the larger of it and ready */
void bi_buf_release(bi_buf *b)
{
    if (!b) return;
    b->nreq = 0;
    if (!ready) ready = b;
    else if (b->size > ready->size) {
        free_buf(ready);
        ready = b;
    } else free_buf(b);
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
}

static int test_buf(bi_buf *b)
{
    /* request by request: finished ones become MPI_REQUEST_NULL */
    for (int i = 0; i < b->nreq; i++) {
        int done = 0;
        MPI_Test(&b->req[i], &done, MPI_STATUS_IGNORE);
        if (!done) return 0;
    }
    return 1;
}

/* test a bounded number of active buffers per call (round robin), so that
 * thousands of outstanding sends do not make every BLACS call slow */
void bi_poll(void)
{
    int budget = 32;
    while (head && budget-- > 0) {
        bi_buf *b = cursor ? cursor : head;
        cursor = b->next;
        if (test_buf(b)) {
            unlink_active(b);
            bi_buf_release(b);
        }
        if (!cursor) break;
    }
}

int bi_buf_active_count(void) { return nactive; }

/* release (not keep) every active buffer whose sends are done */
static void free_finished(void)
{
    for (bi_buf *a = head, *nx; a; a = nx) {
        nx = a->next;
        if (test_buf(a)) {
            unlink_active(a);
            free_buf(a);
        }
    }
}

static BI_NORETURN void out_of_space(size_t n)
{
    /* who are the outstanding sends to? */
    char text[600];
    int len = snprintf(text, sizeof text,
                       "BLACS out of buffer space: no room for %zu bytes after waiting %g s; "
                       "%d buffered sends outstanding",
                       n, bi_g.bufwait, nactive);
    int *cnt = calloc((size_t)bi_g.world_size, sizeof(int));
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
    bi_error(-1, __LINE__, __FILE__, "%s (are the receives missing?)", text);
}

bi_buf *bi_buf_get(size_t n)
{
    bi_poll();
    return bi_buf_take(n);
}

bi_buf *bi_buf_take(size_t n)
{
    if (ready && ready->size >= n) {
        bi_buf *b = ready;
        ready = NULL;
        b->nreq = 0;
        return b;
    }
    if (ready) { /* too small: release it and allocate the size needed */
        free_buf(ready);
        ready = NULL;
    }
    bi_buf *b = alloc_buf(n);
    if (b) return b;
    /* emergency: wait for active buffers to drain (6.2.2) */
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < bi_g.bufwait) {
        free_finished();
        if (ready) {
            if (ready->size >= n) {
                b = ready;
                ready = NULL;
                b->nreq = 0;
                return b;
            }
            free_buf(ready);
            ready = NULL;
        }
        if ((b = alloc_buf(n))) return b;
    }
    out_of_space(n);
}

MPI_Request *bi_buf_req(bi_buf *b, int peer)
{
    if (b->nreq == b->maxreq) {
        int m = b->maxreq ? 2 * b->maxreq : 4;
        b->req = realloc(b->req, (size_t)m * sizeof *b->req);
        b->peer = realloc(b->peer, (size_t)m * sizeof *b->peer);
        b->maxreq = m;
    }
    b->peer[b->nreq] = peer;
    return &b->req[b->nreq++];
}

void bi_buf_post(bi_buf *b)
{
    if (b->nreq == 0) {
        bi_buf_release(b);
        return;
    }
    b->next = NULL;
    b->prev = tail;
    if (tail) tail->next = b;
    else head = b;
    tail = b;
    nactive++;
    bi_poll();
}

void bi_buf_freeall(int wait)
{
    if (wait) {
        while (head) {
            bi_buf *b = head;
            for (int i = 0; i < b->nreq; i++) MPI_Wait(&b->req[i], MPI_STATUS_IGNORE);
            unlink_active(b);
            free_buf(b);
        }
    } else {
        free_finished();
    }
    if (ready) {
        free_buf(ready);
        ready = NULL;
    }
}
