/*
 * optype.c -- the item datatypes of the combines: one per (operation, type,
 * owner key: none, 2 or 4 bytes), contiguous isize bytes, carrying its bi_op as an attribute
 * (bi_comb_keyval), so that the MPI user operations of TOP ' '
 * (comb_mpi.c) find what to do.  Made on first use, freed at BLACS_EXIT.
 * Apart from ops.c because it calls bi_op_setup through the symbol: the
 * SimGrid build puts a wrapper there that charges each combine its
 * simulated computation (TIMING/sim/simops.c).
 */
#include "core.h"

static MPI_Datatype dts[4][BI_NTYPE][3];
static bi_op ops[4][BI_NTYPE][3];
int bi_comb_keyval = MPI_KEYVAL_INVALID;

static void free_types(void)
{
    for (int k = 0; k < 4; k++)
        for (int t = 0; t < BI_NTYPE; t++)
            for (int o = 0; o < 3; o++)
                if (dts[k][t][o]) {
                    BI_MPI_IN(MPI_Type_free(&dts[k][t][o]), "MPI_Type_free", -1, "BLACS_EXIT");
                    dts[k][t][o] = 0;
                }
    if (bi_comb_keyval != MPI_KEYVAL_INVALID)
        BI_MPI_IN(MPI_Type_free_keyval(&bi_comb_keyval), "MPI_Type_free_keyval", -1, "BLACS_EXIT");
    bi_comb_keyval = MPI_KEYVAL_INVALID;
}

const bi_op *bi_op_for(int kind, int type, int owners, MPI_Datatype *dt)
{
    const int o = owners / 2; /* 0, 2 or 4 bytes */
    bi_op *op = &ops[kind][type][o];
    if (!dts[kind][type][o]) {
        if (bi_comb_keyval == MPI_KEYVAL_INVALID)
            BI_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN,
                                          &bi_comb_keyval, NULL),
                   "MPI_Type_create_keyval");
        bi_op_setup(op, kind, type, owners);
        MPI_Datatype t;
        BI_MPI(MPI_Type_contiguous((int)op->isize, MPI_BYTE, &t), "MPI_Type_contiguous");
        BI_MPI(MPI_Type_commit(&t), "MPI_Type_commit");
        BI_MPI(MPI_Type_set_attr(t, bi_comb_keyval, op), "MPI_Type_set_attr");
        dts[kind][type][o] = t;
        bi_atexit(free_types);
    }
    *dt = dts[kind][type][o];
    return op;
}
