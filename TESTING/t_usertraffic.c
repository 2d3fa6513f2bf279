/*
 * t_usertraffic.c -- a program's own messages on the communicator that
 * BLACS_GET WHAT=10 hands out for a grid (Cblacs2sys_handle) never mix with
 * the BLACS's traffic.  Every round each process
 *   - posts a wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) on it,
 *   - sends its own messages with any tag: the ID its next BLACS message to
 *     that process will carry (Cksendid), its broadcast IDs (Ckbsid), 0,
 *     MPI_TAG_UB, and tags sweeping the BLACS ID range (set with BLACS_SET
 *     WHAT=1 when LO HI are given), 1 to 200 ints each;
 *   - runs BLACS point-to-point (sends before, receives after more user
 *     traffic), a broadcast and two combines (leave-on-one and leave-on-all,
 *     topologies and scopes in turn) and checks every BLACS result;
 *   - receives its messages, part with wildcards, part by source and/or tag.
 * Every user message carries a header (source, destination, round, number,
 * length, tag): each process must receive exactly the messages meant for it,
 * each once, with the right source, tag and contents.
 *
 *   t_usertraffic NPROW NPCOL [ROUNDS [LO HI]]
 * T_UT_WATCHDOG: seconds without finishing a round before the program
 * reports a hang (default 60); T_UT_DUP=1: the user traffic on a duplicate
 * of that communicator instead (a check of the test itself).
 */
#include <signal.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include "tutil.h"

#define MAGIC 0x5eed1
#define HDR 7      /* MAGIC, src, dst, round, seq, len, tag */
#define NSEQ 7     /* user messages each process sends per round */
#define RBUF 65536 /* ints: room for whatever arrives */
#define MAXP 64

static blacs_int ctxt, nr, nc, myr, myc;
static MPI_Comm uc;
static int U, P, tag_ub, round_no;
static int *gr, *gc;                  /* grid coordinates of each rank of uc */
static unsigned char got[2][MAXP][NSEQ];
static int rbuf[RBUF], sbuf[NSEQ][HDR + 200];
static int nreported;

static int dst_of(int src, int seq)
{
    static const int off[NSEQ] = {1, 2, -1, 0, 1, -1, 1};
    return ((src + off[seq]) % P + P) % P;
}
static int len_of(int src, int seq, int r) { return 1 + (r * 7 + seq * 13 + src * 5) % 200; }
static int pay(int src, int seq, int r, int i) { return src * 1000003 + r * 131 + seq * 17 + i; }

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
    if (nreported++ >= 15) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[rank %d] round %d: ", tu_rank, round_no);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* a message taken from uc: must be one of mine, meant for me, not seen before */
static void take(const MPI_Status *st, int r)
{
    int cnt = 0;
    MPI_Get_count(st, MPI_INT, &cnt);
    const int *b = rbuf;
    int ok = cnt != MPI_UNDEFINED && cnt >= HDR && b[0] == MAGIC && b[1] == st->MPI_SOURCE &&
             b[2] == U && b[6] == st->MPI_TAG && (b[3] == r || b[3] == r + 1) && b[4] >= 0 &&
             b[4] < NSEQ && b[5] == cnt - HDR && dst_of(b[1], b[4]) == U &&
             b[5] == len_of(b[1], b[4], b[3]);
    for (int i = 0; ok && i < b[5]; i++)
        if (b[HDR + i] != pay(b[1], b[4], b[3], i)) ok = 0;
    if (!ok) {
        tu_fail++;
        report("received a message that is not one of the program's own: source %d, tag %d, %d ints"
               " (header %x %d %d %d %d %d %d)", st->MPI_SOURCE, st->MPI_TAG, cnt, b[0], b[1], b[2],
               b[3], b[4], b[5], b[6]);
        return;
    }
    unsigned char *g = &got[b[3] % 2][b[1]][b[4]];
    if (*g) {
        tu_fail++;
        report("message %d of round %d from %d received twice", b[4], b[3], b[1]);
        return;
    }
    *g = 1;
    tu_pass++;
}

