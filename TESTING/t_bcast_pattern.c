/*
 * t_bcast_pattern.c -- who sends to whom, in which order, for every
 * broadcast topology (LAWN 73 4.3), read back from the message
 * trace (BLACS_TRACE; one line per message sent: ctx scope from to bytes
 * tag step top).  Each process compares the sends it made with the pattern
 * the paper and the spec define, pieces merged (the rings forward long
 * vectors in pieces -- here BLACS_PIPE_SEGMENT makes them -- and a message
 * of the pattern is then consecutive sends to one receiver on one ID;
 * 'P''s segments are also compared one by one), written out below from their text and
 * anchored by literal tables for root 0 on 7 and 8 processes.  Also: the
 * message IDs each broadcast consumes (1, or 2 for 'H' on a
 * non-power of two; 2 for our 'C'), every message of an operation on its
 * own ID, ' ' as the binomial tree when short (and in a row or column that
 * is the whole grid), and only its mark of no bytes down that tree through
 * the BLACS when long, and 'A' choosing the same
 * pattern on every process.  Run on 7 and on 8 processes.
 */
#include <limits.h>
#include <unistd.h>
#include <time.h>
#include "tutil.h"

#define MAXP 16
#define MAXS 64 /* sends per process in one broadcast */
typedef struct { int to; long items; int tagoff; } send_t;
typedef struct { int n[MAXP]; send_t s[MAXP][MAXS]; } pattern; /* by sender, in order */

static int np;          /* scope size */
static long count;      /* items per broadcast */
static long segitems;   /* pipeline segment in items (BLACS_PIPE_SEGMENT) */

static void edge(pattern *p, int from, int to, long items, int tagoff)
{
    if (p->n[from] < MAXS) p->s[from][p->n[from]++] = (send_t){to, items, tagoff};
}

/* ---- the patterns, in distances from the root (rotated by gen()) ----- */

/* multiring / paths (LAWN 73 4.3.1): nodes 1..np-1 by distance, cut into
 * |nr| paths, the first (np-1) mod |nr| one longer; root to each head,
 * nearest path first; dir -1 walks the ring downwards */
static void pat_paths(pattern *p, int nr, int dir)
{
    int n = np - 1;
    if (nr > n) nr = n;
    int node = 1;
    for (int k = 0; k < nr; k++) {
        int len = n / nr + (k < n % nr);
        int prev = 0;
        for (int i = 0; i < len; i++, node++) {
            int d = dir > 0 ? node : np - node;
            edge(p, prev, d, count, 0);
            prev = d;
        }
    }
}

static void pat_split(pattern *p) /* split ring, up first */
{
    int half = np / 2;
    edge(p, 0, 1, count, 0);
    if (np > 2) edge(p, 0, np - 1, count, 0);
    for (int d = 1; d < np; d++) {
        if (d < half) edge(p, d, d + 1, count, 0);
        else if (d > half + 1) edge(p, d, d - 1, count, 0);
    }
}

/* general tree (4.3.2): radix r = nb+1; i0 = largest power of r below np */
static void pat_tree(pattern *p, int nb, int tagoff)
{
    int r = nb + 1, i0 = 1;
    while (i0 * r < np) i0 *= r;
    for (int d = 0; d < np; d++) {
        int top = i0 * r;
        if (d) {
            top = i0;
            while (d % top) top /= r;
        }
        for (int i = top / r; i >= 1; i /= r)
            for (int j = 1; j < r; j++)
                if (d + j * i < np) edge(p, d, d + j * i, count, tagoff);
    }
}

/* hypercube (4.3.2): nearest first; the tree with one branch, on the second
 * message ID, when np is not a power of two.  (Distances here are relative
 * ranks me XOR root, which gen() maps back.) */
static void pat_hcube(pattern *p)
{
    if (np & (np - 1)) {
        pat_tree(p, 1, 0);
        return;
    }
    for (int x = 0; x < np; x++)
        for (int b = 1; b < np; b <<= 1)
            if (b > x) edge(p, x, x ^ b, count, 0);
}

/* scatter/collect: blocks as even as possible; scatter by recursive
 * splitting (upper half to its first node), collect by recursive doubling
 * for a power of two (v and v XOR d swap their aligned d blocks), else by
 * dissemination: distance d, runs wrapping at np split in two; the source
 * (0) holds everything, so no one sends to it in the collect */
