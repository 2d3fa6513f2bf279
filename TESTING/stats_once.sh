#!/usr/bin/env bash
# stats_once.sh BIN NP [1] -- BLACS_STATS=1 with a program that ends with
# MPI_Finalize and never calls BLACS_EXIT (with 1: BLACS_EXIT(1) first, then
# MPI_Finalize): the statistics table must be printed exactly once, with one
# Cdgsum2d line per process.  MPIEXEC as in run_tests.sh.
set -u
bin=$1; np=$2; mode=${3:-0}
out=$(BLACS_STATS=1 ${MPIEXEC:-mpiexec} -n "$np" "$bin/t_review" noexit "$mode" 2>&1); rc=$?
tables=$(grep -c '^BLACS statistics' <<<"$out"); lines=$(grep -cE '^ +[0-9]+ Cdgsum2d +3 ' <<<"$out")
echo "$out"
echo "exit status $rc, $tables table(s), $lines Cdgsum2d line(s) for $np processes"
[ "$rc" = 0 ] && [ "$tables" = 1 ] && [ "$lines" = "$np" ]
