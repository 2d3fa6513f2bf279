#!/usr/bin/env bash
# bench_smoke.sh TDIR -- `make bench` at tiny sizes (n = 1, 10; one run of
# each binary, one round, no SMPI table): the table is printed for every
# operation, every timed operation's result was checked right (no WRONG),
# and bench.csv has the `make timing` columns with one row per operation,
# length and peer (mpi; refblacs when the reference binary is built).
# Ends with "N passed, M failed".  Environment: MPIEXEC (mpiexec).
set -u
TDIR=$1
MPIEXEC=${MPIEXEC:-mpiexec}
tmp=$(mktemp -d /tmp/bench_smoke.XXXXXX)
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "check failed: $1"; fi; }

BENCH_RUNS=1 BENCH_ROUNDS=1 BENCH_NMAX=10 LATE_RUNS=1 LATE_TRIALS=1 LATE_COMPUTE=5 LATE_NMAX=10000 TDIR=$TDIR OUT=$tmp SIMDRV= MPIEXEC=$MPIEXEC \
  timeout -k 5 120 bash TIMING/bench.sh > "$tmp/out.txt" 2>&1
ok "bench.sh exit status" "[ $? = 0 ]"
REF=0
[ -x "$TDIR/ref/bench" ] && REF=1
ok "load average printed" "grep -q 'load average [0-9.]* [0-9.]* [0-9.]*' '$tmp/out.txt'"
ok "no wrong result" "! grep -q WRONG '$tmp/out.txt'"
ok "no failed run" "! grep -q 'failed' '$tmp/out.txt'"
ok "CSV header" "[ \"\$(head -1 '$tmp/bench.csv')\" = 'op,top,scope,np,n,ours_us,peer,peer_us,ratio' ]"
declare -A title=([tc]="^T_c echo" [tcbuf]="^T_c floor" [bcast]="^broadcast DGEBS2D" [gsum]="^DGSUM2D" [gamx]="^DGAMX2D" [igamx]="^IGAMX2D")
for op in tc tcbuf bcast gsum gamx igamx; do
  ok "table of $op" "grep -A4 '${title[$op]}' '$tmp/out.txt' | grep -Eq '^ +10 +[0-9.]+ +[0-9.]+'"
  for n in 1 10; do
    ok "$op n=$n vs MPI" "grep -Eq '^$op,[^,]+,(p2p|all),2,$n,[0-9.]+,mpi,[0-9.]+,[0-9.e+-]+\$' '$tmp/bench.csv'"
    if [ $REF = 1 ]; then
      ok "$op n=$n vs reference" "grep -Eq '^$op,[^,]+,(p2p|all),2,$n,[0-9.]+,refblacs,[0-9.]+,' '$tmp/bench.csv'"
    fi
  done
done
ok "late-source table, ours" "grep -Eq '^  send +10000 late +[0-9]+ ' '$tmp/out.txt'"
ok "late-source table, every operation" "[ \$(grep -cE '^  (bcast.[ 1SI].|send) +10000 (ontime|late) ' '$tmp/out.txt') = 10 ]"
ok "twelve rows per peer" "[ \$(grep -c ',mpi,' '$tmp/bench.csv') = 12 ]"
[ $fail = 0 ] || cat "$tmp/out.txt"
rm -rf "$tmp"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
