#!/usr/bin/env bash
# smoke.sh -- the quick simulated smoke test of TESTING/tests.d/simulate.list:
# make simulate at small sizes into a scratch folder; checks the privatisation
# line, figure 7's checks, that every result was right, and the correctness
# run at scale (TIMING/sim/scale.sh, 8 x 8 grid).  Without SimGrid it skips
# cleanly.
set -u
if ! command -v smpicc >/dev/null 2>&1 || ! command -v smpirun >/dev/null 2>&1; then
  echo "SimGrid (smpicc, smpirun) not installed: simulation smoke test skipped"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
make -s simulate SIM_QUICK=1 SIM_OUT="$out" > "$out/log" 2>&1; mrc=$?
if [ ! -s "$out/priv.txt" ]; then
  tail -20 "$out/log"; echo "0 passed, 1 failed"; exit 1
fi
pass=0; fail=0
chk() { if grep -q "$1" "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "missing in $(basename "$2"): $1"; fi; }
chk '^privatisation ok' "$out/priv.txt"
chk 'within 10% for n >= 100: yes' "$out/fig7.txt"
chk 'by more than the model says (+2%): yes' "$out/fig7.txt"
chk 'every result correct: yes' "$out/fig7.txt"
if grep -q 'WRONG' "$out"/*.csv; then fail=$((fail + 1)); echo "a simulated result was wrong"; else pass=$((pass + 1)); fi
chk 'against the BLACS point-to-point' "$out/collmark.txt"
if grep -qE ' (inf|nan|-nan)( |$)' "$out/collmark.txt"; then fail=$((fail + 1)); echo "collmark.txt has a ratio without its T_p2p"; else pass=$((pass + 1)); fi
chk 'leave-on-all sum never behind the reference: yes' "$out/trees.txt"
chk 'broadcasts within 1.25% of the reference (bound): yes' "$out/trees.txt"
chk 'the broadcast source returns no later than the reference.s: yes' "$out/trees.txt"
[ -s "$out/bench_sim.csv" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "no bench_sim.csv"; }
chk '^[0-9]* passed, 0 failed' "$out/scale.txt" # the correctness run at scale (scale.sh)
[ $mrc = 0 ] || { fail=$((fail + 1)); echo "make simulate failed:"; tail -5 "$out/log"; }
echo "$pass passed, $fail failed"
[ $fail = 0 ]
