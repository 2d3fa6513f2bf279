      PROGRAM MVMUL94
*
*     The LAWN 73 appendix A example (distributed matrix-vector
*     multiply and infinity norms) written against the 1994 BLACS
*     interface of appendix C: no contexts, one implicit grid made by
*     BLACSINIT, the communication routines without ICONTXT, and the
*     original combine names DGMAX2D(..., RA, CA, LDIA, RDEST, CDEST).
*     Our own code, in the style of the paper's; it prints the same
*     norms as example_mvmult.f (the BLACS 1.1 version), checks them
*     against a serial computation and stops with a non-zero status on
*     a mismatch.
*
*     Link order matters: LIB/libblacs94.a must come before
*     LIB/libblacs.a (both define DGESD2D etc., with different argument
*     lists).  Run on 4 processes:
*       mpif77 example94.f example_util.f LIB/libblacs94.a LIB/libblacs.a
*
*     .. External Functions ..
      INTEGER IDXMAX, KPNUM
      LOGICAL AGREE
      DOUBLE PRECISION DRAND, DINF94
      EXTERNAL IDXMAX, KPNUM, AGREE, DRAND, DINF94
*
*     .. External Subroutines ..
      EXTERNAL INITPINFO, AUXSETUP, BLACSINIT, GRIDINFO, BLACSEXIT
      EXTERNAL DGMAX2D, DGSUM2D, DGEBS2D, DGEBR2D, DGESD2D, DGERV2D
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
      INTEGER IAM, NNODES, NPROW, NPCOL, MYROW, MYCOL
      INTEGER I, J, ITMP1, ITMP2, NBAD
      DOUBLE PRECISION NORMA, NORMB, NORMX, NORMTST
      DOUBLE PRECISION SERA, SERX, SERB
*
*     .. Arrays ..
      DOUBLE PRECISION A(LM, LN), X(LN), B(LM)
      DOUBLE PRECISION AT(LM, LN), XT(LN), RS(LM), BT(LM)
*
*     Find out how many processors have been allocated for use
*
      CALL INITPINFO(IAM, NNODES)
*
*     For PVM only: if virtual machine not set up, allocate
*     it with 8 processes
*
      IF (NNODES .LT. 1) THEN
         NNODES = 8
         CALL AUXSETUP(IAM, NNODES)
      END IF
*
*     Figure processor grid I want to use
*
      NPROW = INT(SQRT(REAL(NNODES)))
      NPCOL = NNODES / NPROW
*
*     Define the processor grid, and get grid information
*
      CALL BLACSINIT(NPROW, NPCOL)
      CALL GRIDINFO(NPROW, NPCOL, MYROW, MYCOL)
      NBAD = 0
*
*     If I'm not in new processor grid, goto end of program
*
      IF (MYCOL .GE. NPCOL .OR. MYROW .GE. NPROW) GOTO 100
*
*     Processor numbers of the natural row-major grid
*
      IF (KPNUM(MYROW, MYCOL) .NE. IAM) THEN
         WRITE(*, 3100) MYROW, MYCOL, KPNUM(MYROW, MYCOL), IAM
         NBAD = NBAD + 1
      END IF
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
      NORMA = DINF94(LM, LN, A, LDA, B)
*
      IF (MYROW .EQ. 0) THEN
*
*        Generate vector X, distributed over processor row 0.
*
         X(1) = DRAND(1001+MYCOL)
         DO 20 J = 1, LN
            X(J) = DRAND(0)
   20    CONTINUE
*
*        All processor rows need a copy of X, so broadcast within
*        columns
*
         CALL DGEBS2D('COLUMN', 'HYPERCUBE', LN, 1, X, LN)
*
      ELSE
*
*        Receive my piece of X from processor row 0.
*
         CALL DGEBR2D('COLUMN', 'HYPERCUBE', LN, 1, X, LN, 0, MYCOL)
*
      END IF
*
*     Figure the infinity norm of X
*
      NORMX = ABS(X(IDXMAX(LN, X, 1)))
      CALL DGMAX2D('R', 'H', 1, 1, NORMX, 1, ITMP1, ITMP2, 1, -1, 0)
*
*     Do b = A*x, where b is distributed over a processor column
*     NOTE: all processor columns have a copy of b
*
*     perform local A*x
*
      CALL MATVEC(LM, LN, A, LDA, X, B)
*
*     Add in pieces of A*x done on other processors
*
      CALL DGSUM2D('ROW', 'HYPERCUBE', LM, 1, B, LM, -1, 0)
