      PROGRAM MVMULT
*
*     The example program of LAWN 73 appendix A (distributed matrix-
*     vector multiply and infinity norms of a distributed matrix and of
*     distributed vectors), rewritten for the BLACS 1.1 interface: the
*     grid is a context made by BLACS_GRIDINIT and every BLACS call
*     names it; the 1994 names become BLACS_PINFO/BLACS_SETUP,
*     BLACS_GRIDINFO, DGAMX2D (absolute-value maximum, as the 1994
*     DGMAX2D), BLACS_GRIDEXIT and BLACS_EXIT.  Uses point-to-point
*     communication, broadcasts and combines, with full words and first
*     letters as SCOPE and TOP.
*
*     Added to the paper's program: every process also computes the
*     three norms serially from the same random data and compares; the
*     program stops with a non-zero status if anything disagrees.
*
*     Run on 4 processes (a 2 x 2 grid): make example
*
*     .. External Functions ..
      INTEGER IDXMAX
      LOGICAL AGREE
      DOUBLE PRECISION DRAND, DINFNRM
      EXTERNAL IDXMAX, AGREE, DRAND, DINFNRM
*
*     .. External Subroutines ..
      EXTERNAL BLACS_PINFO, BLACS_SETUP, BLACS_GET, BLACS_GRIDINIT
      EXTERNAL BLACS_GRIDINFO, BLACS_SET, BLACS_GRIDEXIT, BLACS_EXIT
      EXTERNAL DGAMX2D, DGSUM2D, DGEBS2D, DGEBR2D, DGESD2D, DGERV2D
      EXTERNAL IGSUM2D, MATVEC, SERNRM
*
*     .. Intrinsic Functions ..
      INTRINSIC ABS, INT, REAL, SQRT
*
*     .. Scalars ..
      INTEGER LDA, LM, LN
      PARAMETER (LDA = 50)
      PARAMETER (LM = LDA)
      PARAMETER (LN = LDA)
      INTEGER ICTXT, IAM, NNODES, NPROW, NPCOL, MYROW, MYCOL
      INTEGER I, J, ITMP1, ITMP2, NBAD
      DOUBLE PRECISION NORMA, NORMB, NORMX, NORMTST
      DOUBLE PRECISION SERA, SERX, SERB
*
*     .. Arrays ..
      DOUBLE PRECISION A(LM, LN), X(LN), B(LM)
      DOUBLE PRECISION AT(LM, LN), XT(LN), RS(LM), BT(LM)
*
*     Find out how many processes have been allocated for use
*
      CALL BLACS_PINFO(IAM, NNODES)
*
*     (PVM only, in 1994: if the virtual machine is not set up,
*     allocate it with 8 processes.  With MPI NNODES is always >= 1.)
*
      IF (NNODES .LT. 1) THEN
         NNODES = 8
         CALL BLACS_SETUP(IAM, NNODES)
      END IF
*
*     Figure the process grid I want to use
*
      NPROW = INT(SQRT(REAL(NNODES)))
      NPCOL = NNODES / NPROW
*
*     Define the process grid (a context on the default system
*     context), and get grid information
*
      CALL BLACS_GET(0, 0, ICTXT)
      CALL BLACS_GRIDINIT(ICTXT, 'Row-major', NPROW, NPCOL)
      CALL BLACS_GRIDINFO(ICTXT, NPROW, NPCOL, MYROW, MYCOL)
*
*     If I'm not in the new process grid, goto end of program
*     (BLACS_GRIDINFO gives -1 for all four values then)
*
      IF (MYCOL .GE. NPCOL .OR. MYROW .GE. NPROW .OR. MYROW .LT. 0)
     $   GOTO 100
*
*     The point-to-point check below compares ||b|| on two processes
*     for equality: ask for coherent combines (BLACS_SET WHAT=16), so
*     that every process of a scope gets bit-identical results
*
      CALL BLACS_SET(ICTXT, 16, 1)
*
*     Generate distributed matrix A
*
      A(1,1) = DRAND(MYROW*NPCOL+MYCOL+1)
      DO 10 J = 1, LN
         DO 5 I = 1, LM
            A(I,J) = DRAND(0)
    5    CONTINUE
   10 CONTINUE
*
*     Figure the infinity norm of A
*
      NORMA = DINFNRM(ICTXT, LM, LN, A, LDA, B)
*
      IF (MYROW .EQ. 0) THEN
