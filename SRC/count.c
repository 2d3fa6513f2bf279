/*
 * count.c -- telling MPI how many items move.  MPI counts and the block
 * lengths of derived datatypes are int, so a message of more than INT_MAX
 * items, or a column longer than that, cannot be given to MPI as it is.
 * Such a run is described by a derived datatype built on MPI_Aint byte
 * strides: whole chunks of 2^k items (2^k <= the limit) repeated, plus the
 * remaining items, in their order.  Matching only compares type
 * signatures (n items of the element type in sequence), so the two sides
 * of a message may describe the same n differently -- a receiver landing
 * the data in place through a shape type, a sender from a buffer -- and no
 * protocol change is needed.  Counts within the limit (all but the rarest
 * calls) go to MPI as they are and create no type.
 *
 * The limit is INT_MAX.  For testing, BLACS_COUNT_LIMIT (or a test that
 * sets bi_count_limit) lowers it, so that every message of more items than
 * that takes the large-count code: any test with small data then checks
 * that code.  Every process of a job must use the same limit.
 */
#include <limits.h>
#include <stdlib.h>
#include "core.h"

size_t bi_count_limit; /* 0: not read yet */

static size_t limit(void)
{
    if (!bi_count_limit) {
        double v = bi_env_num(BI_SET_COUNT_LIMIT);
        bi_count_limit = v > 0 ? (size_t)v : (size_t)INT_MAX;
    }
    size_t l = bi_count_limit;
    return l < 2 ? 2 : l > (size_t)INT_MAX ? (size_t)INT_MAX : l;
}

/* the chunk length: the largest power of two within the limit */
static size_t chunk(void)
{
    size_t c = 1, l = limit();
    while (2 * c <= l) c *= 2;
    return c;
}

/* n blocks as one type: contiguous when they touch (MPICH copies a vector
 * of one-item blocks item by item, 30 times slower than a run) */
static MPI_Datatype leaf(size_t n, int blen, MPI_Aint stride, MPI_Datatype t, int run)
{
    MPI_Datatype r;
    if (run) BI_MPI(MPI_Type_contiguous((int)n, t, &r), "MPI_Type_contiguous");
    else BI_MPI(MPI_Type_create_hvector((int)n, blen, stride, t, &r), "MPI_Type_create_hvector");
    return r;
}

MPI_Datatype bi_type_blocks(size_t n, int blen, MPI_Aint stride, MPI_Datatype t)
{
    MPI_Aint lb, ext;
    BI_MPI(MPI_Type_get_extent(t, &lb, &ext), "MPI_Type_get_extent");
    int run = stride == (MPI_Aint)blen * ext; /* blocks that touch: one run of items */
    if (run) {
        n *= (size_t)blen;
        blen = 1;
        stride = ext;
    }
    if (n <= limit()) return leaf(n, blen, stride, t, run);
    /* q chunks of c blocks each (recursively, in case q is past the limit
     * too), then the rem blocks left over, where the chunks end */
    size_t c = chunk(), q = n / c, rem = n % c;
    MPI_Datatype blk = leaf(c, blen, stride, t, run), head, r;
    head = bi_type_blocks(q, 1, stride * (MPI_Aint)c, blk);
    BI_MPI(MPI_Type_free(&blk), "MPI_Type_free");
    if (!rem) return head;
    MPI_Datatype types[2] = {head, leaf(rem, blen, stride, t, run)};
    int one[2] = {1, 1};
    MPI_Aint disp[2] = {0, stride * (MPI_Aint)(q * c)};
    BI_MPI(MPI_Type_create_struct(2, one, disp, types, &r), "MPI_Type_create_struct");
    BI_MPI(MPI_Type_free(&types[0]), "MPI_Type_free");
    BI_MPI(MPI_Type_free(&types[1]), "MPI_Type_free");
    return r;
}

bi_mpicount bi_mpicount_of(size_t n, MPI_Datatype el)
{
    bi_mpicount k = {0, el, 0};
    if (n <= limit()) {
        k.n = (int)n;
        return k;
    }
    MPI_Aint lb, ext;
    BI_MPI(MPI_Type_get_extent(el, &lb, &ext), "MPI_Type_get_extent");
    k.n = 1;
    k.dt = bi_type_blocks(n, 1, ext, el);
    k.made = 1;
    BI_MPI(MPI_Type_commit(&k.dt), "MPI_Type_commit");
    return k;
}

/* n items of el, each `size` bytes of MPI_BYTE (a combine's, optype.c), as
 * n * size bytes while that is within the limit: the same type signature,
 * so either side may use either form, and MPICH moves a predefined type
 * with less work than a derived one (DGSUM2D of one double on 1 x 2, the
 * exchange: 0.83 -> 0.79 us) */
bi_mpicount bi_mpicount_bytes(size_t n, size_t size, MPI_Datatype el)
{
    /* no division (a combine sends twice a call): n, size <= INT_MAX, so
     * their product cannot wrap */
    const size_t l = limit();
    if (n <= l && size <= l && n * size <= l) return (bi_mpicount){(int)(n * size), MPI_BYTE, 0};
    return bi_mpicount_of(n, el);
}

void bi_mpicount_free(bi_mpicount *k)
{
    if (k->made) BI_MPI(MPI_Type_free(&k->dt), "MPI_Type_free");
    k->made = 0;
}

size_t bi_count_piece(size_t n)
{
    size_t l = limit();
    return n < l ? n : l;
}