static long blk(int b) { return b * (count / np) + (b < count % np ? b : count % np); }
static void pat_scatcol(pattern *p)
{
    /* recursive splitting over every range */
    struct { int lo, hi; } st[64];
    int sp = 0;
    st[sp].lo = 0, st[sp].hi = np, sp++;
    /* the holder sends upper halves of shrinking ranges, largest first */
    int holder_ranges[MAXP][8][2], nh[MAXP] = {0};
    while (sp) {
        sp--;
        int lo = st[sp].lo, hi = st[sp].hi;
        if (hi - lo < 2) continue;
        int m = lo + (hi - lo + 1) / 2;
        holder_ranges[lo][nh[lo]][0] = m, holder_ranges[lo][nh[lo]][1] = hi, nh[lo]++;
        st[sp].lo = lo, st[sp].hi = m, sp++;
        st[sp].lo = m, st[sp].hi = hi, sp++;
    }
    for (int v = 0; v < np; v++)
        for (int k = 0; k < nh[v]; k++) {
            long it = blk(holder_ranges[v][k][1]) - blk(holder_ranges[v][k][0]);
            if (it) edge(p, v, holder_ranges[v][k][0], it, 0);
        }
    for (int d = 1; d < np && !(np & (np - 1)); d *= 2)
        for (int v = 0; v < np; v++) {
            int g = v & ~(d - 1);
            if (blk(g + d) - blk(g) && (v ^ d) != 0) edge(p, v, v ^ d, blk(g + d) - blk(g), 1);
        }
    for (int d = 1; d < np && (np & (np - 1)); d *= 2) {
        int n = d < np - d ? d : np - d;
        for (int v = 0; v < np; v++) {
            int to = (v - d + np) % np, e = v + n;
            if (to == 0) continue;
            if (e > np) {
                if (blk(np) - blk(v)) edge(p, v, to, blk(np) - blk(v), 1);
                if (blk(e - np)) edge(p, v, to, blk(e - np), 1);
            } else if (blk(e) - blk(v)) {
                edge(p, v, to, blk(e) - blk(v), 1);
            }
        }
    }
}

/* pipelined ring: ceil(count/segitems) segments down the increasing ring */
static void pat_pipe(pattern *p)
{
    long k = (count + segitems - 1) / segitems;
    if (k < 1) k = 1;
    for (int d = 0; d < np - 1; d++)
        for (long s = 0; s < k; s++) {
            long a = s * (count / k) + (s < count % k ? s : count % k);
            long b = (s + 1) * (count / k) + (s + 1 < count % k ? s + 1 : count % k);
            edge(p, d, d + 1, b - a, 0);
        }
}

/* pattern of topology top (param: rings/branches) rooted at scope rank root,
 * in scope ranks */
static void gen(pattern *out, char top, int param, int root)
{
    pattern *p = calloc(1, sizeof *p);
    int xor = 0;
    switch (top) {
    case 'I': pat_paths(p, 1, 1); break;
    case 'D': pat_paths(p, 1, -1); break;
    case 'M': pat_paths(p, param < 0 ? -param : param, param < 0 ? -1 : 1); break;
    case 'F': pat_paths(p, np - 1, 1); break;
    case 'S': pat_split(p); break;
    case 'H': pat_hcube(p); xor = !(np & (np - 1)); break;
    case 'T': pat_tree(p, param, 0); break;
    case 'C': /* doubles; shorter than 16 bytes a process: the binomial tree */
        if (count * 8 < 16L * np) pat_tree(p, 1, 0);
        else pat_scatcol(p);
        break;
    case 'P': pat_pipe(p); break;
    default: pat_tree(p, top - '0', 0); break;
    }
    memset(out, 0, sizeof *out);
    for (int d = 0; d < np; d++) {
        int from = xor ? d ^ root : (d + root) % np;
        out->n[from] = p->n[d];
        for (int k = 0; k < p->n[d]; k++) {
            out->s[from][k] = p->s[d][k];
            out->s[from][k].to = xor ? p->s[d][k].to ^ root : (p->s[d][k].to + root) % np;
        }
    }
    free(p);
}

/* ---- ' ' across nodes ------------------------------------------------
 * Where the scope spans nodes (processor names), the short ' ' tree and the
 * long ones' mark run in two phases (SRC/bcast_tree.c): the tree among one
 * leader per node -- the root, and on each other node its member nearest
 * the root going up the scope (wrapping) -- ordered by that distance, then
 * on each node the tree from its leader over its members ordered by their
 * distance from the leader.  snode[k]: scope rank k's node (first-seen
 * numbering); nsnodes 1 on one node. */