*
*        Generate vector X, distributed over process row 0
*
         X(1) = DRAND(1001+MYCOL)
         DO 20 J = 1, LN
            X(J) = DRAND(0)
   20    CONTINUE
*
*        All process rows need a copy of X, so broadcast within columns
*
         CALL DGEBS2D(ICTXT, 'COLUMN', 'HYPERCUBE', LN, 1, X, LN)
*
      ELSE
*
*        Receive my piece of X from process row 0
*
         CALL DGEBR2D(ICTXT, 'COLUMN', 'HYPERCUBE', LN, 1, X, LN,
     $                0, MYCOL)
*
      END IF
*
*     Figure the infinity norm of X
*
      NORMX = ABS(X(IDXMAX(LN, X, 1)))
      CALL DGAMX2D(ICTXT, 'R', 'H', 1, 1, NORMX, 1, ITMP1, ITMP2,
     $             1, -1, 0)
*
*     Do b = A*x, where b is distributed over a process column
*     NOTE: all process columns have a copy of b
*
*     perform local A*x
*
      CALL MATVEC(LM, LN, A, LDA, X, B)
*
*     Add in pieces of A*x done on other processes
*
      CALL DGSUM2D(ICTXT, 'ROW', 'HYPERCUBE', LM, 1, B, LM, -1, 0)
*
*     Figure the infinity norm of B
*
      NORMB = ABS(B(IDXMAX(LM, B, 1)))
      CALL DGAMX2D(ICTXT, 'C', 'H', 1, 1, NORMB, 1, ITMP1, ITMP2,
     $             1, -1, 0)
*
*     The same three norms, computed serially
*
      CALL SERNRM(NPROW, NPCOL, LM, LN, AT, LM, XT, RS, BT,
     $            SERA, SERX, SERB)
      NBAD = 0
      IF (.NOT. AGREE(NORMA, SERA)) NBAD = NBAD + 1
      IF (.NOT. AGREE(NORMX, SERX)) NBAD = NBAD + 1
      IF (.NOT. AGREE(NORMB, SERB)) NBAD = NBAD + 1
      IF (NBAD .GT. 0) WRITE(*, 3000) MYROW, MYCOL, NORMA, SERA,
     $   NORMX, SERX, NORMB, SERB
*
*     Print out norms
*
      IF (MYROW.EQ.0 .AND. MYCOL.EQ.0) THEN
         WRITE(*, 900) NPROW, NPCOL, LM, LN, NPROW*LM, NPCOL*LN
         WRITE(*, 1000) 'A', NORMA, SERA, TRIM(STATUS(NORMA, SERA))
         WRITE(*, 1000) 'x', NORMX, SERX, TRIM(STATUS(NORMX, SERX))
         WRITE(*, 1000) 'b', NORMB, SERB, TRIM(STATUS(NORMB, SERB))
      END IF
*
*     Mainly in order to show an example of using point-to-point
*     communication, the following test is done: is process {0,0}'s
*     NORMB the same as process {nprow-1, npcol-1}'s.
*
      IF (NPROW*NPCOL .GT. 1) THEN
         IF (MYROW .EQ. NPROW-1 .AND. MYCOL .EQ. NPCOL-1) THEN
            CALL DGESD2D(ICTXT, 1, 1, NORMB, 1, 0, 0)
         ELSE IF (MYROW .EQ. 0 .AND. MYCOL .EQ. 0) THEN
            CALL DGERV2D(ICTXT, 1, 1, NORMTST, 1, NPROW-1, NPCOL-1)
            IF (NORMTST .NE. NORMB) THEN
               WRITE(*, 2000) NORMB, NORMTST
               NBAD = NBAD + 1
            ELSE
               WRITE(*, 2100) NPROW-1, NPCOL-1
            END IF
         END IF
      END IF
*
*     Everybody learns whether anything failed anywhere
*
      CALL IGSUM2D(ICTXT, 'All', ' ', 1, 1, NBAD, 1, -1, 0)
      IF (MYROW.EQ.0 .AND. MYCOL.EQ.0) THEN
         IF (NBAD .EQ. 0) THEN
            WRITE(*, 4000)
         ELSE
            WRITE(*, 4100) NBAD
         END IF
      END IF
      CALL BLACS_GRIDEXIT(ICTXT)
*
  100 CONTINUE
      CALL BLACS_EXIT(0)
      IF (NBAD .NE. 0) STOP 1
      STOP
