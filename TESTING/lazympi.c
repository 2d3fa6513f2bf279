/*
 * lazympi.c -- an MPI whose sends to one congested process move only
 * while their sender is inside MPI: a PMPI layer linked into a test
 * program (t_offmpi_lazy), in front of the library.
 *
 * MPICH and Open MPI move a request only while its owner is inside an MPI
 * call.  A short send mostly leaves as MPI_Isend returns, but not when
 * the receiver's queue is full (a receiver busy or descheduled, many
 * senders): then it waits in the sender's MPI for the sender's next call.
 * A sender that has gone to compute, or waits outside MPI for the very
 * process that needs the message, never makes it.  On this machine that
 * came only under load, one run in eight of one fuzz program; here it
 * comes every time.
 *
 * LAZYMPI_SLOW=r (a rank of MPI_COMM_WORLD; all: every process) makes
 * every MPI_Isend and MPI_Issend to process r a late one: it is not handed
 * to MPI until a test of its sender's (MPI_Test*, MPI_Request_get_status,
 * MPI_Iprobe) comes LAZYMPI_DELAY seconds (default 1) or more after it was
 * posted.  The sender gets a generalized request, completed by such a call
 * once the real send is complete.  A root's MPI_Ibcast on a communicator
 * that holds process r is late the same way (MPICH's and Open MPI's
 * schedules move only while the root is inside MPI); the other
 * non-blocking collectives the library calls hand their communicator's
 * late broadcasts over first, since every process starts a communicator's
 * collectives in one order.  Calls that block inside MPI (MPI_Wait and
 * its kin, unless what they wait for is complete already, MPI_Recv,
 * MPI_Probe, MPI_Send, MPI_Sendrecv, the blocking collectives the library
 * and its tests call, MPI_Finalize), and MPI_Comm_free, hand everything
 * late to MPI first, as a real MPI would send it while the sender waits:
 * so no program hangs or stalls here that would not on a real MPI, and
 * only a sender that tests now and then, or leaves MPI, leaves its late
 * sends behind.  Sends to other processes, receives and the other
 * collectives are MPI's own.  Thread-safe: the library's progress thread
 * tests too.
 *
 * LAZYMPI_FULL=1 is the other side of a full queue: the congested process
 * r has not drained it, so a send to r completes only once r, inside MPI,
 * has matched it, however long its sender waits (MPICH with UCX, 3
 * processes on one node: a receiver's word to its source, a send of no
 * bytes, waited in MPI_Wait while the source was outside MPI).  Every
 * MPI_Isend to r is posted at once as MPI_Issend, which MPI completes only
 * when r's receive matches it; nothing is late.
 */
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct late {
    struct late *next;
    const void *buf;
    int count, dest, tag, sync, started, own_dt;
    int bcast; /* an MPI_Ibcast of its root's (dest: the root), not a send */
    MPI_Datatype dt;
    MPI_Comm comm;
    MPI_Request greq, real;
    double due;
} late;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static late *list, **tail = &list; /* FIFO: handed to MPI in the order posted */
static int slow = -2; /* -2: not read yet; -1: off; -3: every process */
static double delay = 1.0;
static int full; /* LAZYMPI_FULL: sends to the congested process are synchronous, not late */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void settings(void)
{
    if (slow != -2) return;
    const char *s = getenv("LAZYMPI_SLOW"), *d = getenv("LAZYMPI_DELAY");
    if (d) delay = atof(d);
    full = getenv("LAZYMPI_FULL") && atoi(getenv("LAZYMPI_FULL")) > 0;
    slow = !s ? -1 : !strcmp(s, "all") ? -3 : atoi(s);
}

/* rank r of communicator from in communicator to (MPI_UNDEFINED if not there) */
static int translate(MPI_Comm from, int r, MPI_Comm to)
{
    MPI_Group f, t;
    int out = MPI_UNDEFINED;
    PMPI_Comm_group(from, &f);
    PMPI_Comm_group(to, &t);
    PMPI_Group_translate_ranks(f, 1, &r, t, &out);
    PMPI_Group_free(&f);
    PMPI_Group_free(&t);
    return out;
}

/* is rank dest of comm the congested process? */
static int to_slow(int dest, MPI_Comm comm)
{
    settings();
    if (slow == -3) return dest >= 0;
    if (slow < 0 || dest < 0) return 0;
    return translate(comm, dest, MPI_COMM_WORLD) == slow;
}

