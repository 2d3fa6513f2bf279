! fmangle.f90 -- a Fortran program that knows nothing of our library,
! compiled three times (default, -fsecond-underscore, -fno-underscoring:
! blacs_pinfo_, blacs_pinfo__, blacs_pinfo) and linked against libblacs.a
! and libblacs.so: every spelling must link and run (README, "Fortran name
! mangling").  Support routines, point-to-point, a combine, an integer
! function and MKL's DSENDRECV; on a 1 x P grid, P >= 2.
program fmangle
  implicit none
  integer :: me, np, ctxt, nprow, npcol, myrow, mycol, right, left, i, bad
  integer :: blacs_pnum
  external blacs_pnum
  double precision :: a(4, 2), b(4, 2), c(3, 2), s(1)
  integer :: nbad(1)

  call blacs_pinfo(me, np)
  call blacs_get(0, 0, ctxt)
  call blacs_gridinit(ctxt, 'Row', 1, np)
  call blacs_gridinfo(ctxt, nprow, npcol, myrow, mycol)
  bad = 0
  if (nprow /= 1 .or. npcol /= np .or. myrow /= 0 .or. mycol /= me) bad = bad + 1
  if (blacs_pnum(ctxt, 0, mycol) /= me) bad = bad + 1
  right = mod(mycol + 1, npcol)
  left = mod(mycol + npcol - 1, npcol)

  ! 3 x 2 out of a 4 x 2 array (LDA = 4) to the right, from the left
  do i = 1, 8
    a(mod(i - 1, 4) + 1, (i - 1) / 4 + 1) = me * 100 + i
  end do
  b = -1
  call dgesd2d(ctxt, 3, 2, a, 4, 0, right)
  call dgerv2d(ctxt, 3, 2, b, 4, 0, left)
  call check(b, left, 4)

  ! the same through MKL's DSENDRECV, received with LDB = 3
  c = -1
  call dsendrecv(ctxt, 3, 2, a, 4, 0, right, 3, 2, c, 3, 0, left)
  call check(c, left, 3)

  s(1) = me + 1
  call dgsum2d(ctxt, 'All', ' ', 1, 1, s, 1, -1, -1)
  if (s(1) /= dble(np * (np + 1) / 2)) bad = bad + 1

  nbad(1) = bad
  call igsum2d(ctxt, 'All', ' ', 1, 1, nbad, 1, -1, -1)
  if (me == 0) then
    if (nbad(1) == 0) then
      print '(a, i0, a)', 'fmangle: ', np, ' processes, ok'
    else
      print '(a, i0, a)', 'fmangle: ', nbad(1), ' checks FAILED'
    end if
  end if
  call blacs_gridexit(ctxt)
  call blacs_exit(0)
  if (nbad(1) /= 0) stop 1

contains

  subroutine check(x, from, ld)
    integer, intent(in) :: from, ld
    double precision, intent(in) :: x(ld, 2)
    integer :: ii, jj
    do jj = 1, 2
      do ii = 1, ld
        if (ii <= 3) then
          if (x(ii, jj) /= dble(from * 100 + (jj - 1) * 4 + ii)) bad = bad + 1
        else if (x(ii, jj) /= -1) then
          bad = bad + 1
        end if
      end do
    end do
  end subroutine check
end program fmangle
