/*
 * bcast_ring.c -- the ring family of LAWN 73 4.3.1: increasing 'I' and
 * decreasing 'D' rings, split ring 'S', multiring 'M' and fully connected
 * 'F'.  I, D, M and F are one algorithm, the multipath of spec 7: the Np-1
 * non-root processes, ordered by distance from the root in the ring
 * direction, are cut into |nr| consecutive paths, the first (Np-1) mod |nr|
 * one longer; the root sends to the head of each path, nearest path first,
 * and every node forwards to its successor on the path.
 */
#include "topo_algs.h"

/* scope rank at distance d from the root in direction dir (+1 / -1) */
static int at(const bi_coll *c, int dir, int d)
{
    return ((c->root + dir * d) % c->np + c->np) % c->np;
}

static void multipath(bi_coll *c, int nr)
{
    int np = c->np, dir = nr < 0 ? -1 : 1;
    if (nr < 0) nr = -nr;
    if (nr < 1) nr = 1;
    if (nr > np - 1) nr = np - 1;
    int n = np - 1, len = n / nr, nlong = n % nr;
    if (c->me == c->root) {
        for (int p = 0; p < nr; p++) /* head of path p is at index p*len + min(p,nlong) */
            bi_isend(c, at(c, dir, 1 + p * len + (p < nlong ? p : nlong)), c->buf, c->count,
                     c->tag);
        return;
    }
    int k = (dir * (c->me - c->root) % np + np) % np - 1; /* my index, 0..np-2 */
    int head, plen;
    if (k < nlong * (len + 1)) {
        head = k - k % (len + 1);
        plen = len + 1;
    } else {
        head = k - (k - nlong * (len + 1)) % len;
        plen = len;
    }
    bi_recv(c, k == head ? c->root : at(c, dir, k), c->buf, c->count, c->tag);
    if (k + 1 < head + plen) bi_isend(c, at(c, dir, k + 2), c->buf, c->count, c->tag);
}

void bi_bcast_iring(bi_coll *c) { multipath(c, 1); }
void bi_bcast_dring(bi_coll *c) { multipath(c, -1); }
void bi_bcast_mring(bi_coll *c) { multipath(c, c->param); }
void bi_bcast_fully(bi_coll *c) { multipath(c, c->np - 1); }

/* split ring: root sends up, then (Np > 2) down; with half = floor(Np/2) a
 * process at distance d < half forwards up, d > half+1 forwards down. */
void bi_bcast_sring(bi_coll *c)
{
    int np = c->np, half = np / 2;
    if (c->me == c->root) {
        bi_isend(c, at(c, 1, 1), c->buf, c->count, c->tag);
        if (np > 2) bi_isend(c, at(c, -1, 1), c->buf, c->count, c->tag);
        return;
    }
    int d = (c->me - c->root + np) % np;
    bi_recv(c, d <= half ? at(c, 1, d - 1) : at(c, 1, d + 1), c->buf, c->count, c->tag);
    if (d < half) bi_isend(c, at(c, 1, d + 1), c->buf, c->count, c->tag);
    else if (d > half + 1) bi_isend(c, at(c, 1, d - 1), c->buf, c->count, c->tag);
}

/* ---- cost models (LAWN 73 table 9 and 4.3.1) ---------------------------- */
static double tc(const bi_machine *m, double n) { return m->tc.a + n * m->tc.b; }
static double ts(const bi_machine *m, double n) { return m->ts.a + n * m->ts.b; }

/* unidirectional ring: source T_s, last process (Np-1) T_c */
double bi_model_bcast_ring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    if (root) *root = np > 1 ? ts(m, bytes) : 0;
    return np > 1 ? (np - 1) * tc(m, bytes) : 0;
}

/* split ring: source 2 T_s, longest wait about floor(Np/2) T_c */
double bi_model_bcast_sring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    (void)param;
    if (np < 2) {
        if (root) *root = 0;
        return 0;
    }
    int half = np / 2;
    double up = half * tc(m, bytes), down = ts(m, bytes) + (np - 1 - half) * tc(m, bytes);
    if (root) *root = (np > 2 ? 2 : 1) * ts(m, bytes);
    return np > 2 && down > up ? down : up;
}

/* multiring: source N_r T_s; the last of equal rings waits
 * ((Np-1)/N_r) T_c + (N_r-1) T_s, the last long ring
 * ceil((Np-1)/N_r) T_c + ((Np-1) mod N_r - 1) T_s; we take the larger. */
double bi_model_bcast_mring(const bi_machine *m, int np, double bytes, int param, double *root)
{
    if (np < 2) {
        if (root) *root = 0;
        return 0;
    }
    int nr = param < 0 ? -param : param;
    if (nr < 1) nr = 1;
    if (nr > np - 1) nr = np - 1;
    int len = (np - 1) / nr, nlong = (np - 1) % nr;
    double t = (nr - 1) * ts(m, bytes) + len * tc(m, bytes);
    if (nlong) {
        double tl = (nlong - 1) * ts(m, bytes) + (len + 1) * tc(m, bytes);
        if (tl > t) t = tl;
    }
    if (root) *root = nr * ts(m, bytes);
    return t;
}
