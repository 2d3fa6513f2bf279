# ---- random valid programs (TESTING/t_randprog.c, TESTING/randprog.sh) ----
# t_randprog itself is built like every TESTING/t_*.c.  Its second opinion,
# the same programs on the reference BLACS inside Debian's ScaLAPACK, is
# built where that library is installed (LP64 only, like the clients).
ifeq ($(HAVE_SCALAPACK),yes)
XTRA_BINS += $(B)/tests/t_randprog_ref
endif
$(B)/tests/t_randprog_ref: TESTING/t_randprog.c
	@mkdir -p $(dir $@)
	$(MPICC) $(filter-out -I$(B) -ISRC,$(TCFLAGS)) -DRP_REFERENCE -o $@ $< -l$(SCALAPACK) -lm

# make fuzz FUZZ_SECONDS=N: fresh seeds for N seconds; failures are shrunk
# and written to $(B)/tests/randprog/ as programs and C reproducers
FUZZ_SECONDS ?= 600
.PHONY: fuzz
fuzz: tests
	$(RUNENV) bash TESTING/randprog.sh fuzz $(FUZZ_SECONDS)

# make fuzz-lazy FUZZ_SECONDS=N: the same in front of an MPI whose sends
# leave only at a later test or wait of their sender's, 50 ms after the
# post (TESTING/lazympi.c; by default one destination, the program's seed
# mod its number of processes: LAZYMPI_SLOW=random; all: every one), without
# the reference's second opinion; failures in $(B)/tests/randprog-lazy
LAZYMPI_SLOW ?= random
LAZYMPI_DELAY ?= 0.05
.PHONY: fuzz-lazy
fuzz-lazy: tests
	$(RUNENV) LAZYMPI_SLOW=$(LAZYMPI_SLOW) LAZYMPI_DELAY=$(LAZYMPI_DELAY) RANDPROG_GEN=$(B)/tests/t_randprog_lazy \
	  RANDPROG_REF=0 RANDPROG_OUT=$(B)/tests/randprog-lazy bash TESTING/randprog.sh fuzz $(FUZZ_SECONDS)

# make fuzz-hosts FUZZ_SECONDS=N: the same across 2 hosts of the test bed
# (TESTING/cluster/cluster.sh: network namespaces, real TCP between them),
# each program's ranks spread over both, with this build's MPI (failures in
# $(B)/tests/randprog-hosts); "skipped" where namespaces cannot be made
# (not root, no iproute2)
.PHONY: fuzz-hosts
fuzz-hosts: tests
	@why=$$(bash TESTING/cluster/cluster.sh check) || { echo "$$why"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }; \
	bash TESTING/cluster/cluster.sh with 2 bash -c '$(RUNENV) RANDPROG_OUT=$(B)/tests/randprog-hosts MPIEXEC="bash TESTING/cluster/cluster.sh run $$CLUSTER $(if $(MPIFLAVOUR),ompi,mpich) spread" bash TESTING/randprog.sh fuzz $(FUZZ_SECONDS)'
