#!/usr/bin/env bash
# sl_real.sh -- the simulation held to real runs (issue 40 item 5), part of
# `make bench-scalapack` (TIMING/scalapack.mk):
#
#   TIMING/sim/sl_real.sh REALBUILD SIMBUILD OUTDIR
#
# The same driver (sl_bench.c), the same ScaLAPACK sources and both BLACS,
# built once for this machine's MPICH (REALBUILD: sl_bench_ref, sl_bench_ours,
# and Tsim of TIMING/tsimcal.c) and once for SMPI (SIMBUILD), on 2 ranks:
#   settings  SLR_SETTINGS (default "shm:1x2 shm:2x1 1gbit:1x2 10gbit:1x2"):
#             shm: one machine, MPICH's shared memory; 1gbit, 10gbit: two
#             hosts of the network test bed (TESTING/cluster/cluster.sh:
#             namespaces, real TCP through UCX), each host's link held to
#             that rate by tc tbf.  Without namespaces (not root) only shm.
# For each setting:
#   1. Tsim measures the MPI there: the cost of posting a short send
#      (SIM_OS), a receive of a message already there (SIM_OR), the eager
#      threshold (SIM_EAGER), a ping-pong's one-way time of 8 bytes
#      (SIM_LAT) and its bandwidth at 4 MB (SIM_BW);
#   2. the real runs: SLR_REPS rounds (default 3), each the reference, then
#      ours (with SLR_RATE=1x1 one process first, below), every routine at
#      N = SLR_N (default 2048), NB = 64;
#   3. the simulation: a platform of two hosts, each on a link of
#      bandwidth SIM_BW to a crossbar, the two links' latencies adding up
#      to SIM_LAT less the two per-message costs SMPI charges (SIM_OS at
#      the sender, SIM_OR at the receiver); SMPI set up as for the table
#      (SIM_MPICH with this setting's SIM_OS, SIM_OR and SIM_EAGER); on the
#      bed's settings, each message's bandwidth by its size as Tsim
#      measures it for one message between pauses (SIM_BWF, SMPI's
#      smpi/bw-factor; SLR_BWF, below).
#      The computation (SLR_RATE), one simulation of each real run, so
#      that the machine's drift (up to 1.7 times within an hour) is in
#      both of a pair; the ratio is the median over the pairs:
#        trace (the default): the real build times every BLAS and LAPACK
#          call of the timed run and the gap before every wrapped call,
#          BLAS or BLACS (ScaLAPACK's own code), and writes them in order
#          (SL_TRACE, sl_flops.c with -DSL_REAL); the simulation charges
#          each call and gap of its timed run exactly that (the untimed
#          warm-up as with call).  The two processes' computation then
#          varies from call to call as it did, and each waits for the
#          other as long as it did;
#        call: each call the average seconds per operation of its kind
#          (routine and class of operation count) in that run, each gap
#          the average gap of its kind;
#        grid: each simulated host its process's operation count over the
#          seconds of its calls and its own code (SLK lines, sl_bench.c);
#          kernel: the same over the calls' seconds alone;
#        1x1: each round first runs the routines for real on one process,
#          and once in the flops mode on one simulated host of 20 Gflop/s;
#          the rate is 20 Gflop/s times simulated over the median real
#          (on 2 x 1 the simulation came out 0.65-0.88 times as fast).
#      The simulation is given the computation, and what it is held to is
#      everything else: the messages, and how the processes wait for each
#      other.  Each BLACS's own copies cost SIM_COPY us a byte, this
#      machine's memcpy as Tsim measures it (sl_copy.c).  Our library gets
#      its built-in machine in both worlds.  SLR_COMPUTE=measured charges
#      instead each rank's computation as SMPI times it here
#      (smpi/simulate-computation:yes; the median of SLR_SIMREPS runs,
#      default 2): on 2x1 it comes out 1.2-2.9 times the real time (many
#      short bursts, two ranks on one core), so it is not the default.
#      SLR_JOBS (2) simulations run at once, never beside a real run.
#   The bandwidth by size (SLR_BWF: bed, the default; all; none): the
#      bed holds each link to its rate with a token bucket (tc tbf, 64 KB of
#      burst), so a message of up to 16 KB sent after a computation crosses
#      at the speed of memory, where a link of that rate would take 131 us
#      for 16 KB; ScaLAPACK's messages come between computations.  Over
#      1 Gbit/s, the bandwidth of 4 MB for every message made the
#      simulated PDSYTRD (many short vectors) 1.16 times the real one.
#      With SIM_BWF the simulation runs SMPI's network model with those
#      factors (network/model:SMPI, smpi/lat-factor 1, network/weight-S 0:
#      otherwise the CM02 model's).  On shared memory there is no bucket,
#      and SLR_BWF=bed leaves its flat bandwidth.
# Writes OUTDIR/real.csv (setting,grid,lib,world,routine,N,seconds,residual,
# round: one row a run), OUTDIR/real-compute.csv (the real runs' SLK lines) and
# OUTDIR/real.txt: one line per routine, setting and library,
#   simulated/real ROUTINE SETTING GRID LIB: simulated S s, real R s, RATIO
# where S and R are medians and RATIO the median of the pairs' simulated /
# real (S / R where the simulation is not paired with the real runs);
# 0.85-1.15 is the band the table's claims need.
# A run whose residual is not small or that fails prints no ratio.
set -u
RB=${1:?real build dir}; SB=${2:?simulated build dir}; OUT=${3:?out dir}
. TIMING/sim/smpi.sh
RAW=$OUT/real-raw
mkdir -p "$RAW"
N=${SLR_N:-2048}
NB=64
REPS=${SLR_REPS:-3}
SIMREPS=${SLR_SIMREPS:-2}
ROUT=${SLR_ROUTINES:-getrf,potrf,geqrf,sytrd}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
JOBS=${SLR_JOBS:-2} # simulations at once (each is one process; never beside a real run)
WARM=${SLR_WARMUP:-1} # untimed runs of each routine before the timed one, real and simulated (above)
RATE=${SLR_RATE:-trace} # where the simulated hosts' computation comes from (above)
BWF=${SLR_BWF:-bed} # where the bandwidth goes by message size (above)
LOGP=${SLR_LOG:-} # every BLACS call of every run, real and simulated (SL_LOG, sl_wrap.c): LOGP.real_* and LOGP.sim_*
case $BWF in
  bed | all | none) ;;
  *) echo "sl_real.sh: SLR_BWF is bed, all or none, not '$BWF'" >&2; exit 2 ;;
