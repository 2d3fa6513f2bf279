! bt_fmain.f90 -- main program of xFbtest, the BLACS tester of the Fortran
! interface.  Collects the command-line arguments ([--abort] [deck
! directory]) and runs the shared checking core, whose BLACS calls all go
! through the Fortran wrappers of bt_fwrap.f90.
program xfbtest
  use iso_c_binding, only: c_int, c_char, c_null_char
  implicit none
  interface
    function bt_fortran_main(nargs, args) bind(C, name='bt_fortran_main') result(rc)
      import :: c_int, c_char
      integer(c_int), value :: nargs
      character(kind=c_char) :: args(*)
      integer(c_int) :: rc
    end function bt_fortran_main
    subroutine c_exit(status) bind(C, name='exit')
      import :: c_int
      integer(c_int), value :: status
    end subroutine c_exit
  end interface
  character(kind=c_char, len=:), allocatable :: all
  character(len=4096) :: arg
  integer :: k, n, l
  all = ''
  n = command_argument_count()
  do k = 1, n
    call get_command_argument(k, arg, l)
    all = all // arg(1:l) // c_null_char
  end do
  all = all // c_null_char
  call c_exit(bt_fortran_main(int(n, c_int), all))
end program xfbtest
