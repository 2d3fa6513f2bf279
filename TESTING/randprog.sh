#!/usr/bin/env bash
# randprog.sh -- runs random valid BLACS programs (TESTING/t_randprog.c) and
# checks every result; a failing program is shrunk to a small one and
# written out as a standalone C reproducer.
#
#   randprog.sh seeds FIRST COUNT [SECONDS]   seeds FIRST.. FIRST+COUNT-1 (stops
#                                             early when SECONDS have passed)
#   randprog.sh fuzz SECONDS                  fresh seeds for SECONDS
#   randprog.sh one SEED                      one seed, shrunk if it fails
#   randprog.sh file PROGRAM                  one program file as it is
#
# Environment: BIN (test binaries), MPIEXEC, RANDPROG_OUT (where failing
# programs and reproducers go, default $BIN/randprog), RANDPROG_WATCHDOG
# (seconds a process may wait, default 60), RANDPROG_SHRINK (seconds spent
# shrinking one failure, default 300; 0: no shrinking), RANDPROG_NOPS (ops per
# program, default random 20-120), RANDPROG_REF=0 to skip the reference
# BLACS's second opinion, RANDPROG_GEN another build of t_randprog (make
# fuzz-lazy's; LAZYMPI_SLOW=random: each program's late destination is its
# seed mod its number of processes).
# Ends with "N passed, M failed": N programs that finished with every value
# right (or, where processes were given different values of a setting that
# must agree, that the library rejected by name), M that did not.
set -u
BIN=${BIN:-build/default/tests}
MPIEXEC=${MPIEXEC:-mpiexec}
OUT=${RANDPROG_OUT:-$BIN/randprog}
WD=${RANDPROG_WATCHDOG:-60}
SHRINK=${RANDPROG_SHRINK:-300}
GEN=${RANDPROG_GEN:-$BIN/t_randprog}
REF=$BIN/t_randprog_ref
[ "${RANDPROG_REF:-1}" = 0 ] && REF=/nonexistent
mkdir -p "$OUT"
# this run's working files: another randprog.sh on the same $OUT (make
# fuzz while make test runs a program file) must not read this one's log
LAST="$OUT/last.$$.log"
trap 'rm -f "$LAST" "$OUT/shrink.$$.cur" "$OUT/shrink.$$.cand"' EXIT
pass=0; fail=0; nprog=0; nops=0; ref_runs=0; ref_agree=0

# run PROGRAM [BINARY] -> sets cls (ok, rejected, WRONG, HANG, ERROR, CRASH)
# and log; the log of the last run is in $LAST
run() {
  local prog=$1 bin=${2:-$GEN} np dis rc lazy=
  read -r np _ dis < <($GEN info "$prog")
  if [ "${LAZYMPI_SLOW:-}" = random ]; then # the late destination: the seed's rank mod np
    local sd; sd=$(sed -n 's/^seed \([0-9]*\)$/\1/p' "$prog")
    lazy="LAZYMPI_SLOW=$(( ${sd:-0} % np ))"
  fi
  env $lazy RANDPROG_WATCHDOG=$WD timeout -k 5 $((WD + 30)) $MPIEXEC -n "$np" "$bin" run "$prog" > "$LAST" 2>&1 </dev/null
  rc=$?
  local oks; oks=$(grep -c '^randprog: rank [0-9]* ok' "$LAST")
  local ab; ab=$(sed -n 's/^abort [0-9]* \([0-9]*\)$/\1/p' "$prog")
  if [ -n "$ab" ]; then
    # a program that ends in BLACS_ABORT: every check passed, then the job
    # ended (not the watchdog) with a non-zero status and the abort message
    if [ $rc != 0 ] && [ "$oks" = "$np" ] && ! grep -qE 'randprog: rank [0-9]*: (WRONG|HANG)|hang detected' "$LAST" &&
       grep -q "killed other procs, exiting with error #$ab\." "$LAST"; then cls=ok; return; fi
    if [ $rc = 0 ]; then cls=NOABORT; return; fi
  elif [ $rc = 0 ] && [ "$oks" = "$np" ]; then cls=ok; return; fi
  if [ -n "$dis" ]; then
    for v in $dis; do
      if grep -q "BLACS ERROR.*$v" "$LAST"; then cls=rejected; return; fi
    done
  fi
  if grep -q 'WRONG' "$LAST"; then cls=WRONG
  elif grep -qE 'HANG|hang detected' "$LAST" || [ $rc = 124 ] || [ $rc = 137 ]; then cls=HANG
  elif grep -q 'BLACS ERROR' "$LAST"; then cls=ERROR
  else cls=CRASH; fi
}