static int snode[MAXP], nsnodes = 1;

static void scope_nodes(void) /* scope 'A': scope rank = MPI_COMM_WORLD rank */
{
    char name[MPI_MAX_PROCESSOR_NAME + 1] = "", all[MAXP][MPI_MAX_PROCESSOR_NAME + 1];
    int len = 0;
    MPI_Get_processor_name(name, &len);
    MPI_Allgather(name, (int)sizeof name, MPI_CHAR, all, (int)sizeof name, MPI_CHAR, MPI_COMM_WORLD);
    nsnodes = 0;
    for (int k = 0; k < np; k++) {
        snode[k] = -1;
        for (int j = 0; j < k && snode[k] < 0; j++)
            if (!strcmp(all[j], all[k])) snode[k] = snode[j];
        if (snode[k] < 0) snode[k] = nsnodes++;
    }
}

/* the tree of nb branches over the scope ranks list[0..n-1] (list[0] its
 * root), appended to p */
static void tree_on(pattern *p, const int *list, int n, int nb)
{
    pattern *q = calloc(1, sizeof *q);
    const int keep = np;
    np = n;
    pat_tree(q, nb, 0);
    np = keep;
    for (int d = 0; d < n; d++)
        for (int k = 0; k < q->n[d]; k++) edge(p, list[d], list[q->s[d][k].to], q->s[d][k].items, 0);
    free(q);
}

/* the short ' ' tree of nb branches from root: gen()'s on one node, the
 * two phases across nodes */
static void gen_short(pattern *out, int nb, int root)
{
    if (nsnodes < 2) {
        gen(out, (char)('0' + nb), 0, root);
        return;
    }
    memset(out, 0, sizeof *out);
    int lead[MAXP], nl = 0, seen[MAXP] = {0}, leader_of[MAXP];
    for (int d = 0; d < np; d++) {
        const int k = (root + d) % np;
        if (!seen[snode[k]]) {
            seen[snode[k]] = 1;
            leader_of[snode[k]] = k;
            lead[nl++] = k;
        }
    }
    tree_on(out, lead, nl, nb);
    for (int n = 0; n < nsnodes; n++) {
        int mem[MAXP], nm = 0;
        for (int d = 0; d < np; d++)
            if (snode[(leader_of[n] + d) % np] == n) mem[nm++] = (leader_of[n] + d) % np;
        tree_on(out, mem, nm, nb);
    }
}

/* literal anchors, root 0: "from:to,to from:to" */
static const struct { int np; char top; int param; const char *pat; } LIT[] = {
    {8, 'I', 0, "0:1 1:2 2:3 3:4 4:5 5:6 6:7"},
    {8, 'D', 0, "0:7 7:6 6:5 5:4 4:3 3:2 2:1"},
    {8, 'S', 0, "0:1,7 1:2 2:3 3:4 7:6 6:5"},
    {7, 'S', 0, "0:1,6 1:2 2:3 6:5 5:4"},
    {8, 'M', 3, "0:1,4,6 1:2 2:3 4:5 6:7"},
    {7, 'M', 3, "0:1,3,5 1:2 3:4 5:6"},
    {8, 'M', 2, "0:1,5 1:2 2:3 3:4 5:6 6:7"},
    {7, 'M', 2, "0:1,4 1:2 2:3 4:5 5:6"},
    {8, 'M', -2, "0:7,3 7:6 6:5 5:4 3:2 2:1"},
    {7, 'M', -2, "0:6,3 6:5 5:4 3:2 2:1"},
    {8, 'M', 1, "0:1 1:2 2:3 3:4 4:5 5:6 6:7"},
    {8, 'F', 0, "0:1,2,3,4,5,6,7"},
    {8, 'H', 0, "0:1,2,4 1:3,5 2:6 3:7"},
    {7, 'H', 0, "0:4,2,1 2:3 4:6,5"},
    {8, '1', 0, "0:4,2,1 2:3 4:6,5 6:7"},
    {7, '1', 0, "0:4,2,1 2:3 4:6,5"},
    {8, '2', 0, "0:3,6,1,2 3:4,5 6:7"},
    {7, '2', 0, "0:3,6,1,2 3:4,5"},
    {8, '3', 0, "0:4,1,2,3 4:5,6,7"},
    {7, '3', 0, "0:4,1,2,3 4:5,6"},
    {8, 'T', 2, "0:3,6,1,2 3:4,5 6:7"},
    {8, '9', 0, "0:1,2,3,4,5,6,7"},
};

