#!/usr/bin/env bash
# bench_hosts.sh -- `make bench-hosts` (issue 21): make bench's table with
# one rank on each of two hosts of the test bed (TESTING/cluster/cluster.sh:
# network namespaces, real TCP between them), MPICH: once on the bare link,
# once with the link of each host held to 1 Gbit/s (tc tbf).  Run inside
# `cluster.sh with 2` (CLUSTER names the bed).  Each figure is still paired
# with MPI's primitive inside its own run (TIMING/bench.sh).
# Environment: as bench.sh (TDIR, OUT, RUNS, ROUNDS, NMAX); RATES (the
# link modes, default "bare 1gbit").
set -u
[ -n "${CLUSTER:-}" ] || { echo "bench_hosts.sh: run inside cluster.sh with 2"; exit 2; }
OUT=${OUT:-TIMING/out}
C=TESTING/cluster/cluster.sh
rc=0
for rate in ${RATES:-bare 1gbit}; do
  if [ "$rate" = bare ]; then
    bash $C link "$CLUSTER" h1 norate; bash $C link "$CLUSTER" h2 norate
  else
    bash $C link "$CLUSTER" h1 rate "$rate" && bash $C link "$CLUSTER" h2 rate "$rate" || exit 2
  fi
  echo "== two hosts, one rank each, TCP, link: $rate"
  OUT=$OUT/hosts-$rate SIMDRV= MPIEXEC="bash $C run $CLUSTER mpich 1" bash TIMING/bench.sh || rc=1
done
exit $rc
