#!/usr/bin/env bash
# planted_faults.sh -- a test of the tester: builds the library once
# per planted fault (compiled in with -DBI_FAULT=<n>, hooks "#if BI_FAULT == n"
# in SRC/), runs xCbtest on the quick decks TESTING/faults/*.dat, and checks
# that the tester reports FAILED (and exits non-zero) for every fault, while
# the same decks pass on the library built without a fault.
#   1 off-by-one in the trapezoid shape          4 AMX returning the wrong owner on a tie
#   2 combine that skips one process             5 send that blocks until received
#   3 broadcast writing one element past the matrix
# Ends with "N passed, M failed[, K skipped]"; a fault whose hook is not in
# the sources, or a library that cannot be built, is skipped (exit 0).
# Environment: MPIEXEC, FAULTS="1 2 3 4 5", BT_TIMEOUT (s, watchdog per test, 20).
set -u
cd "$(dirname "$0")/.." || exit 0
MPIEXEC=${MPIEXEC:-$(command -v mpiexec.mpich || command -v mpiexec)}
export BT_TIMEOUT=${BT_TIMEOUT:-20}
names=("no fault" "off-by-one in the trapezoid shape" "combine that skips one process"
       "broadcast writing one element past the matrix" "AMX returning the wrong owner on a tie"
       "send that blocks until received")
pass=0; fail=0; skip=0

# one folder per fault and build variant (the MPI and sanitizer settings of
# the calling make reach the sub-make, so folders must not be shared)
fdir() { echo "build/fault$1-${VARIANT:-default}"; }

# A fault's build starts from a copy of the fault-free one (timestamps kept)
# without the objects of the sources that hold BI_FAULT hooks, so that only
# those are compiled again with -DBI_FAULT=<n> (a build from nothing took
# most of this test's time on a loaded machine); a hook in a header, which
# any object may expand, means a whole build.
build() {  # build <n>: library and xCbtest with -DBI_FAULT=<n> in $(fdir n)
  local b b0 f; b=$(fdir "$1"); b0=$(fdir 0)
  if [ "$1" != 0 ] && [ -d "$b0/obj" ] && ! grep -qs 'BI_FAULT' SRC/*.h FORTRAN/*.h TESTING/*.h; then
    rm -rf "$b" && cp -a "$b0" "$b" || return 1
    for f in $(grep -lsE 'BI_FAULT' SRC/*.c FORTRAN/*.c TESTING/*.c); do
      rm -f "$b/obj/${f%.c}.o"
    done
    rm -rf "$b/LIB" "$b/tests/xCbtest" "$b/run.log"
  fi
  mkdir -p "$b"
  make -s -j2 B="$b" LIBDIR="$b/LIB" CFLAGS="-O2 -g -DBI_FAULT=$1" "$b/tests/xCbtest" \
       > "$b/build.log" 2>&1
}

run() {    # run <n>: the tester on the quick decks; sets rc, log
  log=$(fdir "$1")/run.log
  timeout -k 5 300 $MPIEXEC -n 4 "$(fdir "$1")/tests/xCbtest" TESTING/faults > "$log" 2>&1
  rc=$?
}

if [ -z "$MPIEXEC" ] || ! build 0; then
  echo "planted_faults: cannot build the library or the tester (see $(fdir 0)/build.log): SKIPPED"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
run 0
if [ $rc = 0 ] && grep -qE '^[0-9]+ passed, 0 failed' "$log"; then
  echo "baseline (no fault): the decks pass: $(grep -E '^[0-9]+ passed' "$log")"
else
  echo "baseline (no fault): the tester does not pass on the library without faults (rc=$rc, $log);"
  echo "  fault detection would mean nothing: SKIPPED"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
for n in ${FAULTS:-1 2 3 4 5}; do
  what="fault $n (${names[$n]})"
  if ! grep -rqE "BI_FAULT *== *$n([^0-9]|$)" SRC FORTRAN 2>/dev/null; then
    echo "$what: no BI_FAULT == $n hook in SRC/: SKIPPED"; skip=$((skip+1)); continue
  fi
  if ! build "$n"; then
    echo "$what: cannot build ($(fdir "$n")/build.log): SKIPPED"; skip=$((skip+1)); continue
  fi
  run "$n"
  if [ $rc != 0 ] && grep -q 'FAILED' "$log"; then
    pass=$((pass+1))
    echo "$what: DETECTED (rc=$rc)"
    grep -E 'FAILED|did not finish' "$log" | grep -v '^ *FAILED TEST#' | head -4 | sed 's/^/    | /'
    grep -E '^ *FAILED TEST#' "$log" | head -2 | sed 's/^/    | /'
  else
    fail=$((fail+1))
    echo "$what: NOT DETECTED (rc=$rc, log $log)"
  fi
done
if [ $skip -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ $fail = 0 ]
