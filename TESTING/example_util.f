*     example_util.f -- helpers shared by the two versions of the
*     LAWN 73 appendix A example (example_mvmult.f: BLACS 1.1 interface,
*     example94.f: 1994 interface): a random number generator, small
*     stand-ins for the three BLAS routines the paper uses (so the
*     examples need no BLAS library), and the serial computation of the
*     three norms the distributed program must reproduce.
*
      DOUBLE PRECISION FUNCTION DRAND(ISEED)
*
*     Uniform numbers in [-1,1) (Park-Miller "minimal standard"
*     generator, carried in double precision where it is exact).
*     ISEED .NE. 0 restarts the sequence from a state made of ISEED;
*     ISEED = 0 continues it.
*
      INTEGER ISEED
      DOUBLE PRECISION S, MODUL
      PARAMETER (MODUL = 2147483647.0D0)
      SAVE S
      DATA S /20240613.0D0/
      IF (ISEED .NE. 0) THEN
         S = MOD(DBLE(ABS(ISEED)) * 7919.0D0 + 104729.0D0, MODUL)
         IF (S .EQ. 0.0D0) S = 1.0D0
      END IF
      S = MOD(16807.0D0 * S, MODUL)
      DRAND = 2.0D0 * (S / MODUL) - 1.0D0
      RETURN
      END
*
      INTEGER FUNCTION IDXMAX(N, X, INCX)
*     index of the entry of largest absolute value (as BLAS IDAMAX)
      INTEGER N, INCX, I
      DOUBLE PRECISION X(*), XMAX
      IDXMAX = 0
      IF (N .LT. 1) RETURN
      IDXMAX = 1
      XMAX = ABS(X(1))
      DO 10 I = 2, N
         IF (ABS(X(1+(I-1)*INCX)) .GT. XMAX) THEN
            IDXMAX = I
            XMAX = ABS(X(1+(I-1)*INCX))
         END IF
   10 CONTINUE
      RETURN
      END
*
      DOUBLE PRECISION FUNCTION SUMABS(N, X, INCX)
*     sum of absolute values (as BLAS DASUM)
      INTEGER N, INCX, I
      DOUBLE PRECISION X(*)
      SUMABS = 0.0D0
      DO 10 I = 1, N
         SUMABS = SUMABS + ABS(X(1+(I-1)*INCX))
   10 CONTINUE
      RETURN
      END
*
      SUBROUTINE MATVEC(M, N, A, LDA, X, B)
*     B = A*X (as BLAS DGEMV('N', M, N, 1.0D0, A, LDA, X, 1, 0.0D0, B, 1))
      INTEGER M, N, LDA, I, J
      DOUBLE PRECISION A(LDA,*), X(*), B(*)
      DO 10 I = 1, M
         B(I) = 0.0D0
   10 CONTINUE
      DO 30 J = 1, N
         DO 20 I = 1, M
            B(I) = B(I) + A(I,J) * X(J)
   20    CONTINUE
   30 CONTINUE
      RETURN
      END
*
      SUBROUTINE SERNRM(NPROW, NPCOL, LM, LN, AT, LDA, XT, RS, BT,
     $                  SERA, SERX, SERB)
*
*     The three infinity norms computed serially from the same data:
*     block (P,Q) of the global (NPROW*LM) x (NPCOL*LN) matrix A is
*     the LM x LN local matrix of process {P,Q}, generated from seed
*     P*NPCOL+Q+1; piece Q of the global vector x is generated on
*     process {0,Q} from seed 1001+Q.  AT(LDA,LN), XT(LN), RS(LM) and
*     BT(LM) are work space.  Each block row of A is regenerated, its
*     row sums and its part of b = A*x accumulated, in a fixed order.
*
      INTEGER NPROW, NPCOL, LM, LN, LDA
      DOUBLE PRECISION AT(LDA,*), XT(*), RS(*), BT(*)
      DOUBLE PRECISION SERA, SERX, SERB
      INTEGER P, Q, I, J
      DOUBLE PRECISION DRAND, D
      EXTERNAL DRAND
      SERA = 0.0D0
      SERX = 0.0D0
      SERB = 0.0D0
      DO 100 P = 0, NPROW-1
         DO 10 I = 1, LM
            RS(I) = 0.0D0
            BT(I) = 0.0D0
   10    CONTINUE
         DO 60 Q = 0, NPCOL-1
            D = DRAND(P*NPCOL+Q+1)
            DO 20 J = 1, LN
               DO 15 I = 1, LM
                  AT(I,J) = DRAND(0)
   15          CONTINUE
   20       CONTINUE
            D = DRAND(1001+Q)
            DO 30 J = 1, LN
               XT(J) = DRAND(0)
               IF (P .EQ. 0) SERX = MAX(SERX, ABS(XT(J)))
   30       CONTINUE
            DO 50 J = 1, LN
               DO 40 I = 1, LM
                  RS(I) = RS(I) + ABS(AT(I,J))
                  BT(I) = BT(I) + AT(I,J) * XT(J)
   40          CONTINUE
   50       CONTINUE
   60    CONTINUE
         DO 70 I = 1, LM
            SERA = MAX(SERA, RS(I))
            SERB = MAX(SERB, ABS(BT(I)))
   70    CONTINUE
  100 CONTINUE
      RETURN
      END
*
      LOGICAL FUNCTION AGREE(V, REF)
*     V agrees with REF to 1.0D-12 relative (sums taken in another
*     order differ in the last bits)
      DOUBLE PRECISION V, REF
      AGREE = ABS(V - REF) .LE. 1.0D-12 * MAX(ABS(REF), 1.0D0)
      RETURN
      END
