# TESTING/mkl.mk -- Intel MKL's ScaLAPACK on our BLACS; included
# by the top-level Makefile.
#
# When Debian's MKL packages are installed (non-free: libmkl-scalapack-lp64,
# libmkl-blacs-intelmpi-lp64 / libmkl-blacs-openmpi-lp64, libmkl-intel-lp64,
# libmkl-sequential, libmkl-core; see README) and INTSIZE=4, builds
#   mkl_sl_ours      TESTING/mkl_sl.c on MKL's ScaLAPACK and OUR libblacs.so,
#                    the link line of MKL's with -lblacs for its BLACS
#   mkl_sl_mkl       the same on MKL's own BLACS for this MPI
#   t_sendrecv_mkl   TESTING/t_sendrecv.c on MKL's BLACS
# and TESTING/tests.d/mkl.list compares them (TESTING/run_mkl_diff.sh).
# Without MKL those tests say "skipped".
MKL_FLAVOUR := $(if $(findstring openmpi,$(MPICC)),openmpi,intelmpi)
MKL_BLACS   := mkl_blacs_$(MKL_FLAVOUR)_lp64
MKL_FOUND   := $(and $(filter /%,$(shell $(MPICC) -print-file-name=libmkl_scalapack_lp64.so 2>/dev/null)),$(filter /%,$(shell $(MPICC) -print-file-name=lib$(MKL_BLACS).so 2>/dev/null)))
HAVE_MKL    := $(if $(filter 8,$(INTSIZE)),,$(if $(MKL_FOUND),yes))
MKL_REST    := -lmkl_intel_lp64 -lmkl_sequential -lmkl_core -lm -ldl

$(B)/tests/mkl_sl_ours: TESTING/mkl_sl.c $(LIBDIR)/libblacs.so
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< -lmkl_scalapack_lp64 -L$(LIBDIR) -lblacs \
	    -Wl,-rpath,$(abspath $(LIBDIR)) $(MKL_REST)
$(B)/tests/mkl_sl_mkl: TESTING/mkl_sl.c
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< -lmkl_scalapack_lp64 -l$(MKL_BLACS) $(MKL_REST)
$(B)/tests/t_sendrecv_mkl: TESTING/t_sendrecv.c
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -DT_MKL -o $@ $< -l$(MKL_BLACS) $(MKL_REST)

MKL_BINS := $(B)/tests/mkl_sl_ours $(B)/tests/mkl_sl_mkl $(B)/tests/t_sendrecv_mkl
ifeq ($(HAVE_MKL),yes)
XTRA_BINS += $(MKL_BINS)
tests: $(MKL_BINS)
endif
