! t_fcore.f90 -- the support routines and point-to-point through the
! Fortran interface (default INTEGER, so the ILP64 build is exercised with
! -fdefault-integer-8): PINFO/SETUP, GET/SET, GRIDINIT in both orders,
! GRIDMAP, GRIDINFO, PNUM/PCOORD, BARRIER, GE and TR sends with guard
! values, KSENDID/KRECVID agreement, system context from GET 10, EXIT.
program t_fcore
  implicit none
  integer :: me, np, me2, np2, ctxt, sys, nr, nc, r, c, i, j, k, npass, nfail
  integer :: val(1), pn, pr, pc, map(2, 8), ctxt2, ids(2), sid(1), rid
  double precision :: a(6, 5), b(6, 5)
  integer :: blacs_pnum, ksendid, krecvid
  double precision :: dwalltime00, dcputime00, t0
  external blacs_pnum, ksendid, krecvid, dwalltime00, dcputime00
  npass = 0; nfail = 0
  call blacs_pinfo(me, np)
  call blacs_setup(me2, np2)
  call check(me == me2 .and. np == np2, 'pinfo/setup')
  call blacs_get(-1, 0, ids)
  sys = ids(1)
  call blacs_get(-1, 1, ids)
  call check(ids(2) > ids(1), 'message-ID range')
  ! column-major 2 x np/2 grid
  ctxt = sys
  call blacs_gridinit(ctxt, 'Col-major', 2, np / 2)
  call blacs_gridinfo(ctxt, nr, nc, r, c)
  call check(nr == 2 .and. nc == np / 2 .and. r == mod(me, 2) .and. c == me / 2, 'gridinit C')
  pn = blacs_pnum(ctxt, r, c)
  call blacs_pcoord(ctxt, pn, pr, pc)
  call check(pn == r * nc + c .and. pr == r .and. pc == c, 'pnum/pcoord')
  val(1) = 3
  call blacs_set(ctxt, 11, val)
  call blacs_get(ctxt, 11, val)
  call check(val(1) == 3, 'set/get 11')
  val(1) = 2
  call blacs_set(ctxt, 14, val)
  call blacs_get(ctxt, 14, val)
  call check(val(1) == 2, 'set/get 14')
  ! GE send of a 4 x 3 block of a 6-row array from (0,0) to (1,nc-1), LDA 5 on receipt
  do j = 1, 5
    do i = 1, 6
      a(i, j) = 100 * i + j
      b(i, j) = -1
    end do
  end do
  if (r == 0 .and. c == 0) then
    sid(1) = ksendid(ctxt, 1, nc - 1)
    call dgesd2d(ctxt, 4, 3, a, 6, 1, nc - 1)
    call dtrsd2d(ctxt, 'Upper', 'Unit', 4, 3, a, 6, 1, nc - 1)
    call igesd2d(ctxt, 1, 1, sid, 1, 1, nc - 1)
  end if
  if (r == 1 .and. c == nc - 1) then
    rid = krecvid(ctxt, 0, 0)
    call dgerv2d(ctxt, 4, 3, b, 6, 0, 0)
    k = 0
    do j = 1, 5
      do i = 1, 6
        if (i <= 4 .and. j <= 3) then
          if (b(i, j) /= a(i, j)) k = k + 1
        else
          if (b(i, j) /= -1) k = k + 1
        end if
      end do
    end do
    call check(k == 0, 'dgesd2d/dgerv2d with guards')
    b = -1
    call dtrrv2d(ctxt, 'U', 'U', 4, 3, b, 6, 0, 0)
    k = 0
    do j = 1, 5
      do i = 1, 6
        ! upper, M > N: row i (1-based) is sent iff i - 1 < (j - 1) + (4 - 3)
        if (i <= 4 .and. j <= 3 .and. i - 1 < j) then
          if (b(i, j) /= a(i, j)) k = k + 1
        else
          if (b(i, j) /= -1) k = k + 1
        end if
      end do
    end do
    call check(k == 0, 'dtrsd2d/dtrrv2d upper unit 4x3')
    call igerv2d(ctxt, 1, 1, sid, 1, 0, 0)
    call check(sid(1) == rid, 'ksendid on the sender equals krecvid on the receiver')
  end if
  call blacs_barrier(ctxt, 'All')
  call blacs_barrier(ctxt, 'Row')
  call blacs_barrier(ctxt, 'Column')
  ! GET 10 gives a Fortran communicator handle usable as a system context:
  ! a 1 x np grid mapped in reverse order on it
  call blacs_get(ctxt, 10, ids)
  ctxt2 = ids(1)
  do k = 1, np
    map(1, k) = np - k
  end do
  call blacs_gridmap(ctxt2, map, 2, 1, np)
  call blacs_gridinfo(ctxt2, nr, nc, r, c)
  call check(nr == 1 .and. nc == np .and. c == np - 1 - pn, 'gridmap on GET 10 system context')
  call blacs_gridexit(ctxt2)
  call blacs_gridexit(ctxt)
  call blacs_gridinfo(ctxt, nr, nc, r, c)
  call check(nr == -1, 'gridinfo after gridexit')
  t0 = dwalltime00()
  call check(dwalltime00() >= t0 .and. dcputime00() >= 0d0, 'timers')
  ! sums over all processes, printed by process 0
  ctxt = sys
  call blacs_gridinit(ctxt, 'R', 1, np)
  if (me == 0) then
    do k = 1, np - 1
      call igerv2d(ctxt, 2, 1, ids, 2, 0, k)
      npass = npass + ids(1)
      nfail = nfail + ids(2)
    end do
    write (*, '(I0,A,I0,A)') npass, ' passed, ', nfail, ' failed'
  else
    ids(1) = npass
    ids(2) = nfail
    call igesd2d(ctxt, 2, 1, ids, 2, 0, 0)
  end if
  call blacs_gridexit(ctxt)
  call blacs_exit(0)
  if (nfail > 0) stop 1
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (ok) then
      npass = npass + 1
    else
      nfail = nfail + 1
      write (0, *) 'rank ', me, ': check failed: ', what
    end if
  end subroutine check
end program t_fcore