*
  900 FORMAT ('MVMULT (LAWN 73 appendix A, BLACS 1.1 interface): ',
     $        I0, ' x ', I0, ' process grid, ', I0, ' x ', I0,
     $        ' blocks, A is ', I0, ' x ', I0)
 1000 FORMAT ('  ||',A,'|| = ',G22.15,'   serial: ',G22.15,2X,A)
 2000 FORMAT ('ERROR: ||b||''s do not match. Values are: ',
     $        G22.15, G22.15)
 2100 FORMAT ('  ||b|| on {0,0} equals ||b|| sent by {',I0,',',I0,'}')
 3000 FORMAT ('ERROR on {',I0,',',I0,'}: norms (distributed, serial)',
     $        3(2X,G22.15,1X,G22.15))
 4000 FORMAT ('MVMULT: all norms agree with the serial computation')
 4100 FORMAT ('MVMULT: FAILED, ',I0,' disagreement(s)')
*
      CONTAINS
         CHARACTER*8 FUNCTION STATUS(V, REF)
         DOUBLE PRECISION V, REF
         IF (AGREE(V, REF)) THEN
            STATUS = 'ok'
         ELSE
            STATUS = 'MISMATCH'
         END IF
         END FUNCTION
*
*     End program MVMULT
*
      END
*
      DOUBLE PRECISION FUNCTION DINFNRM(ICTXT, LM, LN, A, LDA, WORK)
*
*  -- BLACS example routine (LAWN 73 appendix A), BLACS 1.1 version --
*
*     .. Scalar Arguments ..
      INTEGER ICTXT, LM, LN, LDA
*
*     .. Array Arguments ..
      DOUBLE PRECISION A(LDA, *), WORK(*)
*
*  Purpose
*  =======
*
*  Compute the infinity norm of a distributed matrix, where the
*  matrix is spread across a 2D process grid.  The result is returned
*  on every process of the grid.
*
*  Arguments
*  =========
*
*  ICTXT       (input) INTEGER
*              BLACS context of the process grid.
*
*  LM          (input) INTEGER
*              Number of rows of the global matrix owned by this process.
*
*  LN          (input) INTEGER
*              Number of columns of the global matrix owned by this
*              process.
*
*  A           (input) DOUBLE PRECISION, dimension (LDA,LN)
*              The matrix whose norm you wish to compute.
*
*  LDA         (input) INTEGER
*              Leading Dimension of A.
*
*  WORK        (temporary) DOUBLE PRECISION array, dimension (LM)
*              Temporary work space used for summing rows.
*
*     .. External Subroutines ..
      EXTERNAL DGSUM2D, DGAMX2D, DGEBS2D, DGEBR2D, BLACS_GRIDINFO
*
*     .. External Functions ..
      INTEGER IDXMAX
      DOUBLE PRECISION SUMABS
      EXTERNAL IDXMAX, SUMABS
*
*     .. Local Scalars ..
      INTEGER NPROW, NPCOL, MYROW, MYCOL, I, J
      DOUBLE PRECISION RMAX
*
*     .. Executable Statements ..
*
*     Get process grid information
*
      CALL BLACS_GRIDINFO(ICTXT, NPROW, NPCOL, MYROW, MYCOL)
*
*     Add all local rows together
*
      DO 20 I = 1, LM
         WORK(I) = SUMABS(LN, A(I,1), LDA)
   20 CONTINUE
*
*     Find sum of global matrix rows and store on column 0 of the
*     process grid
*
      CALL DGSUM2D(ICTXT, 'r', '1', LM, 1, WORK, LM, MYROW, 0)
*
*     Find maximum sum of rows for supnorm
*
      IF (MYCOL .EQ. 0) THEN
         RMAX = 0.0D0
         IF (LM .GE. 1) RMAX = WORK(IDXMAX(LM, WORK, 1))
         CALL DGAMX2D(ICTXT, 'c', 'h', 1, 1, RMAX, 1, I, J, 1, -1, 0)
         WORK(1) = RMAX
      END IF
*
*     Process column 0 has the answer: send it to all processes
*
      IF (MYCOL .EQ. 0) THEN
         CALL DGEBS2D(ICTXT, 'r', 'h', 1, 1, WORK, 1)
      ELSE
         CALL DGEBR2D(ICTXT, 'r', 'h', 1, 1, WORK, 1, MYROW, 0)
      END IF
*
      DINFNRM = WORK(1)
*
      RETURN
*
*     End of DINFNRM
*
      END
