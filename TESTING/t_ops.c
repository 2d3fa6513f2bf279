/*
 * t_ops.c -- the element operations of AMX and AMN with owner keys
 * (SRC/ops.c), as a pure function: for each type and both key widths (2
 * bytes, a scope of up to 65,536 processes; 4 bytes, a larger one, which no
 * test machine can run), vectors of packed items -- value, then key, no
 * gaps (keys written and read by bi_okey_put and bi_okey_get) -- combined
 * with op->fn and checked item by item against the rule
 * written out here: the larger (AMX) or smaller (AMN) |x| (|Re|+|Im|)
 * wins, on a tie the smaller key, and the winner's key travels with its
 * value.  Guard bytes after each vector catch an operation that writes past
 * its last item.  One process; no communication.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tutil.h"
#include "bi.h"

enum { N = 257, GUARD = 32 };

/* the magnitude of item p of type t (the combine's key) */
static double mag(int t, const char *p)
{
    switch (t) {
    case BI_I: {
        Int v;
        memcpy(&v, p, sizeof v);
        return fabs((double)v);
    }
    case BI_S: {
        float v;
        memcpy(&v, p, sizeof v);
        return fabs((double)v);
    }
    case BI_D: {
        double v;
        memcpy(&v, p, sizeof v);
        return fabs(v);
    }
    case BI_C: {
        float v[2];
        memcpy(v, p, sizeof v);
        return (double)(fabsf(v[0]) + fabsf(v[1]));
    }
    default: {
        double v[2];
        memcpy(v, p, sizeof v);
        return fabs(v[0]) + fabs(v[1]);
    }
    }
}

/* item value k of type t at p: small integers, so that ties are many */
static void put(int t, char *p, int k)
{
    switch (t) {
    case BI_I: {
        Int v = k;
        memcpy(p, &v, sizeof v);
        break;
    }
    case BI_S: {
        float v = (float)k;
        memcpy(p, &v, sizeof v);
        break;
    }
    case BI_D: {
        double v = k;
        memcpy(p, &v, sizeof v);
        break;
    }
    case BI_C: {
        float v[2] = {(float)k, (float)(k % 2)};
        memcpy(p, v, sizeof v);
        break;
    }
    default: {
        double v[2] = {(double)k, (double)(k % 2)};
        memcpy(p, v, sizeof v);
        break;
    }
    }
}

static unsigned long rnd(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return *s >> 33;
}

static void one(int kind, int t, int w)
{
    bi_op op;
    bi_op_setup(&op, kind, t, w);
    const size_t es = bi_types[t].size;
    const char *what = kind == BI_AMX ? "AMX" : "AMN";
    TU_CHECK(op.owners == w && op.isize == es + (size_t)w, "%s type %d key %d: owners %d isize %zu",
             what, t, w, op.owners, op.isize);
    static char acc[N * 24 + GUARD], in[N * 24 + GUARD], want[N * 24];
    unsigned long s = 12345u + (unsigned long)(kind * 100 + t * 10 + w);
    /* keys near the top of the width: 65,535 and below for 2 bytes, past
     * 65,536 for 4, so that a 4-byte key read as 2 bytes compares wrong */
    const uint32_t top = w == 2 ? 65535u : 70000u;
    for (int i = 0; i < N; i++) {
        char *a = acc + (size_t)i * op.isize, *b = in + (size_t)i * op.isize;
        put(t, a, (int)(rnd(&s) % 7) - 3);
        put(t, b, (int)(rnd(&s) % 7) - 3);
        uint32_t ka = top - (uint32_t)(rnd(&s) % 3), kb = top - (uint32_t)(rnd(&s) % 3);
        if (w == 4 && i % 2) kb = ka ^ 0x10000u; /* differs only above 16 bits */
        if (ka == kb) kb = ka - 1;
        bi_okey_put(a + es, w, ka);
        bi_okey_put(b + es, w, kb);
        const double ma = mag(t, a), mb = mag(t, b);
        const int take = kind == BI_AMX ? (mb > ma || (mb == ma && kb < ka))
                                        : (mb < ma || (mb == ma && kb < ka));
        memcpy(want + (size_t)i * op.isize, take ? b : a, op.isize);
    }
    memset(acc + N * op.isize, 0x5a, GUARD);
    memset(in + N * op.isize, 0x5a, GUARD);
    op.fn(acc, in, N, &op);
    long bad = 0;
    for (int i = 0; i < N; i++) {
        const char *a = acc + (size_t)i * op.isize, *x = want + (size_t)i * op.isize;
        if (memcmp(a, x, op.isize)) {
            if (bad++ < 3)
                fprintf(stderr, "%s type %d key %d item %d: |%g| key %u, want |%g| key %u\n", what,
                        t, w, i, mag(t, a), (unsigned)bi_okey_get(a + es, w), mag(t, x),
                        (unsigned)bi_okey_get(x + es, w));
        }
    }
    TU_CHECK(bad == 0, "%s type %d, %d-byte keys: %ld of %d items wrong", what, t, w, bad, N);
    int guard = 1;
    for (int g = 0; g < GUARD; g++)
        guard &= acc[N * op.isize + g] == 0x5a && in[N * op.isize + g] == 0x5a;
    TU_CHECK(guard, "%s type %d, %d-byte keys: wrote past the last item", what, t, w);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    for (int kind = BI_AMX; kind <= BI_AMN; kind++)
        for (int t = 0; t < BI_NTYPE; t++)
            for (int w = 2; w <= 4; w += 2) one(kind, t, w);
    /* the widths a scope gets */
    TU_CHECK(bi_okey_bytes(1) == 2 && bi_okey_bytes(65536) == 2 && bi_okey_bytes(65537) == 4,
             "key bytes %d %d %d", bi_okey_bytes(1), bi_okey_bytes(65536), bi_okey_bytes(65537));
    /* sums carry no keys */
    bi_op op;
    bi_op_setup(&op, BI_SUM, BI_D, 2);
    TU_CHECK(op.owners == 0 && op.isize == 8, "SUM: owners %d isize %zu", op.owners, op.isize);
    return tu_finish();
}
