# BLACS on MPI -- top-level GNU Makefile.  `make help` prints the targets.
#
#   make                    LIB/libblacs.a and LIB/libblacs.so
#   make test               the whole test suite (ends with "N passed, M failed")
#   make test-full          larger decks, 6 and 8 ranks
#   make test-valgrind      the 2-rank suite under valgrind memcheck
#   make INTSIZE=8 ...      ILP64 build (Fortran INTEGER*8, 64-bit BLACS integers)
#   make SANITIZE=1 ...     AddressSanitizer + UndefinedBehaviorSanitizer build
#   make fuzz               the random-program tester for FUZZ_SECONDS (doc/testing.md)
#   make fuzz-hosts         the same across two hosts of a network test bed
#   make fuzz-lazy          the same in front of an MPI whose sends wait for their sender's next test
#   make example            the paper's example program (appendix A) on 4 ranks
#   make example94          the same program against the 1994 interface
#   make check-scalapack    PDGESV and PDPOTRF from Debian's ScaLAPACK on this BLACS
#   make install-check      install into a temporary prefix, then build and run a client
#   make cluster-test       the netlib tester across hosts of a network test bed
#   make cluster-faults     faults across hosts: a link cut, a rank killed, a host held to 1 Mbit/s
#   make timing             the timing survey (TIMING/README)
#   make bench              the side-by-side benchmark: ours, MPI, the reference, MKL
#   make bench-base         another revision's library for make bench BENCH_BASE=1 (BENCH_REV)
#   make bench-hosts        the same table across two hosts of the test bed (TCP)
#   make calibrate          the machine model as BLACS_* settings (calibrate-hosts: over TCP)
#   make timing-hosts       the survey on 4 hosts of the test bed
#   make simulate           SimGrid SMPI experiments and the 1,024-rank correctness run
#   make simulate-scale     the 1,024-rank correctness run alone
#   make simulate-same      the same plans and messages under SMPI as under MPICH
#   make bench-models       every topology against its own cost model in SMPI
#   make bench-scalapack SCALAPACK_SRC=...  Reference ScaLAPACK in SMPI: its BLACS against ours,
#                           and the simulation held to real runs (simulated/real)
#   make man                the section-3 man pages, into build/man/man3
#   make settings-doc       doc/settings.md from the table of settings (SRC/settings.def)
#   make install PREFIX=/usr/local   libraries, blacs.h, blacs.pc and the man pages
#   make clean              remove build/, LIB/ and TIMING/out
#   make help               this list
#
# MPICH is used by default (mpicc.mpich etc. when they exist); override with
# make MPICC=... MPIF77=... MPIEXEC=...

SHELL := /bin/bash
first = $(firstword $(foreach c,$(1),$(if $(shell command -v $(c) 2>/dev/null),$(c))) $(lastword $(1)))
MPICC   ?= $(call first,mpicc.mpich mpicc)
MPIF77  ?= $(call first,mpif77.mpich mpifort.mpich mpif77)
MPIEXEC ?= $(call first,mpiexec.mpich mpiexec)
# both MPIs by name, for the targets that run each in turn (cluster-test,
# cluster-faults, timing-hosts); HAVE_OMPI is evaluated only where used
MPICH_VARS = MPICC=$(call first,mpicc.mpich mpicc) MPIF77=$(call first,mpif77.mpich mpifort.mpich mpif77) \
             MPIEXEC=$(call first,mpiexec.mpich mpiexec)
OMPI_VARS  = MPICC=mpicc.openmpi MPIF77=mpif77.openmpi MPIEXEC=mpiexec.openmpi
HAVE_OMPI  = $(and $(shell command -v mpicc.openmpi 2>/dev/null),$(shell command -v mpirun.openmpi 2>/dev/null))
INTSIZE ?= 4
SANITIZE ?=
PREFIX ?= /usr/local
VERSION := 1.1.0
SOMAJOR := 1

# Open MPI refuses to run as root or oversubscribed unless told
MPIEXEC_FLAGS ?= $(if $(findstring openmpi,$(MPIEXEC)$(shell $(MPIEXEC) --version 2>&1 | head -1)),--allow-run-as-root --oversubscribe)

