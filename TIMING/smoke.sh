#!/usr/bin/env bash
# smoke.sh TDIR FORMAT_CHECKER WHICH -- quick runs of one timer (WHICH: tc,
# ts, tbs, tg or tmo) on 2 processes with tiny sizes, against our library,
# MPI's primitives and (when built) the reference BLACS; each output is
# checked by TESTING/t_timing_format.  Ends with "N passed, M failed[, K skipped]".
# Environment: MPIEXEC (mpiexec), SMOKE_TIMEOUT (60 s per run).
set -u
TDIR=$1 FMT=$2 WHICH=$3
MPIEXEC=${MPIEXEC:-mpiexec}
TO=${SMOKE_TIMEOUT:-60}
tmp=$(mktemp -d /tmp/timing_smoke.XXXXXX)
pass=0 fail=0 skip=0
REF=0
[ -x "$TDIR/ref/Tc" ] && REF=1

check() { # check NAME NLENGTHS SYSTEM CMD... : run CMD on 2 processes, check its stdout
  local name=$1 nlen=$2 sys=$3
  shift 3
  local out=$tmp/$name.out
  if ! timeout -k 5 "$TO" $MPIEXEC -n 2 "$@" > "$out" 2> "$tmp/$name.err"; then
    echo "FAILED to run: $*"
    cat "$tmp/$name.err"
    fail=$((fail + 1))
    return
  fi
  local line
  line=$("$FMT" "$WHICH" "$out" "$nlen" "$sys" 2>&1 | tee "$tmp/$name.chk" | tail -1)
  if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    pass=$((pass + BASH_REMATCH[1])) fail=$((fail + BASH_REMATCH[2]))
    [ "${BASH_REMATCH[2]}" = 0 ] || { echo "format check failed: $*"; cat "$tmp/$name.chk" "$out"; }
  else
    echo "format checker broke on: $*"
    fail=$((fail + 1))
  fi
}
skipref() { [ $REF = 1 ] || { skip=$((skip + 1)); echo "skipped (no reference BLACS): $*"; return 1; }; }

case $WHICH in
tc)
  check tc_ours 3 "ours BLACS" "$TDIR/ours/Tc" 0 64 32 3 0 1 1 1
  check tc_mpi 3 primitive "$TDIR/ours/Tc" p 0 64 32 3 0 1 1 1
  check tc_double 5 "ours BLACS" "$TDIR/ours/Tc" b 0 8 0 2 0 1 1 1          # 0 1 2 4 8
  check tc_defaults 1 "ours BLACS" "$TDIR/ours/Tc"                          # one length, 1024
  check tc_pow2_recv 3 "ours BLACS" "$TDIR/ours/Tc" 0 32 16 2 1 0 1 5       # receivers 0, (1: sender, skipped)
  skipref ref Tc && check tc_ref 3 "reference BLACS" "$TDIR/ref/Tc" 0 64 32 3 0 1 1 1
  ;;
ts)
  check ts_ours 3 "ours BLACS" "$TDIR/ours/Ts" stdout 3 0 64 32 0 1
  check ts_mpi 3 primitive "$TDIR/ours/Ts" p stdout 3 0 64 32 0 1
  check ts_defaults 11 "ours BLACS" "$TDIR/ours/Ts"                         # 0..100 step 10
  check ts_twice 2 "ours BLACS" "$TDIR/ours/Ts" stdout 4 0 8 8 1 0 0        # receiver named twice
  skipref ref Ts && check ts_ref 3 "reference BLACS" "$TDIR/ref/Ts" stdout 3 0 64 32 0 1
  ;;
tbs)
  mapfile -t tops < <("$TDIR/tanalyze" -letters bcast)
  for t in "${tops[@]}"; do
    check "tbs_ours_${t/ /sp}" 3 "ours BLACS" "$TDIR/ours/Tbs" "$t" 0 20 10 2 0
  done
  check tbs_src1 3 "ours BLACS" "$TDIR/ours/Tbs" H 0 20 10 2 1
  check tbs_mpi 3 primitive "$TDIR/ours/Tbs" p 0 20 10 2 1
  check tbs_double 4 "ours BLACS" "$TDIR/ours/Tbs" I 1 8 0 2 0             # 1 2 4 8
  if skipref ref Tbs; then
    for t in " " I H 1; do check "tbs_ref_${t/ /sp}" 3 "reference BLACS" "$TDIR/ref/Tbs" "$t" 0 20 10 2 0; done
  fi
  ;;
