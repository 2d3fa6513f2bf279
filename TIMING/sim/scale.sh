#!/usr/bin/env bash
# scale.sh -- the correctness run at scale of `make simulate-scale` (part
# of `make simulate`): TESTING/t_scale.c built with smpicc, on
# 1,024 simulated ranks (a 32 x 32 grid, TIMING/platforms/cluster_1024.xml)
# with the message-ID range [0,255] (BLACS_SET WHAT=1): combines of several
# fan-in topologies, leave-on-one and leave-on-all, scopes row, column, all
# and mixed (row leave-on-one with column leave-on-all), broadcasts, one
# slow process per stretch (simulated sleep), every result checked; 8
# leave-on-one operations and 8 leave-on-all ones per stretch, 144
# operations per topology (SMPI costs about 0.2 s of host time per
# operation at this size).  Ends with t_scale's "N passed, M failed".
#
#   TIMING/sim/scale.sh BUILDDIR OUTDIR
# Writes OUTDIR/scale.txt (the run's output).  Knobs (environment):
# SIM_SCALE_TOPS (default "F1TIH"), SIM_SCALE_GRID (default "32 32"),
# SIM_SCALE_RANGE (default "0 255"), SIM_QUICK=1 (the smoke test: an 8 x 8
# grid, TOPS "F1"),
# SIM_TIMEOUT (seconds, default 900).
set -u
B=${1:?build dir}; OUT=${2:?out dir}
mkdir -p "$OUT"
for t in smpirun smpicc; do
  command -v $t >/dev/null || { echo "scale.sh: $t not found: install SimGrid (apt-get install -y libsimgrid-dev)"; exit 2; }
done
DRV=$B/t_scale
[ -x "$DRV" ] || { echo "scale.sh: $DRV missing (make simulate-scale builds it)"; exit 2; }
read -r NR NC <<<"${SIM_SCALE_GRID:-$([ -n "${SIM_QUICK:-}" ] && echo 8 8 || echo 32 32)}"
read -r LO HI <<<"${SIM_SCALE_RANGE:-0 255}"
TOPS=${SIM_SCALE_TOPS:-$([ -n "${SIM_QUICK:-}" ] && echo F1 || echo F1TIH)}
NP=$((NR * NC))
HF=$B/hosts$NP
[ -f "$HF" ] || for ((i = 0; i < NP; i++)); do echo node-$i; done > "$HF"
echo "== correctness at scale: $NP simulated ranks (${NR}x${NC}), message IDs [$LO,$HI], TOP \"$TOPS\""
t0=$(date +%s)
# only the order of events matters: host code free; globals private per
# rank; the slow process's sleeps are simulated time
timeout -k 5 "${SIM_TIMEOUT:-900}" smpirun -np $NP -platform TIMING/platforms/cluster_1024.xml \
  -hostfile "$HF" "$DRV" --cfg=smpi/simulate-computation:no \
  --cfg=smpi/privatization:dlopen --log=root.thres:warning \
  "$NR" "$NC" "$LO" "$HI" "$TOPS" RCAm 0 8 > "$OUT/scale.txt" 2>&1
rc=$?
grep -E '^t_scale|^operations' "$OUT/scale.txt" | cut -c1-400
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/scale.txt" | tail -1)
echo "(wall time $(( $(date +%s) - t0 )) s)"
if [ $rc != 0 ] || [ -z "$line" ]; then
  tail -n 12 "$OUT/scale.txt" | sed 's/^/    | /'
  [ -n "$line" ] && echo "$line" || echo "0 passed, 1 failed"
  exit 1
fi
echo "$line"
