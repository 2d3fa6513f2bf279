#!/usr/bin/env bash
# rev_exit_stats.sh BIN NP PNUMS ARGS... -- runs t_rev_exit ARGS on NP
# processes with BLACS_STATS=1: it must exit 0, and each process listed in
# PNUMS (comma-separated) print its statistics table exactly once, with its
# Cdgsum2d line; no other process prints one.  MPIEXEC as in run_tests.sh.
set -u
bin=$1; np=$2; pnums=$3; shift 3
out=$(BLACS_STATS=1 ${MPIEXEC:-mpiexec} -n "$np" "$bin/t_rev_exit" "$@" 2>&1); rc=$?
echo "$out"
ok=1
[ "$rc" = 0 ] || { echo "exit status $rc"; ok=0; }
want=$(tr ',' '\n' <<<"$pnums" | sort -n | tr '\n' ' ')
got=$(sed -nE 's/^BLACS statistics \(BLACS_STATS=1\) of pnum ([0-9]+)$/\1/p' <<<"$out" | sort -n | tr '\n' ' ')
[ "$got" = "$want" ] || { echo "tables printed by pnum: '$got', expected once each by '$want'"; ok=0; }
for p in ${pnums//,/ }; do
  n=$(grep -cE "^ +$p Cdgsum2d " <<<"$out")
  [ "$n" = 1 ] || { echo "pnum $p: $n Cdgsum2d line(s), expected 1"; ok=0; }
done
[ $ok = 1 ] && echo "statistics ok: one table each from pnum $want"
[ $ok = 1 ]
