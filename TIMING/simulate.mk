# TIMING/simulate.mk -- included by the top-level Makefile.
#
#   make simulate    the library sources and the experiment driver built with
#                    SimGrid's smpicc into build/smpi/ (the normal build is
#                    untouched), a check that every simulated rank has its own
#                    copy of the library's globals, then the experiments on
#                    simulated machines (TIMING/sim/run.sh): LAWN 29 figure 7
#                    on a 64-node iPSC/860, the LAWN 73 surveys on the four
#                    32-node machines, CollMark on a 256-node fat tree;
#                    and (not with SIM_QUICK) make simulate-same: the same
#                    plans and messages under SMPI as under MPICH.
#                    Tables, CSV and PNG plots in TIMING/out/sim/.
#
# Needs SimGrid (Debian: apt-get install -y libsimgrid-dev) and, for the
# plots, gnuplot.  Knobs: SIM_OUT (TIMING/out/sim), SIM_QUICK=1 (small sizes),
# SMPICC (smpicc).  Platforms: TIMING/platforms/*.xml.
#
#   make bench-models  every topology against its own cost model (see below).

SMPICC   ?= smpicc
# one folder per integer size (the other variants' differences do not reach
# the simulated build); the tests and drivers get BLACS_ILP64 as in the
# normal build, so that blacs.h's integers match the library's
SIM_B    := build/smpi$(if $(filter 8,$(INTSIZE)),-ilp64)
SIM_OUT  ?= TIMING/out/sim
SIM_QUICK ?=
MODELS_P ?= 16 64 256
MODELS_NMAX ?= 1000000
MODELS_PLATFORM ?= flat
MODELS_BCAST ?= _IDSMHFT123456789CPA
MODELS_COMB ?= _IDSMHFT123456789RBYA
SIM_OBJ  := $(patsubst %.c,$(SIM_B)/obj/%.o,$(LIBSRC))
# the flags that shape the code, the same for the reference BLACS of
# bench-scalapack (TIMING/scalapack.mk); the library's objects add
# -fvisibility=hidden, and so do the reference BLACS's
SIM_OPT := -O2 -g
SIM_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(SIM_OPT) -Wall -Wextra -I$(SIM_B) -ISRC $(if $(filter 8,$(INTSIZE)),-DBLACS_ILP64)
SIM_HAVE := $(shell command -v $(SMPICC) >/dev/null 2>&1 && command -v smpirun >/dev/null 2>&1 && echo yes)

.PHONY: simulate simulate-bins simulate-check simulate-scale bench-models
simulate-check:
ifneq ($(SIM_HAVE),yes)
	@echo "make simulate: SimGrid is not installed: $(SMPICC) and smpirun (SimGrid SMPI) were not found." >&2
	@echo "  Install it with: apt-get install -y libsimgrid-dev   (and gnuplot for the plots)" >&2
	@exit 1
else
	@command -v gnuplot >/dev/null 2>&1 || echo "make simulate: gnuplot not found: tables and CSV only, no PNG plots (apt-get install -y gnuplot)"
endif

# the configuration header of the normal build, without the MPICH-specific
# Fortran communicator handle values (SMPI's MPI_Comm is a pointer)
# rewritten only when its text changes (another MPI's build may have left a
# newer one of other content), so nothing is rebuilt needlessly
$(SIM_B)/blacs_config.h: $(CONFIG) sim-config-check
	@mkdir -p $(dir $@)
	@grep -v 'BI_F77_COMM_' $< > $@.new; if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
.PHONY: sim-config-check
sim-config-check:

