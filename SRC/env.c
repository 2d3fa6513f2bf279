/*
 * env.c -- the numeric BLACS_* environment variables, read through one
 * parser.  atof/atoi turn anything that is not a number into 0, and 0 is a
 * meaningful value for most of them (BLACS_HANG_TIMEOUT=0 makes every wait
 * a hang, BLACS_WAIT_WARN=0 turns the warning off): a typo would quietly
 * change what the library does.  So a value must be one number, all of it
 * (blanks around it allowed), within the variable's range, or the job
 * stops with a BLACS error naming the variable and its value.  Unset or
 * empty means the default.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include "base.h"

double bi_env_number(const char *name, double def, double lo, double hi, int flags)
{
    const char *v = getenv(name);
    if (!v) return def;
    const char *p = v;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) return def;
    char *end;
    double x = strtod(p, &end);
    const char *why = NULL;
    if (end == p || isnan(x)) {
        why = "is not a number";
    } else {
        if (flags & BI_ENV_SIZE) { /* binary multiples: 512M, 2G */
            switch (*end) {
            case 'k': case 'K': x *= 1024.0; end++; break;
            case 'm': case 'M': x *= 1024.0 * 1024.0; end++; break;
            case 'g': case 'G': x *= 1024.0 * 1024.0 * 1024.0; end++; break;
            default: break;
            }
        }
        while (isspace((unsigned char)*end)) end++;
        if (*end) why = "is not a number (text follows it)";
        else if ((flags & BI_ENV_INT) && x != floor(x)) why = "is not a whole number";
        else if (x < lo || x > hi) why = "is out of range";
    }
    if (why) {
        /* read where it is first needed: PINFO, or a communication routine */
        const char *routine = bi_cur.routine ? bi_cur.routine : "BLACS_PINFO";
        bi_error(bi_cur.routine ? bi_cur.ctxt : -1, -1, routine,
                 "%s: environment variable %s='%s' %s (expected %s from %g to %g%s)", routine,
                 name, v, why, (flags & BI_ENV_INT) ? "a whole number" : "a number", lo, hi,
                 (flags & BI_ENV_SIZE) ? ", optionally followed by k, M or G" : "");
    }
    return x;
}