static int same_edges(const pattern *p, const char *lit)
{
    pattern q;
    memset(&q, 0, sizeof q);
    const char *s = lit;
    while (*s) {
        int from = (int)strtol(s, (char **)&s, 10);
        s++; /* ':' */
        for (;;) {
            int to = (int)strtol(s, (char **)&s, 10);
            edge(&q, from, to, 0, 0);
            if (*s == ',') s++;
            else break;
        }
        while (*s == ' ') s++;
    }
    for (int d = 0; d < np; d++) {
        if (p->n[d] != q.n[d]) return 0;
        for (int k = 0; k < q.n[d]; k++)
            if (p->s[d][k].to != q.s[d][k].to) return 0;
    }
    return 1;
}

/* ---- reading my own trace file ---------------------------------------- */
typedef struct { long ctx; char scope; int from, to; long bytes; int tag, step; char top; } line_t;
static char tracename[512];
static FILE *tf;

static int read_new(line_t *l, int max)
{
    if (!tf) tf = fopen(tracename, "r");
    if (!tf) return 0;
    int n = 0;
    char buf[256];
    while (fgets(buf, sizeof buf, tf)) {
        line_t x;
        int pos = 0;
        /* the letter last, read as it stands: a ' ' mark's is a blank */
        if (sscanf(buf, "%ld %c %d %d %ld %d %d%n", &x.ctx, &x.scope, &x.from, &x.to, &x.bytes,
                   &x.tag, &x.step, &pos) == 7 && buf[pos] == ' ' && buf[pos + 1] &&
            buf[pos + 1] != '\n' && n < max) {
            x.top = buf[pos + 1];
            l[n++] = x;
        }
    }
    clearerr(tf);
    return n;
}

/* ---- one traced broadcast ------------------------------------------- */
static line_t got[MAXS];
static int ngot;

static void bcast(blacs_int ctxt, char scope, char top, int root, blacs_int rr, blacs_int rc)
{
    double *a = calloc((size_t)count + 1, sizeof *a);
    char sc[2] = {scope, 0}, tp[2] = {top, 0};
    blacs_int nprow, npcol, myr, myc;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    int me = scope == 'R' ? (int)myc : scope == 'C' ? (int)myr : (int)(myr * npcol + myc);
    for (long i = 0; i < count; i++) a[i] = me == root ? (double)(i + 7 * root) : -1.0;
    if (me == root) Cdgebs2d(ctxt, sc, tp, (blacs_int)count, 1, a, (blacs_int)count);
    else Cdgebr2d(ctxt, sc, tp, (blacs_int)count, 1, a, (blacs_int)count, rr, rc);
    long bad = 0;
    for (long i = 0; i < count; i++) bad += a[i] != (double)(i + 7 * root);
    TU_CHECK(bad == 0, "top '%c' root %d: %ld items wrong", top, root, bad);
    free(a);
    MPI_Barrier(MPI_COMM_WORLD); /* every send of this broadcast is in the trace */
    ngot = read_new(got, MAXS);
}

/* Pieces merged: consecutive sends of one broadcast to the same receiver
 * on the same message ID are one message of the pattern (the rings and 'P'
 * cut long vectors into pieces, bcast_ring.c); sizes add up. */
typedef struct { int to; long items; int tag; } msg_t;
static int merge_got(msg_t *m)
{
    int n = 0;
    for (int k = 0; k < ngot; k++) {
        long it = got[k].bytes / (long)sizeof(double);
        if (n && m[n - 1].to == got[k].to && m[n - 1].tag == got[k].tag) m[n - 1].items += it;
        else m[n++] = (msg_t){got[k].to, it, got[k].tag};
    }
    return n;
}
static int merge_pat(const pattern *p, int me, msg_t *m, int base)
{
    int n = 0;
    for (int k = 0; k < p->n[me]; k++) {
        const send_t *e = &p->s[me][k];
        if (n && m[n - 1].to == e->to && m[n - 1].tag == base + e->tagoff) m[n - 1].items += e->items;
        else m[n++] = (msg_t){e->to, e->items, base + e->tagoff};
    }
    return n;
}

