# TIMING/timing.mk -- included by the top-level Makefile.
#
#   make timing     the LAWN 73 timing survey on 2 processes: the four timers
#                   (Tc, Ts, Tbs, Tg) against this library, MPI's primitives
#                   and, when Debian's libscalapack-mpich is installed, the
#                   reference BLACS; then tables, CSV and PNG plots in TIMING/out/
#
# Binaries: $(B)/timing/ours/{Tc,Ts,Tbs,Tg} (linked with LIB/libblacs.a),
# $(B)/timing/ref/{Tc,Ts,Tbs,Tg} (the same sources linked with the reference
# BLACS; public interface only, so INTSIZE=4 builds only), $(B)/timing/Tmo
# (T_m, T_o) and $(B)/timing/tanalyze (links the static library for the
# topology table and its cost models).
# Knobs: TIMING_NP (2), TIMING_OUT (TIMING/out), REFBLACS (path of the
# reference library, empty to leave it out), TIMING_QUICK=1 (tiny sizes).
#
#   make bench      the side-by-side table, in under 3 minutes: point-to-
#                   point echo, broadcast, sum and absolute-value maxima (TOP ' ')
#                   of ours, MPI's primitives and the reference BLACS on 2
#                   processes, n = 1 .. 10^6 (medians of alternated runs), and,
#                   when SimGrid is installed, the SMPI table of T_coll/T_p2p on
#                   the 256-node fat tree with each topology's model value
#                   (TIMING/bench.sh; writes $(TIMING_OUT)/bench.csv).  Knobs:
#                   BENCH_RUNS (5 runs of each binary), BENCH_ROUNDS (5),
#                   BENCH_NMAX (10^6), BENCH_SIM=0 (no SMPI table), BENCH_NICE
#                   (a nice value for the timed runs, e.g. -10 as root on a
#                   shared machine), BENCH_BASE=1 (also the library of
#                   `make bench-base BENCH_REV=<git revision>`, alternated with
#                   the others: before/after in one time window).

