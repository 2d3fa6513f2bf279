#!/usr/bin/env bash
# cluster_test.sh -- make cluster-test: TESTING/cluster/cluster.list through
# the test runner, its jobs spread over hosts made by cluster.sh (network
# namespaces, real TCP), for each MPI (MPICH; Open MPI when CLUSTER_OMPI=1)
# and each layout (4 hosts x 1 rank; 2 hosts x 2 ranks), in one bed of 4
# hosts per MPI.  After each run no process may be left in the bed, after
# each bed no namespace of it.  Ends with "N passed, M failed" summed over
# the runs; exits non-zero on any failure.
#   Environment: CLUSTER_OMPI, CLUSTER_MPIS (e.g. "ompi": only these), CLUSTER_PPN (layouts as ranks per host,
#   default "1 2"), TEST_TIMEOUT (s per test, default 600: the message of more than
#   2^31 bytes took 191 s over TCP between two ranks of one host), TESTS (a regex).
set -u
here=TESTING/cluster
export TEST_TIMEOUT=${TEST_TIMEOUT:-600}
cs="bash $here/cluster.sh"
if [ "${1:-}" = --inside ]; then
  # in the bed: one run of the list per layout; counts to $4
  mpi=$2 bin=$3 lib=$4 counts=$5
  p=0 f=0 s=0
  for ppn in ${CLUSTER_PPN:-1 2}; do
    echo "== $mpi, $((4 / ppn)) hosts x $ppn ranks (bed $CLUSTER)"
    t0=$SECONDS
    out=$counts.out
    BIN=$bin LIBDIR=$lib VARIANT=$( [ "$mpi" = ompi ] && echo ompi || echo default) \
      LOGDIR=$bin/logs/cluster-$mpi-ppn$ppn MPIEXEC="$cs run $CLUSTER $mpi $ppn" \
      bash TESTING/run_tests.sh $here/cluster.list | tee "$out"
    out=$(tail -1 "$out"); rm -f "$counts.out"
    line=$(grep -oE '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?' <<< "$out")
    if [ -z "$line" ]; then f=$((f + 1)); echo "no result line from the runner"; else
      read -r a _ b _ c _ <<< "${line//,/}"; p=$((p + a)); f=$((f + b)); s=$((s + ${c:-0})); fi
    # nothing of the jobs may outlive them (give exiting processes a moment)
    left=""
    for k in $(seq 20); do left=$($cs pids "$CLUSTER" | tr '\n' ' '); [ -z "${left// /}" ] && break; sleep 0.5; done
    if [ -n "${left// /}" ]; then
      echo "FAILED: processes left in bed $CLUSTER after the run: $left"
      ps -o pid,cmd -p "${left// /,}" 2> /dev/null | sed 's/^/    | /'
      f=$((f + 1))
    fi
    echo "== $mpi, $((4 / ppn)) hosts x $ppn ranks: ${line:-no result} ($((SECONDS - t0)) s)"
  done
  echo "$p $f $s" > "$counts"
  exit 0
fi

why=$($cs check) || { echo "$why"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
mpis=mpich; [ -n "${CLUSTER_OMPI:-}" ] && mpis+=" ompi"; mpis=${CLUSTER_MPIS:-$mpis}
P=0 F=0 S=0
summary=()
counts=$(mktemp); trap 'rm -f "$counts" "$counts.out"' EXIT
for mpi in $mpis; do
  bin=build/default/tests lib=LIB
  [ "$mpi" = ompi ] && bin=build/ompi/tests lib=LIB/ompi
  t0=$SECONDS
  echo "0 1 0" > "$counts"   # a bed that never ran counts as a failure
  $cs with 4 bash "$0" --inside "$mpi" "$bin" "$lib" "$counts" &
  bed=b$!                    # cluster.sh with names its bed after its process id
  wait $!
  read -r a b c < "$counts"
  left=$($cs leftovers | grep -E "^blacs-$bed-" | tr '\n' ' ')
  if [ -n "$left" ]; then echo "FAILED: namespaces left after bed $bed: $left"; b=$((b + 1)); fi
  P=$((P + a)); F=$((F + b)); S=$((S + c))
  summary+=("$mpi: $a passed, $b failed, $c skipped in $((SECONDS - t0)) s")
done
printf '%s\n' "${summary[@]}"
if [ $S -gt 0 ]; then echo "$P passed, $F failed, $S skipped"; else echo "$P passed, $F failed"; fi
[ $F = 0 ]
