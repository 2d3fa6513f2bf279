/*
 * error.c -- BLACS errors and warnings in the reference's two-line format
 * (the same lines, so that tools and people reading them need nothing new):
 *   BLACS ERROR '<text>'
 *   from {<myrow>,<mycol>}, pnum=<world rank>, Contxt=<ctxt>, on line <l> of file '<f>'.
 * Errors flush stdio and call MPI_Abort(MPI_COMM_WORLD, 1).  Unlike the
 * reference, the text is never truncated.
 *
 * MPI errors: every MPI return code is checked (BI_MPI in bi.h),
 * and a failure is a BLACS error like any other: "<routine>: MPI error in
 * <MPI call>: <MPI_Error_string>", from the line of the call.  For that MPI
 * must return its errors rather than stop the job itself, and it reports
 * each error to the handler of one communicator:
 *  - the communicators we make (a grid's, its row/column scope ones) get
 *    MPI_ERRORS_RETURN when made (grid.c), so the calls on them -- all
 *    of the library's traffic -- come back to our check;
 *  - communicators the user owns -- MPI_COMM_WORLD, the system contexts
 *    handed to GRIDINIT/GRIDMAP -- keep the user's handler, and we never
 *    change it, not even for the length of one call: another thread of the
 *    program (MPI_THREAD_MULTIPLE) may look at it or set its own at any
 *    moment, and a program that relies on MPI's default
 *    (MPI_ERRORS_ARE_FATAL) must not start getting codes it does not
 *    check.  The few calls we make on them are the rank, size and
 *    MPI_TAG_UB queries of PINFO and the size query, MPI_Comm_group,
 *    MPI_Comm_create and the reading of the handler (for the communicator
 *    of BLACS_GET WHAT=10) of GRIDINIT/GRIDMAP.  The queries cannot fail on a
 *    valid communicator; MPI_Comm_create can (MPI out of communicators):
 *    that error goes to the user's handler, which with MPI's default stops
 *    the job with MPI's own message, and with one that returns, our check
 *    reports it naming the routine.  A private duplicate of MPI_COMM_WORLD
 *    made at PINFO would be ours, but MPI_Comm_dup is collective: PINFO
 *    would wait for processes that never use the BLACS;
 *  - request completions (MPI_Wait, MPI_Test and their kin): Open MPI
 *    reports their errors to the request's communicator, always one of
 *    ours, except those of non-blocking collectives (MPI_Ibcast under
 *    BLACS_DEBUG=2: libnbc reports them on MPI_COMM_WORLD).  MPICH (4.0) reports them to the handler of MPI_COMM_WORLD,
 *    whatever the request's communicator, and every completion call does
 *    (MPI_Waitall and MPI_Testall too, with MPI_ERR_IN_STATUS, and
 *    MPI_Request_get_status).  The error that happens there is a
 *    truncation: a point-to-point receive of a non-blocking algorithm cut
 *    short by a longer message, because the processes disagree on the
 *    element count.  Under MPICH it reaches the user's handler of
 *    MPI_COMM_WORLD first: with MPI's default the job stops with MPICH's
 *    "Message truncated" from MPI_Wait; with a handler that returns, our
 *    check then reports the BLACS error.  A shorter message is no MPI
 *    error (bi_recv_check reports it), and TOP ' ' collectives carry their
 *    count (bi.h, BI_CNT_HDR) in front of short vectors, so mostly longer
 *    messages of the BLACS topologies get there (and, under Open MPI,
 *    MPI_Ibcast's);
 *  - calls tied to no communicator (datatypes, groups, ops) report to the
 *    handler of MPI_COMM_WORLD (MPI_COMM_SELF in MPI 4), which we leave
 *    alone for the same reason: with the default handler MPI stops the job
 *    with its own message, otherwise our check does.
 * The calls on the way out (MPI_Initialized, MPI_Abort, ...) are not
 * checked: the job is stopping anyway.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "base.h"

/* grid coordinates of this process in each live context, for the "from
 * {r,c}" line: grid.c tells them here (bi_error_grid), so reporting an
 * error never reaches up into the context layer */
static struct { int row, col; } *coords;
static Int ncoords;

void bi_error_grid(Int h, int myrow, int mycol)
{
    if (h < 0) { /* BLACS_EXIT: every context is gone */
        free(coords);
        coords = NULL;
        ncoords = 0;
        return;
    }
    if (h >= ncoords) {
        Int n = ncoords ? 2 * ncoords : 16;
        while (n <= h) n *= 2;
        void *p = realloc(coords, (size_t)n * sizeof *coords);
        if (!p) return; /* only the coordinates of the message are lost */
        coords = p;
        for (Int i = ncoords; i < n; i++) coords[i].row = coords[i].col = -1;
        ncoords = n;
    }
    coords[h].row = myrow;
    coords[h].col = mycol;
}

