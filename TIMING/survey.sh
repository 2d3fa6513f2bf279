#!/usr/bin/env bash
# survey.sh -- the LAWN 73 timing survey (sections 3.3, 4.4, 5.5) on this
# machine, run by `make timing`:
#   1. T_m and T_o (Tmo), T_c (Tc) and T_s (Ts) for MPI's primitives, our
#      BLACS and the reference BLACS, on the primary range and on N <= 1000;
#   2. a broadcast (Tbs) and a leave-on-all sum (Tg +) survey of every
#      topology of our table, of every letter the reference knows, and of
#      MPI_Bcast / MPI_Allreduce;
#   3. the paper's repeated points: every REPSTEP-th length NREP more times
#      for the point-to-point times, the system operations, our default and
#      best topologies and the reference's default and best;
#   4. a few leave-on-one sums and absolute-value maxima;
#   5. tanalyze: tables (OUT/tables.txt), OUT/bench.csv, OUT/fits.csv, plot
#      data; gnuplot: OUT/*.png.
# Everything runs in this one job, one program at a time, so that ours,
# MPI's and the reference's numbers see the same machine.
#
# Environment: TDIR (binaries, build/default/timing), OUT (TIMING/out),
# NP (2), P2P_NP (processes of the point-to-point runs; NP), MPIEXEC (mpiexec), QUICK=1 (tiny sizes: a format check),
# NMAX, NSTEP, REPSTEP, NREP, REPS (sizes in doubles, repetitions),
# BEST_OF (3: each timed loop run 3 times, the fastest kept -- TIMING_BEST_OF
# of the timers; 1 is the paper's single loop), RUN_TIMEOUT (seconds per
# program run, 120), BUDGET (seconds: past it,
# the remaining parallel runs are skipped and counted, so that a loaded
# machine still finishes; 480), NICE (a nice value for the timed programs,
# e.g. -5 as root to be scheduled before other work; unset: none),
# CALIBRATE=1 (part 1 only, then print the BLACS_* settings that the cost
# models should use on this machine: `make calibrate`), FEED=1 (after part
# 1, export those settings for the rest of the survey, so that 'A' and the
# other model-driven choices are made for the machine measured: `make
# timing-hosts`).  NSTEP=0 (and REPSTEP=0) doubles the length instead of
# adding to it: 0, 1, 2, 4 .. NMAX.
set -u
TDIR=${TDIR:-build/default/timing}
OUT=${OUT:-TIMING/out}
NP=${NP:-2}
MPIEXEC=${MPIEXEC:-mpiexec}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
BUDGET=${BUDGET:-480}
export TIMING_BEST_OF=${BEST_OF:-3}
NICECMD=
[ -n "${NICE:-}" ] && NICECMD="nice -n $NICE"
if [ -n "${QUICK:-}" ]; then
  NMAX=${NMAX:-400} NSTEP=${NSTEP:-100} REPSTEP=${REPSTEP:-200} NREP=${NREP:-2} REPS=${REPS:-3}
else
  # the paper's design: 0..50000 doubles every 1000, and the 11 points
  # 0, 5000, .. 50000 run ten more times
  NMAX=${NMAX:-50000} NSTEP=${NSTEP:-1000} REPSTEP=${REPSTEP:-5000} NREP=${NREP:-10} REPS=${REPS:-20}
fi
SHORT=$((NMAX < 1000 ? NMAX : 1000))   # table 8's range N = 0..1000
RAW=$OUT/raw
rm -rf "$RAW"
mkdir -p "$RAW"
: > "$OUT/failed.txt"
t_start=$(date +%s)
REF=1
[ -x "$TDIR/ref/Tc" ] || REF=0
REFTOPS=(" " I D S M H F T 1 2 3 4 5 6 7 8 9) # the reference BLACS letters

tok() { if [ "$1" = " " ]; then echo sp; else echo "$1"; fi; } # file-name token of a TOP letter
nruns=0 nskip=0
run() { # run OUTFILE PROGRAM ARGS... (on $np processes; the program writes to stdout)
  local out=$1
  shift
  if [ $(( $(date +%s) - t_start )) -ge "$BUDGET" ]; then
    nskip=$((nskip + 1))
    return
  fi
  nruns=$((nruns + 1))
  if ! timeout -k 5 "$RUN_TIMEOUT" $NICECMD $MPIEXEC -n "$np" "$@" > "$out" 2> "$out.err"; then
    echo "survey: FAILED: $*" >&2
    echo "$*" >> "$OUT/failed.txt"
  fi
  [ -s "$out.err" ] || rm -f "$out.err"
}
libs=(ours)
[ $REF = 1 ] && libs+=(ref)
B8=$((NMAX * 8)) S8=$((NSTEP * 8)) R8=$((REPSTEP * 8)) H8=$((SHORT * 8)) HS8=$((SHORT * 8 / 10))
[ $HS8 -ge 8 ] || HS8=8

