#!/usr/bin/env bash
# faults.sh MPI [BIN] -- faults across hosts, each timed from the fault to
# the job's outcome (TESTING/cluster/cluster.sh beds, t_faultloop's loop of
# broadcasts and combines with every value checked, 4 hosts x 1 rank).
#
#   MPI   mpich or ompi (cluster.sh run ... MPI)
#   BIN   the test programs (build/default/tests for mpich, build/ompi/tests)
#
#   (a) link cut: h2's link goes down ~2 s into the loop.  BLACS_DEBUG=2
#       (BLACS_HANG_TIMEOUT=10): the job must end with "BLACS HANG" naming
#       the routine, the peer and the message ID and a BLACS ERROR, within
#       HANG_TIMEOUT+10 s of the cut.  BLACS_DEBUG=0: what the MPI does is
#       recorded (cap CAP s, then the bed is torn down), not asserted.
#   (b) rank 1 (on h2) killed with SIGKILL ~2 s into the loop, at level 0
#       and 2: the job must end within KILL_BOUND s.
#   (c) h2's link held to 1mbit (tbf) for the whole run, level 0: the job
#       must finish with every value right; timed against an unthrottled run.
# Everywhere: no "WRONG" (a wrong value), and after a job that ended by
# itself no process may be left in the bed (leftovers are listed, killed
# and counted as a failure); at the end `cluster.sh leftovers` must show
# none of this script's beds.
#   Level 0 runs set BLACS_WAIT_WARN=20: a library with the long-wait
# warning ("BLACS WARNING ... still waiting") must show it in (a) at level 0
# before the cap (FAULTS_WANT_WARN=0: accept a library without it).
#   (a) at level 2 requires the BLACS error in time; whether the job then
# ends is the MPI's affair (a launcher cannot reach a cut-off host): the end
# and what is left on the cut-off host are recorded, not asserted.
#   Prints one line per test with the measured time and ends with
# "N passed, M failed"; exit 77 when beds cannot be made here.  Logs stay in
# FAULTS_LOGS (default /tmp/blacs-faults-MPI.PID).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
C="bash $here/cluster.sh"
MPI=${1:?usage: faults.sh mpich|ompi [BIN]}
case "$MPI" in mpich) BIN=${2:-$top/build/default/tests} ;; ompi) BIN=${2:-$top/build/ompi/tests} ;;
*) echo "faults.sh: MPI is mpich or ompi" >&2; exit 2 ;; esac
PROG=$BIN/t_faultloop
[ -x "$PROG" ] || { echo "faults.sh: no $PROG (make tests)" >&2; exit 2; }
HANG=${BLACS_HANG_TIMEOUT_FAULTS:-10}
CAP=${FAULTS_CAP:-60}          # level-0 runs after a link cut: torn down after CAP s
KILL_BOUND=${FAULTS_KILL_BOUND:-30}
RATE_CAP=${FAULTS_RATE_CAP:-120}
RATE_N=${FAULTS_RATE_N:-1000}  # doubles per message in (c)
RATE_I=${FAULTS_RATE_I:-80}    # iterations in (c)
LOGS=${FAULTS_LOGS:-/tmp/blacs-faults-$MPI.$$}
mkdir -p "$LOGS"
st=$($C check); [ $? = 77 ] && { echo "$st"; exit 77; }

pass=0 fail=0 beds=()
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
now() { date +%s.%N; }
dt() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
cleanup() { local b; for b in "${beds[@]}"; do $C down "$b" 2> /dev/null; done; }
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM HUP

# Open MPI does not pass the environment on by itself
fwd=""
[ "$MPI" = ompi ] && fwd="-x BLACS_DEBUG -x BLACS_HANG_TIMEOUT -x BLACS_WAIT_WARN"