*
*     Figure the infinity norm of B
*
      NORMB = ABS(B(IDXMAX(LM, B, 1)))
      CALL DGMAX2D('C', 'H', 1, 1, NORMB, 1, ITMP1, ITMP2, 1, -1, 0)
*
*     The same three norms, computed serially
*
      CALL SERNRM(NPROW, NPCOL, LM, LN, AT, LM, XT, RS, BT,
     $            SERA, SERX, SERB)
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
*     communication, the following test is done: is processor {0,0}'s
*     NORMB the same as processor {nprow-1, npcol-1}'s.
*
      IF (NPROW*NPCOL .GT. 1) THEN
         IF (MYROW .EQ. NPROW-1 .AND. MYCOL .EQ. NPCOL-1) THEN
            CALL DGESD2D(1, 1, NORMB, 1, 0, 0)
         ELSE IF (MYROW .EQ. 0 .AND. MYCOL .EQ. 0) THEN
            CALL DGERV2D(1, 1, NORMTST, 1, NPROW-1, NPCOL-1)
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
      CALL IGSUM2D('All', '1-tree', 1, 1, NBAD, 1, -1, 0)
      IF (MYROW.EQ.0 .AND. MYCOL.EQ.0) THEN
         IF (NBAD .EQ. 0) THEN
            WRITE(*, 4000)
         ELSE
            WRITE(*, 4100) NBAD
         END IF
      END IF
*
  100 CONTINUE
      CALL BLACSEXIT(0)
      IF (NBAD .NE. 0) STOP 1
      STOP
*
  900 FORMAT ('MVMULT (LAWN 73 appendix A, 1994 interface): ',
     $        I0, ' x ', I0, ' process grid, ', I0, ' x ', I0,
     $        ' blocks, A is ', I0, ' x ', I0)
 1000 FORMAT ('  ||',A,'|| = ',G22.15,'   serial: ',G22.15,2X,A)
 2000 FORMAT ('ERROR: ||b||''s do not match. Values are: ',
     $        G22.15, G22.15)
 2100 FORMAT ('  ||b|| on {0,0} equals ||b|| sent by {',I0,',',I0,'}')
 3000 FORMAT ('ERROR on {',I0,',',I0,'}: norms (distributed, serial)',
     $        3(2X,G22.15,1X,G22.15))
 3100 FORMAT ('ERROR on {',I0,',',I0,'}: KPNUM = ',I0,', INITPINFO ',
     $        'said ',I0)
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
*     End program MVMUL94
*
      END
*
      DOUBLE PRECISION FUNCTION DINF94(LM, LN, A, LDA, WORK)
*
*  -- BLACS example routine (appendix A's DINFNRM), 1994 interface --
*
*     .. Scalar Arguments ..
      INTEGER LM, LN, LDA
*
*     .. Array Arguments ..
      DOUBLE PRECISION A(LDA, *), WORK(*)
*
*  Purpose
*  =======
*
*  Compute the infinity norm of a distributed matrix, where the
*  matrix is spread across the 2D processor grid made by BLACSINIT.
*
*  Arguments
*  =========
*
*  LM          (input) INTEGER
*              Number of rows of the global matrix owned by this
*              processor.
*
*  LN          (input) INTEGER
*              Number of columns of the global matrix owned by this
*              processor.
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
      EXTERNAL DGSUM2D, DGMAX2D, DGEBS2D, DGEBR2D, GRIDINFO
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
*     Get processor grid information
*
      CALL GRIDINFO(NPROW, NPCOL, MYROW, MYCOL)
*
*     Add all local rows together
*
      DO 20 I = 1, LM
         WORK(I) = SUMABS(LN, A(I,1), LDA)
   20 CONTINUE
*
*     Find sum of global matrix rows and store on column 0 of
*     processor grid
*
      CALL DGSUM2D('r', '1', LM, 1, WORK, LM, MYROW, 0)
*
*     Find maximum sum of rows for supnorm
*
      IF (MYCOL .EQ. 0) THEN
         RMAX = 0.0D0
         IF (LM .GE. 1) RMAX = WORK(IDXMAX(LM, WORK, 1))
         CALL DGMAX2D('c', 'h', 1, 1, RMAX, 1, I, J, 1, -1, 0)
         WORK(1) = RMAX
      END IF
*
*     Processor column 0 has answer: send answer to all nodes
*
      IF (MYCOL .EQ. 0) THEN
         CALL DGEBS2D('r', 'h', 1, 1, WORK, 1)
      ELSE
         CALL DGEBR2D('r', 'h', 1, 1, WORK, 1, MYROW, 0)
      END IF
*
      DINF94 = WORK(1)
*
      RETURN
*
*     End of DINF94
*
      END