# combines pay gamma in simulated time: ops.c's bi_op_setup is wrapped by
# TIMING/sim/simops.c
$(SIM_B)/obj/SRC/ops.o: SIM_XFLAGS := -Dbi_op_setup=bi_op_setup_real
# the simulation's layer, linked into every simulated program: combines'
# computation (simops.c) and SMPI's MPI corrected where it departs from the
# standard and MPICH (simmpi.c)
SIM_LAYER := $(SIM_B)/obj/sim/simops.o $(SIM_B)/obj/sim/simmpi.o
$(SIM_B)/obj/%.o: %.c $(SIM_B)/blacs_config.h $(wildcard SRC/*.h) SRC/settings.def | simulate-check
	@mkdir -p $(dir $@)
	$(SMPICC) $(SIM_CFLAGS) -fvisibility=hidden $(SIM_XFLAGS) -c -o $@ $<

$(SIM_B)/obj/sim/%.o: TIMING/sim/%.c $(SIM_B)/blacs_config.h $(wildcard SRC/*.h) SRC/settings.def | simulate-check
	@mkdir -p $(dir $@)
	$(SMPICC) $(SIM_CFLAGS) -c -o $@ $<

$(SIM_B)/simdrv: $(SIM_B)/obj/sim/simdrv.o $(SIM_LAYER) $(SIM_OBJ)
	$(SMPICC) -o $@ $^ -lm

simulate-bins: simulate-check $(SIM_B)/simdrv

# TESTING/t_scale.c on 1,024 simulated ranks, message IDs [0,255]
# (TIMING/sim/scale.sh); `make simulate-scale` alone
$(SIM_B)/obj/TESTING/%.o: TESTING/%.c $(SIM_B)/blacs_config.h $(wildcard SRC/*.h TESTING/*.h) SRC/settings.def | simulate-check
	@mkdir -p $(dir $@)
	$(SMPICC) $(SIM_CFLAGS) -ITESTING -c -o $@ $<
$(SIM_B)/t_scale: $(SIM_B)/obj/TESTING/t_scale.o $(SIM_B)/obj/TESTING/tu_util.o $(SIM_LAYER) $(SIM_OBJ)
	$(SMPICC) -o $@ $^ -lm
# TESTING/t_corpus.c simulated, for TIMING/sim/same.sh (the simulated
# library makes MPICH's plans and messages); sim-dir prints the folder
$(SIM_B)/t_corpus: $(SIM_B)/obj/TESTING/t_corpus.o $(SIM_LAYER) $(SIM_OBJ)
	$(SMPICC) -o $@ $^ -lm
.PHONY: sim-corpus sim-dir
sim-corpus: simulate-check $(SIM_B)/t_corpus
# the simulation layer's MPI_Ibcast, MPICH's schedules (TIMING/sim/t_ibcast.c,
# TIMING/sim/ibcast.sh: the test simulate_ibcast)
$(SIM_B)/t_ibcast: $(SIM_B)/obj/sim/t_ibcast.o $(SIM_B)/obj/sim/simmpi.o
	$(SMPICC) -o $@ $^
.PHONY: sim-ibcast
sim-ibcast: simulate-check $(SIM_B)/t_ibcast
sim-dir:
	@echo $(SIM_B)
simulate-scale: simulate-check $(SIM_B)/t_scale
	SIM_QUICK=$(SIM_QUICK) bash TIMING/sim/scale.sh $(SIM_B) $(SIM_OUT)

simulate: simulate-bins $(SIM_B)/t_scale
	SIM_QUICK=$(SIM_QUICK) bash TIMING/sim/run.sh $(SIM_B) $(SIM_OUT)
	SIM_QUICK=$(SIM_QUICK) bash TIMING/sim/scale.sh $(SIM_B) $(SIM_OUT)
	$(if $(SIM_QUICK),,@$(MAKE) --no-print-directory simulate-same)

# the simulated library makes MPICH's plans and messages: t_corpus's traces
# under SMPI and under this build's MPI (TIMING/sim/same.sh; the test
# simulate_same); part of make simulate
.PHONY: simulate-same
simulate-same: simulate-check $(SIM_B)/t_corpus $(B)/tests/t_corpus
	VARIANT=$(VARIANT) BIN=$(B)/tests MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" bash TIMING/sim/same.sh

# every topology against its own cost model at p = 16, 64, 256 (TIMING/sim/models.sh;
# knobs MODELS_P, MODELS_NMAX, MODELS_PLATFORM=flat|fattree|hosts (hosts: the BLACS_*
# settings of make calibrate-hosts in the environment; output in SIM_OUT/hosts), MODELS_BCAST,
# MODELS_COMB in the environment or on the command line)
bench-models: simulate-bins
	MODELS_P="$(MODELS_P)" MODELS_NMAX=$(MODELS_NMAX) MODELS_PLATFORM=$(MODELS_PLATFORM) \
	  MODELS_BCAST="$(MODELS_BCAST)" MODELS_COMB="$(MODELS_COMB)" bash TIMING/sim/models.sh $(SIM_B) $(SIM_OUT)$(if $(filter hosts,$(MODELS_PLATFORM)),/hosts)
