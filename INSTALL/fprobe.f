C     fprobe.f -- Fortran side of the build probes (see probe.c).
C     Calls C routines with names with and without an underscore, passes
C     an INTEGER array, strings placed after six other arguments (so that
C     their hidden lengths travel on the stack), and MPI_COMM_WORLD.
      PROGRAM FPROBE
      INCLUDE 'mpif.h'
      INTEGER IA(2), IERR
      IA(1) = 1
      IA(2) = 2
      CALL MPI_INIT(IERR)
      CALL BPROBE(1)
      CALL B_PROBE(2)
      CALL BPRINT(IA)
      CALL BCHLEN(1, 2, 3, 4, 5, 6, 'abc', 'defgh')
      CALL BCOMM(MPI_COMM_WORLD)
      CALL MPI_FINALIZE(IERR)
      END
