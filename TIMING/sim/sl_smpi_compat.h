/*
 * sl_smpi_compat.h -- forced into every file of the reference BLACS by
 * make bench-scalapack (-include, TIMING/scalapack.mk): SimGrid 3.32's
 * MPI_Type_match_size aborts ("Not yet implemented"), so the reference
 * BLACS's calls go to sl_type_match_size (sl_smpi_compat.c) instead.
 */
#ifndef SL_SMPI_COMPAT_H
#define SL_SMPI_COMPAT_H
#include <mpi.h>
int sl_type_match_size(int typeclass, int size, MPI_Datatype *type);
#define MPI_Type_match_size sl_type_match_size
#endif
