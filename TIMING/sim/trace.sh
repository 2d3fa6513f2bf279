#!/usr/bin/env bash
# trace.sh -- the traces that sl_real.sh gives its simulations (SL_TRACE,
# TIMING/sim/sl_flops.c, SLR_RATE=trace): TIMING/sim/t_trace.c run for real
# on one process of this machine's MPI writes a trace; the same program in
# SMPI replays it, and its timed run must last exactly the trace's gaps and
# calls (t_trace's checks); run again with one call more than the trace
# holds, the simulation must stop with sl_flops.c's message.  Ends with
# "N passed, M failed"; skips without SimGrid, and on Open MPI builds (the
# real side is MPICH's, as sl_real.sh's).  VARIANT, MPIEXEC as make test
# passes them.
set -u
skip() { echo "trace check skipped: $1"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
command -v smpicc > /dev/null 2>&1 && command -v smpirun > /dev/null 2>&1 ||
  skip "SimGrid (smpicc, smpirun) not installed"
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
case "${VARIANT:-} $MPIEXEC" in *ompi*|*openmpi*) skip "an Open MPI build (SMPI stands for MPICH)" ;; esac
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here" || exit 2
. TIMING/sim/smpi.sh
w=$(mktemp -d /tmp/sim_trace.XXXXXX)
trap 'rm -rf "$w"' EXIT
if ! make -s --no-print-directory sl-trace-bins > "$w/build.log" 2>&1; then
  tail -20 "$w/build.log"; echo "0 passed, 1 failed"; exit 1
fi
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
if SL_TRACE=$w/tr timeout -k 5 120 $MPIEXEC -n 1 build/real-scalapack/t_trace > "$w/real.out" 2>&1 &&
   [ -s "$w/tr.t.0" ]; then
  ok
else
  bad "the real run wrote no trace"; cat "$w/real.out"
fi
sim() { # the simulated run, with the extra settings given
  (export SL_FLOPS=1 SL_TRACE="$w/tr" "$@"
   sim_run 1 TIMING/platforms/scalapack_node16.xml "$w" 120 build/smpi-scalapack/t_trace) \
    > "$w/sim.out" 2> "$w/sim.err"
}
sim
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$w/sim.out" | tail -1)
grep '^t_trace\|^FAIL' "$w/sim.out"
if [ -z "$line" ]; then
  bad "the simulated run gave no result"; tail -5 "$w/sim.err"
else
  read -r p _ f _ <<< "$line"
  pass=$((pass + p)); fail=$((fail + f))
fi
sim T_TRACE_EXTRA=1
rc=$?
if [ "$rc" != 0 ] && grep -q 'sl_flops: SL_TRACE: call 8 of the timed run' "$w/sim.err"; then
  ok
else
  bad "a call the trace does not hold did not stop the simulation (exit $rc)"; tail -3 "$w/sim.err"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
