/*
 * simdrv.c -- the driver of the SimGrid SMPI experiments (make
 * simulate).  Built with smpicc together with the library sources, so the
 * topology table and its cost models (SRC/topology.h, SRC/model.h) give the
 * predictions next to the simulated observations.
 *
 *   simdrv priv
 *       privatisation check: every rank writes its rank into a file-scope
 *       variable and into the library's state (Cblacs_pinfo), waits for all
 *       others to do the same, and checks it still reads its own values.
 *   simdrv run -k KIND [-t TOPS] -n N1,N2,.. [-T s|d] [-r REPS] [-s]
 *              [-p AC,BC,AS,BS,G[,AP]] [-b BRANCHES] [-l LABEL]
 *       KIND: bcast    BLACS broadcast (Cxgebs2d/Cxgebr2d), source rank 0
 *             all      BLACS sum, leave-on-all (Cxgsum2d, RDEST = -1)
 *             one      BLACS sum, leave-on-one (destination rank 0)
 *             mpibcast, mpiallreduce, mpireduce   MPI's own primitive on
 *                      MPI_COMM_WORLD (the sum is a user operation that pays
 *                      gamma like ours, simops.c)
 *             p2p      one-way time rank 0 -> rank np-1 (half a ping-pong)
 *             blacsp2p the same with the library's own point-to-point
 *                      (Cdgesd2d/Cdgerv2d: a copy; between simulated
 *                      hosts messages whole up to 1 MB, SRC/p2p.c)
 *             refbcast the reference BLACS's '1' broadcast: the binomial
 *                      tree with blocking sends (MPI_Send), one child
 *                      after the other, furthest first
 *             refall   the reference's '1' leave-on-all sum: the radix-2
 *                      fan-in to rank 0 (receives in arrival order, one at
 *                      a time, blocking sends) and the binomial
 *                      redistribution into receives posted in advance
 *       TOPS: TOP letters, '_' for ' ' (MPI inside the BLACS)
 *       -p: machine for the predictions, per item: T_c = AC + BC n,
 *           T_s = AS + BS n, T_o = G n (microseconds), and optionally the
 *           posting cost T_p = AP (BLACS_POST_ALPHA; AS when not given)
 *       -s: buffers by SMPI_SHARED_MALLOC (no result check; for big runs)
 *       -b: BLACS_SET 11..14 (rings and branches of 'M' and 'T')
 *   One CSV line per (top, n) from rank 0:
 *     label,kind,top,np,n,bytes,max_us,src_us,pred_max_us,pred_src_us,check
 *   max_us: the slowest process; src_us: the source (bcast) or destination
 *   (one) or rank 0; each the mean over REPS synchronised repetitions (after
 *   one untimed warm-up call per TOP).
 *
 * Synchronised start: after a barrier the ranks agree (allreduce max) on a
 * simulated instant comfortably in the future and idle until it
 * (smpi_execute), so every rank enters the operation at the same time --
 * the paper's "starting from synchronized processors" without the skew of
 * a real barrier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <smpi/smpi.h>
#include "topology.h"

static int me, np;

/* ---- privatisation check --------------------------------------------- */
static int my_global = -1;

static int priv(void)
{
    blacs_int p, n;
    my_global = me;
    Cblacs_pinfo(&p, &n);
    MPI_Barrier(MPI_COMM_WORLD);
    smpi_execute(1e-3); /* let every other rank run in between */
    MPI_Barrier(MPI_COMM_WORLD);
    int ok = my_global == me && bi_g.world_rank == me && p == me, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (me == 0)
        printf("privatisation %s: %d ranks, each sees its own file-scope globals (library bi_g.world_rank, driver static)\n",
               all ? "ok" : "FAILED", np);
    return all ? 0 : 1;
}

/* ---- timing --------------------------------------------------------- */
static double margin = 2.0; /* seconds of simulated time before each start (free) */

