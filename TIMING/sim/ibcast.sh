#!/usr/bin/env bash
# ibcast.sh -- the simulation layer's MPI_Ibcast runs MPICH's schedules
# (TIMING/sim/simmpi.c): TIMING/sim/t_ibcast.c under SMPI, on 12 ranks of
# single-core hosts (the binomial tree, scatter and ring) and on 16 ranks,
# 4 a node (the node phases; scatter and recursive doubling on 16), with
# the simulated MPI of every simulation (SIMCFG, SIM_MPICH); and that a
# request made after MPI_Request_get_status found another done is not
# taken for that one (the layer's aliases); and that a send of SIM_EAGER
# bytes is eager there, one of twice as many not.  Ends with
# "N passed, M failed"; skips without SimGrid.
set -u
if ! command -v smpicc >/dev/null 2>&1 || ! command -v smpirun >/dev/null 2>&1; then
  echo "SimGrid (smpicc, smpirun) not installed: simulated MPI_Ibcast check skipped"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here" || exit 2
. TIMING/sim/smpi.sh
w=$(mktemp -d /tmp/sim_ibcast.XXXXXX)
trap 'rm -rf "$w"' EXIT
mk=(make -s --no-print-directory)
if ! "${mk[@]}" sim-ibcast > "$w/build.log" 2>&1; then
  tail -20 "$w/build.log"; echo "0 passed, 1 failed"; exit 1
fi
simb=$("${mk[@]}" sim-dir)
pass=0; fail=0
for lay in "12 1" "16 4"; do
  read -r np ppn <<< "$lay"
  (export SIM_PPN=$ppn SIM_EAGER
   sim_run "$np" TIMING/platforms/scalapack_node16.xml "$w" 600 "$simb/t_ibcast" "${SIM_MPICH[@]}" \
     --cfg=smpi/simulate-computation:no) > "$w/out" 2> "$w/err"
  rc=$(sim_status $? "$w/err")
  grep -v '^ok' "$w/out"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$w/out" | tail -1)
  if [ "$rc" != 0 ] || [ -z "$line" ]; then
    echo "t_ibcast on $np ranks, $ppn a node: exit $rc"; tail -5 "$w/err"; fail=$((fail + 1)); continue
  fi
  read -r p _ f _ <<< "$line"
  pass=$((pass + p)); fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