/* does comm hold the congested process, other than the caller? */
static int holds_slow(MPI_Comm comm)
{
    settings();
    int n, me;
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_rank(comm, &me);
    if (slow == -3) return n > 1;
    if (slow < 0) return 0;
    const int r = translate(MPI_COMM_WORLD, slow, comm);
    return r != MPI_UNDEFINED && r != me;
}

static int query(void *extra, MPI_Status *st)
{
    (void)extra;
    PMPI_Status_set_elements(st, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int release(void *extra) { (void)extra; return MPI_SUCCESS; }
static int cancel(void *extra, int complete) { (void)extra, (void)complete; return MPI_SUCCESS; }

static void start(late *p)
{
    if (p->bcast)
        PMPI_Ibcast((void *)p->buf, p->count, p->dt, p->dest, p->comm, &p->real);
    else if (p->sync)
        PMPI_Issend(p->buf, p->count, p->dt, p->dest, p->tag, p->comm, &p->real);
    else
        PMPI_Isend(p->buf, p->count, p->dt, p->dest, p->tag, p->comm, &p->real);
    if (p->own_dt) PMPI_Type_free(&p->dt); /* MPI holds it now */
    p->started = 1;
}

/* the sender is inside MPI: hand over the late sends that are due (all of
 * them with all), and complete the generalized requests of those done */
static void progress(int all)
{
    pthread_mutex_lock(&mu);
    const double t = now();
    for (late **pp = &list, *p; (p = *pp);) {
        if (!p->started && (all || t >= p->due)) start(p);
        int done = 0;
        if (p->started) PMPI_Test(&p->real, &done, MPI_STATUS_IGNORE);
        if (!done) {
            pp = &p->next;
            continue;
        }
        if (!(*pp = p->next)) tail = pp;
        PMPI_Grequest_complete(p->greq);
        free(p);
    }
    pthread_mutex_unlock(&mu);
}

/* a collective on comm: the late broadcasts on it go first, since every
 * process must start comm's collectives in the same order */
static void collectives_first(MPI_Comm comm)
{
    pthread_mutex_lock(&mu);
    for (late *p = list; p; p = p->next)
        if (p->bcast && !p->started && p->comm == comm) start(p);
    pthread_mutex_unlock(&mu);
}

/* a late send or broadcast: kept here, the caller given a generalized request */
static int keep(late *p, MPI_Request *req)
{
    late *k = malloc(sizeof *k);
    if (!k) return MPI_ERR_NO_MEM;
    *k = *p;
    p = k;
    p->due = now() + delay;
    /* the caller may free a derived datatype once the send is posted: MPI
     * keeps it for the send, so this layer keeps a copy */
    int ni, na, nd, comb;
    PMPI_Type_get_envelope(p->dt, &ni, &na, &nd, &comb);
    if (comb != MPI_COMBINER_NAMED) {
        PMPI_Type_dup(p->dt, &p->dt);
        p->own_dt = 1;
    }
    int rc = PMPI_Grequest_start(query, release, cancel, NULL, &p->greq);
    if (rc != MPI_SUCCESS) {
        free(p);
        return rc;
    }
    *req = p->greq;
    pthread_mutex_lock(&mu); /* at the tail: handed to MPI in the order posted, as MPI orders them */
    p->next = NULL;
    *tail = p;
    tail = &p->next;
    pthread_mutex_unlock(&mu);
    return MPI_SUCCESS;
}

static int post(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                MPI_Request *req, int sync)
{
    const int to = to_slow(dest, comm);
    if (!to || full)
        return sync || to ? PMPI_Issend(buf, count, dt, dest, tag, comm, req)
                          : PMPI_Isend(buf, count, dt, dest, tag, comm, req);
    return keep(&(late){.buf = buf, .count = count, .dest = dest, .tag = tag, .sync = sync,
                        .dt = dt, .comm = comm},
                req);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    return post(buf, count, dt, dest, tag, comm, req, 0);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    return post(buf, count, dt, dest, tag, comm, req, 1);
}

/* a root's broadcast to the congested process is late like a send: MPI's
 * schedules move it only while the root is inside MPI */
int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
    collectives_first(comm);
    int me;
    PMPI_Comm_rank(comm, &me);
    if (me != root || !holds_slow(comm) || full) return PMPI_Ibcast(buf, count, dt, root, comm, req);
    return keep(&(late){.buf = buf, .count = count, .dest = root, .bcast = 1, .dt = dt,
                        .comm = comm},
                req);
}

int MPI_Ireduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *req)
{
    collectives_first(comm);
    return PMPI_Ireduce(s, r, n, t, op, root, comm, req);
}