static void report(const char *kind, Int ctxt, int line, const char *file, const char *fmt,
                   va_list ap)
{
    char text[2048]; /* an MPI error string is up to MPI_MAX_ERROR_STRING long */
    vsnprintf(text, sizeof text, fmt, ap);
    int myrow = -1, mycol = -1, pnum = -1, up = 0;
    if (ctxt >= 0 && ctxt < ncoords) {
        myrow = coords[ctxt].row;
        mycol = coords[ctxt].col;
    }
    MPI_Initialized(&up);
    if (up) {
        int down = 0;
        MPI_Finalized(&down);
        if (!down) MPI_Comm_rank(MPI_COMM_WORLD, &pnum);
    }
    fflush(stdout);
    fprintf(stderr, "BLACS %s '%s'\nfrom {%d,%d}, pnum=%d, Contxt=%ld, on line %d of file '%s'.\n\n",
            kind, text, myrow, mycol, pnum, (long)ctxt, line, file);
    fflush(stderr);
}

/* MPI_Abort tears the job down at once; give the launcher a moment to
 * forward what this process just wrote, or the message can be lost */
void bi_linger(void)
{
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
}

void bi_error(Int ctxt, int line, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("ERROR", ctxt, line, file, fmt, ap);
    va_end(ap);
    int up = 0, down = 0;
    MPI_Initialized(&up);
    if (up) MPI_Finalized(&down);
    bi_linger();
    if (up && !down) MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

void *bi_alloc(void *old, size_t n, const char *routine, const char *what)
{
    void *p = realloc(old, n ? n : 1);
    if (p) return p;
    Int ctxt = -1;
    if (!routine) {
        routine = bi_cur.routine ? bi_cur.routine : "BLACS";
        ctxt = bi_cur.routine ? bi_cur.ctxt : -1;
    }
    bi_error(ctxt, -1, routine, "%s: out of memory: no room for %zu bytes (%s)", routine, n, what);
}

void bi_warn(Int ctxt, int line, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("WARNING", ctxt, line, file, fmt, ap);
    va_end(ap);
}

void bi_argerr(Int ctxt, const char *routine, int argno, const char *argname, const char *fmt, ...)
{
    char text[900], full[1000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "%s: illegal argument %d (%s): %s", routine, argno, argname, text);
    bi_error(ctxt, -1, routine, "%s", full);
}

void bi_mpi_fail(int rc, const char *call, Int ctxt, const char *routine, int line,
                 const char *file)
{
    if (!routine) { /* the communication routine being executed */
        routine = bi_cur.routine ? bi_cur.routine : "BLACS";
        ctxt = bi_cur.routine ? bi_cur.ctxt : -1;
    }
    char s[MPI_MAX_ERROR_STRING + 1] = "";
    int len = 0, cls = MPI_ERR_UNKNOWN;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "MPI error code %d", rc);
    MPI_Error_class(rc, &cls);
    /* the usual cause in a BLACS program: shapes of different sizes */
    const char *hint = cls == MPI_ERR_TRUNCATE
                           ? " (a message was longer than its receive: do all processes of the "
                             "operation pass the same number of elements?)"
                           : "";
    bi_error(ctxt, line, file, "%s: MPI error in %s: %s%s", routine, call, s, hint);
}

void bi_count_mismatch(const char *op, size_t here, long long other, const char *where,
                       const char *must)
{
    char o[64] = "another number";
    if (other >= 0) snprintf(o, sizeof o, "%lld", other);
    bi_error(bi_cur.ctxt, __LINE__, __FILE__,
             "%s: the processes of the %s pass different numbers of elements (%zu here, %s %s): "
             "%s",
             bi_cur.routine ? bi_cur.routine : "BLACS", op, here, o, where, must);
}

/* ---- what a call and a wait are, in words (hang reports, the long-wait
 * warning, cross-check failures) ---------------------------------------- */
static const char *kind_name(char k)
{
    switch (k) {
    case 's': return "point-to-point send";
    case 'v': return "point-to-point receive";
    case 'b': return "broadcast send";
    case 'r': return "broadcast receive";
    case 'c': return "combine";
    default: return "call";
    }
}

void bi_call_text(const bi_call *c, char *out, size_t n)
{
    if (!c->routine) {
        snprintf(out, n, "(nothing)");
        return;
    }
    char ran[24] = ""; /* the letter that runs, when the plan made it another */
    if (c->ran && c->ran != c->top) snprintf(ran, sizeof ran, ", running '%c'", c->ran);
    snprintf(out, n, "%s (%s, context %ld, scope '%c', topology '%c'%s, %zu elements, %s {%ld,%ld})",
             c->routine, kind_name(c->kind), (long)c->ctxt, c->scope ? c->scope : '-',
             c->top ? c->top : '-', ran, c->count,
             c->kind == 's' ? "to" : c->kind == 'c' ? "destination" : c->kind == 'b' ? "from" : "source",
             (long)c->rr, (long)c->rc);
}

void bi_wait_text(char dir, int peer, int tag, size_t bytes, char *out, size_t n)
{
    char who[48] = "any process of the grid", id[40] = "", sz[32] = "";
    if (peer >= 0) snprintf(who, sizeof who, "rank %d of the grid", peer);
    if (tag >= 0) snprintf(id, sizeof id, ", message ID %d", tag);
    if (bytes) snprintf(sz, sizeof sz, ", %zu bytes", bytes);
    if (dir == 'c') snprintf(out, n, "the other processes of the scope in an MPI collective%s", sz);
    else if (dir == 's' && peer < 0) snprintf(out, n, "its sends to be received%s", id);
    else if (dir == 's') snprintf(out, n, "%s to take a message%s%s", who, id, sz);
    else snprintf(out, n, "a message from %s%s%s", who, id, sz);
}
