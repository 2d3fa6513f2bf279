#!/usr/bin/env bash
# stats_once.sh BIN NP [1] -- BLACS_STATS=1 with a program that ends with
# MPI_Finalize and never calls BLACS_EXIT (with 1: BLACS_EXIT(1) first, then
# MPI_Finalize): each process must print its statistics table exactly once,
# with its one Cdgsum2d line.  MPIEXEC as in run_tests.sh.
set -u
bin=$1; np=$2; mode=${3:-0}
out=$(BLACS_STATS=1 ${MPIEXEC:-mpiexec} -n "$np" "$bin/t_review" noexit "$mode" 2>&1); rc=$?
tables=$(grep -c '^BLACS statistics' <<<"$out"); lines=$(grep -cE '^ +[0-9]+ Cdgsum2d +3 ' <<<"$out")
once=$(sed -nE 's/^BLACS statistics \(BLACS_STATS=1\) of pnum ([0-9]+)$/\1/p' <<<"$out" | sort -n | uniq | wc -l)
echo "$out"
echo "exit status $rc, $tables table(s) from $once process(es), $lines Cdgsum2d line(s) for $np processes"
[ "$rc" = 0 ] && [ "$tables" = "$np" ] && [ "$once" = "$np" ] && [ "$lines" = "$np" ]
