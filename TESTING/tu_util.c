/* tu_util.c -- implementation of tutil.h (test helpers, not part of the library) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "tutil.h"
#include <math.h>

int tu_pass, tu_fail, tu_verbose, tu_rank;

void tu_init(int *argc, char ***argv)
{
    int up;
    MPI_Initialized(&up);
    if (!up) MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &tu_rank);
    tu_verbose = getenv("TU_VERBOSE") != NULL;
}

static char wd_msg[200];
static size_t wd_len;

static void on_alarm(int sig)
{
    (void)sig;
    ssize_t w = write(2, wd_msg, wd_len); /* async-signal-safe: no stdio here */
    (void)w;
    _exit(3);
}

void tu_watchdog(const char *prog, unsigned seconds)
{
    int n = snprintf(wd_msg, sizeof wd_msg,
                     "%s: HANG: the operation did not finish within the watchdog time\n", prog);
    wd_len = n < 0 ? 0 : (size_t)n < sizeof wd_msg ? (size_t)n : sizeof wd_msg - 1;
    signal(SIGALRM, on_alarm);
    alarm(seconds);
}

int tu_finish(void)
{
    long loc[2] = {tu_pass, tu_fail}, tot[2];
    MPI_Allreduce(loc, tot, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (tu_rank == 0) {
        printf("%ld passed, %ld failed\n", tot[0], tot[1]);
        fflush(stdout);
    }
    return tot[1] ? 1 : 0;
}

int tu_trace_end(FILE *tf, const char *name)
{
    if (tf) fclose(tf);
    remove(name);
    const int rc = tu_finish();
    Cblacs_exit(0);
    return rc;
}

void tu_mat_alloc(tu_mat *t, size_t esz, blacs_int m, blacs_int n, blacs_int lda)
{
    t->esz = esz;
    t->m = m;
    t->n = n;
    t->lda = lda < 1 ? 1 : lda;
    t->total = (size_t)t->lda * (size_t)(n > 0 ? n : 0) + 2 * TU_GUARD;
    t->mem = malloc(t->total * esz);
    if (!t->mem) { fprintf(stderr, "tu_mat_alloc: out of memory\n"); MPI_Abort(MPI_COMM_WORLD, 3); }
    t->a = t->mem + TU_GUARD * esz;
}

void tu_mat_free(tu_mat *t)
{
    free(t->mem);
    t->mem = NULL;
    t->a = NULL;
}

void tu_mat_pad(tu_mat *t, unsigned char pad) { memset(t->mem, pad, t->total * t->esz); }

double tu_val(int seed, blacs_int i, blacs_int j)
{
    /* small integers so that sums of a few are exact in every type */
    unsigned h = (unsigned)seed * 2654435761u ^ (unsigned)(i * 40503u) ^ (unsigned)(j * 9973u + 7);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return (double)((int)(h % 2001u) - 1000);
}

static void put(void *p, char type, double v, double w)
{
    switch (type) {
    case 'I': { blacs_int x = (blacs_int)v; memcpy(p, &x, sizeof x); break; }
    case 'S': { float x = (float)v; memcpy(p, &x, sizeof x); break; }
    case 'D': memcpy(p, &v, sizeof v); break;
    case 'C': { float x[2] = {(float)v, (float)w}; memcpy(p, x, sizeof x); break; }
    default: { double x[2] = {v, w}; memcpy(p, x, sizeof x); break; }
    }
}

void tu_mat_fill(tu_mat *t, char type, int seed, tu_in_fn in, void *arg)
{
    for (blacs_int j = 0; j < t->n; j++)
        for (blacs_int i = 0; i < t->m; i++)
            if (!in || in(i, j, arg))
                put(tu_el(t, i, j), type, tu_val(seed, i, j), tu_val(seed + 1, i, j));
}

long tu_mat_check(tu_mat *t, char type, int seed, tu_in_fn in, void *arg, unsigned char pad,
                  const char *what)
{
    long bad = 0;
    unsigned char want[16];
    for (size_t k = 0; k < t->total; k++) {
        unsigned char *p = t->mem + k * t->esz;
        long off = (long)k - TU_GUARD;
        blacs_int j = off >= 0 ? (blacs_int)(off / t->lda) : -1;
        blacs_int i = off >= 0 ? (blacs_int)(off % t->lda) : off;
        int inside = off >= 0 && j < t->n && i < t->m && (!in || in(i, j, arg));
        if (inside) put(want, type, tu_val(seed, i, j), tu_val(seed + 1, i, j));
        else memset(want, pad, t->esz);
        if (memcmp(p, want, t->esz) != 0) {
            if (bad < 5)
                fprintf(stderr, "[rank %d] %s: %s at element %ld (i=%ld, j=%ld) %s\n", tu_rank,
                        what, inside ? "wrong value" : "guard overwritten", off, (long)i, (long)j,
                        off < 0 ? "(before A)" : j >= t->n ? "(after A)" : i >= t->m ? "(LDA gap)" : inside ? "" : "(outside the shape)");
            bad++;
        }
    }
    return bad;
}

#define G_(f) (tu_gesd_fn)(f)
#define T_(f) (tu_trsd_fn)(f)
const tu_p2p_type tu_p2p_types[5] = {
    {'I', sizeof(blacs_int), G_(Cigesd2d), G_(Cigerv2d), T_(Citrsd2d), T_(Citrrv2d)},
    {'S', sizeof(float), G_(Csgesd2d), G_(Csgerv2d), T_(Cstrsd2d), T_(Cstrrv2d)},
    {'D', sizeof(double), G_(Cdgesd2d), G_(Cdgerv2d), T_(Cdtrsd2d), T_(Cdtrrv2d)},
    {'C', 2 * sizeof(float), G_(Ccgesd2d), G_(Ccgerv2d), T_(Cctrsd2d), T_(Cctrrv2d)},
    {'Z', 2 * sizeof(double), G_(Czgesd2d), G_(Czgerv2d), T_(Cztrsd2d), T_(Cztrrv2d)},
};
#undef G_
#undef T_

int tu_in_tr(blacs_int i, blacs_int j, void *arg)
{
    const tu_tr *t = arg;
    int unit = t->diag == 'U' || t->diag == 'u';
    if (t->uplo == 'U' || t->uplo == 'u') {
        blacs_int k = j + (t->m > t->n ? t->m - t->n : 0);
        return unit ? i < k : i <= k;
    }
    blacs_int k = j - (t->n > t->m ? t->n - t->m : 0);
    return unit ? i > k : i >= k;
}

void tu_trace_setup(const char *prog, char *name, size_t size)
{
    char prefix[400];
    if (tu_rank == 0)
        snprintf(prefix, sizeof prefix, "%s/%s.%ld.%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
                 prog, (long)getpid(), (long)time(NULL));
    MPI_Bcast(prefix, sizeof prefix, MPI_CHAR, 0, MPI_COMM_WORLD);
    setenv("BLACS_TRACE", prefix, 1);
    snprintf(name, size, "%s.%d", prefix, tu_rank);
    remove(name);
}

int tu_mpich(void)
{
#if defined(MPICH_VERSION) || defined(SMPI_H)
    return 1;
#else
    return 0;
#endif
}

size_t tu_pair_piece(size_t isize, int onenode)
{
    return (onenode ? 8255 : 16447) / isize;
}

size_t tu_eager_pieces(int np, double bytes)
{
    return tu_mpich() && np > 2 && bytes <= 16 * 8192 ? (size_t)ceil(bytes / 8192) : 0;
}
