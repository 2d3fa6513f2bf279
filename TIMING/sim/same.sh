#!/usr/bin/env bash
# same.sh -- the simulated library is the library users run: under SimGrid's
# SMPI it makes the same plans and sends the same messages, in the same
# order, as under MPICH.  TESTING/t_corpus.c (every broadcast and combine
# letter, point-to-point rings, BLACS_SET 11-16; its quick sizes) runs on
# 2, 3 and 4 processes under MPICH (the variant's test binary) and under
# SMPI (built with smpicc, make sim-corpus), each with BLACS_TRACE: a line
# per plan ("= b", "= c": the algorithm, its pieces, message IDs, the
# source's order and waits, sends from A, marks), per point-to-point message
# ("= p": peer, bytes, ID, the receiver's word) and per message a
# collective algorithm sends.  The traces must be byte-identical (the
# simulated MPI_TAG_UB is MPICH's: TIMING/sim/simmpi.c).  The
# simulated ranks all run on one host, as the real ones do on this
# machine, so both take the shared-memory schedule (SRC/grid.c); and then
# 4 processes on 2 hosts, the real ones on a bed of network namespaces
# (TESTING/cluster/cluster.sh, where it can be made), 2 on each.
# Ends with "N passed, M failed"; skips without SimGrid, and on Open MPI
# builds (SMPI stands for MPICH: BI_MPICH, SRC/core.h).
# Environment (set by make test): BIN (the variant's test binaries),
# VARIANT, MPIEXEC.  SAME_NP (2 3 4; set but empty: none), SAME_HOSTS=0
# leaves out the 2 hosts, SAME_KEEP=1 keeps the folder.
set -u
skip() {
  echo "simulated-vs-real trace comparison skipped: $1"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
}
command -v smpicc >/dev/null 2>&1 && command -v smpirun >/dev/null 2>&1 || skip "SimGrid (smpicc, smpirun) not installed"
VARIANT=${VARIANT:-default}
BIN=${BIN:-build/default/tests}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
case "$VARIANT $MPIEXEC" in *ompi*|*openmpi*) skip "an Open MPI build (SMPI stands for MPICH)" ;; esac
NPS=${SAME_NP-2 3 4}
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here" || exit 2
mk=(make -s --no-print-directory)
case "$VARIANT" in *ilp64*) mk+=(INTSIZE=8) ;; esac
w=$(mktemp -d /tmp/sim_same.XXXXXX)
[ "${SAME_KEEP:-}" = 1 ] || trap 'rm -rf "$w"' EXIT
if ! "${mk[@]}" sim-corpus > "$w/build.log" 2>&1; then
  tail -20 "$w/build.log"; echo "0 passed, 1 failed"; exit 1
fi
simb=$("${mk[@]}" sim-dir)
. TIMING/sim/smpi.sh
pass=0 fail=0
# unset every BLACS_* setting: both sides run the library's defaults
for v in $(env | sed -n 's/^\(BLACS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
# PREFIX NP: the rank files in rank order, each after a "# rank r" line
joined() {
  local r
  for ((r = 0; r < $2; r++)); do echo "# rank $r"; cat "$1.$r" 2>/dev/null; done
}
# NP HOSTS: t_corpus on NP processes, HOSTS hosts (ranks by block): under
# MPICH on this machine (1) or on a bed of network namespaces with their
# own host names (2: TESTING/cluster/cluster.sh), under SMPI on as many
# simulated hosts
compare() {
  local np=$1 nh=$2 t=$w/x$1h$2 i rr sr lines
  if [ "$nh" = 1 ]; then
    BLACS_TRACE=$t.real timeout -k 5 300 $MPIEXEC -n "$np" "$BIN/t_corpus" quick > "$t.real.out" 2>&1
  else
    BLACS_TRACE=$t.real timeout -k 5 300 bash TESTING/cluster/cluster.sh with "$nh" bash -c \
      "bash TESTING/cluster/cluster.sh run \$CLUSTER mpich $((np / nh)) -n $np $BIN/t_corpus quick" > "$t.real.out" 2>&1
  fi
  rr=$?
  for ((i = 0; i < np; i++)); do echo "node-$((i * nh / np))"; done > "$t.hosts"
  BLACS_TRACE=$t.sim timeout -k 5 300 smpirun -np "$np" -platform TIMING/platforms/scalapack_net10g.xml \
    -hostfile "$t.hosts" "$simb/t_corpus" "${SIMCFG[@]}" quick > "$t.sim.out" 2> "$t.sim.err"
  sr=$(sim_status $? "$t.sim.err")
  joined "$t.real" "$np" > "$t.real.trace"
  joined "$t.sim" "$np" > "$t.sim.trace"
  lines=$(grep -vc '^# rank' "$t.real.trace")
  local what="np=$np on $nh host$([ "$nh" = 1 ] || echo s)"
  if [ "$rr" != 0 ] || [ "$sr" != 0 ]; then
    fail=$((fail + 1))
    echo "$what: a run failed (MPICH rc $rr, SMPI rc $sr)"
    tail -n 3 "$t.real.out" "$t.sim.err"
  elif [ "$lines" -lt 100 ]; then
    fail=$((fail + 1)); echo "$what: only $lines trace lines"
  elif cmp -s "$t.real.trace" "$t.sim.trace"; then
    pass=$((pass + 1))
    echo "$what: same plans and messages under SMPI and MPICH ($lines trace lines)"
  else
    fail=$((fail + 1))
    echo "$what: the traces differ (MPICH <, SMPI >):"
    diff "$t.real.trace" "$t.sim.trace" | head -20
  fi
}
for np in $NPS; do compare "$np" 1; done
# across nodes (the node schedules of SRC/p2p.c, the short ' ' broadcasts'
# node phases of SRC/bcast_tree.c), where namespaces can be made
if [ "${SAME_HOSTS:-1}" = 0 ]; then :
elif why=$(bash TESTING/cluster/cluster.sh check); then compare 4 2
else echo "np=4 on 2 hosts: not run ($why)"; fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