# one build folder per variant, so switching INTSIZE, SANITIZE or the MPI
# never reuses stale objects or a stale configuration header
MPIFLAVOUR := $(if $(findstring openmpi,$(MPICC)),ompi)
VARIANT := $(subst $(eval) ,-,$(strip $(if $(filter 8,$(INTSIZE)),ilp64) $(if $(SANITIZE),san) $(MPIFLAVOUR)))
VARIANT := $(if $(VARIANT),$(VARIANT),default)
B      := build/$(VARIANT)
LIBDIR := $(if $(filter default,$(VARIANT)),LIB,LIB/$(VARIANT))

comma := ,
SANFLAGS := $(if $(SANITIZE),-fsanitize=address$(comma)undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
FINT     := $(if $(filter 8,$(INTSIZE)),-fdefault-integer-8)
CWARN    := -Wall -Wextra
CFLAGS   ?= -O2 -g
ALLCFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(CFLAGS) $(CWARN) $(SANFLAGS) -fPIC -fvisibility=hidden -I$(B) -ISRC $(if $(filter 8,$(INTSIZE)),-DBLACS_ILP64)
FFLAGS   ?= -O2 -g
ALLFFLAGS := $(FFLAGS) $(FINT) $(SANFLAGS) -fallow-argument-mismatch -Wno-unused-dummy-argument
TCFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L $(CFLAGS) $(CWARN) $(SANFLAGS) -I$(B) -ISRC -ITESTING $(if $(filter 8,$(INTSIZE)),-DBLACS_ILP64)

CONFIG := $(B)/blacs_config.h
LIBSRC := $(wildcard SRC/*.c) $(wildcard FORTRAN/*.c)
LIBOBJ := $(patsubst %.c,$(B)/obj/%.o,$(LIBSRC))
TSRC_C := $(wildcard TESTING/t_*.c)
TSRC_F := $(wildcard TESTING/t_*.f90) $(wildcard TESTING/t_*.f)
TUTIL  := $(patsubst %.c,$(B)/obj/%.o,$(wildcard TESTING/tu_*.c))
TBINS  := $(patsubst TESTING/%.c,$(B)/tests/%,$(TSRC_C)) \
          $(patsubst TESTING/%.f90,$(B)/tests/%,$(filter %.f90,$(TSRC_F))) \
          $(patsubst TESTING/%.f,$(B)/tests/%,$(filter %.f,$(TSRC_F)))
XTRA_BINS ?=

.SECONDARY:
.PHONY: all lib tests test test-full test-valgrind clean install example timing simulate check-scalapack
all: lib
lib: $(LIBDIR)/libblacs.a $(LIBDIR)/libblacs.so

$(CONFIG): INSTALL/configure.sh INSTALL/probe.c INSTALL/fprobe.f
	@mkdir -p $(B)
	sh INSTALL/configure.sh $@ "$(MPICC)" "$(MPIF77)" "$(FINT)"

# the library's objects see SRC/ and the build's configuration only
$(B)/obj/%.o: %.c $(CONFIG) $(wildcard SRC/*.h) SRC/settings.def
	@mkdir -p $(dir $@)
	$(MPICC) $(ALLCFLAGS) -c -o $@ $<
$(B)/obj/TESTING/%.o: TESTING/%.c $(CONFIG) $(wildcard SRC/*.h) SRC/settings.def $(wildcard TESTING/*.h)
	@mkdir -p $(dir $@)
	$(MPICC) $(ALLCFLAGS) -ITESTING -c -o $@ $<

$(LIBDIR)/libblacs.a: $(LIBOBJ)
	@mkdir -p $(LIBDIR)
	rm -f $@ && ar rcs $@ $^

$(LIBDIR)/libblacs.so: $(LIBOBJ)
	@mkdir -p $(LIBDIR)
	$(MPICC) -shared $(SANFLAGS) -Wl,-soname,libblacs.so.$(SOMAJOR) -o $@.$(VERSION) $^ -lm
	ln -sf libblacs.so.$(VERSION) $@.$(SOMAJOR)
	ln -sf libblacs.so.$(VERSION) $@

# the .mk files add their programs to XTRA_BINS (and their own targets)
-include TESTING/tester.mk
-include TIMING/timing.mk
-include TESTING/clients.mk
-include TESTING/mkl.mk
-include TESTING/randprog.mk
-include TIMING/simulate.mk
-include TIMING/scalapack.mk
-include TESTING/cluster/cluster.mk
-include TESTING/cluster/faults.mk
-include doc/man/man.mk

# doc/settings.md, generated from the table of settings (SRC/settings.def)
# by a small program of the build machine; the test settings_doc compares
build/settings_doc: INSTALL/settings_doc.c SRC/settings.def
	@mkdir -p build
	$(or $(HOSTCC),cc) -std=c11 -O1 -Wall -Wextra -ISRC -o $@ INSTALL/settings_doc.c
.PHONY: settings-doc help
settings-doc: build/settings_doc
	build/settings_doc > doc/settings.md
tests: build/settings_doc

help:
	@sed -n 's/^#   make /make /p' Makefile

tests: lib $(TBINS) $(XTRA_BINS)

$(B)/tests/%: TESTING/%.c $(TUTIL) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< $(TUTIL) $(LIBDIR)/libblacs.a -lm

# t_rev_exit: one mode is a threaded program (MPI_THREAD_MULTIPLE); its
# dlopen mode is a host not linked with the library, which loads
# libblacs.so itself (t_rev_exit_dl, built from the same source)
$(B)/tests/t_rev_exit: TCFLAGS += -pthread
$(B)/tests/t_rev_exit_dl: TESTING/t_rev_exit.c $(LIBDIR)/libblacs.so
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -DREV_EXIT_DLHOST -o $@ $< -ldl
tests: $(B)/tests/t_rev_exit_dl
# t_X_lazy: t_X in front of an MPI whose sends to one process wait for
# their sender's next test (TESTING/lazympi.c; offmpi.list, make fuzz-lazy)
$(B)/tests/%_lazy: TESTING/%.c TESTING/lazympi.c $(TUTIL) $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPICC) $(TCFLAGS) -o $@ $< TESTING/lazympi.c $(TUTIL) $(LIBDIR)/libblacs.a -lm
tests: $(B)/tests/t_offmpi_lazy $(B)/tests/t_randprog_lazy

$(B)/tests/%: TESTING/%.f90 $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPIF77) $(ALLFFLAGS) -J$(B)/tests -o $@ $< $(LIBDIR)/libblacs.a -lm

$(B)/tests/%: TESTING/%.f $(LIBDIR)/libblacs.a
	@mkdir -p $(dir $@)
	$(MPIF77) $(ALLFFLAGS) -o $@ $< $(LIBDIR)/libblacs.a -lm


# Under the sanitizers leaks are left to valgrind (make test-valgrind): MPICH's
# UCX plugins are unloaded before LeakSanitizer runs, so their allocations
# cannot be attributed or suppressed.
SANENV = $(if $(SANITIZE),ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1)
RUNENV = $(SANENV) BIN=$(B)/tests LIBDIR=$(LIBDIR) MPIEXEC="$(MPIEXEC) $(MPIEXEC_FLAGS)" VARIANT=$(VARIANT)
test: tests
	$(RUNENV) bash TESTING/run_tests.sh TESTING/tests.d/*.list

test-full: tests
	$(RUNENV) FULL=1 bash TESTING/run_tests.sh TESTING/tests.d/*.list TESTING/tests.full/*.list

test-valgrind: tests
	$(RUNENV) VALGRIND=1 bash TESTING/run_tests.sh TESTING/tests.d/*.list TESTING/tests.valgrind/*.list

install: lib lib94 $(if $(wildcard doc/man/man.mk),install-man)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(LIBDIR)/libblacs.a $(LIBDIR)/libblacs94.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBDIR)/libblacs.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libblacs.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libblacs.so.$(SOMAJOR)
	ln -sf libblacs.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libblacs.so
	sed -e '' $(if $(filter 8,$(INTSIZE)),-e 's|^#ifndef BLACS_INT$$|#ifndef BLACS_ILP64\n#define BLACS_ILP64 1\n#endif\n#ifndef BLACS_INT|') SRC/blacs.h > $(DESTDIR)$(PREFIX)/include/blacs.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@CFLAGS@|$(if $(filter 8,$(INTSIZE)),-DBLACS_ILP64)|g' INSTALL/blacs.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/blacs.pc

clean:
	rm -rf build LIB TIMING/out