# shrink PROGRAM CLASS: keeps every simplification that fails the same way
shrink() {
  local prog=$1 want=$2 k=0 t0=$SECONDS r progress=0
  local cur="$OUT/shrink.$$.cur" cand="$OUT/shrink.$$.cand"
  cp "$prog" "$cur"
  local save_wd=$WD
  [ "$want" = HANG ] && WD=6      # a hang costs the watchdog's time per try
  while [ $((SECONDS - t0)) -lt "$SHRINK" ]; do
    $GEN reduce "$cur" $k > "$cand"; r=$?
    if [ $r = 1 ]; then            # end of a pass: another while it helps
      [ $progress = 0 ] && break
      progress=0; k=0; continue
    fi
    if [ $r = 3 ]; then k=$((k + 1)); continue; fi
    run "$cand"
    if [ "$cls" = "$want" ]; then cp "$cand" "$cur"; progress=1; else k=$((k + 1)); fi
  done
  WD=$save_wd
  cp "$cur" "$prog.min"
}

one() { # one program file: run, second opinion, shrink
  local prog=$1 label=$2
  local info; info=$($GEN info "$prog"); local n=${info#* }; n=${n%% *}
  nprog=$((nprog + 1)); nops=$((nops + n))
  run "$prog"
  local ours=$cls
  cp "$LAST" "$prog.log"
  if [ "$ours" = ok ] || [ "$ours" = rejected ]; then
    pass=$((pass + 1))
    rm -f "$prog" "$prog.log"
    return
  fi
  fail=$((fail + 1))
  local refnote=""
  if [ -x "$REF" ] && grep -q '^portable 1' "$prog"; then
    run "$prog" "$REF"; ref_runs=$((ref_runs + 1))
    refnote=" (reference BLACS: $cls)"
  fi
  echo "randprog: $label: $ours$refnote after $((SECONDS - t0)) s; program $prog, log $prog.log"
  grep -m3 -E 'WRONG|HANG|BLACS ERROR|hang detected' "$prog.log" | sed 's/^/    /'
  if [ "$SHRINK" != 0 ]; then
    shrink "$prog" "$ours"
    $GEN emit "$prog.min" > "$prog.repro.c"
    run "$prog.min"
    echo "    shrunk to $($GEN info "$prog.min" | cut -d' ' -f2) operations ($cls): $prog.min, reproducer $prog.repro.c"
    grep -m2 -E 'WRONG|HANG|BLACS ERROR|hang detected' "$LAST" | sed 's/^/    /'
  fi
}

# every fourth program sticks to what the reference BLACS has, so that a
# failure there gets its second opinion
gen() { # SEED FILE
  local port=""; [ $(($1 % 4)) = 0 ] && port=portable
  $GEN gen "$1" 0 "${RANDPROG_NOPS:-0}" $port > "$2"
}

mode=${1:-}; shift || true
t0=$SECONDS
case "$mode" in
  seeds)
    first=$1 count=$2 limit=${3:-0}
    for ((s = first; s < first + count; s++)); do
      [ "$limit" != 0 ] && [ $((SECONDS - t0)) -ge "$limit" ] && break
      gen $s "$OUT/seed$s.prog" && one "$OUT/seed$s.prog" "seed $s"
    done ;;
  fuzz)
    limit=$1
    s=$(( ($(date +%s%N) / 1000) % 1000000000 ))
    while [ $((SECONDS - t0)) -lt "$limit" ]; do
      gen $s "$OUT/seed$s.prog" && one "$OUT/seed$s.prog" "seed $s"
      s=$((s + 7919))
    done ;;
  one) gen "$1" "$OUT/seed$1.prog" && one "$OUT/seed$1.prog" "seed $1" ;;
  file) f="$OUT/$(basename "$1" .prog).$$.prog"; cp "$1" "$f"; one "$f" "$1" ;;
  *) echo "usage: randprog.sh seeds FIRST COUNT [SECONDS] | fuzz SECONDS | one SEED | file PROGRAM" >&2; exit 2 ;;
esac
echo "randprog: $nprog programs, $nops operations, $fail failed, in $((SECONDS - t0)) s"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