esac
case $RATE in
  call | trace | grid | kernel | 1x1) ;;
  *) echo "sl_real.sh: SLR_RATE=$RATE: not call, trace, grid, kernel or 1x1"; exit 2 ;;
esac
C=TESTING/cluster/cluster.sh
for x in "$RB/sl_bench_ref" "$RB/sl_bench_ours" "$RB/Tsim" "$SB/sl_bench_ref" "$SB/sl_bench_ours"; do
  [ -x "$x" ] || { echo "sl_real.sh: $x missing (make bench-scalapack builds it)"; exit 2; }
done
SETTINGS=${SLR_SETTINGS:-shm:1x2 shm:2x1 1gbit:1x2 10gbit:1x2}
if ! bash $C check > /dev/null 2>&1; then
  echo "sl_real.sh: $(bash $C check): the two-host settings are left out"
  SETTINGS=$(for s in $SETTINGS; do case $s in shm:*) echo "$s" ;; esac; done)
fi
CSV=$OUT/real.csv
echo "setting,grid,lib,world,routine,N,seconds,residual,round" > "$CSV"
KCSV=$OUT/real-compute.csv
echo "setting,grid,lib,round,routine,rank,flops,seconds,other" > "$KCSV"
TCSV=$OUT/real-calls.csv
echo "setting,grid,lib,round,routine,rank,kernel,class,flops,seconds" > "$TCSV"
GCSV=$OUT/real-gaps.csv
echo "setting,grid,lib,round,routine,rank,key,count,seconds" > "$GCSV"

