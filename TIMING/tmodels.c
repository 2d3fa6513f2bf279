/*
 * tmodels.c -- every cost-model value of the topology table, and every
 * choice made from the models, printed bit-exactly (printf %a), one value a
 * line, so that two builds of the library can be compared with diff
 * (TESTING/same_behaviour.sh).  Links the static library's internals
 * through model_api.h, like tanalyze; needs no MPI_Init (no MPI call is
 * made) and reads the environment the library reads (BLACS_ALPHA,
 * BLACS_SEND_ALPHA, BLACS_BETA, BLACS_GAMMA, BLACS_MEMCPY_BETA,
 * BLACS_PIPE_SEGMENT, BLACS_COMB_NSHORT), so run it under each setting of
 * interest.
 *
 * For the default machine and five others, np in {1,2,3,4,5,6,7,8,12,16,
 * 64,256,1000}, bytes in {0,1,8,100,777,1000,8e3,1e4,12345,1e5,333333,
 * 8e5,1e6,7654321,1e7,1e8}:
 *   B/C <top> ...: each entry's bcast_model / comb_model, maximum and root
 *                  time, at the parameter the letter stands for
 *                  (bi_bcast_param / bi_comb_param without a context) and,
 *                  for 'M' and 'T', at 1, 2, 3, -2 too;
 *   bchoose, cchoose: what 'A' picks (broadcast letter and parameter;
 *                  combine letter for leave-on-one/-all, coherent or not);
 *   nseg, halvings, serial, scshort: bi_pipe_nseg, bi_comb_hybrid_halvings,
 *                  bi_serial_bytes, bi_bcast_scatcol_short;
 *   bparam/cparam: the parameter of every letter without a context and
 *                  with BLACS_SET values in one (skipped with
 *                  -DTMODELS_NO_CTX, e.g. if the context's fields move);
 *   table:         the table itself (letter, name, which columns are set,
 *                  message IDs).
 * Build: mpicc -std=c11 -I<build dir> -ISRC -ITIMING TIMING/tmodels.c
 *        LIB/libblacs.a -lm   (compile a copy outside TIMING/ to make the
 *        other tree's TIMING/model_api.h the one included)
 */
#include <stdio.h>
#include <string.h>
#include "model_api.h"

/* what is used here beyond bi_topos/bi_ntopos/bi_topo_find, declared as
 * SRC's headers declare it (model.h, topo_algs.h, comb.h), so that this
 * keeps compiling when a refactoring moves a declaration to a header
 * model_api.h does not include */
#pragma GCC visibility push(hidden)
const bi_machine *bi_machine_default(void);
double bi_serial_bytes(const bi_machine *m);
int bi_bcast_param(const bi_topo *t, const bi_ctx *c, int np);
int bi_comb_param(char t, const bi_ctx *c, int np);
size_t bi_pipe_nseg(const bi_machine *m, int np, size_t count, size_t isize);
const bi_topo *bi_bcast_choose(int np, double bytes, int *param);
char bi_comb_choose(const bi_machine *m, int np, double bytes, int all, int coherent);
int bi_comb_hybrid_halvings(const bi_machine *m, int np, double bytes);
int bi_bcast_scatcol_short(int np, double bytes);
#pragma GCC visibility pop

static const int NPS[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 64, 256, 1000};
/* round lengths, and others whose products with the machine parameters
 * are rarely exact (a reordered sum shows in the last bit there) */
static const double BYTES[] = {0, 1, 8, 100, 777, 1000, 8e3, 1e4, 12345, 1e5, 333333, 8e5, 1e6, 7654321, 1e7, 1e8};
#define NNP (int)(sizeof NPS / sizeof NPS[0])
#define NBY (int)(sizeof BYTES / sizeof BYTES[0])
static const int XPARAMS[] = {1, 2, 3, -2}; /* explicit ones for 'M' and 'T' */

static long nvalues;
#define OUT(...) (printf(__VA_ARGS__), nvalues++)

static void machine_line(const char *mn, const bi_machine *m)
{
    OUT("%s machine tc %a %a ts %a %a to %a %a tm %a %a\n", mn, m->tc.a, m->tc.b, m->ts.a,
        m->ts.b, m->to.a, m->to.b, m->tm.a, m->tm.b);
}

/* one model at one point: maximum and root time */
static void model_pt(const char *mn, char kind, const bi_topo *t, bi_model_fn f,
                     const bi_machine *m, int np, double b, int p)
{
    double root = -1.0; /* printed as is if the model leaves it */
    double v = f(m, np, b, p, &root);
    OUT("%s %c '%c' np=%d bytes=%.0f p=%d max %a\n", mn, kind, t->top, np, b, p, v);
    OUT("%s %c '%c' np=%d bytes=%.0f p=%d root %a\n", mn, kind, t->top, np, b, p, root);
    /* the maximum must not depend on whether the root time is asked for */
    double v2 = f(m, np, b, p, NULL);
    if (memcmp(&v, &v2, sizeof v))
        OUT("%s %c '%c' np=%d bytes=%.0f p=%d max-without-root %a\n", mn, kind, t->top, np, b, p, v2);
}

