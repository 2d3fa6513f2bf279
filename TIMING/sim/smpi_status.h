/*
 * smpi_status.h -- forced into SRC/buffer.c's simulated build
 * (TIMING/simulate.mk).  SimGrid 3.32's MPI_Request_get_status sets the
 * flag for a send still in flight, so buffer.c's poll would go on to
 * MPI_Wait and block the sender until its receiver has taken the message:
 * a locally-blocking send made globally blocking, in simulation only.
 * Here the poll asks with MPI_Test, which frees a complete request
 * (buffer.c's MPI_Wait on it then returns at once).  mpi.h comes first, so
 * the macro changes buffer.c's call and not SMPI's declarations.
 */
#include <mpi.h>
#define MPI_Request_get_status(r, f, s) MPI_Test(&(r), f, s)
