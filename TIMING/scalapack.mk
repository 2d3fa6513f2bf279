# TIMING/scalapack.mk -- included by the top-level Makefile.
#
#   make bench-scalapack SCALAPACK_SRC=/path/to/scalapack
#
# Reference ScaLAPACK (TOOLS, PBLAS, SRC of the tree at SCALAPACK_SRC)
# built with SimGrid's smpicc/smpif90 into build/smpi-scalapack/, linked
# once with the reference BLACS of that tree (BLACS/SRC, MPI, Fortran names
# with a trailing underscore and the C names) and once with this
# repository's library (the objects of the simulated build, TIMING/simulate.mk),
# both with TIMING/sim/sl_wrap.c (BLACS time per routine, SCOPE and TOP)
# and the driver TIMING/sim/sl_bench.c; then TIMING/sim/scalapack.sh runs
# PDGETRF, PDPOTRF, PDGEQRF, PDSYTRD on simulated clusters and writes the
# ours/reference table to SL_OUT; then TIMING/sim/sl_real.sh holds the
# simulation to real runs of the same program built for MPICH (below).
# Nothing of ScaLAPACK is copied here.
#
# Knobs: SCALAPACK_SRC (required), BENCH_SL_QUICK=1 (one grid and size per
# network), SL_OUT ($(SIM_OUT)/scalapack), SL_JOBS (simulations at once, 2),
# SL_NETS (the platforms: node16; also node32, net10g, net1g),
# SL_HOST_SPEED (host speed for the computation mode, 20Gf), SL_BLAS
# (the BLAS/LAPACK link flags; the single-threaded OpenBLAS of Debian's
# libopenblas-serial-dev when present, else -llapack -lblas), SMPIF90.

SMPIF90 ?= smpif90
SCALAPACK_SRC ?=
BENCH_SL_QUICK ?=
SL_OUT ?= $(SIM_OUT)/scalapack
SL_JOBS ?= 2
SL_NETS ?= node16
SL_HOST_SPEED ?= 20Gf
SL_B := build/smpi-scalapack
SL := $(patsubst %/,%,$(SCALAPACK_SRC))
SL_OK := $(if $(SL),$(and $(wildcard $(SL)/BLACS/SRC/Bdef.h),$(wildcard $(SL)/PBLAS/SRC/pblas.h),$(wildcard $(SL)/SRC/pdgetrf.f),$(wildcard $(SL)/TOOLS/numroc.f)))
SL_HAVE := $(and $(SIM_HAVE),$(shell command -v $(SMPIF90) >/dev/null 2>&1 && echo yes))
SL_OPENBLAS := /usr/lib/x86_64-linux-gnu/openblas-serial
SL_BLAS ?= $(if $(wildcard $(SL_OPENBLAS)/libopenblas.so),-L$(SL_OPENBLAS) -Wl$(comma)-rpath$(comma)$(SL_OPENBLAS) -lopenblas,-llapack -lblas)

SL_CDEFS  := -DAdd_
SL_CFLAGS := $(SIM_OPT) -w $(SL_CDEFS)
SL_FFLAGS := -O2 -w -fallow-argument-mismatch -std=legacy