# real SETTING GRID LAUNCHER...: Tsim, then the real rounds: in each, the
# reference and ours (and first, with SLR_RATE=1x1, the routines on one
# process)
real() {
  local set=$1 g=$2 p q r lib; shift 2
  p=${g%x*}; q=${g#*x}
  "$@" -n 2 "$RB/Tsim" > "$RAW/tsim_$set.txt" 2>&1 || { echo "sl_real.sh: Tsim failed on $set"; return 1; }
  for ((r = 1; r <= REPS; r++)); do
    [ "$RATE" = 1x1 ] &&
      timeout -k 5 600 "$@" -n 1 env SL_WARMUP="$WARM" "$RB/sl_bench_ref" "$ROUT" "$N" "$NB" 1 1 > "$RAW/real_${set}_1x1_$r.out" 2>&1
    for lib in ref ours; do
      local tr=
      [ "$RATE" = trace ] && tr=$RAW/trace_${set}_${g}_${lib}_$r
      timeout -k 5 600 "$@" -n 2 env SL_WARMUP="$WARM" SL_TRACE="$tr" SL_LOG="${LOGP:+$LOGP.real_${set}_${g}_${lib}_$r}" "$RB/sl_bench_$lib" "$ROUT" "$N" "$NB" "$p" "$q" > "$RAW/real_${set}_${g}_${lib}_$r.out" 2>&1
      awk -F, -v s="$set" -v g="$g" -v l="$lib" -v r="$r" -v csv="$CSV" -v kcsv="$KCSV" -v tcsv="$TCSV" -v gcsv="$GCSV" '
        $1 == "SLB" { printf "%s,%s,%s,real,%s,%s,%s,%s,%s\n", s, g, l, $2, $3, $7, $10, r >> csv }
        $1 == "SLK" { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s, g, l, r, $2, $3, $4, $5, $6 >> kcsv }
        $1 == "SLKT" { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s, g, l, r, $2, $3, $4, $5, $6, $7 >> tcsv }
        $1 == "SLKG" { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s, g, l, r, $2, $3, $4, $5, $6 >> gcsv }' \
        "$RAW/real_${set}_${g}_${lib}_$r.out"
    done
  done
}

# the routines in the flops mode on one simulated host of 20 Gflop/s (once)
simone() {
  local pf=$RAW/platform_1.xml
  printf '%s\n' '<?xml version="1.0"?>' '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">' \
    '<platform version="4.1">' '  <cluster id="c" prefix="node-" suffix="" radical="0-0" speed="20Gf" core="1" bw="10GBps" lat="1us"/>' \
    '</platform>' > "$pf"
  (unset SIM_PPN; SL_WARMUP=$WARM SL_FLOPS=1 sim_run 1 "$pf" "$RAW" 1800 "$SB/sl_bench_ref" "$ROUT" "$N" "$NB" 1 1) \
    > "$RAW/sim_1x1.out" 2> "$RAW/sim_1x1.err"
}

# rate SETTING ROUTINE: the routine's computation rate in the setting's
# rounds (flop/s): 20 Gflop/s times its simulated time over the median of
# its real ones on one process; empty if missing
rate() {
  local real simt
  real=$(cat "$RAW"/real_"$1"_1x1_*.out 2> /dev/null | awk -F, -v r="$2" '$1 == "SLB" && $2 == r { print $7 }' | sort -g |
         awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
  simt=$(awk -F, -v r="$2" '$1 == "SLB" && $2 == r { print $7 }' "$RAW/sim_1x1.out")
  [ -n "$real" ] && [ -n "$simt" ] && awk -v s="$simt" -v r="$real" 'BEGIN { printf "%.6g\n", 20e9 * s / r }'
}

# rates SETTING GRID ROUTINE LIB ROUND: the rate at which each of the two
# processes computed the routine in that real run (flop/s): the operation
# count of its BLAS and LAPACK calls over their seconds and those of its
# other computation, ScaLAPACK's own code (SLK lines: sl_bench.c; with
# SLR_RATE=kernel over the calls' seconds alone); "rank0 rank1", empty if
# missing
rates() {
  awk -F, -v s="$1" -v g="$2" -v rt="$3" -v l="$4" -v r="$5" -v k="$RATE" '
    $1 == s && $2 == g && $3 == l && $4 == r && $5 == rt && $8 > 0 { v[$6] = $7 / ($8 + (k == "kernel" ? 0 : $9)) }
    END { if ((0 in v) && (1 in v)) printf "%.6g %.6g\n", v[0], v[1] }' "$KCSV"
}

# callrates SETTING GRID ROUTINE LIB ROUND PATH: SLR_RATE=call, the file
# SL_RATES that sl_flops.c reads: each process's seconds per operation of
# each kind of call (kernel, and class of operation count) in that real
# run ("rank kernel class s"), and "rank -1 -1 s", the process's average
# over its calls (for a call the run did not time); and the average gap
# before each kind of wrapped call, BLAS or BLACS ("rank G key s"): where
# ScaLAPACK's own code ran, charged there
callrates() {
  awk -F, -v s="$1" -v g="$2" -v rt="$3" -v l="$4" -v r="$5" '
    $1 != s || $2 != g || $3 != l || $4 != r || $5 != rt { next }
    FILENAME == ARGV[1] && $7 > 0 && $8 > 0 { printf "%s -1 -1 %.9g\n", $6, $8 / $7; n1++ }
    FILENAME == ARGV[2] && $9 > 0 { printf "%s %s %s %.9g\n", $6, $7, $8, $10 / $9 }
    FILENAME == ARGV[3] && $8 > 0 { printf "%s G %s %.9g\n", $6, $7, $9 / $8 }
    END { exit n1 != 2 }' "$KCSV" "$TCSV" "$GCSV" > "$6"
}

# platform PATH SPEEDS: two hosts of the speeds "rank0 rank1" (flop/s), each
# on a link of SIM_BW to the other's, the two latencies adding up to SIM_LAT
# less the per-message costs SMPI charges at each end (SIM_OS at the
# sender's, SIM_OR at the receiver's)
platform() {
  awk -v lat="$SIM_LAT" -v os="$SIM_OS" -v orc="$SIM_OR" -v bw="$SIM_BW" -v s="$set" -v sp="$2" 'BEGIN {
    l = lat - os - orc; if (l < lat / 10) l = lat / 10
    split(sp, v, " ")
    print "<?xml version=\"1.0\"?>"
    print "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
    printf "<!-- sl_real.sh, setting %s: one-way %.3g s less a send%s %.3g s and a receive%s %.3g s, %.4g bytes/s -->\n", s, lat, "\047s", os, "\047s", orc, bw
    print "<platform version=\"4.1\">"
    print "  <zone id=\"c\" routing=\"Full\">"
    for (h = 0; h < 2; h++) {
      printf "    <host id=\"node-%d\" speed=\"%.6gf\" core=\"1\"/>\n", h, v[h + 1]
      printf "    <link id=\"l%d\" bandwidth=\"%.6gBps\" latency=\"%.6gs\" sharing_policy=\"SPLITDUPLEX\"/>\n", h, bw, l / 2
    }
    for (h = 0; h < 2; h++)
      printf "    <route src=\"node-%d\" dst=\"node-%d\" symmetrical=\"NO\"><link_ctn id=\"l%d\" direction=\"UP\"/><link_ctn id=\"l%d\" direction=\"DOWN\"/></route>\n", h, 1 - h, h, 1 - h
    print "  </zone>"
    print "</platform>" }' > "$1"
}

# sim SETTING GRID: the platform from the setting's Tsim, then the
# simulations: in the flops mode one of each real run, its processes on
# hosts of their rates in that run (with SLR_RATE=1x1 one for all rounds);
# SLR_SIMREPS of each library with SLR_COMPUTE=measured.  SLR_JOBS (2) at
# once, all ended before the next setting's real runs start.
sim() {
  local set=$1 g=$2 p q r lib rt
  p=${g%x*}; q=${g#*x}
  local line; line=$(grep '^export SIM_' "$RAW/tsim_$set.txt") || { echo "sl_real.sh: no calibration for $set"; return 1; }
  local SIM_OS SIM_OR= SIM_EAGER SIM_LAT SIM_BW SIM_COPY=5e-5 SIM_BWF=
  eval "${line#export }"
  SIM_OR=${SIM_OR:-$SIM_OS} # (a calibration from before Tsim measured receives)
  local cfg
  read -r -a cfg <<< "$(sim_mpich_cfg "$SIM_EAGER" "$SIM_OS" "$SIM_OR")"
  if [ -n "$SIM_BWF" ] && { [ "$BWF" = all ] || { [ "$BWF" = bed ] && [ "$set" != shm ]; }; }; then
    cfg+=(--cfg=network/model:SMPI --cfg=smpi/bw-factor:"$SIM_BWF" --cfg=smpi/lat-factor:0:1 --cfg=network/weight-S:0)
    echo "  $set: bandwidth by message size, SIM_BWF='$SIM_BWF'"
  fi
  local flops=1 runs=("$ROUT") speed copyb=$SIM_COPY nrep=$REPS mode=$RATE running=0
  if [ "${SLR_COMPUTE:-flops}" = measured ]; then
    cfg+=(--cfg=smpi/simulate-computation:yes --cfg=smpi/host-speed:20Gf); flops=0; copyb=0
    nrep=$SIMREPS mode=measured
  else
    runs=(${ROUT//,/ })
  fi
  [ "$mode" = 1x1 ] && nrep=1 # the flops mode gives the same time every run
  local jobs=$JOBS
  [ "$mode" = measured ] && jobs=1 # those time this machine's computation
  for rt in "${runs[@]}"; do
    speed="20e9 20e9"
    if [ "$mode" = 1x1 ]; then
      speed=$(rate "$set" "$rt")
      [ -n "$speed" ] || { echo "sl_real.sh: no computation rate of $rt on $set"; continue; }
      echo "  $rt: $speed flop/s on one process in these rounds"
      speed="$speed $speed"
    fi
    for ((r = 1; r <= nrep; r++)); do
      for lib in ref ours; do
        local f=$RAW/sim_${set}_${g}_${lib}_${rt//,/_}_$r slrates= tr=
        if [ "$mode" = grid ] || [ "$mode" = kernel ] || [ "$mode" = call ] || [ "$mode" = trace ]; then
          speed=$(rates "$set" "$g" "$rt" "$lib" "$r")
          [ -n "$speed" ] || { echo "sl_real.sh: no computation rates of $rt, $lib, round $r on $set $g"; continue; }
        fi
        [ "$mode" = trace ] && tr=$RAW/trace_${set}_${g}_${lib}_$r
        if [ "$mode" = call ] || [ "$mode" = trace ]; then
          slrates=$f.rates
          callrates "$set" "$g" "$rt" "$lib" "$r" "$slrates" ||
            { echo "sl_real.sh: no rates by call of $rt, $lib, round $r on $set $g"; continue; }
        fi
        platform "$f.xml" "$speed"
        if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
        (unset SIM_PPN BLACS_ALPHA BLACS_BETA
         SL_LOG=${LOGP:+$LOGP.sim_${set}_${g}_${lib}_${rt//,/_}_$r} SL_WARMUP=$WARM SL_RATES=$slrates SL_TRACE=$tr SL_COPY_BETA=$copyb SL_FLOPS=$flops sim_run 2 "$f.xml" "$RAW" 1800 "$SB/sl_bench_$lib" "${cfg[@]}" "$rt" "$N" "$NB" "$p" "$q" \
           > "$f.out" 2> "$f.err"
         rc=$(sim_status $? "$f.err")
         [ "$rc" = 0 ] || { echo "sl_real.sh: simulation $f failed (rc $rc)"; exit 1; }
         awk -F, -v s="$set" -v g="$g" -v l="$lib" -v r="$r" '$1 == "SLB" { printf "%s,%s,%s,sim,%s,%s,%s,%s,%s\n", s, g, l, $2, $3, $7, $10, r }' \
           "$f.out" >> "$CSV") &
        running=$((running + 1))
      done
    done
  done
  wait
}

t0=$(date +%s)
[ "${SLR_COMPUTE:-flops}" != measured ] && [ "$RATE" = 1x1 ] && simone
for s in $SETTINGS; do
  set=${s%%:*}; g=${s#*:}
  echo "== simulated/real: $set $g, real runs ($(date -u +%H:%M:%S) UTC)"
  case $set in
    shm) real "$set" "$g" $MPIEXEC ;;
    *)
      # a bed of two hosts for this setting alone, its links held to the rate
      bash $C with 2 bash -c 'bash '"$C"' link "$CLUSTER" h1 rate '"$set"' && bash '"$C"' link "$CLUSTER" h2 rate '"$set"' &&
        '"$(declare -f real)"'; RB='"$RB"' RAW='"$RAW"' CSV='"$CSV"' KCSV='"$KCSV"' TCSV='"$TCSV"' GCSV='"$GCSV"' RATE='"$RATE"' WARM='"$WARM"' REPS='"$REPS"' ROUT='"$ROUT"' LOGP='"$LOGP"' N='"$N"' NB='"$NB"' \
        real '"$set"' '"$g"' bash '"$C"' run "$CLUSTER" mpich 1' ;;
  esac
  echo "== simulated/real: $set $g, simulations ($(date -u +%H:%M:%S) UTC)"
  sim "$set" "$g"
done
python3 TIMING/sim/sl_real_table.py "$CSV" > "$OUT/real.txt"
cat "$OUT/real.txt"
echo "== $OUT/real.txt, real.csv ($(( $(date +%s) - t0 )) s)"
