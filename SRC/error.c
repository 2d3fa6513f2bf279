/*
 * error.c -- BLACS errors and warnings in the reference's two-line format
 * (spec section 11):
 *   BLACS ERROR '<text>'
 *   from {<myrow>,<mycol>}, pnum=<world rank>, Contxt=<ctxt>, on line <l> of file '<f>'.
 * Errors flush stdio and call MPI_Abort(MPI_COMM_WORLD, 1).  Unlike the
 * reference, the text is never truncated.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "bi.h"

static void report(const char *kind, Int ctxt, int line, const char *file, const char *fmt,
                   va_list ap)
{
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    int myrow = -1, mycol = -1, pnum = -1, up = 0;
    bi_ctx *c = ctxt >= 0 ? bi_ctx_find(ctxt) : NULL;
    if (c) {
        myrow = c->myrow;
        mycol = c->mycol;
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
