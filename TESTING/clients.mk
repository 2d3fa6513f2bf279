# TESTING/clients.mk -- real clients of the library; included by
# the top-level Makefile after its own rules.
#
#   make example          the LAWN 73 appendix A example (BLACS 1.1 version)
#                         on 4 processes
#   make example94        the same program written against the 1994 interface
#   make lib94            LIB/libblacs94.a, the 1994 (context-free) interface
#   make check-scalapack  PDGESV (Fortran) and PDPOTRF (C) from ScaLAPACK on
#                         our BLACS: linked statically and through LD_PRELOAD
#   make install-check    make install into a temporary prefix, then build and
#                         run a user program with pkg-config and with -lblacs
#
# Uses the Makefile's B, LIBDIR, MPICC, MPIF77, TCFLAGS, ALLCFLAGS, ALLFFLAGS,
# MPIEXEC, MPIEXEC_FLAGS, INTSIZE.

# ---- the 1994 interface: LIB/libblacs94.a from SRC94/*.c ------------------
LIB94SRC := $(wildcard SRC94/*.c)
LIB94OBJ := $(patsubst %.c,$(B)/obj/%.o,$(LIB94SRC))
LIB94    := $(LIBDIR)/libblacs94.a

$(LIB94OBJ): $(wildcard SRC94/*.h)
$(LIB94): $(LIB94OBJ)
	@mkdir -p $(LIBDIR)
	rm -f $@ && ar rcs $@ $^

.PHONY: lib94 example example94 check-scalapack install-check
lib94: $(LIB94)

# ---- the appendix A example, 1.1 and 1994 versions -----------------------
$(B)/tests/example_mvmult: TESTING/example_mvmult.f TESTING/example_util.f $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPIF77) $(ALLFFLAGS) -o $@ TESTING/example_mvmult.f TESTING/example_util.f \
	    $(LIBDIR)/libblacs.a -lm

# 1994 programs: libblacs94.a BEFORE libblacs.a (both define DGESD2D ...)
$(B)/tests/example94: TESTING/example94.f TESTING/example_util.f $(LIB94) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPIF77) $(ALLFFLAGS) -o $@ TESTING/example94.f TESTING/example_util.f \
	    $(LIB94) $(LIBDIR)/libblacs.a -lm

$(B)/tests/blacs94_check: TESTING/blacs94_check.f90 $(LIB94) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)/mod94
	$(MPIF77) $(ALLFFLAGS) -J$(dir $@)/mod94 -o $@ TESTING/blacs94_check.f90 \
	    $(LIB94) $(LIBDIR)/libblacs.a -lm

CLIENT_BINS := $(B)/tests/example_mvmult $(B)/tests/example94 $(B)/tests/blacs94_check

example: $(B)/tests/example_mvmult
	timeout -k 5 120 $(MPIEXEC) $(MPIEXEC_FLAGS) -n 4 $(B)/tests/example_mvmult

example94: $(B)/tests/example94
	timeout -k 5 120 $(MPIEXEC) $(MPIEXEC_FLAGS) -n 4 $(B)/tests/example94

# ---- ScaLAPACK on our BLACS ------------------------------------------------
# Debian ships libscalapack-mpich and libscalapack-openmpi; pick the one that
# matches the MPI, build the programs only when it is installed and the BLACS
# integers are 32-bit (Debian's ScaLAPACK is LP64).
SCALAPACK ?= $(if $(findstring openmpi,$(MPICC)),scalapack-openmpi,scalapack-mpich)
SCALAPACK_SO := $(shell $(MPICC) -print-file-name=lib$(SCALAPACK).so 2>/dev/null)
HAVE_SCALAPACK := $(if $(filter 8,$(INTSIZE)),,$(if $(filter /%,$(SCALAPACK_SO)),yes))

# (a) static: the WHOLE of libblacs.a is linked in and its symbols exported,
# so that the calls ScaLAPACK makes from inside its shared library bind to
# ours; plain link order alone would mix two BLACS (see README).
SL_STATIC = -Wl,--whole-archive $(LIBDIR)/libblacs.a -Wl,--no-whole-archive -Wl,--export-dynamic
SL_BINS := $(B)/tests/sl_pdgesv_static $(B)/tests/sl_pdgesv \
           $(B)/tests/sl_pdpotrf_static $(B)/tests/sl_pdpotrf

$(B)/tests/sl_pdgesv_static: TESTING/sl_pdgesv.f90 $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)/modsl
	$(MPIF77) $(ALLFFLAGS) -J$(dir $@)/modsl -o $@ $< $(SL_STATIC) -l$(SCALAPACK) -lm
# (b) against ScaLAPACK only; run with LD_PRELOAD=$(LIBDIR)/libblacs.so
$(B)/tests/sl_pdgesv: TESTING/sl_pdgesv.f90
	@mkdir -p $(dir $@)/modsl
	$(MPIF77) $(ALLFFLAGS) -J$(dir $@)/modsl -o $@ $< -l$(SCALAPACK) -lm
$(B)/tests/sl_pdpotrf_static: TESTING/sl_pdpotrf.c $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< $(SL_STATIC) -l$(SCALAPACK) -lm
$(B)/tests/sl_pdpotrf: TESTING/sl_pdpotrf.c
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< -l$(SCALAPACK) -lm

ifeq ($(HAVE_SCALAPACK),yes)
CLIENT_BINS += $(SL_BINS)
check-scalapack: $(SL_BINS) $(LIBDIR)/libblacs.so
	BIN=$(B)/tests LIBDIR=$(LIBDIR) MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" TESTS='^sl_' \
	    bash TESTING/run_tests.sh TESTING/tests.d/clients.list
else
check-scalapack:
	@echo "check-scalapack: SKIPPED -- lib$(SCALAPACK).so not found (install the Debian package lib$(SCALAPACK)-dev)$(if $(filter 8,$(INTSIZE)), or INTSIZE=8 (ScaLAPACK is LP64))"
endif

# ---- installation ----------------------------------------------------------
install-check: lib
	MPICC="$(MPICC)" MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" MAKE="$(MAKE)" \
	    bash TESTING/install_check.sh

XTRA_BINS += $(CLIENT_BINS)
tests: $(CLIENT_BINS)

# ---- Fortran name mangling ----------------------------------------------------
# TESTING/fmangle.f90 compiled with each naming convention gfortran offers,
# linked against the static and the shared library (run with rpath to ours)
FMANGLE_default :=
FMANGLE_two := -fsecond-underscore
FMANGLE_none := -fno-underscoring
FMANGLE_BINS := $(foreach k,default two none,$(B)/tests/fmangle_$(k)_static $(B)/tests/fmangle_$(k)_shared)
$(B)/tests/fmangle_%_static: TESTING/fmangle.f90 $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPIF77) $(ALLFFLAGS) $(FMANGLE_$*) -o $@ $< $(LIBDIR)/libblacs.a -lm
$(B)/tests/fmangle_%_shared: TESTING/fmangle.f90 $(LIBDIR)/libblacs.so
	@mkdir -p $(dir $@)
	$(MPIF77) $(ALLFFLAGS) $(FMANGLE_$*) -o $@ $< -L$(LIBDIR) -lblacs -Wl,-rpath,$(abspath $(LIBDIR)) -lm
XTRA_BINS += $(FMANGLE_BINS)
tests: $(FMANGLE_BINS)
