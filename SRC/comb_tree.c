/*
 * comb_tree.c -- TOP '1'..'9', 'T' and 'F': general tree gather (fan-in,
 * LAWN 73 5.4.1) of radix r = branches + 1 ('F': r = Np, everyone sends
 * straight to the destination), then for leave-on-all the result goes back
 * out from scope rank 0 along a binomial tree, as the reference does.  Every receive
 * names its source (bi_comb_recv).
 */
#include <stdlib.h>
#include "comb.h"

/* Receives of a fan-in: one contribution from each of the n scope ranks
 * from[], combined into c->buf.  Each receive names its source, which is
 * what makes message IDs safe to reuse at any scale (msgid.c): a process
 * running many operations ahead can never have its contribution taken by
 * an earlier operation.
 *   Short contributions (below bi_serial_bytes, machine.c): up to
 * BI_FANIN_WINDOW receives are posted at once, each into its own slot of
 * one work buffer (at most BI_FANIN_BYTES in all), and contributions are
 * combined as they arrive (LAWN 73 5.3.2: no artificial order) -- or in the
 * order given when the result must be repeatable (BLACS_SET 15), and under
 * BLACS_DEBUG=2 / BLACS_STATS, whose waits watch one request at a time.
 *   Long ones: one at a time in the order given, as LAWN 73 5.4.1 assumes
 * ("a processor can receive only one message at a time"), the next receive
 * posted as soon as the current one has arrived, so that it travels while
 * the current one is combined (two slots, whatever their size).  Posting
 * them all at once would share the destination's port among every sender:
 * all would arrive together at the end, and nothing would overlap the
 * operations. */
#define BI_FANIN_WINDOW 8
#define BI_FANIN_BYTES ((size_t)8 << 20)

void bi_comb_recv(bi_coll *c, const int *from, int n, int tag)
{
    if (n <= 0) return;
    const size_t bytes = c->count * c->isize;
    const int serial = n > 1 && (double)bytes >= bi_serial_bytes(bi_machine_default());
    int w = serial ? 2 : n < BI_FANIN_WINDOW ? n : BI_FANIN_WINDOW;
    if (!serial && bytes && (size_t)w * bytes > BI_FANIN_BYTES)
        w = BI_FANIN_BYTES / bytes > 1 ? (int)(BI_FANIN_BYTES / bytes) : 1;
    const int ordered = serial || c->repeat || bi_g.debug >= 2 || bi_g.stats;
    bi_buf *wb = bi_comb_work(c, c->count * (size_t)w);
    MPI_Request req[BI_FANIN_WINDOW];
    int next = 0;
    /* in order, contribution k lands in slot k mod w; otherwise a new receive
     * takes the slot Waitany just freed */
#define POST(slot) (req[slot] = bi_irecv(c, from[next], wb->data + (size_t)(slot) * bytes, \
                                         c->count, tag), next++)
    for (int first = serial ? 1 : w; next < first;) POST(next);
    for (int done = 0; done < n; done++) {
        int s = done % w;
        if (ordered) bi_irecv_wait(c, &req[s], from[done], c->count, tag);
        else {
            MPI_Status st;
            bi_watch_begin('r', MPI_ANY_SOURCE, tag, bytes); /* any of the window's sources */
            BI_MPI(MPI_Waitany(w, req, &s, &st), "MPI_Waitany");
            bi_watch_end();
            bi_recv_check(c, &st, c->count); /* a short contribution is an error */
        }
        if (serial && next < n) POST(next % w); /* the other slot, combined last time */
        c->op->fn(c->buf, wb->data + (size_t)s * bytes, c->count, c->op);
        if (!serial && next < n) POST(s);
    }
#undef POST
    bi_buf_release(wb);
}

void bi_comb_fanin(bi_coll *c, int dest, int radix, int tag)
{
    const int np = c->np;
    const long x = (c->me - dest + np) % np; /* distance from the destination */
    int small[64] = {0}, *kids = small, n = 0;
    if (np - 1 > 64) kids = malloc((size_t)(np - 1) * sizeof *kids);
    long i = 1;
    for (; i < np; i *= radix) {
        long xs = x / i; /* scaled distance at level i; x is a multiple of i here */
        if (xs % radix) break; /* not a receiver at this level: my turn to send */
        /* children of this level, nearest first (the reference's fixed order) */
        for (long j = 1; j < radix && (xs + j) * i < np; j++) kids[n++] = (int)((c->me + j * i) % np);
    }
    bi_comb_recv(c, kids, n, tag);
    if (i < np) bi_isend(c, (int)((dest + (x / i - (x / i) % radix) * i) % np), c->buf, c->count, tag);
    if (kids != small) free(kids);
}