tg)
  mapfile -t tops < <("$TDIR/tanalyze" -letters comb)
  for t in "${tops[@]}"; do
    check "tg_ours_${t/ /sp}" 3 "ours BLACS" "$TDIR/ours/Tg" + "$t" 0 20 10 2 -1
  done
  check tg_one 3 "ours BLACS" "$TDIR/ours/Tg" + 1 0 20 10 2 1
  check tg_amx 3 "ours BLACS" "$TDIR/ours/Tg" '>' ' ' 0 20 10 2 -1
  check tg_amn 3 "ours BLACS" "$TDIR/ours/Tg" '<' 1 0 20 10 2 0
  check tg_mpi 3 primitive "$TDIR/ours/Tg" + p 0 20 10 2 -1
  check tg_mpi_max 3 primitive "$TDIR/ours/Tg" '>' p 0 20 10 2 0
  if skipref ref Tg; then
    for t in " " 1 H; do check "tg_ref_${t/ /sp}" 3 "reference BLACS" "$TDIR/ref/Tg" + "$t" 0 20 10 2 -1; done
    check tg_ref_amx 3 "reference BLACS" "$TDIR/ref/Tg" '>' 1 0 20 10 2 0
  fi
  ;;
tmo)
  if timeout "$TO" "$TDIR/Tmo" 0 64 32 2 > "$tmp/tmo.out"; then
    line=$("$FMT" tmo "$tmp/tmo.out" 3 | tail -1)
    [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]] && pass=$((pass + BASH_REMATCH[1])) fail=$((fail + BASH_REMATCH[2]))
  else
    fail=$((fail + 1))
  fi
  ;;
analyze)
  # every timer's output through tanalyze: the ratio CSV has rows for each
  # operation and peer
  r=$tmp/raw
  mkdir -p "$r"
  run() { local o=$1; shift; timeout -k 5 "$TO" $MPIEXEC -n 2 "$@" > "$r/$o.txt" 2> /dev/null || fail=$((fail + 1)); }
  timeout "$TO" "$TDIR/Tmo" 0 64 32 2 > "$r/tmo.txt" || fail=$((fail + 1))
  libs=(ours)
  [ $REF = 1 ] && libs+=(ref)
  for l in "${libs[@]}"; do
    for s in p b; do
      run "tc_${l}_$s" "$TDIR/$l/Tc" $s 0 64 32 3 0 1 1 1
      run "ts_${l}_$s" "$TDIR/$l/Ts" $s stdout 3 0 64 32 0 1
    done
    run "tbs_${l}_sp" "$TDIR/$l/Tbs" ' ' 0 20 10 2 0
    run "tbs_${l}_1" "$TDIR/$l/Tbs" 1 0 20 10 2 0
    run "tg_${l}_sp" "$TDIR/$l/Tg" + ' ' 0 20 10 2 -1
    run "tg_${l}_H" "$TDIR/$l/Tg" + H 0 20 10 2 -1
  done
  run tbs_mpi "$TDIR/ours/Tbs" p 0 20 10 2 0
  run tg_mpi "$TDIR/ours/Tg" + p 0 20 10 2 -1
  if "$TDIR/tanalyze" -o "$tmp" "$r"/*.txt > "$tmp/tables.txt" 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); cat "$tmp/tables.txt"; fi
  peers=(mpi)
  [ $REF = 1 ] && peers+=(refblacs)
  for op in 'tc,-,p2p' 'ts,-,p2p' 'bcast," ",all' 'bcast,1,all' 'gsum," ",all' 'gsum,H,all'; do
    for p in "${peers[@]}"; do
      if grep -q "^$op,2,[0-9]*,[0-9.]*,$p," "$tmp/bench.csv"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "bench.csv has no row $op ... $p"; fi
    done
  done
  for t in 5 6 7 8 11 12 14 15 16; do
    if grep -q "^Table $t:" "$tmp/tables.txt"; then pass=$((pass + 1)); else
      fail=$((fail + 1)); echo "no Table $t in the analysis"; fi
  done
  ;;
*)
  echo "smoke.sh: unknown timer $WHICH"
  fail=$((fail + 1))
  ;;
esac
rm -rf "$tmp"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
