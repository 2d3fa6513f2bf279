#!/usr/bin/env bash
# sl_real_check.sh -- checks TIMING/sim/sl_real_table.py (the simulated/real
# lines of make bench-scalapack) on a made-up real.csv:
#   - a routine whose every real run has its own simulation (the column
#     round) gets the median of the pairs' ratios, not the ratio of the
#     medians (here 1.00 against 1.10);
#   - one whose simulation is not paired (one simulated run for three real
#     ones) gets the median simulated over the median real time;
#   - a run whose residual is not small prints an error and no ratio;
#   - the count of ratios in the band, and ours/reference of the medians.
set -u
if ! command -v python3 > /dev/null; then
  echo "sl_real_check: skipped: no python3 (make bench-scalapack needs it too)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
{
  echo "setting,grid,lib,world,routine,N,seconds,residual,round"
  for l in ref ours; do
    echo "shm,1x2,$l,real,getrf,64,1.0,0.01,1"
    echo "shm,1x2,$l,real,getrf,64,2.0,0.01,2"
    echo "shm,1x2,$l,real,getrf,64,1.2,0.01,3"
    echo "shm,1x2,$l,sim,getrf,64,0.9,0.01,1"
    echo "shm,1x2,$l,sim,getrf,64,2.0,0.01,2"
    echo "shm,1x2,$l,sim,getrf,64,1.32,0.01,3"
  done
  for r in 1 2 3; do echo "shm,1x2,ref,real,potrf,64,$r.0,0.01,$r"; done
  echo "shm,1x2,ref,sim,potrf,64,1.6,0.01,1"
  echo "shm,1x2,ref,real,geqrf,64,1.0,500,1"
  echo "shm,1x2,ref,sim,geqrf,64,1.0,0.01,1"
} > "$d/real.csv"
python3 TIMING/sim/sl_real_table.py "$d/real.csv" > "$d/out.txt" 2>&1 || { cat "$d/out.txt"; echo "sl_real_check: the table failed"; exit 1; }
fail=0
expect() { # PATTERN WHAT
  grep -Eq -- "$1" "$d/out.txt" || { echo "sl_real_check: missing: $2 (/$1/)"; fail=1; }
}
expect '^simulated/real getrf +shm +1x2 N=64 ref : simulated +1\.320 s, real +1\.200 s \(3 runs, spread 1\.000-2\.000\), paired +1\.00$' "paired getrf, ref"
expect '^simulated/real getrf +shm +1x2 N=64 ours: .*, paired +1\.00$' "paired getrf, ours"
expect '^simulated/real potrf +shm +1x2 N=64 ref : simulated +1\.600 s, real +2\.000 s .*\), +0\.80 +outside the band$' "unpaired potrf"
expect '^simulated/real geqrf +shm +1x2 N=64 ref : error: residual not small$' "geqrf's residual"
expect '^# 2 of 4 within 0\.85-1\.15$' "the count in the band"
expect '^ours/reference getrf +shm +1x2 N=64: real +1\.00, simulated +1\.00$' "ours/reference"
if grep -q "geqrf.*[0-9]\.[0-9][0-9]  *outside\|geqrf.*, *[0-9]\.[0-9][0-9]$" "$d/out.txt"; then
  echo "sl_real_check: a ratio for geqrf, whose residual is not small"; fail=1
fi
[ $fail = 0 ] || { cat "$d/out.txt"; exit 1; }
echo "sl_real_check: ok"
