/*
 * bt_deck.c -- reads the four tester decks in the formats of the reference
 * tester.  Each "read" behaves like a Fortran list-directed READ:
 * it starts on a new line, takes values separated by blanks or commas (going
 * on to the next lines when it needs more), and ignores the rest of its last
 * line, which is where the decks keep their comments.  Characters are quoted
 * ('R', ' ') or bare; r*v repeats a value; '/' ends a read early (an error
 * here: the tester has no defaults).  Only the first "count" values of each
 * list are used.
 */
#include "bt.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    FILE *f;
    const char *path;
    int line;                  /* current line number */
    char buf[1024];
    size_t pos;
    int have;                  /* buf holds a line */
    char rep[256];             /* pending repeated value */
    int nrep;
} rd_t;

static int rd_fail(rd_t *r, const char *what, const char *why)
{
    fprintf(stderr, "BLACS tester: %s:%d: reading %s: %s\n", r->path, r->line, what, why);
    return -1;
}

static int rd_line(rd_t *r)
{
    if (!fgets(r->buf, sizeof r->buf, r->f)) return 0;
    r->line++;
    r->pos = 0;
    r->have = 1;
    return 1;
}

/* a new READ: start at the next line */
static int rd_begin(rd_t *r)
{
    r->nrep = 0;
    return rd_line(r);
}

/* next value of the current READ into tok (quoted text without the quotes);
 * *quoted tells which.  Returns 1, 0 at end of file, -1 at '/' */
static int rd_tok(rd_t *r, char *tok, size_t cap, int *quoted)
{
    if (r->nrep > 0) {
        r->nrep--;
        snprintf(tok, cap, "%s", r->rep + 1);
        *quoted = r->rep[0] == 'q';
        return 1;
    }
    for (;;) {
        while (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\t' || r->buf[r->pos] == ',' ||
               r->buf[r->pos] == '\r')
            r->pos++;
        if (r->buf[r->pos] == '\n' || r->buf[r->pos] == 0) {
            if (!rd_line(r)) return 0;
            continue;
        }
        break;
    }
    char *p = r->buf + r->pos;
    size_t k = 0;
    int rcount = 0;
    if (*p == '/') return -1;
    /* repeat count r*value */
    if (isdigit((unsigned char)*p)) {
        char *e;
        long v = strtol(p, &e, 10);
        if (*e == '*') {
            rcount = (int)v;
            p = e + 1;
        }
    }
    if (*p == '\'' || *p == '"') {
        char q = *p++;
        for (;;) {
            if (*p == 0 || *p == '\n') break;          /* unterminated: take the rest */
            if (*p == q) {
                if (p[1] == q) { if (k + 1 < cap) tok[k++] = q; p += 2; continue; }
                p++;
                break;
            }
            if (k + 1 < cap) tok[k++] = *p;
            p++;
        }
        *quoted = 1;
    } else {
        while (*p && !isspace((unsigned char)*p) && *p != ',' && *p != '/') {
            if (k + 1 < cap) tok[k++] = *p;
            p++;
        }
        *quoted = 0;
    }
    tok[k] = 0;
    r->pos = (size_t)(p - r->buf);
    if (rcount > 1) {
        r->rep[0] = *quoted ? 'q' : 'u';
        snprintf(r->rep + 1, sizeof r->rep - 1, "%s", tok);
        r->nrep = rcount - 1;
    }
    return 1;
}

static int rd_int_tok(rd_t *r, blacs_int *v, const char *what)
{
    char tok[256];
    int q, rc = rd_tok(r, tok, sizeof tok, &q);
    if (rc == 0) return rd_fail(r, what, "unexpected end of file");
    if (rc < 0) return rd_fail(r, what, "'/' before all values were read");
    char *e;
    errno = 0;
    long long x = strtoll(tok, &e, 10);
    if (q || e == tok || *e || errno) {
        char why[300];
        snprintf(why, sizeof why, "'%s' is not an integer", tok);
        return rd_fail(r, what, why);
    }
    *v = (blacs_int)x;
    return 0;
}

static int rd_char_tok(rd_t *r, char *c, const char *what)
{
    char tok[256];
    int q, rc = rd_tok(r, tok, sizeof tok, &q);
    if (rc == 0) return rd_fail(r, what, "unexpected end of file");
    if (rc < 0) return rd_fail(r, what, "'/' before all values were read");
    *c = tok[0] ? tok[0] : ' ';
    return 0;
}

/* one READ of a single integer */
static int rd_int(rd_t *r, int *v, const char *what, int lo, int hi)
{
    blacs_int x;
    if (!rd_begin(r)) return rd_fail(r, what, "unexpected end of file");
    if (rd_int_tok(r, &x, what)) return -1;
    if (x < lo || x > hi) {
        char why[100];
        snprintf(why, sizeof why, "%ld is outside [%d, %d]", (long)x, lo, hi);
        return rd_fail(r, what, why);
    }
    *v = (int)x;
    return 0;
}

