/*
 * bcast_tree.c -- TOP '1'..'9' and 'T': the general tree of LAWN 73 4.3.2
 * (table 10) with N_b branches, radix r = N_b + 1, any Np.  Let i0 be the
 * largest power of r below Np.  In distances d from the root, the root
 * sends at levels i = i0, i0/r, ..., 1 to d = j*i (j = 1..r-1, d < Np):
 * furthest first.  A process receives at the largest level i dividing its
 * d, from d - ((d/i) mod r) i, then sends to d + j*i' for every lower level
 * i'.  With N_b = 1 it is the binomial tree.  A process that received sends
 * to its children one after the other, the furthest (deepest subtree)
 * first, as the model assumes; the source posts its sends together and
 * returns (bi_fwd, transport.c).  The tree combines send their result back
 * out along the same binomial tree (comb_tree.c).  The short TOP ' '
 * broadcasts' tree and the long ones' mark run it in node phases across
 * nodes (node_tree, below).
 */
#include "topo_algs.h"

/* the tree of radix r over n processes, i being my index in it (0 its
 * root): index j is scope rank at[(off + j) mod n], or (off + j) mod n
 * when at is NULL */
static void tree_over(bi_coll *c, const int *at, long off, long n, long i, long r, int tag,
                      int more)
{
    if (r < 2) r = 2;
    if (r > n) r = n;
    if (n < 2) return;
    long i0 = 1;
    while (i0 * r < n) i0 *= r;
    long lvl = i0 * r;
#define RANK(j) ((int)(at ? at[(off + (j)) % n] : (off + (j)) % n))
    if (i) {
        lvl = i0;
        while (i % lvl) lvl /= r;
        long from = i - (i / lvl) % r * lvl;
        bi_waitall(c); /* a combine's partial result may still be on its way up */
        /* a leaf passes nothing on (below), unless more follows (node_tree) */
        bi_recv_vector(c, RANK(from), tag, !more && (lvl < r || i + 1 >= n));
    }
    for (long l = lvl / r; l >= 1; l /= r)
        for (long j = 1; j < r && i + j * l < n; j++) bi_fwd(c, RANK(i + j * l), c->buf, c->count, tag);
#undef RANK
}

/* node n's first member from the root on, in scope-rank order (the root
 * itself on its own node) */
static int node_leader(const bi_scope *sc, int n, int root)
{
    const int *m = sc->mem + sc->nstart[n], nm = sc->nstart[n + 1] - sc->nstart[n];
    for (int j = 0; j < nm; j++)
        if (m[j] >= root) return m[j];
    return m[0];
}

/* The short TOP ' ' broadcasts and their mark in a scope across nodes
 * (plan.nodes): the tree runs first among one leader per node -- the root,
 * and on every other node its first member from the root on -- in the
 * order of their distance from the root, then inside each node from its
 * leader, members in scope-rank order from it.  So each node gets the data
 * once over the network, as in MPICH's broadcasts, where the one tree over
 * the scope sent a node's members their data from other nodes, each
 * separately. */
static void node_tree(bi_coll *c, int root, int radix, int tag)
{
    const bi_scope *sc = c->sc;
    const int np = c->np, me = c->me, nn = sc->nnodes, mine = sc->nodeof[me];
    const int lm = node_leader(sc, mine, root);
    const int b = sc->nstart[mine], nm = sc->nstart[mine + 1] - b, p0 = sc->pos[lm] - b;
    if (me == lm) {
        /* the leaders by distance from the root: at most a few dozen */
        int *lead = sc->lead, i = 0;
        for (int n = 0; n < nn; n++) {
            const int k = node_leader(sc, n, root), d = (k - root + np) % np;
            int j = n;
            while (j > 0 && (lead[j - 1] - root + np) % np > d) {
                lead[j] = lead[j - 1];
                j--;
            }
            lead[j] = k;
        }
        while (lead[i] != me) i++;
        tree_over(c, lead, 0, nn, i, radix, tag, nm > 1); /* then to the node's members */
    }
    tree_over(c, sc->mem + b, p0, nm, (sc->pos[me] - b - p0 + nm) % nm, radix, tag, 0);
}

void bi_bcast_tree_from(bi_coll *c, int root, int radix, int tag)
{
    if (c->plan.nodes && c->sc->nnodes > 1) node_tree(c, root, radix, tag);
    else tree_over(c, NULL, root, c->np, (c->me - root + c->np) % c->np, radix, tag, 0);
}

void bi_bcast_tree(bi_coll *c) { bi_bcast_tree_from(c, c->root, c->plan.param + 1, c->tag); }
