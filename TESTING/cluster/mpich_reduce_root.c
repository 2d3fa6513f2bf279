/*
 * mpich_reduce_root.c -- MPI alone, no BLACS: the failure behind seed
 * 182861146 of make fuzz-hosts (TESTING/programs/xhost_reduce_root.prog).
 * Not run by make test: it shows MPICH's fault, which the library avoids
 * (SRC/core.h, BI_REDUCE_LONE; checked by cluster_smoke.sh reduce).
 *
 * Three ranks, two on h1 and one on h2 (cluster.sh run NAME mpich 2 -n 3);
 * a communicator whose rank 0 is world rank 2 (h2), then world 0 and 1;
 * MPI_Reduce of ONE element of a contiguous type of NB bytes with a
 * commutative user operation that checks a marker in each operand's first
 * 8 bytes and sums the doubles after it, to each root in turn.  With
 * Debian's MPICH 4.0.2 (ch4:ucx, UCX_TLS=tcp,self) between two hosts of the
 * bed, every root at 3,208 and 6,408 bytes: the operation is handed an
 * operand without the marker on h2, or the root's result is wrong (the
 * library's element of 200 doubles, 1,800 bytes, failed too).  Up to 1,608
 * bytes here, every size on one host, and an in-place MPI_Allreduce of
 * the same element on the same communicator: right.  MPICH's ch4
 * device-level reduction is the one at fault: with
 * MPIR_CVAR_REDUCE_DEVICE_COLLECTIVE=0 (or MPIR_CVAR_DEVICE_COLLECTIVES=none)
 * every case is right, and so is the BLACS program; with
 * MPIR_CVAR_ENABLE_SMP_REDUCE=0, MPIR_CVAR_ENABLE_SMP_COLLECTIVES=0 or
 * another MPIR_CVAR_REDUCE_INTRA_ALGORITHM it is not.  Open MPI 4.1 over
 * TCP in the same bed: right.  The library's ' '
 * combine sees the bad operand through its count header and stops with a
 * BLACS error ("different numbers of elements (200 here, 200 at another
 * process"); the reference BLACS, which has no such check, returned a
 * wrong result for seed 184587488.
 *   The cause, read in MPICH's source: above 2 KB, a commutative
 * MPI_Reduce on a communicator that spans nodes with two or more ranks on
 * some node runs MPIDI_Reduce_intra_composition_alpha, whose inter-node
 * stage takes comm rank 0's operand from its receive buffer even when rank
 * 0 skipped the in-node stage (alone on its node): garbage, whatever the
 * root.  Fixed in MPICH 4.2.0 (pmodels/mpich f623723).  Here rank 0 is
 * world 2, alone on h2.  Not only user operations and not only reordered
 * ranks: MPI_SUM of 300 or more doubles on the communicator of world ranks
 * 1, 2, 3 of 4 ranks, two a host, is wrong at every root too.
 *
 *   mpicc.mpich -o r mpich_reduce_root.c
 *   bash TESTING/cluster/cluster.sh with 2 bash -c \
 *     'bash TESTING/cluster/cluster.sh run $CLUSTER mpich 2 -n 3 ./r'
 * prints one line per rank, root and size; "bad" or "WRONG" is the failure.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define MARK 12345LL
static int nb, bad;

static void op(void *in, void *io, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int k = 0; k < *len; k++) {
        char *a = (char *)io + (size_t)k * (size_t)nb, *b = (char *)in + (size_t)k * (size_t)nb;
        long long ma, mb;
        memcpy(&ma, a, 8);
        memcpy(&mb, b, 8);
        if (ma != MARK || mb != MARK) bad++;
        for (int i = 0; i < (nb - 8) / 8; i++) {
            double x, y;
            memcpy(&x, a + 8 + 8 * i, 8);
            memcpy(&y, b + 8 + 8 * i, 8);
            x += y;
            memcpy(a + 8 + 8 * i, &x, 8);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int w, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != 3) {
        if (!w) fprintf(stderr, "run on 3 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int key[3] = {1, 2, 0}; /* world 2 first */
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, key[w], &c);
    int me;
    MPI_Comm_rank(c, &me);
    MPI_Op o;
    MPI_Op_create(op, 1, &o);
    char host[MPI_MAX_PROCESSOR_NAME];
    int hl;
    MPI_Get_processor_name(host, &hl);
    static char sb[8192], rb[8192];
    const int sizes[] = {24, 808, 1608, 3208, 6408};
    for (int root = 0; root < 3; root++)
        for (int s = 0; s < 5; s++) {
            nb = sizes[s];
            MPI_Datatype t;
            MPI_Type_contiguous(nb, MPI_BYTE, &t);
            MPI_Type_commit(&t);
            long long m = MARK;
            memcpy(sb, &m, 8);
            for (int i = 0; i < (nb - 8) / 8; i++) {
                double x = w + 1;
                memcpy(sb + 8 + 8 * i, &x, 8);
            }
            bad = 0;
            MPI_Reduce(sb, rb, 1, t, o, root, c);
            int wrong = 0;
            if (me == root) {
                memcpy(&m, rb, 8);
                wrong = m != MARK;
                for (int i = 0; i < (nb - 8) / 8; i++) {
                    double x;
                    memcpy(&x, rb + 8 + 8 * i, 8);
                    if (x != 6.0) wrong = 1;
                }
            }
            printf("world %d on %s, root %d, %d bytes: %s%s\n", w, host, root, nb,
                   bad ? "bad operand " : "", wrong ? "WRONG" : "ok");
            MPI_Type_free(&t);
        }
    MPI_Op_free(&o);
    MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}
