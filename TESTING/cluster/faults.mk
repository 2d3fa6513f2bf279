# make cluster-faults: the fault tests across hosts (TESTING/cluster/faults.sh:
# a link cut, a rank killed, a host held to 1mbit, each timed from the fault to
# the job's outcome) with MPICH, then with Open MPI when mpicc.openmpi and
# mpirun.openmpi exist.  Needs root (network namespaces); skipped otherwise.
.PHONY: cluster-faults
HAVE_OMPI := $(and $(shell command -v mpicc.openmpi 2>/dev/null),$(shell command -v mpirun.openmpi 2>/dev/null))
cluster-faults:
	$(MAKE) MPICC=$(call first,mpicc.mpich mpicc) MPIF77=$(call first,mpif77.mpich mpifort.mpich mpif77) build/default/tests/t_faultloop
	$(if $(HAVE_OMPI),$(MAKE) MPICC=mpicc.openmpi MPIF77=mpif77.openmpi MPIEXEC=mpiexec.openmpi build/ompi/tests/t_faultloop)
	@st=0; bash TESTING/cluster/faults.sh mpich build/default/tests; r=$$?; [ $$r = 77 ] && exit 0; [ $$r = 0 ] || st=1; \
	$(if $(HAVE_OMPI),bash TESTING/cluster/faults.sh ompi build/ompi/tests || st=1;) \
	exit $$st