/* my sends against the pattern, pieces merged; returns 1 if they match
 * (quiet).  The trace's steps count every piece. */
static int matches(const pattern *p, int me, int base)
{
    msg_t a[MAXS], b[MAXS];
    int na = merge_got(a), nb = merge_pat(p, me, b, base);
    if (na != nb) return 0;
    for (int k = 0; k < ngot; k++)
        if (got[k].step != k || got[k].from != me) return 0;
    for (int k = 0; k < na; k++)
        if (a[k].to != b[k].to || a[k].items != b[k].items || a[k].tag != b[k].tag) return 0;
    return 1;
}

/* the same piece by piece ('P': its segments as the override has them) */
static int matches_pieces(const pattern *p, int me, int base)
{
    if (ngot != p->n[me]) return 0;
    for (int k = 0; k < ngot; k++) {
        const send_t *e = &p->s[me][k];
        if (got[k].to != e->to || got[k].bytes != e->items * (long)sizeof(double) ||
            got[k].tag - base != e->tagoff || got[k].step != k || got[k].from != me)
            return 0;
    }
    return 1;
}

static void report(const pattern *p, int me, char top, int param, int root)
{
    char want[512] = "", have[512] = "";
    size_t w = 0, h = 0;
    for (int k = 0; k < p->n[me] && w < 480; k++)
        w += (size_t)snprintf(want + w, sizeof want - w, " %d(%ld,+%d)", p->s[me][k].to,
                              p->s[me][k].items, p->s[me][k].tagoff);
    for (int k = 0; k < ngot && h < 480; k++)
        h += (size_t)snprintf(have + h, sizeof have - h, " %d(%ld,tag %d,step %d)", got[k].to,
                              got[k].bytes / (long)sizeof(double), got[k].tag, got[k].step);
    fprintf(stderr, "[rank %d] top '%c' param %d root %d np %d: me=%d expected sends:%s\n  traced:%s\n",
            tu_rank, top, param, root, np, me, want, have);
}

static const struct { char top; int what, val; int ntags; } TOPS[] = {
    {'I', 0, 0, 1},  {'D', 0, 0, 1},  {'S', 0, 0, 1},  {'M', 11, 1, 1}, {'M', 11, 2, 1},
    {'M', 11, 3, 1}, {'M', 11, -2, 1}, {'F', 0, 0, 1}, {'H', 0, 0, 0},  {'1', 0, 0, 1},
    {'2', 0, 0, 1},  {'3', 0, 0, 1},  {'4', 0, 0, 1},  {'9', 0, 0, 1},  {'T', 12, 1, 1},
    {'T', 12, 2, 1}, {'T', 12, 3, 1}, {'C', 0, 0, 2},  {'P', 0, 0, 1},
};
#define NTOPS (int)(sizeof TOPS / sizeof TOPS[0])

