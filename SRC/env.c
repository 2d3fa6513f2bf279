/*
 * env.c -- the BLACS_* environment variables, every one of them described
 * by the table of settings.def and read here, through one parser: nothing
 * else in the library calls getenv.  atof/atoi turn anything that is not a
 * number into 0, and 0 is a meaningful value for most of them
 * (BLACS_HANG_TIMEOUT=0 makes every wait a hang, BLACS_WAIT_WARN=0 turns
 * the warning off): a typo would quietly change what the library does.  So
 * a numeric value must be one number, all of it (blanks around it allowed),
 * within the variable's range, and a CHOICE one of its words, or the job
 * stops with a BLACS error naming the variable and its value.  Unset or
 * empty means the default.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "base.h"

const bi_setting bi_settings[BI_NSETTINGS] = {
#define BI_SETTING(name, kind, def, lo, hi, agree, defdoc, doc) \
    {"BLACS_" #name, BI_SK_##kind, def, lo, hi, BI_AG_##agree, defdoc, doc},
#include "settings.def"
#undef BI_SETTING
};

const char *bi_env_text(int id) { return getenv(bi_settings[id].name); }

/* reported where the value is first needed: PINFO, or a communication routine */
BI_NORETURN static void bad(const bi_setting *s, const char *v, const char *why, const char *expected)
{
    const char *routine = bi_cur.routine ? bi_cur.routine : "BLACS_PINFO";
    bi_error(bi_cur.routine ? bi_cur.ctxt : -1, -1, routine,
             "%s: environment variable %s='%s' %s (expected %s)", routine, s->name, v, why, expected);
}

static const char *blank_skip(const char *p)
{
    while (isspace((unsigned char)*p)) p++;
    return p;
}

double bi_env_num_or(int id, double def)
{
    const bi_setting *s = &bi_settings[id];
    const char *v = getenv(s->name);
    if (!v || !*blank_skip(v)) return def;
    const char *p = blank_skip(v);
    char *end;
    double x = strtod(p, &end);
    const char *why = NULL;
    if (end == p || isnan(x)) {
        why = "is not a number";
    } else {
        if (s->kind == BI_SK_SIZE) { /* binary multiples: 512M, 2G */
            switch (*end) {
            case 'k': case 'K': x *= 1024.0; end++; break;
            case 'm': case 'M': x *= 1024.0 * 1024.0; end++; break;
            case 'g': case 'G': x *= 1024.0 * 1024.0 * 1024.0; end++; break;
            default: break;
            }
        }
        end = (char *)blank_skip(end);
        if (*end) why = "is not a number (text follows it)";
        else if (s->kind == BI_SK_INT && x != floor(x)) why = "is not a whole number";
        else if (x < s->lo || x > s->hi) why = "is out of range";
    }
    if (why) {
        char expected[160];
        snprintf(expected, sizeof expected, "%s from %g to %g%s",
                 s->kind == BI_SK_INT ? "a whole number" : "a number", s->lo, s->hi,
                 s->kind == BI_SK_SIZE ? ", optionally followed by k, M or G" : "");
        bad(s, v, why, expected);
    }
    return x;
}

double bi_env_num(int id) { return bi_env_num_or(id, bi_settings[id].def); }

int bi_env_flag(int id)
{
    const char *v = getenv(bi_settings[id].name);
    return v && *v && *v != '0';
}

/* the words of a CHOICE start its doc: "auto|node|net: ..." */
int bi_env_choice(int id)
{
    const bi_setting *s = &bi_settings[id];
    const char *v = getenv(s->name);
    if (!v || !*blank_skip(v)) return 0;
    const char *p = blank_skip(v), *q = p + strlen(p);
    while (q > p && isspace((unsigned char)q[-1])) q--;
    size_t len = (size_t)(q - p);
    const char *w = s->doc;
    for (int k = 0;; k++) {
        size_t n = strcspn(w, "|:");
        if (n == len && strncmp(w, p, len) == 0) return k;
        if (w[n] != '|') break;
        w += n + 1;
    }
    char expected[96];
    snprintf(expected, sizeof expected, "one of %.*s", (int)strcspn(s->doc, ":"), s->doc);
    bad(s, v, "is not a known value", expected);
}

/* the settings in effect, one per line after header, as this process reads
 * them (environment) or their defaults, in one write to stderr; for
 * BLACS_DEBUG >= 1 (agree.c) */
void bi_settings_print(const char *header)
{
    char buf[8192];
    size_t off = (size_t)snprintf(buf, sizeof buf, "%s\n", header);
    for (int i = 0; i < BI_NSETTINGS && off < sizeof buf; i++) {
        const bi_setting *s = &bi_settings[i];
        const char *v = getenv(s->name);
        int set = v && (*blank_skip(v) || s->kind == BI_SK_TEXT);
        off += (size_t)snprintf(buf + off, sizeof buf - off, "  %-22s %s (%s)\n", s->name,
                                set ? v : s->defdoc, set ? "environment" : "default");
    }
    fputs(buf, stderr);
    fflush(stderr);
}
