# TESTING/cluster/cluster.mk -- make cluster-test (included by the top-level
# Makefile): TESTING/cluster/cluster.list on hosts made of network namespaces
# (TESTING/cluster/cluster.sh), real TCP between them, with MPICH and, when
# mpicc.openmpi and mpirun.openmpi exist, Open MPI; 4 hosts x 1 rank and
# 2 hosts x 2 ranks.  Needs root, iproute2, util-linux; prints "skipped: why"
# and passes when namespaces cannot be made.
CLUSTER_OMPI := $(if $(and $(shell command -v mpicc.openmpi 2>/dev/null),$(shell command -v mpirun.openmpi 2>/dev/null)),1)

cluster-test:
	@why=$$(bash TESTING/cluster/cluster.sh check) || { echo "$$why"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }; \
	$(MAKE) --no-print-directory MPICC=$(call first,mpicc.mpich mpicc) MPIF77=$(call first,mpif77.mpich mpifort.mpich mpif77) \
	    MPIEXEC=$(call first,mpiexec.mpich mpiexec) INTSIZE=4 SANITIZE= tests > /dev/null && \
	$(if $(CLUSTER_OMPI),$(MAKE) --no-print-directory MPICC=mpicc.openmpi MPIF77=mpif77.openmpi MPIEXEC=mpiexec.openmpi \
	    INTSIZE=4 SANITIZE= tests > /dev/null &&) \
	CLUSTER_OMPI=$(CLUSTER_OMPI) bash TESTING/cluster/cluster_test.sh

.PHONY: cluster-test