/* receive one message matching (src, tag) within a time limit */
static int recv_match(int src, int tag, int r, double limit)
{
    double t0 = MPI_Wtime();
    for (;;) {
        int flag = 0;
        MPI_Message msg;
        MPI_Status st;
        MPI_Improbe(src, tag, uc, &flag, &msg, &st);
        if (flag) {
            MPI_Mrecv(rbuf, RBUF, MPI_INT, &msg, &st);
            take(&st, r);
            return 1;
        }
        if (MPI_Wtime() - t0 > limit) return 0;
    }
}

static void on_alarm(int sig)
{
    (void)sig;
    char b[300];
    int l = snprintf(b, sizeof b,
                     "[rank %d] t_usertraffic: round %d did not finish within T_UT_WATCHDOG seconds: hang\n"
                     "%d passed, %d failed\n", tu_rank, round_no, tu_pass, tu_fail + 1);
    if (write(2, b, (size_t)l) < 0) _exit(4);
    _exit(3);
}

/* ---- BLACS traffic and its checks ----------------------------------------- */
static double dv(int r, int who, int i) { return (double)(r * 1000 + who * 50 + i); }

static void blacs_round(int r, int part)
{
    const int np = (int)(nr * nc), me = (int)(myr * nc + myc);
    const int nx = (me + 1) % np, pv = (me + np - 1) % np;
    static double a[400];
    static blacs_int ia[400], ra[400], ca[400];
    const blacs_int m = 1 + r % 5, n = 2;
    if (part == 0) { /* point-to-point sends */
        for (int i = 0; i < m * n; i++) a[i] = dv(r, me, i);
        Cdgesd2d(ctxt, m, n, a, m, nx / nc, nx % nc);
        for (int i = 0; i < 3; i++) ia[i] = r * 10 + me + i;
        Cigesd2d(ctxt, 3, 1, ia, 3, pv / nc, pv % nc);
        return;
    }
    if (part == 1) { /* point-to-point receives */
        Cdgerv2d(ctxt, m, n, a, m, pv / nc, pv % nc);
        int ok = 1;
        for (int i = 0; i < m * n; i++) ok &= a[i] == dv(r, pv, i);
        TU_CHECK(ok, "round %d: DGERV2D from %d: wrong data", r, pv);
        Cigerv2d(ctxt, 3, 1, ia, 3, nx / nc, nx % nc);
        ok = 1;
        for (int i = 0; i < 3; i++) ok &= ia[i] == r * 10 + nx + i;
        TU_CHECK(ok, "round %d: IGERV2D from %d: wrong data", r, nx);
        return;
    }
    /* broadcast: scope, topology, source and length in turn */
    static const char *btops[] = {" ", "I", "D", "S", "M", "H", "T", "F", "1", "2", "C", "P", "A"};
    static const char *scopes[] = {"All", "Row", "Column"};
    const char *sc = scopes[r % 3], *bt = btops[r % 13];
    const int snp = sc[0] == 'A' ? np : sc[0] == 'R' ? (int)nc : (int)nr;
    if (snp > 1) {
        const int len = r % 4 == 3 ? 300 : 1 + r % 7, src = (r / 3) % snp;
        blacs_int sr = sc[0] == 'A' ? src / nc : sc[0] == 'R' ? myr : src;
        blacs_int scc = sc[0] == 'A' ? src % nc : sc[0] == 'R' ? src : myc;
        if (sr == myr && scc == myc) {
            for (int i = 0; i < len; i++) a[i] = dv(r, 7, i);
            Cdgebs2d(ctxt, (char *)sc, (char *)bt, len, 1, a, len);
        } else {
            for (int i = 0; i < len; i++) a[i] = -1;
            Cdgebr2d(ctxt, (char *)sc, (char *)bt, len, 1, a, len, sr, scc);
            int ok = 1;
            for (int i = 0; i < len; i++) ok &= a[i] == dv(r, 7, i);
            TU_CHECK(ok, "round %d: broadcast %s TOP '%s' from {%ld,%ld}: wrong data", r, sc, bt,
                     (long)sr, (long)scc);
        }
    }
    /* leave-on-one sum, then leave-on-all AMX with owners */
    static const char *ctops[] = {"F", "1", "T", "H", "I", "S", "M", "2", " ", "R", "B", "Y", "A"};
    const char *ct = ctops[r % 13], *cs = scopes[(r / 2) % 3];
    const int cnp = cs[0] == 'A' ? np : cs[0] == 'R' ? (int)nc : (int)nr;
    const int cme = cs[0] == 'A' ? me : cs[0] == 'R' ? (int)myc : (int)myr;
    const int len = r % 5 == 4 ? 250 : 1 + r % 4, dest = r % cnp;
    blacs_int dr = cs[0] == 'A' ? dest / nc : cs[0] == 'R' ? myr : dest;
    blacs_int dc = cs[0] == 'A' ? dest % nc : cs[0] == 'R' ? dest : myc;
    for (int i = 0; i < len; i++) a[i] = dv(r, cme, i);
    Cdgsum2d(ctxt, (char *)cs, (char *)ct, len, 1, a, len, dr, dc);
    if (cme == dest) {
        int ok = 1;
        for (int i = 0; i < len; i++) {
            double w = 0;
            for (int p = 0; p < cnp; p++) w += dv(r, p, i);
            ok &= a[i] == w;
        }
        TU_CHECK(ok, "round %d: DGSUM2D %s TOP '%s' to %d: wrong sum", r, cs, ct, dest);
    }
    for (int i = 0; i < len; i++) ia[i] = 1 + (cme + r + i) % cnp + cnp * r;
    Cigamx2d(ctxt, (char *)cs, (char *)ct, len, 1, ia, len, ra, ca, len, -1, -1);
    int ok = 1;
    for (int i = 0; i < len; i++) {
        int w = ((cnp - 1 - r - i) % cnp + cnp) % cnp; /* owner's scope rank */
        blacs_int wr = cs[0] == 'A' ? w / nc : cs[0] == 'R' ? myr : w;
        blacs_int wc = cs[0] == 'A' ? w % nc : cs[0] == 'R' ? w : myc;
        ok &= ia[i] == cnp + cnp * r && ra[i] == wr && ca[i] == wc;
    }
    TU_CHECK(ok, "round %d: IGAMX2D %s TOP '%s' leave-on-all: wrong value or owner", r, cs, ct);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    blacs_int me, np, h;
    Cblacs_pinfo(&me, &np);
    const blacs_int rows = argc > 1 ? atol(argv[1]) : 2, cols = argc > 2 ? atol(argv[2]) : np / rows;
    const int rounds = argc > 3 ? atoi(argv[3]) : 150;
    const int watchdog = getenv("T_UT_WATCHDOG") ? atoi(getenv("T_UT_WATCHDOG")) : 60;
    signal(SIGALRM, on_alarm);
    Cblacs_get(0, 0, &ctxt);
    if (argc > 5) {
        blacs_int range[2] = {atol(argv[4]), atol(argv[5])};
        Cblacs_set(ctxt, 1, range);
    }
    Cblacs_gridinit(&ctxt, "Row", rows, cols);
    Cblacs_gridinfo(ctxt, &nr, &nc, &myr, &myc);
    blacs_int idr[2];
    Cblacs_get(ctxt, 1, idr);
    Cblacs_get(ctxt, 10, &h);
    uc = Cblacs2sys_handle(h);
    if (getenv("T_UT_DUP")) MPI_Comm_dup(uc, &uc); /* check of the test itself */
    MPI_Comm_rank(uc, &U);
    MPI_Comm_size(uc, &P);
    TU_CHECK(P == nr * nc && P <= MAXP, "the grid's communicator has %d processes, the grid %ld", P,
             (long)(nr * nc));
    int *ub, flag = 0;
    MPI_Comm_get_attr(uc, MPI_TAG_UB, &ub, &flag);
    tag_ub = flag ? *ub : 32767;
    gr = malloc(sizeof(int) * (size_t)P);
    gc = malloc(sizeof(int) * (size_t)P);
    int mine[2] = {(int)myr, (int)myc}, *all = malloc(sizeof(int) * 2 * (size_t)P);
    MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, uc);
    for (int p = 0; p < P; p++) gr[p] = all[2 * p], gc[p] = all[2 * p + 1];
    free(all);
    if (U == 0)
        printf("t_usertraffic: %ldx%ld grid, BLACS ID range [%ld,%ld], MPI_TAG_UB %d, %d rounds\n",
               (long)nr, (long)nc, (long)idr[0], (long)idr[1], tag_ub, rounds);
    const int span = (int)(idr[1] - idr[0] + 1);

    for (int r = 0; r < rounds; r++) {
        round_no = r;
        alarm((unsigned)watchdog);
        /* a wildcard receive, open while the BLACS work */
        MPI_Request wild;
        MPI_Irecv(rbuf, RBUF, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, uc, &wild);
        /* my messages of this round, tags chosen to meet the BLACS's */
        MPI_Request sreq[NSEQ];
        for (int k = 0; k < NSEQ; k++) {
            int d = dst_of(U, k), tag;
            switch (k) {
            case 0: tag = (int)Cksendid(ctxt, gr[d], gc[d]); break;
            case 1: tag = 0; break;
            case 2: tag = tag_ub; break;
            case 3: tag = (int)Ckbsid(ctxt, "All"); break;
            case 4: tag = (int)Ckbsid(ctxt, "Row"); break;
            case 5: tag = (int)idr[0] + (r * 37 + U * 11) % span; break;
            default: tag = (int)idr[0] + (r * 53 + 5) % span; break;
            }
            if (tag < 0 || tag > tag_ub) tag = 1;
            int *s = sbuf[k], len = len_of(U, k, r);
            s[0] = MAGIC, s[1] = U, s[2] = d, s[3] = r, s[4] = k, s[5] = len, s[6] = tag;
            for (int i = 0; i < len; i++) s[HDR + i] = pay(U, k, r, i);
            if (k == 6) blacs_round(r, 0); /* the last one after the BLACS sends */
            MPI_Isend(s, HDR + len, MPI_INT, d, tag, uc, &sreq[k]);
        }
        /* the wildcard completes with one of the messages */
        int done = 0;
        MPI_Status st;
        double t0 = MPI_Wtime();
        while (!done && MPI_Wtime() - t0 < 20) MPI_Test(&wild, &done, &st);
        if (done) take(&st, r);
        else {
            MPI_Cancel(&wild);
            MPI_Wait(&wild, MPI_STATUS_IGNORE);
            tu_fail++;
            report("the wildcard receive got nothing in 20 s");
        }
        /* one more message with wildcards before the BLACS receives */
        if (!recv_match(MPI_ANY_SOURCE, MPI_ANY_TAG, r, 20)) tu_fail++, report("no message in 20 s");
        blacs_round(r, 1);
        blacs_round(r, 2);
        /* the rest by source (any tag), by tag (any source), or both */
        for (int s = 0; s < P; s++)
            for (int k = 0; k < NSEQ; k++) {
                if (dst_of(s, k) != U) continue;
                while (!got[r % 2][s][k]) {
                    int src = k == 1 ? MPI_ANY_SOURCE : s, tag = k == 1 ? 0 : k == 2 ? tag_ub : MPI_ANY_TAG;
                    if (!recv_match(src, tag, r, 20)) {
                        tu_fail++;
                        report("message %d from %d never arrived (20 s)", k, s);
                        break;
                    }
                }
            }
        MPI_Status sst[NSEQ];
        MPI_Waitall(NSEQ, sreq, sst);
        memset(got[r % 2], 0, sizeof got[0]);
    }
    alarm(0);
    /* nothing of mine may be left over */
    int flag2 = 0;
    MPI_Status st;
    Cblacs_barrier(ctxt, "All");
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, uc, &flag2, &st);
    TU_CHECK(!flag2, "a message (source %d, tag %d) is left on the communicator", st.MPI_SOURCE,
             st.MPI_TAG);
    Cblacs_gridexit(ctxt);
    int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}
