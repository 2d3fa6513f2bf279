! t_ftuop.f90 -- DTUOP2D from Fortran with Fortran routines: the product of
! a 2 x 3 block over all processes, left on {0,0}, and over each row with
! init (negate) and post (add 1) left on every process.
program t_ftuop
  implicit none
  integer :: me, np, ctxt, ids(2), nr, nc, r, c, i, k, nfail, npass
  double precision :: a(2, 3), want
  external dmul, dneg, dinc
  npass = 0; nfail = 0
  call blacs_pinfo(me, np)
  call blacs_get(-1, 0, ids)
  ctxt = ids(1)
  call blacs_gridinit(ctxt, 'Row', 2, np / 2)
  call blacs_gridinfo(ctxt, nr, nc, r, c)
  a = dble(me + 2)
  call dtuop2d(ctxt, 'All', 'H', 'G', 'N', 2, 3, a, 2, 0, 0, dneg, dmul, dinc)
  if (r == 0 .and. c == 0) then
    want = 1d0
    do k = 0, np - 1
      want = want * (-dble(k + 2))
    end do
    want = want + 1d0
    call check(all(a == want))
  end if
  do i = 1, 3
    a(:, i) = dble(me + i)
  end do
  call dtuop2d(ctxt, 'Row', ' ', 'Lower', 'N', 2, 3, a, 2, -1, -1, dneg, dmul, dinc)
  ! lower trapezoid of a 2 x 3 (M < N): columns 1 and 2 whole, row 2 of column 3
  want = 1d0
  do k = 0, nc - 1
    want = want * (-dble(r * nc + k + 1))
  end do
  call check(a(1, 1) == want + 1d0 .and. a(1, 3) == dble(me + 3) .and. a(2, 3) /= dble(me + 3))
  call blacs_gridexit(ctxt)
  if (me == 0) write (*, '(I0,A,I0,A)') npass, ' passed, ', nfail, ' failed'
  call blacs_exit(0)
  if (nfail > 0) stop 1
contains
  subroutine check(ok)
    logical, intent(in) :: ok
    if (ok) then
      npass = npass + 1
    else
      nfail = nfail + 1
      write (0, *) 'rank ', me, ': check failed'
    end if
  end subroutine check
end program t_ftuop

subroutine dmul(n, x, y)
  integer :: n, i
  double precision :: x(n), y(n)
  do i = 1, n
    y(i) = y(i) * x(i)
  end do
end subroutine dmul

subroutine dneg(n, x)
  integer :: n
  double precision :: x(n)
  x = -x
end subroutine dneg

subroutine dinc(n, x)
  integer :: n
  double precision :: x(n)
  x = x + 1d0
end subroutine dinc
