! bt_fwrap.f90 -- the Fortran side of xFbtest: BIND(C) wrappers that the C
! checking core calls (bt_fapi.c), each making an ordinary Fortran call of the
! BLACS routine with an implicit interface, so every Fortran entry point is
! exercised with Fortran calling conventions (INTEGER arguments by reference,
! CHARACTER arguments with their hidden lengths).  Scope and ORDER letters are
! passed as whole words ('Rowwise', 'Columnwise', 'All', 'Row-major'), as
! ScaLAPACK does: only the first character may matter.  Element type of A:
! t = 0..4 for I, S, D, C, Z.

module bt_fwrap_words
  implicit none
contains
  function word(c) result(w)
    character, intent(in) :: c
    character(len=:), allocatable :: w
    select case (c)
    case ('R', 'r')
      w = c // 'owwise'
    case ('C', 'c')
      w = c // 'olumnwise'
    case ('A', 'a')
      w = c // 'll'
    case default
      w = c
    end select
  end function word
end module bt_fwrap_words

subroutine btf_gesd2d(t, ictxt, m, n, a, lda, r, c) bind(C, name='btf_gesd2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, r, c
  integer(c_int8_t) :: a(*)
  external :: igesd2d, sgesd2d, dgesd2d, cgesd2d, zgesd2d
  select case (t)
  case (0)
    call igesd2d(ictxt, m, n, a, lda, r, c)
  case (1)
    call sgesd2d(ictxt, m, n, a, lda, r, c)
  case (2)
    call dgesd2d(ictxt, m, n, a, lda, r, c)
  case (3)
    call cgesd2d(ictxt, m, n, a, lda, r, c)
  case (4)
    call zgesd2d(ictxt, m, n, a, lda, r, c)
  end select
end subroutine btf_gesd2d

subroutine btf_gerv2d(t, ictxt, m, n, a, lda, r, c) bind(C, name='btf_gerv2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, r, c
  integer(c_int8_t) :: a(*)
  external :: igerv2d, sgerv2d, dgerv2d, cgerv2d, zgerv2d
  select case (t)
  case (0)
    call igerv2d(ictxt, m, n, a, lda, r, c)
  case (1)
    call sgerv2d(ictxt, m, n, a, lda, r, c)
  case (2)
    call dgerv2d(ictxt, m, n, a, lda, r, c)
  case (3)
    call cgerv2d(ictxt, m, n, a, lda, r, c)
  case (4)
    call zgerv2d(ictxt, m, n, a, lda, r, c)
  end select
end subroutine btf_gerv2d

subroutine btf_trsd2d(t, ictxt, uplo, diag, m, n, a, lda, r, c) bind(C, name='btf_trsd2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, r, c
  character :: uplo, diag
  integer(c_int8_t) :: a(*)
  external :: itrsd2d, strsd2d, dtrsd2d, ctrsd2d, ztrsd2d
  select case (t)
  case (0)
    call itrsd2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (1)
    call strsd2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (2)
    call dtrsd2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (3)
    call ctrsd2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (4)
    call ztrsd2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  end select
end subroutine btf_trsd2d

subroutine btf_trrv2d(t, ictxt, uplo, diag, m, n, a, lda, r, c) bind(C, name='btf_trrv2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, r, c
  character :: uplo, diag
  integer(c_int8_t) :: a(*)
  external :: itrrv2d, strrv2d, dtrrv2d, ctrrv2d, ztrrv2d
  select case (t)
  case (0)
    call itrrv2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (1)
    call strrv2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (2)
    call dtrrv2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (3)
    call ctrrv2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  case (4)
    call ztrrv2d(ictxt, uplo, diag, m, n, a, lda, r, c)
  end select
end subroutine btf_trrv2d

subroutine btf_gebs2d(t, ictxt, scope, top, m, n, a, lda) bind(C, name='btf_gebs2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda
  character :: scope, top
  integer(c_int8_t) :: a(*)
  external :: igebs2d, sgebs2d, dgebs2d, cgebs2d, zgebs2d
  select case (t)
  case (0)
    call igebs2d(ictxt, word(scope), top, m, n, a, lda)
  case (1)
    call sgebs2d(ictxt, word(scope), top, m, n, a, lda)
  case (2)
    call dgebs2d(ictxt, word(scope), top, m, n, a, lda)
  case (3)
    call cgebs2d(ictxt, word(scope), top, m, n, a, lda)
  case (4)
    call zgebs2d(ictxt, word(scope), top, m, n, a, lda)
  end select
end subroutine btf_gebs2d

subroutine btf_gebr2d(t, ictxt, scope, top, m, n, a, lda, r, c) bind(C, name='btf_gebr2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, r, c
  character :: scope, top
  integer(c_int8_t) :: a(*)
  external :: igebr2d, sgebr2d, dgebr2d, cgebr2d, zgebr2d
  select case (t)
  case (0)
    call igebr2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (1)
    call sgebr2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (2)
    call dgebr2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (3)
    call cgebr2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (4)
    call zgebr2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  end select
end subroutine btf_gebr2d

subroutine btf_trbs2d(t, ictxt, scope, top, uplo, diag, m, n, a, lda) bind(C, name='btf_trbs2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda
  character :: scope, top, uplo, diag
  integer(c_int8_t) :: a(*)
  external :: itrbs2d, strbs2d, dtrbs2d, ctrbs2d, ztrbs2d
  select case (t)
  case (0)
    call itrbs2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda)
  case (1)
    call strbs2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda)
  case (2)
    call dtrbs2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda)
  case (3)
    call ctrbs2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda)
  case (4)
    call ztrbs2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda)
  end select
end subroutine btf_trbs2d

subroutine btf_trbr2d(t, ictxt, scope, top, uplo, diag, m, n, a, lda, r, c) bind(C, name='btf_trbr2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, r, c
  character :: scope, top, uplo, diag
  integer(c_int8_t) :: a(*)
  external :: itrbr2d, strbr2d, dtrbr2d, ctrbr2d, ztrbr2d
  select case (t)
  case (0)
    call itrbr2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda, r, c)
  case (1)
    call strbr2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda, r, c)
  case (2)
    call dtrbr2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda, r, c)
  case (3)
    call ctrbr2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda, r, c)
  case (4)
    call ztrbr2d(ictxt, word(scope), top, uplo, diag, m, n, a, lda, r, c)
  end select
