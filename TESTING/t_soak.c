/*
 * t_soak.c [OPS] [SEED] -- a seeded random soak: OPS (default 20,000) mixed
 * operations on a 2x2 grid (4 processes), every process drawing the same
 * sequence from the seed, each checked against a serial model of what the
 * BLACS must deliver: point-to-point in random directions (some several
 * before receiving), broadcasts and combines in every scope with random
 * topologies and shapes, and the user's own MPI traffic
 * on MPI_COMM_WORLD and on a duplicate, with the tags the library uses,
 * interleaved.  Any lost, mixed or corrupted message fails the run.
 */
#include "tutil.h"

static unsigned long long rng;
static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng >> 33) % n);
}

/* value of element i of the data of operation k from process p */
static double val(long k, int p, int i) { return (double)((k * 31 + p * 7 + i * 3) % 1000) - 500; }

static const char *btops = " IDSMHFT123CPA";
static const char *ctops = " IDSMHFT12RBYA";

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    long ops = argc > 1 ? atol(argv[1]) : 20000;
    rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 12345;
    blacs_int me, np, ctxt, nr, nc, r, c;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "R", 2, np / 2);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int iam = (int)(r * nc + c);
    double buf[64], ref[64];
    long bad = 0;
    for (long k = 0; k < ops; k++) {
        unsigned kind = rnd(6);
        int m = 1 + (int)rnd(6), n = 1 + (int)rnd(3);
        if (kind == 0) { /* point-to-point: src sends 1..3 messages to dst */
            int src = (int)rnd((unsigned)np), dst = (int)rnd((unsigned)np), cnt = 1 + (int)rnd(3);
            if (iam == src)
                for (int q = 0; q < cnt; q++) {
                    for (int i = 0; i < m * n; i++) buf[i] = val(k + q, src, i);
                    Cdgesd2d(ctxt, m, n, buf, m, dst / nc, dst % nc);
                }
            if (iam == dst)
                for (int q = 0; q < cnt; q++) {
                    Cdgerv2d(ctxt, n, m, buf, n, src / nc, src % nc); /* reshaped */
                    for (int i = 0; i < m * n; i++)
                        if (buf[i] != val(k + q, src, i)) { bad++; break; }
                }
        } else if (kind <= 2) { /* broadcast */
            char scope = "RCA"[rnd(3)], top[2] = {btops[rnd((unsigned)strlen(btops))], 0};
            int sr = (int)rnd((unsigned)nr), sc = (int)rnd((unsigned)nc);
            char sc_s[2] = {scope, 0};
            int in = scope == 'A' || (scope == 'R' && r == sr) || (scope == 'C' && c == sc);
            if (!in) continue;
            int root = scope == 'R' ? (int)r * (int)nc + sc : scope == 'C' ? sr * (int)nc + (int)c : sr * (int)nc + sc;
            if (iam == root) {
                for (int i = 0; i < m * n; i++) buf[i] = val(k, root, i);
                Cdgebs2d(ctxt, sc_s, top, m, n, buf, m);
            } else {
                Cdgebr2d(ctxt, sc_s, top, m, n, buf, m, root / nc, root % nc);
                for (int i = 0; i < m * n; i++)
                    if (buf[i] != val(k, root, i)) { bad++; break; }
            }
        } else if (kind <= 4) { /* sum */
            char scope = "RCA"[rnd(3)], top[2] = {ctops[rnd((unsigned)strlen(ctops))], 0}, sc_s[2] = {scope, 0};
            int all = rnd(2), dr = (int)rnd((unsigned)nr), dc = (int)rnd((unsigned)nc);
            for (int i = 0; i < m * n; i++) buf[i] = val(k, iam, i);
            for (int i = 0; i < m * n; i++) {
                ref[i] = 0;
                for (int p = 0; p < np; p++) {
                    int pr = p / (int)nc, pc = p % (int)nc;
                    if ((scope == 'R' && pr == r) || (scope == 'C' && pc == c) || scope == 'A') ref[i] += val(k, p, i);
                }
            }
            Cdgsum2d(ctxt, sc_s, top, m, n, buf, m, all ? -1 : dr, all ? -1 : dc);
            int dest = all || (scope == 'R' ? c == dc : scope == 'C' ? r == dr : (r == dr && c == dc));
            if (dest)
                for (int i = 0; i < m * n; i++)
                    if (buf[i] != ref[i]) { bad++; break; }
        } else { /* the user's own MPI traffic, same tags as ours */
            int tag = (int)rnd(1000) * 16384;
            int to = (iam + 1) % (int)np, from = (iam + (int)np - 1) % (int)np;
            double x = (double)(k + iam), y = -1;
            MPI_Sendrecv(&x, 1, MPI_DOUBLE, to, tag, &y, 1, MPI_DOUBLE, from, tag,
                         rnd(2) ? MPI_COMM_WORLD : dup, MPI_STATUS_IGNORE);
            if (y != (double)(k + from)) bad++;
        }
    }
    TU_CHECK(bad == 0, "%ld of %ld operations went wrong", bad, ops);
    MPI_Comm_free(&dup);
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
