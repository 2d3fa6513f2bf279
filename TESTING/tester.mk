# TESTING/tester.mk -- the BLACS tester (included by the top-level Makefile).
#   $(B)/tests/xCbtest   calls the C interface (Cdgesd2d ...)
#   $(B)/tests/xFbtest   Fortran main program, calls the Fortran interface
#                        (dgesd2d_ ...) through Fortran wrappers
# Both share the checking core TESTING/bt_*.c and read bt.dat, sdrv.dat,
# bsbr.dat, comb.dat from the directory given as argument.
BT_CORE := $(patsubst TESTING/%.c,$(B)/bt/%.o,$(filter-out TESTING/bt_capi.c TESTING/bt_fapi.c,$(wildcard TESTING/bt_*.c)))

$(B)/bt/%.o: TESTING/%.c TESTING/bt.h SRC/blacs.h $(CONFIG)
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -c -o $@ $<

$(B)/tests/xCbtest: $(B)/bt/bt_capi.o $(BT_CORE) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $(B)/bt/bt_capi.o $(BT_CORE) $(LIBDIR)/libblacs.a -lm

$(B)/tests/xFbtest: TESTING/bt_fmain.f90 TESTING/bt_fwrap.f90 $(B)/bt/bt_fapi.o $(BT_CORE) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@) $(B)/bt/mod
	$(MPIF77) $(ALLFFLAGS) -J$(B)/bt/mod -o $@ TESTING/bt_fwrap.f90 TESTING/bt_fmain.f90 \
	    $(B)/bt/bt_fapi.o $(BT_CORE) $(LIBDIR)/libblacs.a -lm

BT_BINS := $(B)/tests/xCbtest $(B)/tests/xFbtest
XTRA_BINS += $(BT_BINS)
# the top-level 'tests' rule expanded XTRA_BINS before this file was included
tests: $(BT_BINS)