echo "survey: load average $(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null) on $(nproc 2> /dev/null) cores" \
     "(the paper timed idle machines)"
echo "survey: $NP processes, N = 0..$NMAX step $NSTEP, reps=$REPS, best of $TIMING_BEST_OF loops;" \
     "every $REPSTEP-th length $NREP more times;" \
     "reference BLACS: $([ $REF = 1 ] && echo yes || echo 'not installed')"

# 1. machine and point-to-point (on P2P_NP processes: the timers use two,
# and the others, idle, would only take cores from them)
np=${P2P_NP:-$NP}
timeout "$RUN_TIMEOUT" "$TDIR/Tmo" 0 "$B8" "$S8" "$REPS" > "$RAW/tmo_s.txt"
for i in $(seq "$NREP"); do timeout "$RUN_TIMEOUT" "$TDIR/Tmo" 0 "$B8" "$R8" "$REPS" > "$RAW/tmo_r$i.txt"; done
p2p() { # p2p TAG LEN1 LENN INC
  for sys in p b; do
    for lib in "${libs[@]}"; do
      [ $sys = p ] && [ $lib = ref ] && continue # MPI once
      run "$RAW/tc_${lib}_${sys}_$1.txt" "$TDIR/$lib/Tc" $sys "$2" "$3" "$4" "$REPS" 0 1 1 1
      run "$RAW/ts_${lib}_${sys}_$1.txt" "$TDIR/$lib/Ts" $sys stdout "$REPS" "$2" "$3" "$4" 0 1
    done
  done
}
p2p s 0 "$B8" "$S8"
p2p short 0 "$H8" "$HS8"
for i in $(seq "$NREP"); do p2p "r$i" 0 "$B8" "$R8"; done
echo "survey: point-to-point done ($(( $(date +%s) - t_start )) s)"
if [ -n "${FEED:-}${CALIBRATE:-}" ]; then # the machine just fitted
  "$TDIR/tanalyze" -o "$OUT" "$RAW"/*.txt > "$OUT/tables.txt"
  if [ -n "${CALIBRATE:-}" ]; then # make calibrate: the fit, nothing more
    sed -n '/^Machine fed/,/^ *export BLACS_/p' "$OUT/tables.txt"
    exit 0
  fi
  # FEED: for 'A', 'P', 'Y' and the serial sends of what follows
  feed=$(sed -n 's/^ *export \(BLACS_.*\)/\1/p' "$OUT/tables.txt")
  if [ -n "$feed" ]; then
    export $feed
    echo "survey: the library and its models are told this machine: $feed"
  else
    echo "survey: WARNING: no machine fitted; the library keeps its own settings"
  fi
fi

# 2. topology surveys
np=$NP
mapfile -t OURB < <("$TDIR/tanalyze" -letters bcast)
mapfile -t OURG < <("$TDIR/tanalyze" -letters comb)
run "$RAW/tbs_mpi_p_s.txt" "$TDIR/ours/Tbs" p 0 "$NMAX" "$NSTEP" "$REPS" 0
for t in "${OURB[@]}"; do
  run "$RAW/tbs_ours_$(tok "$t")_s.txt" "$TDIR/ours/Tbs" "$t" 0 "$NMAX" "$NSTEP" "$REPS" 0
  if [ $REF = 1 ] && [[ " ${REFTOPS[*]} " == *"$t"* ]]; then
    run "$RAW/tbs_ref_$(tok "$t")_s.txt" "$TDIR/ref/Tbs" "$t" 0 "$NMAX" "$NSTEP" "$REPS" 0
  fi
done
echo "survey: broadcasts done ($(( $(date +%s) - t_start )) s)"
run "$RAW/tg_mpi_p_s.txt" "$TDIR/ours/Tg" + p 0 "$NMAX" "$NSTEP" "$REPS" -1
for t in "${OURG[@]}"; do
  run "$RAW/tg_ours_$(tok "$t")_s.txt" "$TDIR/ours/Tg" + "$t" 0 "$NMAX" "$NSTEP" "$REPS" -1
  if [ $REF = 1 ] && [[ " ${REFTOPS[*]} " == *"$t"* ]]; then
    run "$RAW/tg_ref_$(tok "$t")_s.txt" "$TDIR/ref/Tg" + "$t" 0 "$NMAX" "$NSTEP" "$REPS" -1
  fi
done
echo "survey: combines done ($(( $(date +%s) - t_start )) s)"

# 3. repeated points of the system, default and best operations
bb_ours=$("$TDIR/tanalyze" -best bcast ours "$RAW"/tbs_*_s.txt) || bb_ours=" "
bg_ours=$("$TDIR/tanalyze" -best comb ours "$RAW"/tg_*_s.txt) || bg_ours=" "
bb_ref=" " bg_ref=" "
if [ $REF = 1 ]; then
  bb_ref=$("$TDIR/tanalyze" -best bcast refblacs "$RAW"/tbs_*_s.txt) || bb_ref=" "
  bg_ref=$("$TDIR/tanalyze" -best comb refblacs "$RAW"/tg_*_s.txt) || bg_ref=" "
fi
echo "survey: best broadcast ours '$bb_ours' reference '$bb_ref'; best sum ours '$bg_ours' reference '$bg_ref'"
for i in $(seq "$NREP"); do
  run "$RAW/tbs_mpi_p_r$i.txt" "$TDIR/ours/Tbs" p 0 "$NMAX" "$REPSTEP" "$REPS" 0
  run "$RAW/tg_mpi_p_r$i.txt" "$TDIR/ours/Tg" + p 0 "$NMAX" "$REPSTEP" "$REPS" -1
  for lib in "${libs[@]}"; do
    if [ $lib = ours ]; then b=$bb_ours g=$bg_ours; else b=$bb_ref g=$bg_ref; fi
    for t in " " "$b"; do
      run "$RAW/tbs_${lib}_$(tok "$t")_r$i.txt" "$TDIR/$lib/Tbs" "$t" 0 "$NMAX" "$REPSTEP" "$REPS" 0
      [ "$t" = "$b" ] && break
    done
    for t in " " "$g"; do
      run "$RAW/tg_${lib}_$(tok "$t")_r$i.txt" "$TDIR/$lib/Tg" + "$t" 0 "$NMAX" "$REPSTEP" "$REPS" -1
      [ "$t" = "$g" ] && break
    done
  done
done
echo "survey: repeated points done ($(( $(date +%s) - t_start )) s)"

# 4. leave-on-one sums and absolute maxima (default and 1-tree)
run "$RAW/tg_mpi_p_one.txt" "$TDIR/ours/Tg" + p 0 "$NMAX" "$REPSTEP" "$REPS" 0
run "$RAW/tg_mpi_p_amx.txt" "$TDIR/ours/Tg" '>' p 0 "$NMAX" "$REPSTEP" "$REPS" -1
for lib in "${libs[@]}"; do
  for t in " " 1; do
    run "$RAW/tg_${lib}_$(tok "$t")_one.txt" "$TDIR/$lib/Tg" + "$t" 0 "$NMAX" "$REPSTEP" "$REPS" 0
    run "$RAW/tg_${lib}_$(tok "$t")_amx.txt" "$TDIR/$lib/Tg" '>' "$t" 0 "$NMAX" "$REPSTEP" "$REPS" -1
  done
done

# 5. analysis and plots
"$TDIR/tanalyze" -o "$OUT" "$RAW"/*.txt > "$OUT/tables.txt"
rc=$?
cat "$OUT/tables.txt"
if command -v gnuplot > /dev/null 2>&1; then
  rm -f "$OUT"/*.png
  gnuplot -e "d='$OUT'" TIMING/plots.gp || echo "survey: gnuplot failed"
  echo "survey: plots: $(cd "$OUT" && ls *.png 2> /dev/null | tr '\n' ' ')"
else
  echo "survey: gnuplot is not installed (Debian package gnuplot-nox): tables and CSV written, no plots"
fi
nfail=$(wc -l < "$OUT/failed.txt")
[ $nskip = 0 ] || echo "survey: WARNING: $nskip runs skipped: the ${BUDGET} s budget ran out (a loaded machine?)"
echo "survey: $nruns parallel runs, $nfail failed, $(( $(date +%s) - t_start )) s;" \
     "tables $OUT/tables.txt, CSV $OUT/bench.csv, fits $OUT/fits.csv, raw output $RAW/"
[ "$rc" = 0 ] && [ "$nfail" = 0 ]
