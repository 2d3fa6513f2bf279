#!/usr/bin/env bash
# bench.sh -- `make bench` (issue 13): ours against MPI, the reference BLACS
# and Intel MKL's BLACS (issue 19), side by side, in a few minutes.
#
#  1. TDIR/ours/bench and TDIR/ref/bench (TIMING/bench.c; the reference one
#     only when libscalapack-mpich is installed) on 2 processes, RUNS times
#     each, alternated (ours, ref, ref, ours, ours, ...) so that both see the
#     same spells of load; each run times every operation against its MPI
#     peer in alternated rounds.  Table: medians over the runs, us per
#     operation; ours/MPI is the median over the runs of each run's ratio
#     (the two were timed in the same rounds), ours/ref the ratio of the
#     medians.  TDIR/mkl/bench (MKL's BLACS for MPICH, when installed) joins
#     the alternation: columns MKL us and ours/MKL, the latter the ratio of
#     the paired ratios (median ours/MPI over median MKL/MPI), each side
#     measured against MPI inside its own runs.
#  2. With SimGrid's driver (SIMDRV, built by `make simulate-bins`): the SMPI
#     table -- T_collective / T_p2p for broadcasts and leave-on-all sums,
#     TOP '1' and 'H', 1 x 16 grid on the 256-node fat tree of
#     TIMING/platforms, n = 1 .. 10^6 doubles, next to each topology's cost
#     model (the same ratio from SRC/topology.c's models).  Simulated time:
#     two runs give the same numbers.
#  2b. TDIR/{ours,ref,mkl,base}/blate (TIMING/blate.c): the receivers' wait, and
#     the source's call, when the source computes 100 ms outside MPI after a
#     long broadcast (' ', '1', 'S', 'I') or send of 10^4-10^6 doubles, with
#     the receiver on time and 20 ms late (LATE_RUNS, LATE_TRIALS).
#  3. OUT/bench.csv, the columns of `make timing`'s bench.csv:
#       op,top,scope,np,n,ours_us,peer,peer_us,ratio
#     2-process rows: peer mpi (ratio = the paired median above) and refblacs;
#     SMPI rows (np 16): peer smpi-p2p (peer_us = simulated T_p2p, ratio =
#     T_coll/T_p2p) and model (peer_us = the model's T_coll scaled to the
#     simulated T_p2p, ratio = simulated / model ratio).
#
# Environment: TDIR, OUT (TIMING/out), MPIEXEC, RUNS (BENCH_RUNS, 5),
# ROUNDS (BENCH_ROUNDS, 5), NMAX (BENCH_NMAX, 10^6), SIMDRV (path of the
# SMPI driver; empty or missing: no SMPI table), RUN_TIMEOUT (60 s a run),
# NICE (a nice value for the timed runs), BASE=1 (TDIR/base/bench, another
# revision's library from `make bench-base`, joins the alternation: columns
# base us, ours/base, and CSV rows with peer base).
set -u
TDIR=${TDIR:-build/default/timing}
OUT=${OUT:-TIMING/out}
MPIEXEC=${MPIEXEC:-mpiexec}
RUNS=${BENCH_RUNS:-${RUNS:-5}}
ROUNDS=${BENCH_ROUNDS:-${ROUNDS:-5}}
NMAX=${BENCH_NMAX:-${NMAX:-1000000}}
SIMDRV=${SIMDRV:-}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}
RAW=$OUT/bench_raw
mkdir -p "$OUT" "$RAW"
rm -f "$RAW"/*
t0=$(date +%s)
load() { cut -d' ' -f1-3 /proc/loadavg 2> /dev/null; }
LOAD0=$(load)

libs=(ours)
[ -x "$TDIR/ref/bench" ] && libs+=(ref)
[ -x "$TDIR/mkl/bench" ] && libs+=(mkl)
[ -x "$TDIR/ours/bench" ] || { echo "bench.sh: $TDIR/ours/bench missing (make bench builds it)"; exit 2; }
HAVEREF=0 HAVEBASE=0 HAVEMKL=0
[ -x "$TDIR/ref/bench" ] && HAVEREF=1
[ -x "$TDIR/mkl/bench" ] && HAVEMKL=1
if [ -n "${BASE:-}" ]; then
  [ -x "$TDIR/base/bench" ] || { echo "bench.sh: BASE set but $TDIR/base/bench missing (make bench-base BENCH_REV=...)"; exit 2; }
  libs+=(base) HAVEBASE=1
fi
NICECMD=
[ -n "${NICE:-}" ] && NICECMD="nice -n $NICE"

echo "make bench: $(nproc 2> /dev/null) cores, load average $LOAD0 (1, 5, 15 min) at the start;" \
     "$RUNS alternated runs of ${libs[*]}, $ROUNDS rounds each, 2 processes${NICE:+, nice $NICE}" \
     "$([ $HAVEBASE = 1 ] && echo "; base = revision $(cat "$TDIR/base/REV" 2> /dev/null)")"
order=("${libs[@]}")
fail=0
for ((k = 1; k <= RUNS; k++)); do
  for lib in "${order[@]}"; do
    if ! timeout -k 5 "$RUN_TIMEOUT" $NICECMD $MPIEXEC -n 2 "$TDIR/$lib/bench" "$ROUNDS" "$NMAX" \
         > "$RAW/${lib}_$k.csv" 2> "$RAW/${lib}_$k.err"; then
      echo "bench.sh: run $k of $lib failed (see $RAW/${lib}_$k.err)" >&2
      fail=1
    fi
  done
  # the next run starts with the library that ended this one (ABBA for two)
  order=("${order[@]: -1}" "${order[@]:0:${#order[@]}-1}")
done
LOAD1=$(load)

# ours' runs are read first: their operations set the tables' order (a base
# revision's bench may lack one)
awk -F, -v csv="$OUT/bench.csv" -v ref=$HAVEREF -v base=$HAVEBASE -v mkl=$HAVEMKL '
  FNR == 1 { lib = FILENAME; sub(/.*\//, "", lib); sub(/_[0-9]+\.csv$/, "", lib) }
  function med(s,   a, k, i, j, t) {
    k = split(s, a, " ")
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    if (k == 0) return -1
    return k % 2 ? a[(k + 1) / 2] : 0.5 * (a[k / 2] + a[k / 2 + 1])
  }
  NF >= 7 {
    key = $2 SUBSEP $3
    if (!(key in seen)) { seen[key] = 1; ord[++nk] = key }
    if (lib == "ours") { ours[key] = ours[key] " " $5; rat[key] = rat[key] " " ($6 > 0 ? $5 / $6 : 0) }
    else if (lib == "base") baseb[key] = baseb[key] " " $5
    else if (lib == "mkl") { mklb[key] = mklb[key] " " $5; mrat[key] = mrat[key] " " ($6 > 0 ? $5 / $6 : 0) }
    else refb[key] = refb[key] " " $5
    mpi[key] = mpi[key] " " $6
    if ($7 != "ok") wrong[lib SUBSEP key] = 1
  }
  END {
    desc["tc"] = "T_c echo: DGESD2D+DGERV2D vs MPI_Send+MPI_Recv"
    desc["tcbuf"] = "T_c floor, no BLACS: copy + MPI_Isend + MPI_Request_get_status + MPI_Wait vs MPI_Send+MPI_Recv\n  (what any send that never waits for its receiver does; each library column: the same MPI code in that library'"'"'s runs)"
    desc["bcast"] = "broadcast DGEBS2D/DGEBR2D (TOP \" \") vs MPI_Bcast"
    desc["gsum"] = "DGSUM2D leave-on-all (TOP \" \") vs MPI_Allreduce(MPI_SUM)"
    desc["gamx"] = "DGAMX2D leave-on-all with RA/CA (TOP \" \") vs MPI_Allreduce(MPI_MAX)"
    desc["igamx"] = "IGAMX2D leave-on-all with RA/CA (TOP \" \") vs MPI_Allreduce(MPI_MAX)"
    print "op,top,scope,np,n,ours_us,peer,peer_us,ratio" > csv
    last = ""
    for (i = 1; i <= nk; i++) {
      split(ord[i], kk, SUBSEP); op = kk[1]; n = kk[2]
      if (op != last) {
        printf "\n%s\n", desc[op]
        printf "  %9s %11s %11s %11s %9s %9s %9s", "n", "ours us", "MPI us", "ref us", "ours/MPI", "ours/ref", "ref/MPI"
        if (base) printf " %11s %9s", "base us", "ours/base"
        if (mkl) printf " %11s %9s", "MKL us", "ours/MKL"
        printf "\n"
        last = op
      }
      o = med(ours[ord[i]]); m = med(mpi[ord[i]]); r = ref ? med(refb[ord[i]]) : -1; q = med(rat[ord[i]])
      flag = (wrong["ours" SUBSEP ord[i]] ? " WRONG(ours)" : "") (wrong["ref" SUBSEP ord[i]] ? " WRONG(ref)" : "") \
             (wrong["base" SUBSEP ord[i]] ? " WRONG(base)" : "") (wrong["mkl" SUBSEP ord[i]] ? " WRONG(mkl)" : "")
      if (r > 0) printf "  %9d %11.2f %11.2f %11.2f %9.3f %9.3f %9.3f", n, o, m, r, q, o / r, r / m
      else printf "  %9d %11.2f %11.2f %11s %9.3f %9s %9s", n, o, m, "-", q, "-", "-"
      if (base) { b = med(baseb[ord[i]]); if (b > 0) printf " %11.2f %9.3f", b, o / b; else printf " %11s %9s", "-", "-" }
      if (mkl) { k = med(mklb[ord[i]]); qm = med(mrat[ord[i]]); if (k > 0 && qm > 0) printf " %11.2f %9.3f", k, q / qm; else printf " %11s %9s", "-", "-" }
      printf "%s\n", flag
      top = op ~ /^tc/ ? "-" : "\" \""; sc = op ~ /^tc/ ? "p2p" : "all"
      printf "%s,%s,%s,2,%d,%.4f,mpi,%.4f,%.6g\n", op, top, sc, n, o, m, q > csv
      if (r > 0) printf "%s,%s,%s,2,%d,%.4f,refblacs,%.4f,%.6g\n", op, top, sc, n, o, r, o / r >> csv
      if (base && b > 0) printf "%s,%s,%s,2,%d,%.4f,base,%.4f,%.6g\n", op, top, sc, n, o, b, o / b >> csv
      if (mkl && k > 0 && qm > 0) printf "%s,%s,%s,2,%d,%.4f,mklblacs,%.4f,%.6g\n", op, top, sc, n, o, k, q / qm >> csv
    }
  }' /dev/null $(ls "$RAW"/ours_[0-9]*.csv 2> /dev/null) $(ls "$RAW"/*_[0-9]*.csv 2> /dev/null | grep -v "/ours_")
echo
echo "(medians over the runs, us per operation; ours/MPI: median of each run's ratio; ours/ref: ratio of medians$([ $HAVEMKL = 1 ] && echo "; ours/MKL: median ours/MPI over median MKL/MPI"))"
echo "load average $LOAD1 at the end of the 2-process runs ($(( $(date +%s) - t0 )) s)"
[ $fail = 0 ] || echo "bench.sh: some runs failed; the table uses the others" >&2

# ---- receivers behind a computing source (TIMING/blate.c) --------------------
# LATE_RUNS alternated runs (ours, ref, mkl, ...) of blate, LATE_TRIALS trials
# each; every cell the median over the runs of each run's median.  LATE_RUNS=0:
# no table; LATE_COMPUTE (ms, 100), LATE_NMAX (doubles, 10^6).
LATE_RUNS=${LATE_RUNS:-3}
LATE_TRIALS=${LATE_TRIALS:-5}
LATE_COMPUTE=${LATE_COMPUTE:-100}   # ms the source computes after its call
LATE_NMAX=${LATE_NMAX:-1000000}
llibs=()
for lib in ours ref mkl; do [ -x "$TDIR/$lib/blate" ] && llibs+=("$lib"); done
# BASE=1: the other revision's library too (its blate calls itself ours:
# the rows are relabelled as they are read)
[ $HAVEBASE = 1 ] && [ -x "$TDIR/base/blate" ] && llibs+=(base)
if [ "$LATE_RUNS" -gt 0 ] && [ ${#llibs[@]} -gt 0 ]; then
  for ((k = 1; k <= LATE_RUNS; k++)); do
    for lib in "${llibs[@]}"; do
      timeout -k 5 300 $NICECMD $MPIEXEC -n 2 "$TDIR/$lib/blate" "$LATE_TRIALS" "$LATE_COMPUTE" 20 "$LATE_NMAX" \
        > "$RAW/late_${lib}_$k.csv" 2> "$RAW/late_${lib}_$k.err" ||
        { echo "bench.sh: blate run $k of $lib failed (see $RAW/late_${lib}_$k.err)" >&2; fail=1; }
    done
    llibs=("${llibs[@]: -1}" "${llibs[@]:0:${#llibs[@]}-1}")
  done
  echo
  echo "Receivers behind a computing source (TIMING/blate.c): 1 x 2 grid, the source computes $LATE_COMPUTE ms"
  echo "outside MPI right after its call; ontime: the receiver calls at once, late: 20 ms later."
  echo "us, medians of $LATE_RUNS runs x $LATE_TRIALS trials; src = the source's call, wait = the receiver's."
  for f in "$RAW"/late_*.csv; do
    case $f in */late_base_*) sed 's/^late,ours,/late,base,/' "$f" ;; *) cat "$f" ;; esac
  done | grep '^late,' | awk -F, '
    function med(s,   a, n, i, j, t) { n = split(substr(s, 2), a, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    { lib = $2 == "reference" ? "ref" : $2; key = $3 SUBSEP $4 SUBSEP $5
      if (!(key in seen)) { seen[key] = 1; ord[++nk] = key }
      src[key, lib] = src[key, lib] " " $6; wt[key, lib] = wt[key, lib] " " $7; have[lib] = 1
      if ($8 != "ok") bad[key, lib] = 1 }
    END {
      nl = split("ours ref mkl base", L, " ")
      printf "  %-9s %8s %-6s", "op", "n", "case"
      for (i = 1; i <= nl; i++) if (have[L[i]]) printf " %9s", "src " L[i]
      for (i = 1; i <= nl; i++) if (have[L[i]]) printf " %9s", "wait " L[i]
      printf "\n"
      for (k = 1; k <= nk; k++) { split(ord[k], f, SUBSEP)
        printf "  %-9s %8s %-6s", f[1], f[2], f[3]
        for (i = 1; i <= nl; i++) if (have[L[i]]) printf " %9.0f", med(src[ord[k], L[i]])
        for (i = 1; i <= nl; i++) if (have[L[i]]) printf " %9.0f%s", med(wt[ord[k], L[i]]), bad[ord[k], L[i]] ? "!" : ""
        printf "\n" } }'
fi

# ---- the SMPI table ---------------------------------------------------------
if [ -n "$SIMDRV" ] && [ -x "$SIMDRV" ] && command -v smpirun > /dev/null; then
  P=16 PF=TIMING/platforms/modern_fattree_256.xml
  N=1 NL=1; while [ $((NL * 10)) -le "$NMAX" ]; do NL=$((NL * 10)); N=$N,$NL; done
  # as TIMING/sim/run.sh's CollMark: the SMPI configuration and sim_run of
  # TIMING/sim/smpi.sh; the machine 'A'/'P' and the models see
  . TIMING/sim/smpi.sh
  # the predictions' machine: the platform's beta and gamma per double, and
  # the simulated one-way latency as alpha (SMPI's end-to-end latency is not
  # the platform file's nominal 1 us), so model and simulation share T_p2p
  BC=0.00064 G=0.002
  # the library's own machine model (machine.c: 'A', 'P', when a node's
  # sends go one after the other) is told the same machine
  sim() { # KIND TOPS MACHINE
    BLACS_ALPHA=${AC:-1} BLACS_SEND_ALPHA=${AC:-1} BLACS_POST_ALPHA=0 BLACS_BETA=0.00008 BLACS_GAMMA=0.00025 \
      sim_run $P $PF "$RAW" 120 "$SIMDRV" run -k "$1" -t "$2" -b 4 -n "$N" -p "$3" -l bench >> "$RAW/sim.csv" 2>> "$RAW/sim.err"
  }
  simok=1
  sim p2p - "1,$BC,1,$BC,$G" || simok=0
  AC=$(sim_alpha "$RAW/sim.csv" $BC)
  [ -n "$AC" ] || simok=0
  if [ $simok = 1 ]; then
    : > "$RAW/sim.csv"
    for k in "p2p -" "bcast 1H" "all 1H"; do
      set -- $k
      sim "$1" "$2" "$AC,$BC,$AC,$BC,$G,0" || { simok=0; break; }
    done
  fi
  [ $simok = 1 ] || echo "bench.sh: an SMPI run failed (see $RAW/sim.err)" >&2
  if [ $simok = 1 ]; then
    echo
    echo "SMPI (simulated): T_collective / T_p2p, 1 x $P grid on the 256-node fat tree (12.5 GB/s, combines"
    echo "2 ns per double); each cell: simulated (model: SRC/topology.c's cost model, T_c = T_s = $AC us +"
    echo "$BC us per double, the simulated point-to-point); n in doubles"
    grep -E '^bench,' "$RAW/sim.csv" | awk -F, -v csv="$OUT/bench.csv" '
      $2 == "p2p" { tp[$5] = $7; pp[$5] = $9; next }
      { key = $2 SUBSEP $3; if (!(key in seen)) { seen[key] = 1; ord[++nk] = key }
        T[key, $5] = $7; M[key, $5] = $9; if ($11 == "WRONG") wrong[key] = 1; if (!($5 in nseen)) { nseen[$5] = 1; ns[++nn] = $5 } }
      END {
        printf "  %-12s", "op TOP"; for (j = 1; j <= nn; j++) printf " %15s", "n=" ns[j]; printf "\n"
        worst = 0
        for (i = 1; i <= nk; i++) {
          split(ord[i], kk, SUBSEP)
          printf "  %-12s", (kk[1] == "all" ? "sum" : kk[1]) " \047" kk[2] "\047"
          for (j = 1; j <= nn; j++) {
            n = ns[j]; r = T[ord[i], n] / tp[n]; mr = M[ord[i], n] / pp[n]
            printf " %6.2f (%6.2f)", r, mr
            e = r / mr - 1; if (e < 0) e = -e; if (e > worst) worst = e
            op = kk[1] == "all" ? "gsum" : "bcast"
            printf "%s,%s,all,16,%d,%.4f,smpi-p2p,%.4f,%.6g\n", op, kk[2], n, T[ord[i], n], tp[n], r >> csv
            printf "%s,%s,all,16,%d,%.4f,model,%.4f,%.6g\n", op, kk[2], n, T[ord[i], n], mr * tp[n], r / mr >> csv
          }
          printf "%s\n", wrong[ord[i]] ? "  WRONG RESULT" : ""
        }
        printf "  largest distance from the model: %.1f%%\n", 100 * worst
      }'
  fi
else
  echo
  echo "(no SMPI table: SimGrid's smpirun or the driver $SIMDRV is missing; make simulate-bins builds it)"
fi
echo
echo "bench: $(( $(date +%s) - t0 )) s; load average $(load) at the end; CSV: $OUT/bench.csv"
