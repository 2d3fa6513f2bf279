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
