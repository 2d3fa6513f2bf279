! sl_pdgesv.f90 -- ScaLAPACK on our BLACS: solves a distributed linear system
! A x = b with PDGESV on a 2 x 2 process grid (block-cyclic, NB = 8), then
! checks the scaled residual ||b - A x||_inf / (||A||_inf ||x||_inf N eps).
!
! Also shows which BLACS answers: BLACS_GET(ICTXT, 22, VAL) (number of live
! grids) is an extension of this library; the reference BLACS inside
! libscalapack only warns "Unknown WHAT" and leaves VAL alone.  With the
! argument "ours" the program fails unless our BLACS answers.
!
! Built twice (TESTING/clients.mk): linked with our static LIB/libblacs.a
! before -lscalapack-mpich, and against ScaLAPACK only (run with
! LD_PRELOAD=LIB/libblacs.so).  Run on 4 processes.
program sl_pdgesv
  implicit none
  integer, parameter :: n = 96, nb = 8, nrhs = 1, dlen = 9
  integer, external :: numroc, indxl2g
  double precision, external :: pdlange, pdlamch
  integer :: iam, nprocs, ictxt, nprow, npcol, myrow, mycol, mloc, nloc, lld, info
  integer :: il, jl, ig, jg, nlive
  integer :: desca(dlen), descb(dlen)
  integer, allocatable :: ipiv(:)
  double precision, allocatable :: a(:,:), a0(:,:), b(:,:), r(:,:), work(:)
  double precision :: anorm, xnorm, rnorm, eps, resid
  character(len=8) :: arg
  logical :: want_ours, ours

  resid = 0; ours = .true.
  call get_command_argument(1, arg)
  want_ours = arg == 'ours'
  call blacs_pinfo(iam, nprocs)
  nprow = 2; npcol = 2
  if (nprocs < nprow * npcol) then
    if (iam == 0) write(*, '(A)') 'sl_pdgesv: needs 4 processes'
    call blacs_exit(0)
    stop 1
  end if
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row-major', nprow, npcol)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  if (myrow < 0) goto 100

  nlive = -99
  call blacs_get(ictxt, 22, nlive)
  ours = nlive == 1
  if (iam == 0) then
    if (ours) then
      write(*, '(A)') 'sl_pdgesv: BLACS in use is ours (BLACS_GET WHAT=22: 1 live grid)'
    else
      write(*, '(A)') 'sl_pdgesv: BLACS in use is NOT ours (BLACS_GET WHAT=22 unknown)'
    end if
  end if

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, nrhs, nb, nb, 0, 0, ictxt, lld, info)
  allocate(a(lld, max(1, nloc)), a0(lld, max(1, nloc)), ipiv(mloc + nb))
  allocate(b(lld, nrhs), r(lld, nrhs), work(max(1, mloc)))

  ! A(i,j) = smooth pseudo-random values, diagonally weighted; b(i) = i
  do jl = 1, nloc
    jg = indxl2g(jl, nb, mycol, 0, npcol)
    do il = 1, mloc
      ig = indxl2g(il, nb, myrow, 0, nprow)
      a(il, jl) = sin(0.37d0 * ig + 1.3d0 * jg) + 0.5d0 * cos(0.11d0 * ig * jg)
      if (ig == jg) a(il, jl) = a(il, jl) + 4.0d0
    end do
  end do
  do il = 1, mloc
    b(il, 1) = indxl2g(il, nb, myrow, 0, nprow)
  end do
  a0 = a
  r = b

  call pdgesv(n, nrhs, a, 1, 1, desca, ipiv, b, 1, 1, descb, info)
  if (info /= 0) then
    write(*, '(A,I0,A,I0)') 'sl_pdgesv: PDGESV INFO = ', info, ' on process ', iam
    call blacs_abort(ictxt, 1)
  end if

  ! r = b - A x  (x is in b now)
  call pdgemv('N', n, n, -1.0d0, a0, 1, 1, desca, b, 1, 1, descb, 1, 1.0d0, r, 1, 1, descb, 1)
  anorm = pdlange('I', n, n, a0, 1, 1, desca, work)
  xnorm = pdlange('I', n, nrhs, b, 1, 1, descb, work)
  rnorm = pdlange('I', n, nrhs, r, 1, 1, descb, work)
  eps = pdlamch(ictxt, 'Epsilon')
  resid = rnorm / (anorm * xnorm * n * eps)
  if (iam == 0) then
    write(*, '(A,I0,A,I0,A,I0,A,I0,A)') 'sl_pdgesv: PDGESV, N = ', n, ', NB = ', nb, &
         ', ', nprow, ' x ', npcol, ' grid'
    write(*, '(A,ES10.3,A)') 'sl_pdgesv: ||b - A x|| / (||A|| ||x|| N eps) = ', resid, &
         merge(' ok    ', ' FAILED', resid < 10.0d0)
  end if
  call blacs_gridexit(ictxt)
100 continue
  call blacs_exit(0)
  if (iam == 0) then
    if (.not. (resid < 10.0d0)) stop 1
    if (want_ours .and. .not. ours) stop 2
  end if
end program sl_pdgesv
