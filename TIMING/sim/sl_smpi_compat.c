/*
 * sl_smpi_compat.c -- MPI_Type_match_size for the reference BLACS under
 * SimGrid 3.32, whose own aborts (see sl_smpi_compat.h): the predefined
 * type of the given class and size in bytes, MPI_DATATYPE_NULL and
 * MPI_ERR_ARG when there is none.
 */
#include "sl_smpi_compat.h"

int sl_type_match_size(int typeclass, int size, MPI_Datatype *type)
{
    *type = MPI_DATATYPE_NULL;
    switch (typeclass) {
    case MPI_TYPECLASS_INTEGER:
        if (size == (int)sizeof(signed char)) *type = MPI_SIGNED_CHAR;
        else if (size == (int)sizeof(short)) *type = MPI_SHORT;
        else if (size == (int)sizeof(int)) *type = MPI_INT;
        else if (size == (int)sizeof(long long)) *type = MPI_LONG_LONG;
        break;
    case MPI_TYPECLASS_REAL:
        if (size == (int)sizeof(float)) *type = MPI_FLOAT;
        else if (size == (int)sizeof(double)) *type = MPI_DOUBLE;
        break;
    case MPI_TYPECLASS_COMPLEX:
        if (size == 2 * (int)sizeof(float)) *type = MPI_C_FLOAT_COMPLEX;
        else if (size == 2 * (int)sizeof(double)) *type = MPI_C_DOUBLE_COMPLEX;
        break;
    default:
        break;
    }
    return *type == MPI_DATATYPE_NULL ? MPI_ERR_ARG : MPI_SUCCESS;
}