static void scope_run(blacs_int ctxt, char scope)
{
    blacs_int nprow, npcol, myr, myc;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
    np = scope == 'R' ? (int)npcol : scope == 'C' ? (int)nprow : (int)(nprow * npcol);
    int me = scope == 'R' ? (int)myc : scope == 'C' ? (int)myr : (int)(myr * npcol + myc);
    char sid = (char)(scope + 32);
    /* several source positions in the row scope, one elsewhere (time) */
    int roots[3] = {0, 3 % np, np - 1}, nroots = scope == 'R' ? 3 : 1;
    if (scope == 'C') roots[0] = np - 1;
    if (scope == 'A') roots[0] = 2;
    pattern *p = malloc(sizeof *p);
    for (int tv = 0; tv < NTOPS; tv++) {
        char top = TOPS[tv].top;
        if (TOPS[tv].what) {
            blacs_int v = TOPS[tv].val;
            Cblacs_set(ctxt, TOPS[tv].what, &v);
        }
        int param = TOPS[tv].what ? TOPS[tv].val : top == 'F' ? np - 1 : 0;
        int ntags = TOPS[tv].ntags ? TOPS[tv].ntags : (np & (np - 1)) ? 2 : 1;
        for (int ri = 0; ri < nroots; ri++) {
            int root = roots[ri], base[2] = {0, 0};
            blacs_int rr = scope == 'R' ? myr : scope == 'C' ? root : root / npcol;
            blacs_int rc = scope == 'R' ? root : scope == 'C' ? myc : root % npcol;
            gen(p, top, param, root);
            for (int rep = 0; rep < 2; rep++) { /* twice: IDs consumed per broadcast */
                bcast(ctxt, scope, top, root, rr, rc);
                int lo = INT_MAX, hi = -1, glo, ghi; /* Open MPI tags reach INT_MAX */
                /* the trace names the letter that ran: 'H' off a power of
                 * two is the binomial tree, '1' */
                const char ran = top == 'H' && (np & (np - 1)) ? '1' : top;
                for (int k = 0; k < ngot; k++) {
                    if (got[k].tag < lo) lo = got[k].tag;
                    if (got[k].tag > hi) hi = got[k].tag;
                    TU_CHECK(got[k].ctx == ctxt && got[k].scope == sid && got[k].top == ran,
                             "trace line names ctx %ld scope %c top %c, expected %ld %c %c",
                             got[k].ctx, got[k].scope, got[k].top, (long)ctxt, sid, ran);
                }
                MPI_Allreduce(&lo, &glo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
                MPI_Allreduce(&hi, &ghi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
                base[rep] = glo;
                int ok = matches(p, me, glo) && (top != 'P' || matches_pieces(p, me, glo));
                if (!ok) report(p, me, top, param, root);
                TU_CHECK(ok, "pattern of '%c' (param %d) from root %d on %d processes", top, param,
                         root, np);
                TU_CHECK(ghi - glo == (top == 'C' ? 1 : 0), "'%c': tags %d..%d in one broadcast",
                         top, glo, ghi);
            }
            TU_CHECK(base[1] - base[0] == ntags, "'%c' on %d processes consumed %d IDs, expected %d",
                     top, np, base[1] - base[0], ntags);
        }
        if (TOPS[tv].what) { /* back to the default */
            blacs_int v = 1;
            Cblacs_set(ctxt, TOPS[tv].what, &v);
        }
    }
    /* ' ': a short broadcast (up to 12 KB) is a tree of '1' to '9'
     * branches, traced as its letter: in a row or column that is the whole
     * grid (R and C here, which have no MPI collectives) the binomial tree
     * '1' at every length; where the scope has collectives the one the
     * models pick for its size alone (SRC/topology.c, bi_bcast_short_tree:
     * on the default machine 4 branches on 7 processes, 2 on 8), the same
     * at both ends of the short range */
    const int rr = scope == 'R' ? myr : scope == 'C' ? 1 % np : (1 % np) / npcol,
              rc = scope == 'R' ? 1 % np : scope == 'C' ? myc : (1 % np) % npcol;
    const char stree = scope != 'A' ? '1' : np == 7 ? '4' : np == 8 ? '2' : 0;
    int shortt = 0; /* the letter the short ones ran */
    for (int end = 0; end < 2; end++) {
        long keep = count;
        if (end) count = 1536; /* 12 KB of doubles */
        bcast(ctxt, scope, ' ', 1 % np, rr, rc);
        int lo = INT_MAX, glo, mine = ngot ? got[0].top : 0, named, same = 1;
        for (int k = 0; k < ngot; k++) {
            if (got[k].tag < lo) lo = got[k].tag;
            same &= got[k].top == mine;
        }
        MPI_Allreduce(&lo, &glo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&mine, &named, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        TU_CHECK(same && (!ngot || mine == named), "short ' ': traced letters differ ('%c', '%c')",
                 mine, named);
        TU_CHECK(named >= '1' && named <= '9' && (!stree || named == stree),
                 "short ' ' (%ld items) in scope %c on %d traced as '%c', expected '%c'", count,
                 scope, np, named ? named : '-', stree ? stree : '?');
        if (named >= '1' && named <= '9') {
            if (scope == 'A') gen_short(p, named - '0', 1 % np);
            else gen(p, (char)named, 0, 1 % np);
            int ok = matches(p, me, glo);
            if (!ok) report(p, me, ' ', named - '0', 1 % np);
            TU_CHECK(ok, "short ' ' is not the tree '%c' from root %d", named, 1 % np);
        }
        if (!end) shortt = named;
        else TU_CHECK(named == shortt, "short ' ' is '%c' at %ld items, '%c' at %d", named,
                      count, shortt, 3 * 8 + 5);
        count = keep;
    }
    /* a long one where the scope has MPI collectives: MPI's broadcast, and
     * through the BLACS only its mark, messages of no bytes down the same
     * tree as the short ones, traced as its letter (bcast_mpi.c) */
    if (scope == 'A') {
        long keep = count;
        count = 2000;
        bcast(ctxt, scope, ' ', 1 % np, rr, rc);
        int lo = INT_MAX, glo;
        for (int k = 0; k < ngot; k++) {
            if (got[k].tag < lo) lo = got[k].tag;
            TU_CHECK(got[k].top == shortt && got[k].bytes == 0,
                     "long ' ' traced a send of %ld bytes as '%c', expected 0 bytes as '%c'",
                     got[k].bytes, got[k].top, shortt);
        }
        MPI_Allreduce(&lo, &glo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        count = 0;
        gen_short(p, shortt - '0', 1 % np);
        int ok = matches(p, me, glo);
        if (!ok) report(p, me, ' ', shortt - '0', 1 % np);
        TU_CHECK(ok, "long ' ': its mark is not the short broadcasts' tree '%c' from root %d",
                 shortt, 1 % np);
        count = keep;
    }
    /* 'A': the same choice everywhere, i.e. one candidate's pattern on all */
    static const char cand[] = "IDSFH123456789CP";
    for (int big = 0; big < 2; big++) {
        long keep = count;
        if (big) count = 20000;
        bcast(ctxt, scope, 'A', 0, scope == 'R' ? myr : 0, scope == 'C' ? myc : 0);
        int lo = INT_MAX, glo;
        for (int k = 0; k < ngot; k++)
            if (got[k].tag < lo) lo = got[k].tag;
        MPI_Allreduce(&lo, &glo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        int found = 0;
        for (const char *c = cand; *c && !found; c++) {
            gen(p, *c, *c == 'F' ? np - 1 : 0, 0);
            int ok = matches(p, me, glo), all;
            MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            found = all;
        }
        TU_CHECK(found, "'A' (%ld items) is no single topology's pattern on every process", count);
        /* and the trace names the letter chosen, the same on every line
         * and process, whose own pattern this is */
        int mine = ngot ? got[0].top : 0, named, same = 1;
        for (int k = 0; k < ngot; k++) same &= got[k].top == mine;
        MPI_Allreduce(&mine, &named, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        TU_CHECK(same && (!ngot || mine == named), "'A': traced letters differ ('%c', '%c')",
                 mine, named);
        TU_CHECK(named && strchr(cand, named), "'A' traced as '%c', not a letter it may choose",
                 named ? named : '-');
        if (named && strchr(cand, named)) {
            gen(p, (char)named, named == 'F' ? np - 1 : 0, 0);
            int ok = matches(p, me, glo), all;
            MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            TU_CHECK(all, "'A' traced as '%c' but ran another pattern", named);
        }
        count = keep;
    }
    free(p);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    /* a fresh trace prefix, the same on every process, before the BLACS start */
    tu_trace_setup("t_bcast_pattern", tracename, sizeof tracename);
    count = 3 * 8 + 5; /* blocks of unequal size for 'C' */
    segitems = 4;      /* 'P': 4 doubles per segment */
    setenv("BLACS_PIPE_SEGMENT", "32", 1);

    blacs_int me, nprocs, sys, ctxt;
    Cblacs_pinfo(&me, &nprocs);
    Cblacs_get(0, 0, &sys);

    /* the generator against the literal tables */
    np = (int)nprocs;
    pattern *p = malloc(sizeof *p);
    for (size_t i = 0; i < sizeof LIT / sizeof LIT[0]; i++) {
        if (LIT[i].np != np) continue;
        gen(p, LIT[i].top, LIT[i].param, 0);
        TU_CHECK(same_edges(p, LIT[i].pat), "generator for '%c' %d on %d differs from \"%s\"",
                 LIT[i].top, LIT[i].param, np, LIT[i].pat);
    }
    free(p);

    ctxt = sys;
    Cblacs_gridinit(&ctxt, "Row", 1, nprocs);
    scope_run(ctxt, 'R');
    Cblacs_gridexit(ctxt);
    ctxt = sys;
    Cblacs_gridinit(&ctxt, "Row", nprocs, 1);
    scope_run(ctxt, 'C');
    Cblacs_gridexit(ctxt);
    ctxt = sys;
    Cblacs_gridinit(&ctxt, "Row", nprocs % 2 ? 1 : 2, nprocs % 2 ? nprocs : nprocs / 2);
    np = (int)nprocs;
    scope_nodes();
    scope_run(ctxt, 'A');
    Cblacs_gridexit(ctxt);

    return tu_trace_end(tf, tracename);
}