/* one READ of n integers */
static int rd_ints(rd_t *r, int n, blacs_int *v, const char *what)
{
    if (!rd_begin(r)) return rd_fail(r, what, "unexpected end of file");
    for (int k = 0; k < n; k++)
        if (rd_int_tok(r, &v[k], what)) return -1;
    return 0;
}

/* one READ of n characters */
static int rd_chars(rd_t *r, int n, char *v, const char *what)
{
    if (!rd_begin(r)) return rd_fail(r, what, "unexpected end of file");
    for (int k = 0; k < n; k++)
        if (rd_char_tok(r, &v[k], what)) return -1;
    return 0;
}

static int rd_open(rd_t *r, const char *path)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) {
        fprintf(stderr, "BLACS tester: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int rd_close(rd_t *r, int rc)
{
    fclose(r->f);
    return rc;
}

static int flag(rd_t *r, int *v, const char *what)
{
    char tok[256];
    int q;
    if (!rd_begin(r)) return rd_fail(r, what, "unexpected end of file");
    if (rd_tok(r, tok, sizeof tok, &q) != 1) return rd_fail(r, what, "missing");
    char c = (char)toupper((unsigned char)(tok[0] == '.' ? tok[1] : tok[0]));
    if (c != 'T' && c != 'F') return rd_fail(r, what, "must be 'T' or 'F'");
    *v = c == 'T';
    return 0;
}

int bt_read_main(const char *path, bt_main_deck *d)
{
    rd_t r;
    if (rd_open(&r, path)) return -1;
    memset(d, 0, sizeof *d);
    /* comment line(s): everything up to the first line that starts with an integer */
    int got = 0;
    for (int tries = 0; tries < 10 && !got; tries++) {
        if (!rd_begin(&r)) return rd_close(&r, rd_fail(&r, "output unit", "unexpected end of file"));
        if (tries == 0) continue;                   /* the first line is always a comment */
        char *p = r.buf;
        while (*p == ' ' || *p == '\t') p++;
        if (isdigit((unsigned char)*p) || *p == '-') {
            blacs_int u;
            if (rd_int_tok(&r, &u, "output unit")) return rd_close(&r, -1);
            d->outunit = (int)u;
            got = 1;
        }
    }
    if (!got) return rd_close(&r, rd_fail(&r, "output unit", "no integer found"));
    char tok[256];
    int q;
    if (!rd_begin(&r) || rd_tok(&r, tok, sizeof tok, &q) != 1)
        return rd_close(&r, rd_fail(&r, "output file name", "missing"));
    snprintf(d->outfile, sizeof d->outfile, "%s", tok);
    if (flag(&r, &d->sdrv, "SDRV flag") || flag(&r, &d->bsbr, "BSBR flag") ||
        flag(&r, &d->comb, "COMB flag") || flag(&r, &d->aux, "AUX flag"))
        return rd_close(&r, -1);
    int nt;
    if (rd_int(&r, &nt, "number of precisions", 0, 1000)) return rd_close(&r, -1);
    if (nt > BT_NTYPE) nt = BT_NTYPE;
    char tc[BT_NTYPE];
    if (nt > 0 && rd_chars(&r, nt, tc, "precisions")) return rd_close(&r, -1);
    if (nt == 0 && !rd_begin(&r)) return rd_close(&r, rd_fail(&r, "precisions", "missing"));
    d->ntype = 0;
    for (int k = 0; k < nt; k++) {
        const char *p = strchr("ISDCZ", toupper((unsigned char)tc[k]));
        if (!p || !tc[k]) return rd_close(&r, rd_fail(&r, "precisions", "unknown precision letter"));
        d->types[d->ntype++] = (int)(p - "ISDCZ");
    }
    if (rd_int(&r, &d->verb, "verbosity", -1000, 1000)) return rd_close(&r, -1);
    if (d->verb < 0) d->verb = 0;
    if (d->verb > 2) d->verb = 2;
    return rd_close(&r, 0);
}

#define COUNT(field, what)                                                                      \
    do {                                                                                        \
        if (rd_int(&r, &d->field, what, 0, BT_MAXL)) return rd_close(&r, -1);                   \
    } while (0)
#define CHARS(n, arr, what)                                                                     \
    do {                                                                                        \
        if (rd_chars(&r, (n), d->arr, what)) return rd_close(&r, -1);                          \
    } while (0)
#define INTS(n, arr, what)                                                                      \
    do {                                                                                        \
        if (rd_ints(&r, (n), d->arr, what)) return rd_close(&r, -1);                            \
    } while (0)

/* M, N >= 0 and LDA >= M (the reference aborts otherwise) */
static int check_mats(rd_t *r, const bt_deck *d, int ldi)
{
    for (int k = 0; k < d->nmat; k++) {
        if (d->m[k] < 0 || d->n[k] < 0) return rd_fail(r, "matrices", "M and N must be >= 0");
        if (d->ldas[k] < d->m[k] || d->ldad[k] < d->m[k])
            return rd_fail(r, "matrices", "LDASRC and LDADEST must be >= M");
        if (ldi && d->ldi[k] != -1 && d->ldi[k] < d->m[k])
            return rd_fail(r, "matrices", "LDI must be -1 or >= M");
    }
    for (int k = 0; k < d->ngrid; k++)
        if (d->nprow[k] < 1 || d->npcol[k] < 1) return rd_fail(r, "grids", "NPROW, NPCOL must be >= 1");
    return 0;
}

int bt_read_sdrv(const char *path, bt_deck *d)
{
    rd_t r;
    if (rd_open(&r, path)) return -1;
    memset(d, 0, sizeof *d);
    COUNT(nshape, "number of shapes");
    CHARS(d->nshape, uplo, "UPLO");
    CHARS(d->nshape, diag, "DIAG");
    COUNT(nmat, "number of matrices");
    INTS(d->nmat, m, "M");
    INTS(d->nmat, n, "N");
    INTS(d->nmat, ldas, "LDASRC");
    INTS(d->nmat, ldad, "LDADEST");
    COUNT(npair, "number of src/dest pairs");
    INTS(d->npair, rsrc, "RSRC");
    INTS(d->npair, csrc, "CSRC");
    INTS(d->npair, rdest, "RDEST");
    INTS(d->npair, cdest, "CDEST");
    COUNT(ngrid, "number of grids");
    INTS(d->ngrid, nprow, "NPROW");
    INTS(d->ngrid, npcol, "NPCOL");
    return rd_close(&r, check_mats(&r, d, 0));
}

int bt_read_bsbr(const char *path, bt_deck *d)
{
    rd_t r;
    if (rd_open(&r, path)) return -1;
    memset(d, 0, sizeof *d);
    COUNT(nscope, "number of scopes");
    CHARS(d->nscope, scope, "scopes");
    COUNT(ntop, "number of topologies");
    CHARS(d->ntop, top, "topologies");
    COUNT(nshape, "number of shapes");
    CHARS(d->nshape, uplo, "UPLO");
    CHARS(d->nshape, diag, "DIAG");
    COUNT(nmat, "number of matrices");
    INTS(d->nmat, m, "M");
    INTS(d->nmat, n, "N");
    INTS(d->nmat, ldas, "LDASRC");
    INTS(d->nmat, ldad, "LDADEST");
    COUNT(npair, "number of sources");
    INTS(d->npair, rsrc, "RSRC");
    INTS(d->npair, csrc, "CSRC");
    COUNT(ngrid, "number of grids");
    INTS(d->ngrid, nprow, "NPROW");
    INTS(d->ngrid, npcol, "NPCOL");
    return rd_close(&r, check_mats(&r, d, 0));
}

int bt_read_comb(const char *path, bt_deck *d)
{
    rd_t r;
    if (rd_open(&r, path)) return -1;
    memset(d, 0, sizeof *d);
    COUNT(nop, "number of operations");
    CHARS(d->nop, op, "operations");
    for (int k = 0; k < d->nop; k++)
        if (!strchr("+<>", d->op[k]) || !d->op[k])
            return rd_close(&r, rd_fail(&r, "operations", "must be '+', '>' or '<'"));
    COUNT(nscope, "number of scopes");
    CHARS(d->nscope, scope, "scopes");
    if (rd_int(&r, &d->repeat, "repeatability flag", 0, 2)) return rd_close(&r, -1);
    if (rd_int(&r, &d->coherent, "coherence flag", 0, 2)) return rd_close(&r, -1);
    COUNT(ntop, "number of topologies");
    CHARS(d->ntop, top, "topologies");
    COUNT(nmat, "number of matrices");
    INTS(d->nmat, m, "M");
    INTS(d->nmat, n, "N");
    INTS(d->nmat, ldas, "LDASRC");
    INTS(d->nmat, ldad, "LDADEST");
    INTS(d->nmat, ldi, "LDI");
    COUNT(npair, "number of destinations");
    INTS(d->npair, rdest, "RDEST");
    INTS(d->npair, cdest, "CDEST");
    COUNT(ngrid, "number of grids");
    INTS(d->ngrid, nprow, "NPROW");
    INTS(d->ngrid, npcol, "NPCOL");
    return rd_close(&r, check_mats(&r, d, 1));
}
