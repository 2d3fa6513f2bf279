! blacs94_check.f90 -- checks the 1994 BLACS interface (LAWN 73 appendix C,
! LIB/libblacs94.a) routine by routine: INITPINFO, IDRANGES/SHIFT_RANGE,
! GRIDMAP with KPNUM/PCOORD, BLACSINIT (repeated, and with processes left
! out), GRIDINFO, point-to-point GE and TR for all five types, broadcasts GE
! and TR with the appendix C topology spellings, SETBRANCHES, GSUM2D and the
! original GMAX2D/GMIN2D with RA/CA, KSENDID/KRECVID/KBSID/KBRID, BARRIER,
! FREEBUF and BLACSEXIT.  Any number of processes >= 2 (the suite uses 4).
! Ends with "N passed, M failed" from process 0.
! Link: blacs94_check.f90 LIB/libblacs94.a LIB/libblacs.a
program blacs94_check
  implicit none
  integer, external :: kpnum, ksendid, krecvid, kbsid, kbrid
  integer :: iam, np, nprow, npcol, myrow, mycol, i, j, k, t, s, it
  integer :: pr, pc, nbad, ngood, minsnd, maxsnd, minbs, maxbs
  integer, allocatable :: map(:,:)
  integer :: cnt(2)
  character(len=16), parameter :: btops(15) = [character(len=16) :: 'INCREASING RING', &
       'DECREASING RING', 'HYPERCUBE', 'SPLIT RING', 'FULLY CONNECTED', 'MULTIRING', &
       'TREE', '1-TREE', '2', '3', '4', '5', '7', '9', 'hypercube']
  character(len=8), parameter :: ctops(7) = [character(len=8) :: '1-TREE', '2', '3', &
       'TREE', 'FULLY', 'HYPERCUB', '9']
  character(len=6), parameter :: scopes(3) = [character(len=6) :: 'ALL', 'ROW', 'COLUMN']
  character :: tchar(5) = ['I', 'S', 'D', 'C', 'Z']

  ngood = 0; nbad = 0
  call initpinfo(iam, np)
  call check(np >= 2, 'need at least 2 processes')

  ! ---- message-ID ranges ------------------------------------------------
  call idranges(minsnd, maxsnd, minbs, maxbs)
  call check(minsnd == 0 .and. minsnd <= maxsnd .and. maxsnd + 1 == minbs .and. minbs <= maxbs, &
             'IDRANGES default ranges')
  call shift_range(1000, 50999, 51000, 100999)
  call idranges(minsnd, maxsnd, minbs, maxbs)
  call check(minsnd == 1000 .and. maxsnd == 50999 .and. minbs == 51000 .and. maxbs == 100999, &
             'IDRANGES after SHIFT_RANGE(1000,50999,51000,100999)')

  ! ---- GRIDMAP: column-major map, KPNUM and PCOORD ------------------------
  if (mod(np, 2) == 0) then
    nprow = 2; npcol = np / 2
  else
    nprow = 1; npcol = np
  end if
  allocate(map(nprow + 1, npcol))          ! LDUMAP = NPROW+1 > NPROW
  map = -7
  do j = 1, npcol
    do i = 1, nprow
      map(i, j) = np - 1 - ((j - 1) * nprow + (i - 1))   ! reversed column-major order
    end do
  end do
  call gridmap(map, nprow + 1, nprow, npcol)
  call gridinfo(pr, pc, myrow, mycol)
  call check(pr == nprow .and. pc == npcol, 'GRIDINFO shape after GRIDMAP')
  call check(myrow >= 0 .and. mycol >= 0, 'GRIDMAP: member')
  call check(map(myrow + 1, mycol + 1) == iam, 'GRIDMAP places me where USERMAP says')
  call check(kpnum(myrow, mycol) == iam, 'KPNUM(myrow,mycol) = my process number')
  call check(kpnum(nprow, 0) == -1 .and. kpnum(0, -1) == -1, 'KPNUM outside the grid = -1')
  call pcoord(iam, pr, pc)
  call check(pr == myrow .and. pc == mycol, 'PCOORD(my number) = my coordinates')
  call pcoord(np, pr, pc)
  call check(pr == -1 .and. pc == -1, 'PCOORD of a number not in the grid')
  call ptp_all_types()
  call tr_ptp()
  call barrier('All')
  call barrier('Row')
  call barrier('Column')
  call msgids()

  ! ---- BLACSINIT 2-D (when possible), then 1 x NP, repeated --------------
  do it = 1, 2
    if (it == 1) then
      call blacsinit(nprow, npcol)
    else
      nprow = 1; npcol = np
      call blacsinit(nprow, npcol)
    end if
    call gridinfo(pr, pc, myrow, mycol)
    call check(pr == nprow .and. pc == npcol .and. myrow * npcol + mycol == iam, &
               'BLACSINIT: row-major natural grid')
    call check(kpnum(myrow, mycol) == iam, 'KPNUM after BLACSINIT')
    call bcasts()
    call combines()
    call setbranches(2)
    call bcasts()
    call combines()
    call setbranches(-1)    ! decreasing multiring for 'M'; 'T' keeps 2 branches
    call bcasts()
    call freebuf()
  end do

  ! ---- a grid that leaves the last process out ----------------------------
  call blacsinit(1, np - 1)
  call gridinfo(pr, pc, myrow, mycol)
  if (iam == np - 1) then
    call check(pr == -1 .and. pc == -1 .and. myrow == -1 .and. mycol == -1, &
               'GRIDINFO of a process outside the grid: all -1')
  else
    call check(pr == 1 .and. pc == np - 1 .and. myrow == 0 .and. mycol == iam, &
               'GRIDINFO in the 1 x (NP-1) grid')
  end if

  ! ---- totals: everybody joins a full grid again -------------------------
  call blacsinit(1, np)
  cnt = [ngood, nbad]
  call igsum2d('All', '1-tree', 2, 1, cnt, 2, 0, 0)
  if (iam == 0) write(*, '(I0," passed, ",I0," failed")') cnt(1), cnt(2)
  call blacsexit(0)
  if (iam == 0 .and. cnt(2) /= 0) stop 1

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) then
      ngood = ngood + 1
    else
      nbad = nbad + 1
      write(*, '("[process ",I0,"] FAILED: ",A)') iam, what
    end if
  end subroutine

  ! value of element (i,j) sent by process p, for a check
  pure real(8) function v(p, i, j)
    integer, intent(in) :: p, i, j
    v = real(p * 1000 + i * 10 + j, 8)
  end function

  ! GESD2D/GERV2D for I, S, D, C, Z around the ring of process numbers,
  ! M=3, N=2, LDA=5; the gap rows must stay untouched
  subroutine ptp_all_types()
    integer :: nxt, prv, rn, cn, rp, cp
    integer :: ia(5, 2)
    real :: sa(5, 2)
    real(8) :: da(5, 2)
    complex :: ca(5, 2)
    complex(8) :: za(5, 2)
    logical :: ok
    nxt = mod(iam + 1, np); prv = mod(iam + np - 1, np)
    call pcoord(nxt, rn, cn); call pcoord(prv, rp, cp)
    do t = 1, 5
      do j = 1, 2
        do i = 1, 5
          ia(i, j) = int(v(iam, i, j)); sa(i, j) = real(v(iam, i, j))
          da(i, j) = v(iam, i, j); ca(i, j) = cmplx(v(iam, i, j), -v(iam, i, j))
          za(i, j) = cmplx(v(iam, i, j), -v(iam, i, j), 8)
        end do
      end do
      select case (t)
      case (1); call igesd2d(3, 2, ia, 5, rn, cn); ia = -1; call igerv2d(3, 2, ia, 5, rp, cp)
      case (2); call sgesd2d(3, 2, sa, 5, rn, cn); sa = -1; call sgerv2d(3, 2, sa, 5, rp, cp)
      case (3); call dgesd2d(3, 2, da, 5, rn, cn); da = -1; call dgerv2d(3, 2, da, 5, rp, cp)
      case (4); call cgesd2d(3, 2, ca, 5, rn, cn); ca = -1; call cgerv2d(3, 2, ca, 5, rp, cp)
      case (5); call zgesd2d(3, 2, za, 5, rn, cn); za = -1; call zgerv2d(3, 2, za, 5, rp, cp)
      end select
      ok = .true.
      do j = 1, 2
        do i = 1, 5
          select case (t)
          case (1); ok = ok .and. ia(i, j) == merge(int(v(prv, i, j)), -1, i <= 3)
          case (2); ok = ok .and. sa(i, j) == merge(real(v(prv, i, j)), -1.0, i <= 3)
          case (3); ok = ok .and. da(i, j) == merge(v(prv, i, j), -1d0, i <= 3)
          case (4); ok = ok .and. ca(i, j) == merge(cmplx(v(prv, i, j), -v(prv, i, j)), &
                                                    (-1.0, 0.0), i <= 3)
          case (5); ok = ok .and. za(i, j) == merge(cmplx(v(prv, i, j), -v(prv, i, j), 8), &
                                                    (-1d0, 0d0), i <= 3)
          end select
        end do
      end do
      call check(ok, tchar(t)//'GESD2D/'//tchar(t)//'GERV2D around the ring')
    end do
  end subroutine

  ! TRSD2D/TRRV2D: upper trapezoid, unit diagonal, 3 x 4 in LDA 4
  subroutine tr_ptp()
    integer :: nxt, prv, rn, cn, rp, cp
    real(8) :: da(4, 4)
    complex(8) :: za(4, 4)
    logical :: ok, inside
    nxt = mod(iam + 1, np); prv = mod(iam + np - 1, np)
    call pcoord(nxt, rn, cn); call pcoord(prv, rp, cp)
    do j = 1, 4
      do i = 1, 4
        da(i, j) = v(iam, i, j); za(i, j) = cmplx(v(iam, i, j), 1d0, 8)
      end do
    end do
    call dtrsd2d('Upper', 'Unit', 3, 4, da, 4, rn, cn)
    call ztrsd2d('Lower', 'Non-unit', 3, 4, za, 4, rn, cn)
    da = -1; za = (-1d0, 0d0)
    call dtrrv2d('Upper', 'Unit', 3, 4, da, 4, rp, cp)
    call ztrrv2d('Lower', 'Non-unit', 3, 4, za, 4, rp, cp)
    ok = .true.
    do j = 1, 4
      do i = 1, 4
        inside = i <= 3 .and. j > i                              ! strictly upper
        ok = ok .and. da(i, j) == merge(v(prv, i, j), -1d0, inside)
        inside = i <= 3 .and. i >= j - 1                         ! lower, M < N
        ok = ok .and. za(i, j) == merge(cmplx(v(prv, i, j), 1d0, 8), (-1d0, 0d0), inside)
      end do
    end do
    call check(ok, 'DTRSD2D/DTRRV2D (upper, unit) and ZTRSD2D/ZTRRV2D (lower, non-unit)')
  end subroutine

  ! KSENDID/KRECVID: the ID of the next message, same on both sides;
  ! KBSID/KBRID likewise for a broadcast
  subroutine msgids()
    integer :: nxt, prv, rn, cn, rp, cp, idme(1), idthem(1)
    nxt = mod(iam + 1, np); prv = mod(iam + np - 1, np)
    call pcoord(nxt, rn, cn); call pcoord(prv, rp, cp)
    idme(1) = ksendid(rn, cn)
    call igesd2d(1, 1, idme, 1, rn, cn)
    idme(1) = krecvid(rp, cp)
    call igerv2d(1, 1, idthem, 1, rp, cp)
    call check(idme(1) == idthem(1), 'KSENDID at the sender = KRECVID at the receiver')
    call gridinfo(pr, pc, myrow, mycol)
    if (myrow == 0 .and. mycol == 0) then
      idme(1) = kbsid('All')
      call igebs2d('All', 'TREE', 1, 1, idme, 1)
    else
      idme(1) = kbrid('All', 0, 0)
      call igebr2d('All', 'TREE', 1, 1, idthem, 1, 0, 0)
      call check(idme(1) == idthem(1), 'KBSID at the source = KBRID at a receiver')
    end if
  end subroutine

  ! GEBS2D/GEBR2D (all types) and DTRBS2D/DTRBR2D over every scope and
  ! topology spelling; the source moves around
  subroutine bcasts()
    integer :: rs, cs, src, ia(4, 3)
    real :: sa(4, 3)
    real(8) :: da(4, 3)
    complex :: ca(4, 3)
    complex(8) :: za(4, 3)
    logical :: ok, mine
    do s = 1, 3
      do k = 1, size(btops)
        src = mod(k + s, np)
        rs = src / npcol; cs = mod(src, npcol)
        if (s == 2) rs = myrow
        if (s == 3) cs = mycol
        mine = myrow == rs .and. mycol == cs
        src = kpnum(rs, cs)
        t = mod(k, 5) + 1
        ia = int(v(src, 1, k)); sa = real(v(src, 2, k)); da = v(src, 3, k)
        ca = cmplx(v(src, 4, k), 1.0); za = cmplx(v(src, 5, k), 2d0, 8)
        if (.not. mine) then
          ia = -1; sa = -1; da = -1; ca = -1; za = -1
        end if
        if (mine) then
          select case (t)
          case (1); call igebs2d(scopes(s), btops(k), 3, 3, ia, 4)
          case (2); call sgebs2d(scopes(s), btops(k), 3, 3, sa, 4)
          case (3); call dtrbs2d(scopes(s), btops(k), 'Upper', 'Non-unit', 3, 3, da, 4)
          case (4); call cgebs2d(scopes(s), btops(k), 3, 3, ca, 4)
          case (5); call zgebs2d(scopes(s), btops(k), 3, 3, za, 4)
          end select
        else
          select case (t)
          case (1); call igebr2d(scopes(s), btops(k), 3, 3, ia, 4, rs, cs)
          case (2); call sgebr2d(scopes(s), btops(k), 3, 3, sa, 4, rs, cs)
          case (3); call dtrbr2d(scopes(s), btops(k), 'Upper', 'Non-unit', 3, 3, da, 4, rs, cs)
          case (4); call cgebr2d(scopes(s), btops(k), 3, 3, ca, 4, rs, cs)
          case (5); call zgebr2d(scopes(s), btops(k), 3, 3, za, 4, rs, cs)
          end select
          ok = .true.
          do j = 1, 3
            do i = 1, 4
              select case (t)
              case (1); ok = ok .and. ia(i, j) == merge(int(v(src, 1, k)), -1, i <= 3)
              case (2); ok = ok .and. sa(i, j) == merge(real(v(src, 2, k)), -1.0, i <= 3)
              case (3); ok = ok .and. da(i, j) == merge(v(src, 3, k), -1d0, i <= j)
              case (4); ok = ok .and. ca(i, j) == merge(cmplx(v(src, 4, k), 1.0), &
                                                        (-1.0, 0.0), i <= 3)
              case (5); ok = ok .and. za(i, j) == merge(cmplx(v(src, 5, k), 2d0, 8), &
                                                        (-1d0, 0d0), i <= 3)
              end select
            end do
          end do
          call check(ok, tchar(t)//' broadcast, scope '//trim(scopes(s))//', TOP '''// &
                     trim(btops(k))//'''')
        end if
      end do
    end do
  end subroutine

  ! GSUM2D (all types, leave-on-one and leave-on-all) and GMAX2D/GMIN2D
  ! with RA/CA, over every scope and the combine topology spellings
  subroutine combines()
    integer :: ia(2, 2), ra(3, 2), ca2(3, 2), nsc, rd, cd, kmax, kmin
    real :: sa(2, 2)
    real(8) :: da(2, 2), want
    complex :: ca(2, 2)
    complex(8) :: za(2, 2)
    logical :: ok, dest
    do s = 1, 3
      nsc = merge(np, merge(npcol, nprow, s == 2), s == 1)
      do k = 1, size(ctops)
        t = mod(k + s, 5) + 1
        ia = iam + 1; sa = real(iam + 1); da = iam + 1; ca = cmplx(iam + 1, 1); za = cmplx(iam + 1, -1, 8)
        if (mod(k, 2) == 0) then
          rd = -1; cd = -1; dest = .true.                      ! leave on all
        else
          rd = mod(k, nprow); cd = mod(k, npcol)
          if (s == 2) rd = myrow
          if (s == 3) cd = mycol
          dest = myrow == rd .and. mycol == cd
        end if
        select case (t)
        case (1); call igsum2d(scopes(s), ctops(k), 2, 2, ia, 2, rd, cd)
        case (2); call sgsum2d(scopes(s), ctops(k), 2, 2, sa, 2, rd, cd)
        case (3); call dgsum2d(scopes(s), ctops(k), 2, 2, da, 2, rd, cd)
        case (4); call cgsum2d(scopes(s), ctops(k), 2, 2, ca, 2, rd, cd)
        case (5); call zgsum2d(scopes(s), ctops(k), 2, 2, za, 2, rd, cd)
        end select
        if (dest) then
          want = scope_sum()
          select case (t)
          case (1); ok = all(ia == nint(want))
          case (2); ok = all(sa == real(want))
          case (3); ok = all(da == want)
          case (4); ok = all(ca == cmplx(want, nsc))
          case (5); ok = all(za == cmplx(want, -nsc, 8))
          end select
          call check(ok, tchar(t)//'GSUM2D, scope '//trim(scopes(s))//', TOP '''// &
                     trim(ctops(k))//'''')
        end if
        ! GMAX2D / GMIN2D: |value| largest on the process numbered kmax in
        ! the scope's last member, smallest on ... ; signs alternate
        da = real(iam + 1, 8) * merge(1d0, -1d0, mod(iam, 2) == 0)
        ia = nint(da)
        ra = -9; ca2 = -9
        if (mod(k, 2) == 0) then
          call dgmax2d(scopes(s), ctops(k), 2, 2, da, 2, ra, ca2, 3, rd, cd)
          if (dest) then
            kmax = scope_extreme(.true.)
            call check(all(da == real(kmax + 1, 8) * merge(1d0, -1d0, mod(kmax, 2) == 0)) .and. &
                       all(ra(1:2, :) == kmax / npcol) .and. all(ca2(1:2, :) == mod(kmax, npcol)) &
                       .and. all(ra(3, :) == -9), &
                       'DGMAX2D value and RA/CA, scope '//trim(scopes(s))//', TOP '''// &
                       trim(ctops(k))//'''')
          end if
        else
          call igmin2d(scopes(s), ctops(k), 2, 2, ia, 2, ra, ca2, 3, rd, cd)
          if (dest) then
            kmin = scope_extreme(.false.)
            call check(all(ia == (kmin + 1) * merge(1, -1, mod(kmin, 2) == 0)) .and. &
                       all(ra(1:2, :) == kmin / npcol) .and. all(ca2(1:2, :) == mod(kmin, npcol)), &
                       'IGMIN2D value and RA/CA, scope '//trim(scopes(s))//', TOP '''// &
                       trim(ctops(k))//'''')
          end if
        end if
        ! GMAX2D with LDIA = -1: RA and CA not referenced
        da = iam + 1
        call dgmax2d(scopes(s), ctops(k), 1, 1, da, 1, ra, ca2, -1, -1, -1)
        call check(da(1, 1) == scope_extreme(.true.) + 1, 'DGMAX2D with LDIA = -1, scope '// &
                   trim(scopes(s)))
      end do
    end do
  end subroutine

  ! sum over my scope of (process number + 1), grid numbering = INITPINFO
  ! numbering for BLACSINIT grids
  real(8) function scope_sum()
    integer :: p, q
    scope_sum = 0
    do p = 0, nprow - 1
      do q = 0, npcol - 1
        if (in_scope(p, q)) scope_sum = scope_sum + kpnum(p, q) + 1
      end do
    end do
  end function

  ! process number of the scope member with the largest / smallest number
  integer function scope_extreme(largest)
    logical, intent(in) :: largest
    integer :: p, q
    scope_extreme = merge(-1, huge(1), largest)
    do p = 0, nprow - 1
      do q = 0, npcol - 1
        if (in_scope(p, q)) then
          if (largest) scope_extreme = max(scope_extreme, kpnum(p, q))
          if (.not. largest) scope_extreme = min(scope_extreme, kpnum(p, q))
        end if
      end do
    end do
  end function

  logical function in_scope(p, q)
    integer, intent(in) :: p, q
    in_scope = s == 1 .or. (s == 2 .and. p == myrow) .or. (s == 3 .and. q == mycol)
  end function

end program blacs94_check