static void models(const char *mn, const bi_machine *m)
{
    machine_line(mn, m);
    OUT("%s serial %a\n", mn, bi_serial_bytes(m));
    for (int i = 0; i < bi_ntopos; i++) {
        const bi_topo *t = &bi_topos[i];
        const int mt = t->top == 'M' || t->top == 'T';
        for (int a = 0; a < NNP; a++)
            for (int b = 0; b < NBY; b++) {
                const int np = NPS[a];
                const double by = BYTES[b];
                if (t->bcast_model) {
                    model_pt(mn, 'B', t, t->bcast_model, m, np, by, bi_bcast_param(t, NULL, np));
                    for (int k = 0; mt && k < 4; k++) model_pt(mn, 'B', t, t->bcast_model, m, np, by, XPARAMS[k]);
                }
                if (t->comb_model) {
                    model_pt(mn, 'C', t, t->comb_model, m, np, by, bi_comb_param(t->top, NULL, np));
                    for (int k = 0; mt && k < 4; k++) model_pt(mn, 'C', t, t->comb_model, m, np, by, XPARAMS[k]);
                }
            }
    }
    for (int a = 0; a < NNP; a++)
        for (int b = 0; b < NBY; b++) {
            const int np = NPS[a];
            const double by = BYTES[b];
            for (int all = 0; all < 2; all++)
                for (int coh = 0; coh < 2; coh++)
                    OUT("%s cchoose np=%d bytes=%.0f all=%d coherent=%d -> '%c'\n", mn, np, by, all,
                        coh, bi_comb_choose(m, np, by, all, coh));
            OUT("%s halvings np=%d bytes=%.0f -> %d\n", mn, np, by, bi_comb_hybrid_halvings(m, np, by));
            static const size_t counts[] = {0, 1, 7, 100, 5000, 100000, 12500000};
            static const size_t isizes[] = {1, 4, 8, 16};
            if (b == 0)
                for (int c = 0; c < 7; c++)
                    for (int s = 0; s < 4; s++)
                        OUT("%s nseg np=%d count=%zu isize=%zu -> %zu\n", mn, np, counts[c], isizes[s],
                            bi_pipe_nseg(m, np, counts[c], isizes[s]));
        }
}

int main(void)
{
    /* the machines: the library's default (environment), then five fixed
     * (posting cost T_p = T_s(0), BLACS_POST_ALPHA's default) */
    static const bi_machine fixed[5] = {
        /* slow start-up, slow links (the pattern tests' 1000, 0.01, 0.01) */
        {{1000, 0.01}, {1, 0.01}, {0, 0.01}, {0, 5e-5}, 1},
        /* huge beta */
        {{2, 10}, {0.5, 10}, {0, 2.5e-4}, {0, 5e-5}, 0.5},
        /* no start-up for a complete communication, free operations */
        {{0, 1e-4}, {0.5, 1e-4}, {0, 0}, {0, 0}, 0.5},
        /* infinitely fast links, costly operations */
        {{5, 0}, {1, 0}, {0.1, 1e-3}, {0, 0}, 1},
        /* nothing round: every term inexact */
        {{1.7, 3.3e-4}, {0.31, 3.3e-4}, {0.07, 1.3e-4}, {0.01, 7e-5}, 0.31},
    };
    static const char *names[6] = {"def", "m1", "m2", "m3", "m4", "m5"};

    for (int i = 0; i < bi_ntopos; i++) {
        const bi_topo *t = &bi_topos[i];
        OUT("table %d '%c' \"%s\" bcast=%d ntags=%d model=%d comb=%d ntags=%d model=%d find=%d\n", i,
            t->top, t->name, t->bcast != NULL, t->bcast_ntags, t->bcast_model != NULL, t->comb != NULL,
            t->comb_ntags, t->comb_model != NULL, bi_topo_find(t->top) == t);
    }
    for (const char *s = " idsmhft123456789cpryba0xz!"; *s; s++) {
        const bi_topo *t = bi_topo_find(*s);
        OUT("find '%c' -> '%c'\n", *s, t ? t->top : '?');
    }

    /* the parameters, without a context and with BLACS_SET values in one */
    for (int i = 0; i < bi_ntopos; i++)
        for (int a = 0; a < NNP; a++) {
            const bi_topo *t = &bi_topos[i];
            const int np = NPS[a];
            OUT("bparam '%c' np=%d -> %d\n", t->top, np, bi_bcast_param(t, NULL, np));
            OUT("cparam '%c' np=%d -> %d\n", t->top, np, bi_comb_param(t->top, NULL, np));
#ifndef TMODELS_NO_CTX
            static const Int sets[][4] = {/* rings_bs, branches_bs, rings_comb, branches_comb */
                                          {1, 1, 1, 1},   {2, 3, -2, 2},  {-2, 2, 3, 3},
                                          {100, 100, 100, 100}, {-100, 7, -100, 7}, {0, 0, 0, 0}};
            for (int k = 0; k < 6; k++) {
                bi_ctx c;
                memset(&c, 0, sizeof c);
                c.rings_bs = sets[k][0];
                c.branches_bs = sets[k][1];
                c.rings_comb = sets[k][2];
                c.branches_comb = sets[k][3];
                OUT("bparam '%c' np=%d set=%d -> %d\n", t->top, np, k, bi_bcast_param(t, &c, np));
                OUT("cparam '%c' np=%d set=%d -> %d\n", t->top, np, k, bi_comb_param(t->top, &c, np));
            }
#endif
        }

    /* 'A' broadcast (the default machine only) and 'C''s short vectors */
    for (int a = 0; a < NNP; a++)
        for (int b = 0; b < NBY; b++) {
            int param = -12345;
            const bi_topo *t = bi_bcast_choose(NPS[a], BYTES[b], &param);
            OUT("bchoose np=%d bytes=%.0f -> '%c' p=%d\n", NPS[a], BYTES[b], t ? t->top : '?', param);
            OUT("scshort np=%d bytes=%.0f -> %d\n", NPS[a], BYTES[b], bi_bcast_scatcol_short(NPS[a], BYTES[b]));
        }

    models(names[0], bi_machine_default());
    for (int k = 0; k < 5; k++) models(names[k + 1], &fixed[k]);
    fprintf(stderr, "tmodels: %ld values\n", nvalues);
    return 0;
}