void bi_comb_bcast_binomial(bi_coll *c, int root, int tag)
{
    const int np = c->np, x = (c->me - root + np) % np;
    int top = 1;
    while (top < np) top <<= 1;
    for (int h = top >> 1; h >= 1; h >>= 1) {
        if (x % (2 * h) == 0) {
            if (x + h < np) bi_fwd(c, (c->me + h) % np, c->buf, c->count, tag);
        } else if (x % (2 * h) == h) {
            bi_waitall(c); /* my partial result may still be on its way up */
            bi_recv(c, (c->me - h + np) % np, c->buf, c->count, tag);
        }
    }
}

void bi_comb_tree(bi_coll *c)
{
    int radix = c->param > 0 ? c->param + 1 : 2;
    if (radix > c->np) radix = c->np; /* 'F' and trees wider than the scope */
    if (radix < 2) radix = 2;
    bi_comb_fanin(c, c->root < 0 ? 0 : c->root, radix, c->tag);
    if (c->root < 0) bi_comb_bcast_binomial(c, 0, c->tag + 1);
}

/* LAWN 73 5.4.1's receiver, one contribution at a time in the order
 * bi_comb_recv takes them: one ready to be sent at `ready` arrives T_c
 * later, or -- as the next receive is posted when the previous one has
 * arrived -- T_c after that arrival when contributions are long
 * (bi_serial_bytes: one at a time) and T_s after it when they are posted
 * together; each is combined (T_o) once it is there and the previous one is
 * done.  N_b contributions ready together cost
 * T_c + N_b T_o + (N_b - 1) max(0, T_c - T_o): the paper's N_b T_c + T_o
 * when T_o < T_c, T_c + N_b T_o when T_o >= T_c. */
typedef struct { double arrive, done; int any; } fanin_t;

static void fanin_one(const bi_machine *m, double bytes, double ready, fanin_t *f)
{
    const double tc = bi_tc(m, bytes), x = bytes >= bi_serial_bytes(m) ? tc : bi_ts(m, bytes);
    double a = ready + tc;
    if (f->any && f->arrive + x > a) a = f->arrive + x;
    f->arrive = a;
    f->done = (a > f->done ? a : f->done) + bi_to(m, bytes);
    f->any = 1;
}

double bi_model_fanin(const bi_machine *m, double bytes, int k, double t_rest, double t_last)
{
    fanin_t f = {0, 0, 0};
    for (int j = 0; j < k; j++) fanin_one(m, bytes, j == k - 1 ? t_last : t_rest, &f);
    return f.done;
}

/* When the destination of the radix-r fan-in over n processes has combined
 * everything: its children at level i (sizes i, ready when their own fan-in
 * is done, full[k] for size r^k) in bi_comb_fanin's order; the top level's
 * last child may have a smaller subtree. */
static double tree_done(const bi_machine *m, double bytes, long n, long r, const double *full)
{
    if (n < 2) return 0;
    long ht = 0, pw = 1;
    while (pw < n) pw *= r, ht++;
    const long below = pw / r;
    fanin_t f = {0, 0, 0};
    for (long i = 1, k = 0; i < below; i *= r, k++)
        for (long j = 1; j < r; j++) fanin_one(m, bytes, full[k], &f);
    for (long j = 1; j * below < n; j++) {
        long sz = n - j * below < below ? n - j * below : below;
        fanin_one(m, bytes, sz == below ? full[ht - 1] : tree_done(m, bytes, sz, r, full), &f);
    }
    return f.done;
}

/* The tree of radix r = N_b + 1 over Np processes, height H_t =
 * ceil(log_r Np): H_t - 1 levels of N_b contributions and N_is =
 * ceil(Np / r^(H_t-1)) - 1 at the top (LAWN 73 5.4.1, about
 * H_t (N_b T_c + T_o); here level by level with the receiver above, each
 * child ready when its own subtree is done); leave-on-all adds the binomial
 * broadcast, ceil(log2 Np) T_c. */
double bi_model_comb_tree(const bi_machine *m, int np, double bytes, int param, double *root)
{
    if (np < 2) {
        if (root) *root = 0;
        return 0;
    }
    long r = param > 0 ? param + 1 : 2, lg = 0;
    if (r > np) r = np;
    while ((1L << lg) < np) lg++;
    double full[64] = {0}; /* full[k]: a subtree of r^k processes */
    for (long k = 1, pw = r; pw < np && k < 64; k++, pw *= r) full[k] = tree_done(m, bytes, pw, r, full);
    double one = tree_done(m, bytes, np, r, full);
    if (root) *root = one;
    return one + (double)lg * bi_tc(m, bytes);
}