bed=""
newbed() {
  bed="flt$$_$1"
  beds+=("$bed")
  $C up "$bed" 4 || { echo "faults.sh: cannot make bed $bed" >&2; exit 2; }
}
job_pid="" job_log=""
# start LOG LEVEL ARGS...: the job in the background, BLACS_DEBUG=LEVEL
start() {
  job_log=$1 lvl=$2; shift 2
  BLACS_DEBUG=$lvl BLACS_HANG_TIMEOUT=$HANG BLACS_WAIT_WARN=20 CLUSTER_MPIEXEC_FLAGS="$fwd" \
    $C run "$bed" "$MPI" 1 -n 4 "$PROG" "$@" > "$job_log" 2>&1 &
  job_pid=$!
}
# waitlog PATTERN SECONDS: until the job's log shows PATTERN
waitlog() {
  local k
  for ((k = 0; k < $2 * 10; k++)); do
    grep -qE "$1" "$job_log" 2> /dev/null && return 0
    kill -0 "$job_pid" 2> /dev/null || return 1
    sleep 0.1
  done
  return 1
}
# waitend SECONDS: until the job ends; sets ended=1 (and rc) or 0
waitend() {
  local k
  ended=0 rc="" errat=""
  for ((k = 0; k < $1 * 10; k++)); do
    [ -z "$errat" ] && grep -q "BLACS ERROR" "$job_log" 2> /dev/null && errat=$(now)
    if ! kill -0 "$job_pid" 2> /dev/null; then { wait "$job_pid"; } 2> /dev/null; rc=$?; ended=1; return; fi
    sleep 0.1
  done
}
# the first lines that say why the job ended (quoted in the report)
why() {
  grep -E "BLACS (HANG|ERROR|WARNING)|hang detected|waiting in:|  for: |killed|Killed|signal|terminated|abort|ABORT|error|Error|failed|WRONG" "$job_log" |
    grep -v "^t_faultloop: rank" | head -${1:-4} | cut -c1-200 | sed 's/^/      | /'
}
# after a job that ended by itself: no process may be left in the bed
noleft() {
  sleep 3
  local p; p=$($C pids "$bed" | tr '\n' ' ')
  if [ -n "${p// /}" ]; then
    local q d=""
    for q in $p; do d+=" $q:$(ip netns identify "$q" 2> /dev/null | sed 's/.*-//'):$(cat /proc/$q/comm 2> /dev/null)"; done
    bad "$1: processes left in the bed after the job ended (pid:host:name):$d (killed)"
    kill -9 $p 2> /dev/null
  else
    ok "$1: no process left in the bed"
  fi
}
nowrong() { if grep -q WRONG "$job_log"; then bad "$1: a WRONG value ($job_log)"; else ok "$1: no wrong value"; fi; }
teardown() { $C down "$bed"; { wait "$job_pid"; } 2> /dev/null; }

echo "faults.sh: $MPI, 4 hosts x 1 rank, $PROG, logs in $LOGS"