static void sync_start(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double now = MPI_Wtime(), tm = 0;
    MPI_Allreduce(&now, &tm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double go = tm + margin, t = MPI_Wtime();
    if (t >= go) {
        fprintf(stderr, "simdrv: rank %d late for the synchronised start by %g s\n", me, t - go);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    smpi_execute(go - t);
}

/* the MPI user sum that pays gamma like ours */
static void usum_d(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const double *a = in;
    double *b = inout;
    for (int i = 0; i < *len; i++) b[i] += a[i];
    if (*len) smpi_execute_flops((double)*len);
}
static void usum_s(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const float *a = in;
    float *b = inout;
    for (int i = 0; i < *len; i++) b[i] += a[i];
    if (*len) smpi_execute_flops((double)*len);
}

/* ---- the reference BLACS's tree schedules (its MPI_Send is blocking) ---- */
static int lowbit(int x) { return x & -x; }

static void ref_bcast(void *buf, int n, MPI_Datatype t, int tag)
{
    int top = 1;
    while (top < np) top <<= 1;
    int lvl = top; /* the source sends at every level below top */
    if (me) {
        lvl = lowbit(me);
        MPI_Recv(buf, n, t, me - lvl, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = lvl >> 1; i >= 1; i >>= 1)
        if (me + i < np) MPI_Send(buf, n, t, me + i, tag, MPI_COMM_WORLD);
}

static void ref_allsum(double *buf, double *work, int n)
{
    MPI_Request res = MPI_REQUEST_NULL;
    if (me) MPI_Irecv(buf, n, MPI_DOUBLE, me - lowbit(me), 2, MPI_COMM_WORLD, &res);
    int nkids = 0;
    for (int i = 1; i < np && !(me & i); i <<= 1)
        if (me + i < np) nkids++;
    for (int k = 0; k < nkids; k++) {
        MPI_Recv(work, n, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++) buf[i] += work[i];
        if (n) smpi_execute_flops((double)n);
    }
    if (me) {
        MPI_Send(buf, n, MPI_DOUBLE, me - lowbit(me), 1, MPI_COMM_WORLD);
        MPI_Wait(&res, MPI_STATUS_IGNORE);
    }
    int top = 1;
    while (top < np) top <<= 1;
    for (int i = (me ? lowbit(me) : top) >> 1; i >= 1; i >>= 1)
        if (me + i < np) MPI_Send(buf, n, MPI_DOUBLE, me + i, 2, MPI_COMM_WORLD);
}

/* ---- parsing ---------------------------------------------------------- */
static int parse_list(const char *s, long *v, int max)
{
    int k = 0;
    while (s && *s && k < max) {
        char *end;
        v[k++] = strtol(s, &end, 10);
        if (*end == ',') end++;
        else if (*end) return -1;
        s = end;
    }
    return k;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2 || (strcmp(argv[1], "priv") && strcmp(argv[1], "run"))) {
        if (me == 0) fprintf(stderr, "usage: simdrv priv | run -k KIND ... (see simdrv.c)\n");
        MPI_Finalize();
        return 2;
    }
    if (!strcmp(argv[1], "priv")) {
        int rc = priv();
        Cblacs_exit(1);
        MPI_Finalize();
        return rc;
    }

    const char *kind = "bcast", *tops = "1", *label = "sim";
    long ns[256];
    int nn = 0, reps = 1, shared = 0;
    char type = 'd';
    long branches = 1;
    double mac[6] = {0, 0, 0, 0, 0, 0};
    int npost = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-s")) { shared = 1; continue; }
        if (!v) break;
        i++;
        if (!strcmp(a, "-k")) kind = v;
        else if (!strcmp(a, "-t")) tops = v;
        else if (!strcmp(a, "-n")) nn = parse_list(v, ns, 256);
        else if (!strcmp(a, "-T")) type = v[0];
        else if (!strcmp(a, "-r")) reps = atoi(v);
        else if (!strcmp(a, "-b")) branches = atol(v);
        else if (!strcmp(a, "-l")) label = v;
        else if (!strcmp(a, "-p"))
            npost = sscanf(v, "%lf,%lf,%lf,%lf,%lf,%lf", &mac[0], &mac[1], &mac[2], &mac[3],
                           &mac[4], &mac[5]);
        else if (!strcmp(a, "-m")) margin = atof(v);
    }
    if (nn <= 0 || reps < 1) {
        if (me == 0) fprintf(stderr, "simdrv: bad -n or -r\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const size_t es = type == 's' ? sizeof(float) : sizeof(double);
    long nmax = 0;
    for (int i = 0; i < nn; i++) nmax = ns[i] > nmax ? ns[i] : nmax;

    /* machine of the predictions, per byte */
    bi_machine m;
    m.tc = (bi_lin){mac[0], mac[1] / (double)es};
    m.ts = (bi_lin){mac[2], mac[3] / (double)es};
    m.to = (bi_lin){0.0, mac[4] / (double)es};
    m.tm = (bi_lin){0.0, 0.0};
    m.tp = npost >= 6 ? mac[5] : mac[2]; /* posting a send: T_s(0) unless given */

    size_t bytes = (size_t)(nmax > 0 ? nmax : 1) * es;
    char *buf = shared ? SMPI_SHARED_MALLOC(bytes) : malloc(bytes);

    const int is_mpi = !strncmp(kind, "mpi", 3) || !strncmp(kind, "ref", 3),
              is_p2p = !strcmp(kind, "p2p") || !strcmp(kind, "blacsp2p");
    const int blacs_p2p = !strcmp(kind, "blacsp2p");
    blacs_int ctxt = -1, iam, nprocs;
    double *work = !strcmp(kind, "refall") ? malloc(bytes) : NULL;
    if (blacs_p2p) {
        Cblacs_pinfo(&iam, &nprocs);
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "R", 1, (blacs_int)np);
    } else if (!is_mpi && !is_p2p) {
        Cblacs_pinfo(&iam, &nprocs);
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "R", 1, (blacs_int)np);
        blacs_int b = (blacs_int)branches;
        for (blacs_int w = 11; w <= 14; w++) Cblacs_set(ctxt, w, &b);
    }
    MPI_Op usum;
    MPI_Op_create(type == 's' ? usum_s : usum_d, 1, &usum);
    MPI_Datatype mdt = type == 's' ? MPI_FLOAT : MPI_DOUBLE;

    const char *toplist = (is_mpi || is_p2p) ? "-" : tops;
    for (const char *tp = toplist; *tp; tp++) {
        char top = *tp == '_' ? ' ' : *tp;
        char topstr[2] = {top, 0};
        for (int k = 0; k < nn; k++) {
            const long n = ns[k];
            double tmax = 0, tsrc = 0;
            int bad = 0;
            /* r = -1: an untimed warm-up (the first call on a scope makes
             * its MPI communicator for TOP ' ', buffers are allocated) */
            for (int r = k == 0 ? -1 : 0; r < reps; r++) {
                if (!shared)
                    for (long i = 0; i < n; i++) {
                        if (type == 's') ((float *)buf)[i] = (float)(me + 1);
                        else ((double *)buf)[i] = (double)(me + 1);
                    }
                sync_start();
                double t0 = MPI_Wtime();
                blacs_int bn = (blacs_int)n;
                if (!strcmp(kind, "bcast")) {
                    if (me == 0) {
                        if (type == 's') Csgebs2d(ctxt, "R", topstr, bn, 1, (float *)buf, bn > 0 ? bn : 1);
                        else Cdgebs2d(ctxt, "R", topstr, bn, 1, (double *)buf, bn > 0 ? bn : 1);
                    } else {
                        if (type == 's') Csgebr2d(ctxt, "R", topstr, bn, 1, (float *)buf, bn > 0 ? bn : 1, 0, 0);
                        else Cdgebr2d(ctxt, "R", topstr, bn, 1, (double *)buf, bn > 0 ? bn : 1, 0, 0);
                    }
                } else if (!strcmp(kind, "all") || !strcmp(kind, "one")) {
                    blacs_int dst = !strcmp(kind, "all") ? -1 : 0;
                    if (type == 's') Csgsum2d(ctxt, "R", topstr, bn, 1, (float *)buf, bn > 0 ? bn : 1, dst, 0);
                    else Cdgsum2d(ctxt, "R", topstr, bn, 1, (double *)buf, bn > 0 ? bn : 1, dst, 0);
                } else if (!strcmp(kind, "mpibcast")) {
                    MPI_Bcast(buf, (int)n, mdt, 0, MPI_COMM_WORLD);
                } else if (!strcmp(kind, "mpiallreduce")) {
                    MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, mdt, usum, MPI_COMM_WORLD);
                } else if (!strcmp(kind, "mpireduce")) {
                    MPI_Reduce(me == 0 ? MPI_IN_PLACE : buf, buf, (int)n, mdt, usum, 0, MPI_COMM_WORLD);
                } else if (!strcmp(kind, "refbcast")) {
                    ref_bcast(buf, (int)n, mdt, 1);
                } else if (!strcmp(kind, "refall")) {
                    if (type == 's') {
                        if (me == 0) fprintf(stderr, "simdrv: refall is double precision\n");
                        MPI_Abort(MPI_COMM_WORLD, 2);
                    }
                    ref_allsum((double *)buf, work, (int)n);
                } else if (blacs_p2p) {
                    const blacs_int peer = np - 1, bn1 = bn > 0 ? bn : 1;
                    if (type == 's') {
                        if (me == 0) {
                            Csgesd2d(ctxt, bn, 1, (float *)buf, bn1, 0, peer);
                            Csgerv2d(ctxt, bn, 1, (float *)buf, bn1, 0, peer);
                        } else if (me == peer) {
                            Csgerv2d(ctxt, bn, 1, (float *)buf, bn1, 0, 0);
                            Csgesd2d(ctxt, bn, 1, (float *)buf, bn1, 0, 0);
                        }
                    } else if (me == 0) {
                        Cdgesd2d(ctxt, bn, 1, (double *)buf, bn1, 0, peer);
                        Cdgerv2d(ctxt, bn, 1, (double *)buf, bn1, 0, peer);
                    } else if (me == peer) {
                        Cdgerv2d(ctxt, bn, 1, (double *)buf, bn1, 0, 0);
                        Cdgesd2d(ctxt, bn, 1, (double *)buf, bn1, 0, 0);
                    }
                } else if (is_p2p) {
                    const int peer = np - 1;
                    if (me == 0) {
                        MPI_Send(buf, (int)n, mdt, peer, 1, MPI_COMM_WORLD);
                        MPI_Recv(buf, (int)n, mdt, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    } else if (me == peer) {
                        MPI_Recv(buf, (int)n, mdt, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(buf, (int)n, mdt, 0, 1, MPI_COMM_WORLD);
                    }
                } else {
                    if (me == 0) fprintf(stderr, "simdrv: unknown kind %s\n", kind);
                    MPI_Abort(MPI_COMM_WORLD, 2);
                }
                double t = (MPI_Wtime() - t0) * 1e6, mx = 0;
                if (is_p2p) t /= 2;
                MPI_Allreduce(&t, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                if (r < 0) continue;
                tmax += mx;
                tsrc += t; /* rank 0: the source / destination */
                /* result check: broadcast gives 1, sums np(np+1)/2 (where it lands) */
                if (!shared && !is_p2p && n > 0) {
                    int lands = strcmp(kind, "one") && strcmp(kind, "mpireduce") ? 1 : me == 0;
                    double want = (!strcmp(kind, "bcast") || !strcmp(kind, "mpibcast") ||
                                   !strcmp(kind, "refbcast"))
                                      ? 1.0 : 0.5 * np * (np + 1.0);
                    if (lands)
                        for (long i = 0; i < n; i++) {
                            double v = type == 's' ? ((float *)buf)[i] : ((double *)buf)[i];
                            if (v != want) { bad = 1; break; }
                        }
                }
            }
            int anybad = 0;
            MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            /* predictions from the topology table */
            double pmax = -1, psrc = -1;
            const double nb = (double)n * (double)es;
            if (!is_mpi && !is_p2p) {
                const bi_topo *t = bi_topo_find(top);
                if (!strcmp(kind, "bcast") && t && t->bcast_model) {
                    bi_ctx *c = bi_ctx_find(ctxt);
                    pmax = t->bcast_model(&m, np, nb, bi_bcast_param(t, c, np), &psrc);
                } else if (t && t->comb_model) {
                    double root = 0, all = t->comb_model(&m, np, nb, bi_comb_param(top, bi_ctx_find(ctxt), np), &root);
                    if (!strcmp(kind, "all")) pmax = all, psrc = all;
                    else pmax = root, psrc = root;
                }
            } else if (is_p2p) {
                pmax = psrc = m.tc.a + m.tc.b * nb;
            }
            if (me == 0) {
                printf("%s,%s,%s,%d,%ld,%.0f,%.3f,%.3f,%.3f,%.3f,%s\n", label, kind,
                       is_mpi || is_p2p ? "-" : (top == ' ' ? "_" : topstr), np, n, nb,
                       tmax / reps, tsrc / reps, pmax, psrc,
                       shared || is_p2p || n == 0 ? "-" : (anybad ? "WRONG" : "ok"));
                fflush(stdout);
            }
        }
    }
    MPI_Op_free(&usum);
    free(work);
    if (ctxt >= 0) Cblacs_gridexit(ctxt);
    if ((!is_mpi && !is_p2p) || blacs_p2p) Cblacs_exit(1);
    if (shared) SMPI_SHARED_FREE(buf);
    else free(buf);
    MPI_Finalize();
    return 0;
}
