# make cluster-faults: the fault tests across hosts (TESTING/cluster/faults.sh:
# a link cut, a rank killed, a host held to 1mbit, each timed from the fault to
# the job's outcome) with MPICH, then with Open MPI when mpicc.openmpi and
# mpirun.openmpi exist.  Needs root (network namespaces); skipped otherwise.
.PHONY: cluster-faults
cluster-faults:
	$(MAKE) $(MPICH_VARS) build/default/tests/t_faultloop
	$(if $(HAVE_OMPI),$(MAKE) $(OMPI_VARS) build/ompi/tests/t_faultloop)
	@st=0; bash TESTING/cluster/faults.sh mpich build/default/tests; r=$$?; [ $$r = 77 ] && exit 0; [ $$r = 0 ] || st=1; \
	$(if $(HAVE_OMPI),bash TESTING/cluster/faults.sh ompi build/ompi/tests || st=1;) \
	exit $$st