# the ScaLAPACK library proper: its sources, each an object of the same
# path under $(SL_B)/obj (the tree's path left out)
SL_LIBSRC := $(if $(SL_OK),$(foreach d,TOOLS PBLAS/SRC PBLAS/SRC/PTOOLS PBLAS/SRC/PTZBLAS PBLAS/SRC/PBBLAS SRC,\
               $(wildcard $(SL)/$(d)/*.f) $(wildcard $(SL)/$(d)/*.c)))
SL_LIBOBJ := $(patsubst $(SL)/%,$(SL_B)/obj/%.o,$(basename $(SL_LIBSRC)))
# the reference BLACS: the internal BI_ routines once, every entry point
# twice, as the Fortran name (-DAdd_) and the C name (-DCallFromC)
SL_BLACS_ALL := $(if $(SL_OK),$(wildcard $(SL)/BLACS/SRC/*.c))
SL_BLACS_BI  := $(filter $(SL)/BLACS/SRC/BI_%,$(SL_BLACS_ALL))
SL_BLACS_ENT := $(filter-out $(SL_BLACS_BI),$(SL_BLACS_ALL))
SL_BLACSOBJ  := $(patsubst $(SL)/%.c,$(SL_B)/obj/%.o,$(SL_BLACS_ALL)) \
                $(patsubst $(SL)/BLACS/SRC/%.c,$(SL_B)/obj/BLACS/SRC/C_%.o,$(SL_BLACS_ENT)) \
                $(SL_B)/obj/sim/sl_smpi_compat.o
# SimGrid 3.32 has no MPI_Type_match_size (it aborts): the reference BLACS
# gets TIMING/sim/sl_smpi_compat.c's
SL_BLACSFLAGS := -include TIMING/sim/sl_smpi_compat.h -fvisibility=hidden

# every BLACS communication entry point, Fortran and C names, wrapped by sl_wrap.c
SL_FAMS  := gesd2d gerv2d trsd2d trrv2d gebs2d gebr2d trbs2d trbr2d gsum2d gamx2d gamn2d
SL_WRAPS := $(foreach t,i s d c z,$(foreach f,$(SL_FAMS),$(t)$(f)_ C$(t)$(f)))
# and every BLAS and LAPACK routine it calls locally, by sl_flops.c (the flops mode)
SL_FLOPWRAPS := dgemm_ dsymm_ dsyrk_ dsyr2k_ dtrmm_ dtrsm_ dgemv_ dger_ dsymv_ dsyr_ dsyr2_ dtrmv_ \
                dtrsv_ daxpy_ ddot_ dscal_ dcopy_ dswap_ idamax_ dlarfg_ dlacpy_ dlaset_
# and the BLACS' own copies and combine operations, and MPI's packing of
# datatypes with gaps, by sl_copy.c and (the reference's loops)
# sl_refcost.c: a wrap with nothing to wrap does nothing
SL_COPYWRAPS := memcpy MPI_Pack MPI_Unpack MPI_Send MPI_Isend MPI_Recv MPI_Irecv MPI_Bcast MPI_Ibcast $(foreach t,i s d,BI_$(t)mvcopy BI_$(t)vmcopy) \
                $(foreach t,i s d c z,$(foreach o,sum amx amn amx2 amn2,BI_$(t)vv$(o)))
SL_LDWRAP := -Wl,$(subst $(eval) ,$(comma),$(strip $(foreach w,$(SL_WRAPS) $(SL_FLOPWRAPS) $(SL_COPYWRAPS),--wrap=$(w))))

.PHONY: bench-scalapack bench-scalapack-bins
bench-scalapack:
ifneq ($(SL_HAVE),yes)
	@echo "make bench-scalapack: skipped: SimGrid SMPI ($(SMPICC), $(SMPIF90), smpirun) is not installed."
	@echo "  Install it with: apt-get install -y libsimgrid-dev"
else ifeq ($(SL_OK),)
	@echo "make bench-scalapack: skipped: SCALAPACK_SRC$(if $(SL), = $(SL) is not a Reference ScaLAPACK source tree, is not set)."
	@echo "  Get one with: git clone https://github.com/Reference-ScaLAPACK/scalapack"
	@echo "  then: make bench-scalapack SCALAPACK_SRC=/path/to/scalapack   (BENCH_SL_QUICK=1 for the quick table)"
else
	@$(MAKE) --no-print-directory bench-scalapack-bins bench-scalapack-real-bins
	BENCH_SL_QUICK=$(BENCH_SL_QUICK) SL_JOBS=$(SL_JOBS) SL_HOST_SPEED=$(SL_HOST_SPEED) SL_NETS="$(SL_NETS)" \
	  bash TIMING/sim/scalapack.sh $(SL_B) $(SL_OUT)
	$(if $(BENCH_SL_QUICK),SLR_SETTINGS="$${SLR_SETTINGS:-shm:1x2 1gbit:1x2}" SLR_N=$${SLR_N:-1024} SLR_REPS=$${SLR_REPS:-2} SLR_SIMREPS=$${SLR_SIMREPS:-1}) \
	  MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" bash TIMING/sim/sl_real.sh $(SLR_B) $(SL_B) $(SL_OUT)
endif

bench-scalapack-bins: $(SL_B)/sl_bench_ref $(SL_B)/sl_bench_ours

$(SL_B)/obj/%.o: $(SL)/%.f | simulate-check
	@mkdir -p $(dir $@)
	@$(SMPIF90) $(SL_FFLAGS) -c -o $@ $<
$(SL_B)/obj/%.o: $(SL)/%.c | simulate-check
	@mkdir -p $(dir $@)
	@$(SMPICC) $(SL_CFLAGS) -c -o $@ $<
$(SL_B)/obj/BLACS/SRC/%.o: $(SL)/BLACS/SRC/%.c TIMING/sim/sl_smpi_compat.h | simulate-check
	@mkdir -p $(dir $@)
	@$(SMPICC) $(SL_CFLAGS) $(SL_BLACSFLAGS) -c -o $@ $<
$(SL_B)/obj/BLACS/SRC/C_%.o: $(SL)/BLACS/SRC/%.c TIMING/sim/sl_smpi_compat.h | simulate-check
	@mkdir -p $(dir $@)
	@$(SMPICC) $(SL_CFLAGS) $(SL_BLACSFLAGS) -DCallFromC -c -o $@ $<

$(SL_B)/libscalapack.a: $(SL_LIBOBJ)
	@echo "  AR $@ ($(words $^) objects)"
	@rm -f $@ && ar cr $@ $^ && ranlib $@
$(SL_B)/libblacs-ref.a: $(SL_BLACSOBJ)
	@echo "  AR $@ ($(words $^) objects)"
	@rm -f $@ && ar cr $@ $^ && ranlib $@

$(SL_B)/obj/sim/%.o: TIMING/sim/%.c TIMING/sim/sl_wrap.h TIMING/sim/sl_smpi_compat.h | simulate-check
	@mkdir -p $(dir $@)
	$(SMPICC) -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -c -o $@ $<

SL_DRV := $(SL_B)/obj/sim/sl_bench.o $(SL_B)/obj/sim/sl_wrap.o $(SL_B)/obj/sim/sl_flops.o $(SL_B)/obj/sim/sl_copy.o
$(SL_B)/sl_bench_ref: $(SL_DRV) $(SL_B)/obj/sim/sl_refcost.o $(SL_B)/libscalapack.a $(SL_B)/libblacs-ref.a $(SIM_B)/obj/sim/simmpi.o
	$(SMPICC) -o $@ $(SL_LDWRAP) $(SL_DRV) $(SL_B)/obj/sim/sl_refcost.o $(SIM_B)/obj/sim/simmpi.o $(SL_B)/libscalapack.a $(SL_B)/libblacs-ref.a \
	  $(SL_B)/libscalapack.a $(SL_B)/libblacs-ref.a $(SL_BLAS) -lgfortran -lm
# both on the same simulated MPI (simmpi.c, SMPI corrected where it departs
# from MPICH); ours: the objects of the simulated build (TIMING/simulate.mk)
# and its combine-cost wrapper simops.o, which ops.o of that build needs
$(SL_B)/sl_bench_ours: $(SL_DRV) $(SL_B)/libscalapack.a $(SIM_OBJ) $(SIM_LAYER)
	$(SMPICC) -o $@ $(SL_LDWRAP) $(SL_DRV) $(SL_B)/libscalapack.a $(SIM_OBJ) $(SIM_LAYER) \
	  $(SL_B)/libscalapack.a $(SL_BLAS) -lgfortran -lm

# The same driver, ScaLAPACK and both BLACS built for this machine's MPI
# (MPICC, MPIF77) into build/real-scalapack/ (with Tsim, TIMING/tsimcal.c,
# which measures the MPI of each setting), with the same flags as the
# simulated ones: the runs that hold the simulation to the real program
# (TIMING/sim/sl_real.sh, "simulated/real" in the table).  The reference
# BLACS needs no compatibility header here; ours is $(LIBDIR)/libblacs.a,
# the library users link.  The flops wrappers (sl_flops.c, -DSL_REAL) charge
# nothing here: they time the real computation, so that each run says at
# what rate each process computed (SLK lines).
SLR_B := build/real-scalapack
SLR_LIBOBJ := $(patsubst $(SL)/%,$(SLR_B)/obj/%.o,$(basename $(SL_LIBSRC)))
SLR_BLACSOBJ := $(patsubst $(SL)/%.c,$(SLR_B)/obj/%.o,$(SL_BLACS_ALL)) \
                $(patsubst $(SL)/BLACS/SRC/%.c,$(SLR_B)/obj/BLACS/SRC/C_%.o,$(SL_BLACS_ENT))
SLR_LDWRAP := -Wl,$(subst $(eval) ,$(comma),$(strip $(foreach w,$(SL_WRAPS) $(SL_FLOPWRAPS),--wrap=$(w))))
SLR_DRV := $(SLR_B)/obj/sim/sl_bench.o $(SLR_B)/obj/sim/sl_wrap.o $(SLR_B)/obj/sim/sl_flops.o

.PHONY: bench-scalapack-real-bins
bench-scalapack-real-bins: $(SLR_B)/sl_bench_ref $(SLR_B)/sl_bench_ours $(SLR_B)/Tsim

$(SLR_B)/obj/%.o: $(SL)/%.f
	@mkdir -p $(dir $@)
	@$(MPIF77) $(SL_FFLAGS) -c -o $@ $<
$(SLR_B)/obj/%.o: $(SL)/%.c
	@mkdir -p $(dir $@)
	@$(MPICC) $(SL_CFLAGS) -c -o $@ $<
$(SLR_B)/obj/BLACS/SRC/%.o: $(SL)/BLACS/SRC/%.c
	@mkdir -p $(dir $@)
	@$(MPICC) $(SL_CFLAGS) -fvisibility=hidden -c -o $@ $<
$(SLR_B)/obj/BLACS/SRC/C_%.o: $(SL)/BLACS/SRC/%.c
	@mkdir -p $(dir $@)
	@$(MPICC) $(SL_CFLAGS) -fvisibility=hidden -DCallFromC -c -o $@ $<
$(SLR_B)/obj/sim/%.o: TIMING/sim/%.c TIMING/sim/sl_wrap.h
	@mkdir -p $(dir $@)
	$(MPICC) -std=c11 -D_POSIX_C_SOURCE=200809L -DSL_REAL -O2 -g -Wall -Wextra -c -o $@ $<

$(SLR_B)/Tsim: TIMING/tsimcal.c TIMING/tpingpong.h
	@mkdir -p $(dir $@)
	$(MPICC) -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -o $@ $<

# the check of the traces (TIMING/sim/trace.sh, make test): t_trace with
# sl_flops.c built for this machine's MPI, which writes a trace, and for
# SMPI, which replays it; no ScaLAPACK needed
SL_FLOPLD := -Wl,$(subst $(eval) ,$(comma),$(strip $(foreach w,$(SL_FLOPWRAPS),--wrap=$(w))))
.PHONY: sl-trace-bins
sl-trace-bins: $(SL_B)/t_trace $(SLR_B)/t_trace
$(SL_B)/t_trace: $(SL_B)/obj/sim/t_trace.o $(SL_B)/obj/sim/sl_flops.o
	$(SMPICC) -o $@ $(SL_FLOPLD) $^ $(SL_BLAS) -lm
$(SLR_B)/t_trace: $(SLR_B)/obj/sim/t_trace.o $(SLR_B)/obj/sim/sl_flops.o
	$(MPICC) -o $@ $(SL_FLOPLD) $^ $(SL_BLAS) -lm

$(SLR_B)/libscalapack.a: $(SLR_LIBOBJ)
	@echo "  AR $@ ($(words $^) objects)"
	@rm -f $@ && ar cr $@ $^ && ranlib $@
$(SLR_B)/libblacs-ref.a: $(SLR_BLACSOBJ)
	@echo "  AR $@ ($(words $^) objects)"
	@rm -f $@ && ar cr $@ $^ && ranlib $@
$(SLR_B)/sl_bench_ref: $(SLR_DRV) $(SLR_B)/libscalapack.a $(SLR_B)/libblacs-ref.a
	$(MPICC) -o $@ $(SLR_LDWRAP) $(SLR_DRV) $(SLR_B)/libscalapack.a $(SLR_B)/libblacs-ref.a \
	  $(SLR_B)/libscalapack.a $(SLR_B)/libblacs-ref.a $(SL_BLAS) -lgfortran -lm
$(SLR_B)/sl_bench_ours: $(SLR_DRV) $(SLR_B)/libscalapack.a $(LIBDIR)/libblacs.a
	$(MPICC) -o $@ $(SLR_LDWRAP) $(SLR_DRV) $(SLR_B)/libscalapack.a $(LIBDIR)/libblacs.a \
	  $(SLR_B)/libscalapack.a $(LIBDIR)/libblacs.a $(SL_BLAS) -lgfortran -lm