# FAULTS_ONLY=a, b, c or a combination (abc, the default) picks the tests
only=${FAULTS_ONLY:-abc}
# ---- (a) link cut --------------------------------------------------------
[[ $only == *a* ]] &&
# 2:d  level 2, the library's topologies (MPI collectives: no peer to name)
# 2:i  level 2, increasing rings (point to point: the peer is named)
# 0:d  level 0
for spec in 2:d 2:i 0:d; do
  lvl=${spec%:*} top=${spec#*:}
  name="a_linkcut_debug$lvl"; [ "$top" = i ] && name+="_ring"
  newbed "a$lvl$top"
  if [ "$top" = i ]; then start "$LOGS/$name.log" $lvl -n 1000 -i 100000000 -p 20 -t i
  else start "$LOGS/$name.log" $lvl -n 1000 -i 100000000 -p 20; fi
  if ! waitlog "iteration" 30; then bad "$name: the loop did not start"; why; teardown; continue; fi
  sleep 2
  $C link "$bed" h2 down; t0=$(now)
  if [ $lvl = 2 ]; then waitend $((HANG + 10 + 20)); else waitend "$CAP"; fi
  t1=$(now); el=$(dt "$t0" "$t1")
  nowrong "$name"
  [ -n "$errat" ] && echo "TIME $name: BLACS ERROR printed $(dt "$t0" "$errat") s after the cut"
  if [ $ended = 1 ]; then
    echo "TIME $name: job ended $el s after the cut (exit $rc)"; why 6
  else
    echo "TIME $name: job still running $el s after the cut: torn down (cap)"; why 6
    [ -z "$(why 1)" ] && echo "      (no message at all)"
  fi
  if [ $lvl = 2 ]; then
    # required: the BLACS error within HANG+10 s of the cut.  Ending the
    # job is then the MPI's (MPI_Abort): a launcher that cannot reach the
    # cut-off host cannot end its processes (recorded below, not asserted)
    if [ -n "$errat" ] && awk -v e="$(dt "$t0" "$errat")" -v l=$((HANG + 10)) 'BEGIN { exit !(e < l) }'; then
      ok "$name: BLACS ERROR $(dt "$t0" "$errat") s after the cut (< $((HANG + 10)) s)"
    else bad "$name: no BLACS ERROR within $((HANG + 10)) s of the cut"; fi
    if grep -q "BLACS HANG" "$job_log" && grep -qE "waiting in: [A-Za-z]" "$job_log" &&
      grep -qE "for: (a message from (rank [0-9]+ of the grid|any process), message ID -?[0-9]+|the other processes of the scope in an MPI collective)" "$job_log" &&
      grep -q "BLACS ERROR" "$job_log"; then
      ok "$name: BLACS HANG names the routine, the peer and the message ID; BLACS ERROR"
    else bad "$name: no BLACS HANG/BLACS ERROR naming routine, peer and message ID"; fi
    if [ "$top" = i ]; then
      if grep -qE "for: a message from rank [0-9]+ of the grid, message ID [0-9]+" "$job_log"; then
        ok "$name: a point-to-point wait names the grid rank it waits for"
      else bad "$name: no wait naming a grid rank (ring topology)"; fi
    fi
  else
    if grep -q "BLACS WARNING" "$job_log"; then
      echo "      long-wait warning seen: $(grep -m1 'BLACS WARNING' "$job_log" | cut -c1-160)"
    elif [ "${FAULTS_WANT_WARN:-1}" = 1 ]; then bad "$name: no BLACS WARNING (long wait) within the cap"
    else echo "      no long-wait warning (BLACS_WAIT_WARN not in this library): accepted"; fi
  fi
  if [ $ended = 1 ]; then
    p=$($C pids "$bed" | tr '\n' ' ')
    if [ -n "${p// /}" ]; then echo "      left in the bed after the job ended (the cut-off host's, unreachable): $(for q in $p; do printf '%s:%s ' "$q" "$(ip netns identify "$q" 2> /dev/null | sed 's/.*-//')"; done)"
    else echo "      nothing left in the bed"; fi
  fi
  teardown
done

# ---- (b) a rank killed with SIGKILL in the middle of the loop --------------
[[ $only == *b* ]] &&
for lvl in 0 2; do
  name="b_sigkill_debug$lvl"
  newbed "b$lvl"
  start "$LOGS/$name.log" $lvl -n 1000 -i 100000000 -p 20
  if ! waitlog "iteration" 30 || ! waitlog "rank 1 pid" 5; then bad "$name: the loop did not start"; why; teardown; continue; fi
  victim=$(sed -n 's/^t_faultloop: rank 1 pid \([0-9]*\) .*/\1/p' "$job_log" | head -1)
  sleep 2
  kill -9 "$victim"; t0=$(now)
  waitend "$KILL_BOUND"
  t1=$(now); el=$(dt "$t0" "$t1")
  nowrong "$name"
  if [ $ended = 1 ]; then
    echo "TIME $name: job ended $el s after the kill of rank 1 (pid $victim, h2) (exit $rc)"; why 6
    ok "$name: the job ended ($el s < $KILL_BOUND s)"
    noleft "$name"
  else
    echo "TIME $name: job still running $el s after the kill: torn down"; why 6
    [ -z "$(why 1)" ] && echo "      (no message at all)"
    bad "$name: the job did not end within $KILL_BOUND s of the kill"
  fi
  teardown
done

# ---- (c) one host held to a trickle ----------------------------------------
[[ $only == *c* ]] &&
for rate in none 1mbit; do
  name="c_rate_$rate"
  newbed "c$rate"
  [ $rate != none ] && $C link "$bed" h2 rate $rate
  t0=$(now)
  start "$LOGS/$name.log" 0 -n "$RATE_N" -i "$RATE_I" -p 10
  waitlog "t_faultloop: done" "$RATE_CAP"
  t1=$(now); el=$(dt "$t0" "$t1")
  waitend 20   # a job that has finished its loop gets 20 s more to end
  nowrong "$name"
  done_line=$(grep -m1 "t_faultloop: done" "$job_log")
  if [ $ended = 1 ] && [ "$rc" = 0 ] && [ -n "$done_line" ]; then
    ok "$name: finished, every value right"
    echo "TIME $name: $el s for $RATE_I iterations of $RATE_N doubles ($done_line)"
    noleft "$name"
  elif [ -n "$done_line" ]; then
    bad "$name: the loop finished (every value right) but the job did not end 20 s later"
    echo "TIME $name: loop done $el s after the start ($done_line); job not ended 20 s later: torn down"; why 6
  else
    bad "$name: not finished within $RATE_CAP s (ended=$ended rc=$rc)"; why 6
  fi
  teardown
done

left=$($C leftovers | grep -E "^blacs-flt$$_" || true)
if [ -n "$left" ]; then bad "beds left: $left"; else ok "no bed of this run left (cluster.sh leftovers)"; fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
