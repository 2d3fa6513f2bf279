/*
 * shape.c -- what part of A a call communicates.  A general (GE) shape is
 * M x N with leading dimension LDA; a trapezoidal (TR) shape keeps, in each
 * column, the rows the spec's section 6 defines (the "diagonal" of length
 * min(M,N) starts at (0,0) when the triangle side is the short side, and is
 * anchored at (M-1,N-1) otherwise).  Everything else sees contiguous items:
 * bi_pack/bi_unpack move between the two, bi_shape_mpitype describes A to
 * MPI so a receive can land in place without a copy.
 */
#include <string.h>
#include <stdlib.h>
#include "bi.h"

const bi_typeinfo bi_types[BI_NTYPE] = {
    {'I', sizeof(Int), 0},
    {'S', sizeof(float), 0},
    {'D', sizeof(double), 0},
    {'C', 2 * sizeof(float), 1},
    {'Z', 2 * sizeof(double), 1},
};

MPI_Datatype bi_mpitype(int type)
{
    switch (type) {
    case BI_I: return sizeof(Int) == 8 ? MPI_INT64_T : MPI_INT;
    case BI_S: return MPI_FLOAT;
    case BI_D: return MPI_DOUBLE;
    case BI_C: return MPI_C_FLOAT_COMPLEX;
    default: return MPI_C_DOUBLE_COMPLEX;
    }
}

void bi_shape_rows(const bi_shape *s, Int j, Int *lo, Int *hi)
{
    if (!s->tr) {
        *lo = 0;
        *hi = s->m;
        return;
    }
    if (s->upper) {
        /* rows r <= k (non-unit) or r < k (unit), k = j + max(M-N,0) */
        Int k = j + (s->m > s->n ? s->m - s->n : 0);
        Int h = s->unit ? k : k + 1;
#if defined(BI_FAULT) && BI_FAULT == 1
        h += 1; /* planted fault 1: off-by-one in the trapezoid */
#endif
        *lo = 0;
        *hi = h < s->m ? (h > 0 ? h : 0) : s->m;
    } else {
        /* rows r >= k (non-unit) or r > k (unit), k = j - max(N-M,0) */
        Int k = j - (s->n > s->m ? s->n - s->m : 0);
        Int l = s->unit ? k + 1 : k;
        *lo = l > 0 ? (l < s->m ? l : s->m) : 0;
        *hi = s->m;
    }
}

size_t bi_shape_count(const bi_shape *s)
{
    if (s->m <= 0 || s->n <= 0) return 0;
    if (!s->tr) return (size_t)s->m * (size_t)s->n;
    size_t t = 0;
    for (Int j = 0; j < s->n; j++) {
        Int lo, hi;
        bi_shape_rows(s, j, &lo, &hi);
        t += (size_t)(hi - lo);
    }
    return t;
}

int bi_shape_contig(const bi_shape *s)
{
    if (s->m <= 0 || s->n <= 0) return 1;
    if (s->tr) {
        /* a trapezoid is one block only if every column is whole */
        for (Int j = 0; j < s->n; j++) {
            Int lo, hi;
            bi_shape_rows(s, j, &lo, &hi);
            if (lo != 0 || hi != s->m) return 0;
        }
    }
    return s->n == 1 || s->lda == s->m;
}

/* one loop over the columns serves both directions */
static void copy_cols(const bi_shape *s, char *A, char *buf, int pack)
{
    size_t es = bi_types[s->type].size;
    for (Int j = 0; j < s->n; j++) {
        Int lo, hi;
        bi_shape_rows(s, j, &lo, &hi);
        if (hi <= lo) continue;
        char *col = A + ((size_t)j * (size_t)s->lda + (size_t)lo) * es;
        size_t nb = (size_t)(hi - lo) * es;
        if (pack) memcpy(buf, col, nb);
        else memcpy(col, buf, nb);
        buf += nb;
    }
}

void bi_pack(const bi_shape *s, const void *A, void *buf)
{
    if (s->m > 0 && s->n > 0) copy_cols(s, (char *)A, buf, 1);
}

void bi_unpack(const bi_shape *s, const void *buf, void *A)
{
    if (s->m > 0 && s->n > 0) copy_cols(s, A, (char *)buf, 0);
}

MPI_Datatype bi_shape_mpitype(const bi_shape *s)
{
    MPI_Datatype el = bi_mpitype(s->type), t;
    if (s->m <= 0 || s->n <= 0) {
        BI_MPI(MPI_Type_contiguous(0, el, &t), "MPI_Type_contiguous");
    } else if (!s->tr) {
        BI_MPI(MPI_Type_vector((int)s->n, (int)s->m, (int)s->lda, el, &t), "MPI_Type_vector");
    } else {
        int *len = malloc(2 * (size_t)s->n * sizeof(int));
        int *disp = len + s->n;
        for (Int j = 0; j < s->n; j++) {
            Int lo, hi;
            bi_shape_rows(s, j, &lo, &hi);
            len[j] = (int)(hi - lo);
            disp[j] = (int)(j * s->lda + lo);
        }
        BI_MPI(MPI_Type_indexed((int)s->n, len, disp, el, &t), "MPI_Type_indexed");
        free(len);
    }
    BI_MPI(MPI_Type_commit(&t), "MPI_Type_commit");
    return t;
}