end subroutine btf_trbr2d

subroutine btf_gsum2d(t, ictxt, scope, top, m, n, a, lda, r, c) bind(C, name='btf_gsum2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, r, c
  character :: scope, top
  integer(c_int8_t) :: a(*)
  external :: igsum2d, sgsum2d, dgsum2d, cgsum2d, zgsum2d
  select case (t)
  case (0)
    call igsum2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (1)
    call sgsum2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (2)
    call dgsum2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (3)
    call cgsum2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  case (4)
    call zgsum2d(ictxt, word(scope), top, m, n, a, lda, r, c)
  end select
end subroutine btf_gsum2d

subroutine btf_gamx2d(t, ictxt, scope, top, m, n, a, lda, ra, ca, ldia, r, c) bind(C, name='btf_gamx2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, ldia, r, c
  integer :: ra(*), ca(*)
  character :: scope, top
  integer(c_int8_t) :: a(*)
  external :: igamx2d, sgamx2d, dgamx2d, cgamx2d, zgamx2d
  select case (t)
  case (0)
    call igamx2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (1)
    call sgamx2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (2)
    call dgamx2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (3)
    call cgamx2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (4)
    call zgamx2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  end select
end subroutine btf_gamx2d

subroutine btf_gamn2d(t, ictxt, scope, top, m, n, a, lda, ra, ca, ldia, r, c) bind(C, name='btf_gamn2d')
  use iso_c_binding, only: c_int, c_int8_t
  use bt_fwrap_words
  implicit none
  integer(c_int), value :: t
  integer :: ictxt, m, n, lda, ldia, r, c
  integer :: ra(*), ca(*)
  character :: scope, top
  integer(c_int8_t) :: a(*)
  external :: igamn2d, sgamn2d, dgamn2d, cgamn2d, zgamn2d
  select case (t)
  case (0)
    call igamn2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (1)
    call sgamn2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (2)
    call dgamn2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (3)
    call cgamn2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  case (4)
    call zgamn2d(ictxt, word(scope), top, m, n, a, lda, ra, ca, ldia, r, c)
  end select
end subroutine btf_gamn2d

subroutine btf_pinfo(me, np) bind(C, name='btf_pinfo')
  use bt_fwrap_words
  implicit none
  integer :: me, np
  call blacs_pinfo(me, np)
end subroutine btf_pinfo

subroutine btf_setup(me, np) bind(C, name='btf_setup')
  use bt_fwrap_words
  implicit none
  integer :: me, np
  call blacs_setup(me, np)
end subroutine btf_setup

subroutine btf_get(ictxt, what, val) bind(C, name='btf_get')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, what, val(*)
  call blacs_get(ictxt, what, val)
end subroutine btf_get

subroutine btf_set(ictxt, what, val) bind(C, name='btf_set')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, what, val(*)
  call blacs_set(ictxt, what, val)
end subroutine btf_set

subroutine btf_gridinit(ictxt, order, nprow, npcol) bind(C, name='btf_gridinit')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, nprow, npcol
  character :: order
  call blacs_gridinit(ictxt, order // 'ow-major', nprow, npcol)
end subroutine btf_gridinit

subroutine btf_gridmap(ictxt, map, ldu, nprow, npcol) bind(C, name='btf_gridmap')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, ldu, nprow, npcol, map(ldu, *)
  call blacs_gridmap(ictxt, map, ldu, nprow, npcol)
end subroutine btf_gridmap

subroutine btf_freebuff(ictxt, wait) bind(C, name='btf_freebuff')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, wait
  call blacs_freebuff(ictxt, wait)
end subroutine btf_freebuff

subroutine btf_gridexit(ictxt) bind(C, name='btf_gridexit')
  use bt_fwrap_words
  implicit none
  integer :: ictxt
  call blacs_gridexit(ictxt)
end subroutine btf_gridexit

subroutine btf_abort(ictxt, err) bind(C, name='btf_abort')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, err
  call blacs_abort(ictxt, err)
end subroutine btf_abort

subroutine btf_exit(notdone) bind(C, name='btf_exit')
  use bt_fwrap_words
  implicit none
  integer :: notdone
  call blacs_exit(notdone)
end subroutine btf_exit

subroutine btf_gridinfo(ictxt, nprow, npcol, myrow, mycol) bind(C, name='btf_gridinfo')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, nprow, npcol, myrow, mycol
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
end subroutine btf_gridinfo

subroutine btf_pcoord(ictxt, pnum, prow, pcol) bind(C, name='btf_pcoord')
  use bt_fwrap_words
  implicit none
  integer :: ictxt, pnum, prow, pcol
  call blacs_pcoord(ictxt, pnum, prow, pcol)
end subroutine btf_pcoord

subroutine btf_barrier(ictxt, scope) bind(C, name='btf_barrier')
  use bt_fwrap_words
  implicit none
  integer :: ictxt
  character :: scope
  call blacs_barrier(ictxt, word(scope))
end subroutine btf_barrier

subroutine btf_free_handle(h) bind(C, name='btf_free_handle')
  use bt_fwrap_words
  implicit none
  integer :: h
  call free_blacs_system_handle(h)
end subroutine btf_free_handle

function btf_pnum(ictxt, prow, pcol) bind(C, name='btf_pnum') result(res)
  use iso_c_binding, only: c_double
  implicit none
  integer :: ictxt, prow, pcol
  integer, external :: blacs_pnum
  integer :: res
  res = blacs_pnum(ictxt, prow, pcol)
end function btf_pnum

function btf_ksendid(ictxt, r, c) bind(C, name='btf_ksendid') result(res)
  use iso_c_binding, only: c_double
  implicit none
  integer :: ictxt, r, c
  integer, external :: ksendid
  integer :: res
  res = ksendid(ictxt, r, c)
end function btf_ksendid

function btf_krecvid(ictxt, r, c) bind(C, name='btf_krecvid') result(res)
  use iso_c_binding, only: c_double
  implicit none
  integer :: ictxt, r, c
  integer, external :: krecvid
  integer :: res
  res = krecvid(ictxt, r, c)
end function btf_krecvid

function btf_kbsid(ictxt, scope) bind(C, name='btf_kbsid') result(res)
  use iso_c_binding, only: c_double
  implicit none
  integer :: ictxt
  character :: scope
  integer, external :: kbsid
  integer :: res
  res = kbsid(ictxt, scope)
end function btf_kbsid

function btf_kbrid(ictxt, scope, r, c) bind(C, name='btf_kbrid') result(res)
  use iso_c_binding, only: c_double
  implicit none
  integer :: ictxt, r, c
  character :: scope
  integer, external :: kbrid
  integer :: res
  res = kbrid(ictxt, scope, r, c)
end function btf_kbrid

function btf_dcputime() bind(C, name='btf_dcputime') result(res)
  use iso_c_binding, only: c_double
  implicit none
  double precision, external :: dcputime00
  real(c_double) :: res
  res = dcputime00()
end function btf_dcputime

function btf_dwalltime() bind(C, name='btf_dwalltime') result(res)
  use iso_c_binding, only: c_double
  implicit none
  double precision, external :: dwalltime00
  real(c_double) :: res
  res = dwalltime00()
end function btf_dwalltime

function btf_sys2blacs(h) bind(C, name='btf_sys2blacs') result(res)
  use iso_c_binding, only: c_double
  implicit none
  integer :: h
  integer, external :: sys2blacs_handle
  integer :: res
  res = sys2blacs_handle(h)
end function btf_sys2blacs

function btf_blacs2sys(h) bind(C, name='btf_blacs2sys') result(res)
  use iso_c_binding, only: c_double
  implicit none
  integer :: h
  integer, external :: blacs2sys_handle
  integer :: res
  res = blacs2sys_handle(h)
end function btf_blacs2sys
