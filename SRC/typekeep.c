/*
 * typekeep.c -- MPI datatypes kept between calls.  Building and committing
 * a datatype costs more than moving a small message, and the calls that
 * need one (receives and TOP ' ' broadcasts of non-contiguous shapes,
 * shape.c) come in loops over a few shapes.  So the last NKEEP types are
 * kept, found by a key of plain bytes that holds everything the type
 * depends on (put together value by value, bi.h, so that no padding byte
 * takes part), the least recently used one replaced, and all freed at
 * BLACS_EXIT (before MPI_Finalize; a later BLACS_PINFO starts empty).
 */
#include <string.h>
#include "core.h"

#define NKEEP 24
static struct {
    unsigned char key[BI_TYPEKEY_MAX];
    size_t klen;
    MPI_Datatype dt;
    unsigned long used; /* 0: empty slot; else the clock at the last use */
} keep[NKEEP];
static unsigned long clk;

static void keep_free(void)
{
    for (int i = 0; i < NKEEP; i++)
        if (keep[i].used) {
            BI_MPI_IN(MPI_Type_free(&keep[i].dt), "MPI_Type_free", -1, "BLACS_EXIT");
            keep[i].used = 0;
        }
    clk = 0;
}

MPI_Datatype bi_type_kept(const bi_typekey *k, MPI_Datatype (*make)(const void *arg),
                          const void *arg)
{
    const unsigned char *key = k->b;
    const size_t klen = k->n;
    int victim = 0;
    for (int i = 0; i < NKEEP; i++) {
        if (keep[i].used && keep[i].klen == klen && !memcmp(keep[i].key, key, klen)) {
            keep[i].used = ++clk;
            return keep[i].dt;
        }
        if (keep[i].used < keep[victim].used) victim = i;
    }
    if (keep[victim].used) BI_MPI(MPI_Type_free(&keep[victim].dt), "MPI_Type_free");
    else bi_atexit(keep_free); /* once per BLACS session: it ignores repeats */
    keep[victim].used = 0;     /* until make returns: an error inside leaves no half entry */
    memcpy(keep[victim].key, key, klen);
    keep[victim].klen = klen;
    keep[victim].dt = make(arg);
    keep[victim].used = ++clk;
    return keep[victim].dt;
}
