# TESTING/cluster/cluster.mk -- make cluster-test (included by the top-level
# Makefile): TESTING/cluster/cluster.list on hosts made of network namespaces
# (TESTING/cluster/cluster.sh), real TCP between them, with MPICH and, when
# mpicc.openmpi and mpirun.openmpi exist, Open MPI; 4 hosts x 1 rank and
# 2 hosts x 2 ranks.  Needs root, iproute2, util-linux; prints "skipped: why"
# and passes when namespaces cannot be made.
cluster-test:
	@why=$$(bash TESTING/cluster/cluster.sh check) || { echo "$$why"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }; \
	$(MAKE) --no-print-directory $(MPICH_VARS) INTSIZE=4 SANITIZE= tests > /dev/null && \
	$(if $(HAVE_OMPI),$(MAKE) --no-print-directory $(OMPI_VARS) INTSIZE=4 SANITIZE= tests > /dev/null &&) \
	CLUSTER_OMPI=$(if $(HAVE_OMPI),1) bash TESTING/cluster/cluster_test.sh

.PHONY: cluster-test