TIMING_NP    ?= 2
TIMING_OUT   ?= TIMING/out
TIMING_QUICK ?=
TDIR         := $(B)/timing
REFBLACS     ?= $(firstword $(wildcard /usr/lib/*-linux-gnu/libscalapack-mpich.so /usr/lib64/libscalapack-mpich.so /usr/lib/libscalapack-mpich.so))
TIMING_PROGS := Tc Ts Tbs Tg
TIMING_OURS  := $(addprefix $(TDIR)/ours/,$(TIMING_PROGS))
# the reference BLACS in libscalapack-mpich is built for MPICH and LP64 only
TIMING_REFB  := $(if $(and $(REFBLACS),$(filter 4,$(INTSIZE)),$(if $(MPIFLAVOUR),,mpich)),$(addprefix $(TDIR)/ref/,$(TIMING_PROGS)))
TIMING_BINS  := $(TIMING_OURS) $(TIMING_REFB) $(TDIR)/Tmo $(TDIR)/tanalyze \
                $(TDIR)/ours/tword $(if $(TIMING_REFB),$(TDIR)/ref/tword) \
                $(TDIR)/ours/tplace $(if $(TIMING_REFB),$(TDIR)/ref/tplace)
TIMING_HDRS  := TIMING/tcommon.h TIMING/tpingpong.h SRC/blacs.h

define TIMING_PROG_RULES
$(TDIR)/ours/$(1): TIMING/$(2).c $(TIMING_HDRS) $(LIBDIR)/libblacs.a
	@mkdir -p $$(dir $$@)
	$(MPICC) $(TCFLAGS) -o $$@ $$< $(LIBDIR)/libblacs.a -lm
$(TDIR)/ref/$(1): TIMING/$(2).c $(TIMING_HDRS)
	@mkdir -p $$(dir $$@)
	$(MPICC) $(TCFLAGS) -DTIMING_REF -o $$@ $$< $(REFBLACS) -lm
endef
$(eval $(call TIMING_PROG_RULES,Tc,tc))
$(eval $(call TIMING_PROG_RULES,Ts,ts))
$(eval $(call TIMING_PROG_RULES,Tbs,tbs))
$(eval $(call TIMING_PROG_RULES,Tg,tg))
$(eval $(call TIMING_PROG_RULES,bench,bench))
$(eval $(call TIMING_PROG_RULES,blate,blate))
$(eval $(call TIMING_PROG_RULES,tword,tword))
$(eval $(call TIMING_PROG_RULES,tplace,tplace))

$(TDIR)/Tmo: TIMING/tmachine.c TIMING/model_api.h $(TIMING_HDRS) $(CONFIG) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< $(LIBDIR)/libblacs.a -lm

# Tsim: the simulated MPI's settings from this MPI (make calibrate)
$(TDIR)/Tsim: TIMING/tsimcal.c TIMING/tpingpong.h
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $<

$(TDIR)/tanalyze: TIMING/tanalyze.c TIMING/tstat.h TIMING/model_api.h $(CONFIG) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< $(LIBDIR)/libblacs.a -lm

.PHONY: timing-bins bench
timing-bins: $(TIMING_BINS)

# Intel MKL's BLACS for MPICH as a third peer, when installed
MKLBLACS ?= $(firstword $(wildcard /usr/lib/*-linux-gnu/libmkl_blacs_intelmpi_lp64.so))
TIMING_MKLB := $(if $(and $(MKLBLACS),$(filter 4,$(INTSIZE)),$(if $(MPIFLAVOUR),,mpich)),$(TDIR)/mkl/bench)
$(TDIR)/mkl/bench: TIMING/bench.c $(TIMING_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -DTIMING_REF -DTIMING_MKL -o $@ $< $(MKLBLACS) -lmkl_intel_lp64 \
	    -lmkl_sequential -lmkl_core -lm

$(TDIR)/mkl/blate: TIMING/blate.c $(TIMING_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -DTIMING_REF -DTIMING_MKL -o $@ $< $(MKLBLACS) -lmkl_intel_lp64 \
	    -lmkl_sequential -lmkl_core -lm

BENCH_BINS := $(TDIR)/ours/bench $(if $(TIMING_REFB),$(TDIR)/ref/bench) $(TIMING_MKLB) \
              $(TDIR)/ours/blate $(if $(TIMING_REFB),$(TDIR)/ref/blate) $(if $(TIMING_MKLB),$(TDIR)/mkl/blate)
BENCH_SIM  ?= 1
BENCH_BASE ?=
BENCH_REV  ?= HEAD
bench: $(BENCH_BINS)
	@if [ "$(BENCH_SIM)" = 1 ] && command -v smpicc >/dev/null 2>&1 && command -v smpirun >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory -s simulate-bins >/dev/null || echo "make bench: the SMPI driver did not build; no SMPI table"; fi
	TDIR=$(TDIR) OUT=$(TIMING_OUT) SIMDRV=$(if $(filter 1,$(BENCH_SIM)),$(SIM_B)/simdrv) \
	  BASE=$(BENCH_BASE) NICE=$(BENCH_NICE) MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" bash TIMING/bench.sh

# the machine model (T_c, T_s, T_m, T_o fitted as in LAWN 73 3.3) printed
# as the BLACS_* settings to export, then the simulated MPI's settings
# (Tsim: SIM_OS, SIM_OR, SIM_EAGER for TIMING/sim/smpi.sh); calibrate-hosts: the
# machine across two hosts of the network test bed
.PHONY: calibrate calibrate-hosts
calibrate: $(TIMING_BINS) $(TDIR)/Tsim
	TDIR=$(TDIR) OUT=$(TIMING_OUT)/calibrate NP=2 QUICK=$(TIMING_QUICK) CALIBRATE=1 \
	  MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" bash TIMING/survey.sh
	$(MPIEXEC) $(MPIEXEC_FLAGS) -n 2 $(TDIR)/Tsim
calibrate-hosts: $(TIMING_BINS)
	TDIR=$(TDIR) OUT=$(TIMING_OUT)/calibrate-hosts NP=2 QUICK=$(TIMING_QUICK) CALIBRATE=1 \
	  bash TESTING/cluster/cluster.sh with 2 bash -c 'MPIEXEC="bash TESTING/cluster/cluster.sh run $$CLUSTER mpich 1" bash TIMING/survey.sh'

# the LAWN 73 survey on 4 hosts of the network test bed, one rank each
# (HOSTS_PPN ranks per host): the machine fitted there first and given to
# the library (FEED=1), then every topology against its model and 'A'
# against the best letter, at lengths doubling from 1 to HOSTS_NMAX
# doubles.  Four processes share this machine's two cores, so the ranks
# must give up the core while they wait: Open MPI's do with
# mpi_yield_when_idle (HOSTS_MPI=ompi, the default when installed);
# MPICH's spin, and a message that waits for a time slice costs 1-20 ms
# (HOSTS_MPI=mpich shows it).
HOSTS_MPI  ?= $(if $(HAVE_OMPI),ompi,mpich)
HOSTS_PPN  ?= 1
HOSTS_NMAX ?= 262144
HOSTS_FLAGS ?= $(if $(filter ompi,$(HOSTS_MPI)),--mca mpi_yield_when_idle 1)
HOSTS_TDIR = build/$(if $(filter ompi,$(HOSTS_MPI)),ompi,default)/timing
.PHONY: timing-hosts
timing-hosts:
	$(MAKE) --no-print-directory $(if $(filter ompi,$(HOSTS_MPI)),$(OMPI_VARS),$(MPICH_VARS)) INTSIZE=4 SANITIZE= timing-bins > /dev/null
	TDIR=$(HOSTS_TDIR) OUT=$(TIMING_OUT)/hosts-$(HOSTS_MPI) NP=4 P2P_NP=2 FEED=1 NMAX=$(HOSTS_NMAX) NSTEP=0 \
	  REPSTEP=0 NREP=2 REPS=10 BUDGET=$${BUDGET:-1500} CLUSTER_MPIEXEC_FLAGS="$(HOSTS_FLAGS)" \
	  bash TESTING/cluster/cluster.sh with $$((4 / $(HOSTS_PPN))) bash -c \
	  'MPIEXEC="bash TESTING/cluster/cluster.sh run $$CLUSTER $(HOSTS_MPI) $(HOSTS_PPN)" bash TIMING/survey.sh'

# the same table across two hosts of the network test bed (issue 21):
# TCP on the bare link and held to 1 Gbit/s
.PHONY: bench-hosts
bench-hosts: $(BENCH_BINS)
	TDIR=$(TDIR) OUT=$(TIMING_OUT) BASE=$(BENCH_BASE) NICE=$(BENCH_NICE) \
	  bash TESTING/cluster/cluster.sh with 2 bash TIMING/bench_hosts.sh

# the library of another revision, for BENCH_BASE=1: built from `git archive`
# in its own folder, linked with this revision's bench.c (public API only)
.PHONY: bench-base
bench-base:
	rm -rf $(B)/bench-base && mkdir -p $(B)/bench-base $(TDIR)/base
	git archive $(BENCH_REV) | tar -x -C $(B)/bench-base
	$(MAKE) --no-print-directory -C $(B)/bench-base lib INTSIZE=$(INTSIZE) >/dev/null
	$(MPICC) $(TCFLAGS) -o $(TDIR)/base/bench TIMING/bench.c \
	  $(B)/bench-base/$(LIBDIR)/libblacs.a -lm
	$(MPICC) $(TCFLAGS) -o $(TDIR)/base/blate TIMING/blate.c \
	  $(B)/bench-base/$(LIBDIR)/libblacs.a -lm
	git rev-parse --short $(BENCH_REV) > $(TDIR)/base/REV

# the smoke and analysis tests (TESTING/tests.d/timing.list) run these
tests: $(TIMING_BINS) $(BENCH_BINS)

timing: $(TIMING_BINS)
	TDIR=$(TDIR) OUT=$(TIMING_OUT) NP=$(TIMING_NP) QUICK=$(TIMING_QUICK) \
	  MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" bash TIMING/survey.sh

# the analysis test compiles TIMING's statistics and model headers in
$(B)/tests/t_timing_analyze: TIMING/tstat.h TIMING/model_api.h