int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                   MPI_Request *req)
{
    collectives_first(comm);
    return PMPI_Iallreduce(s, r, n, t, op, comm, req);
}

/* tests: progress, then MPI's answer */
int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
    progress(0);
    return PMPI_Test(r, flag, st);
}

int MPI_Testall(int n, MPI_Request r[], int *flag, MPI_Status st[])
{
    progress(0);
    return PMPI_Testall(n, r, flag, st);
}

int MPI_Testany(int n, MPI_Request r[], int *idx, int *flag, MPI_Status *st)
{
    progress(0);
    return PMPI_Testany(n, r, idx, flag, st);
}

int MPI_Testsome(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[])
{
    progress(0);
    return PMPI_Testsome(n, r, out, idx, st);
}

int MPI_Request_get_status(MPI_Request r, int *flag, MPI_Status *st)
{
    progress(0);
    return PMPI_Request_get_status(r, flag, st);
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
    progress(0);
    return PMPI_Iprobe(src, tag, comm, flag, st);
}

/* waits block inside MPI: unless what they wait for is complete already
 * (then MPI returns at once), every late send goes first, as MPI would
 * send it while the sender waits (a receiver inside MPI takes it then);
 * by testing, since a generalized request completes only here */
int MPI_Wait(MPI_Request *r, MPI_Status *st)
{
    for (int f = 0, n = 0;; n++) {
        if (n) progress(1);
        int rc = PMPI_Test(r, &f, st);
        if (rc != MPI_SUCCESS || f) return rc;
        sched_yield();
    }
}

int MPI_Waitall(int n, MPI_Request r[], MPI_Status st[])
{
    for (int f = 0, k = 0;; k++) {
        if (k) progress(1);
        int rc = PMPI_Testall(n, r, &f, st);
        if (rc != MPI_SUCCESS || f) return rc;
        sched_yield();
    }
}

int MPI_Waitany(int n, MPI_Request r[], int *idx, MPI_Status *st)
{
    for (int f = 0, k = 0;; k++) {
        if (k) progress(1);
        int rc = PMPI_Testany(n, r, idx, &f, st);
        if (rc != MPI_SUCCESS || f) return rc;
        sched_yield();
    }
}

int MPI_Waitsome(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[])
{
    for (int k = 0;; k++) {
        if (k) progress(1);
        int rc = PMPI_Testsome(n, r, out, idx, st);
        if (rc != MPI_SUCCESS || *out != 0) return rc;
        sched_yield();
    }
}

/* calls that block inside MPI: every late send goes first */
int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    progress(1);
    return PMPI_Recv(buf, count, dt, src, tag, comm, st);
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    progress(1);
    return PMPI_Probe(src, tag, comm, st);
}

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    progress(1);
    return PMPI_Send(buf, count, dt, dest, tag, comm);
}

int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int dest, int stag, void *rb, int rn,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *s)
{
    progress(1); /* and after the late sends: MPI orders a pair's messages */
    return PMPI_Sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, comm, s);
}

/* the blocking collectives that the library and its tests call */
int MPI_Barrier(MPI_Comm comm)
{
    progress(1);
    return PMPI_Barrier(comm);
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    progress(1);
    return PMPI_Bcast(b, n, t, root, comm);
}

int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
    progress(1);
    return PMPI_Reduce(s, r, n, t, op, root, comm);
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    progress(1);
    return PMPI_Allreduce(s, r, n, t, op, comm);
}

int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  MPI_Comm comm)
{
    progress(1);
    return PMPI_Allgather(s, sn, st, r, rn, rt, comm);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out)
{
    progress(1);
    return PMPI_Comm_split(comm, color, key, out);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out)
{
    progress(1);
    return PMPI_Comm_split_type(comm, type, key, info, out);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out)
{
    progress(1);
    return PMPI_Comm_dup(comm, out);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *out)
{
    progress(1);
    return PMPI_Comm_create(comm, g, out);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag, MPI_Comm *out)
{
    progress(1);
    return PMPI_Comm_create_group(comm, g, tag, out);
}

/* and before a communicator goes: MPI keeps a freed one for the sends
 * already handed to it, not for those still here */
int MPI_Comm_free(MPI_Comm *comm)
{
    progress(1);
    return PMPI_Comm_free(comm);
}

int MPI_Finalize(void)
{
    for (double t0 = now(); list && now() - t0 < 10;) { /* BLACS_EXIT has waited for all of them */
        progress(1);
        sched_yield();
    }
    return PMPI_Finalize();
}
