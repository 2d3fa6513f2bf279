#!/usr/bin/env bash
# scalapack.sh -- the simulations of `make bench-scalapack` (TIMING/scalapack.mk).
#
#   TIMING/sim/scalapack.sh BUILDDIR OUTDIR
#
# BUILDDIR holds sl_bench_ref (Reference ScaLAPACK + its own BLACS) and
# sl_bench_ours (the same ScaLAPACK + this repository's library), both with
# the driver TIMING/sim/sl_bench.c and the BLACS accounting sl_wrap.c.
# Every cell (routine, grid, N, network, mode) runs both executables on
# the same simulated cluster, one rank per host:
#   networks  SL_NETS (default node16): node16, node32: nodes of 16 and
#             32 cores, shared memory inside a node, one 25 GB/s 1.5 us
#             link a node shared by its ranks, ranks by block; net10g (10
#             GB/s, 1 us), net1g (1.25 GB/s, 5 us): a single-core host a
#             rank (TIMING/platforms/scalapack_*.xml)
#   modes     comm: smpi/simulate-computation:no (only the BLACS and MPI
#             cost simulated time); comp: simulate-computation:yes, the
#             ranks' real computation charged at the hosts' 20 Gflop/s
#             with smpi/host-speed SL_HOST_SPEED (default 20Gf: simulated
#             computation = its measured time on one core of this machine);
#             flops: simulate-computation:no, and every BLAS and LAPACK
#             routine ScaLAPACK calls charges its operation count at the
#             hosts' 20 Gflop/s (sl_flops.c): computation at a fixed rate,
#             the same in every run, whatever else the machine is doing
# Our library runs twice: "ours" with its built-in machine (2 us, 1e-4 us
# a byte: a 10 GB/s network), as a user who never ran `make calibrate`
# has it, and "ourscal" told the platform's machine as `make calibrate`
# measures it there (a simulated ping-pong): BLACS_ALPHA and BLACS_BETA
# (1.00 us and 1e-4 us a byte on net10g, 5.02 us and 8e-4 on net1g, 1.86
# us and 4e-5 between two nodes of node16 and node32) and BLACS_SEND_ALPHA,
# the simulated MPI's cost of posting a send (SIM_OS, 0.18 us; told alpha
# and beta alone, the short ' ' broadcasts on 4 processes of net10g took
# the binomial tree for the flat one: 4x4 PDGETRF comm 0.969 against
# 0.880), since its plans (ring pieces, 'A', when a source's sends go one
# after the other) follow the machine model.
# The reference BLACS has no model.
# In the comm and flops modes each BLACS's own copies (its buffers, packs
# and unpacks, inside its communication routines) cost SL_COPY_BETA us a
# byte (default 5e-5, 20 GB/s, the library's built-in T_m; sl_copy.c), and
# the reference's combine operations a flop an item, as ours' do (simops.c).
# Writes under OUTDIR:
#   scalapack.csv      one row per cell: times, ratio, checksums
#   scalapack.txt      ours/reference per routine x (grid, N, network), per mode,
#                      the checksum agreement, the attribution of the worst cells
#   attribution.csv    per cell, every (BLACS routine, scope, top): seconds
#                      summed over ranks, reference and ours, and the difference
#   raw/               every simulation's output and BLACS accounting
# Knobs (environment): BENCH_SL_QUICK=1 (4x4 N=1024 per network, comm), SL_JOBS
# (simulations at once, default 2), SL_TIMEOUT (seconds per simulation,
# default 7200), SL_HOST_SPEED, SL_COPY_BETA, SL_CELLS (the cell list, overriding the
# built-in one: "PxQ:N:routines:modes ..." e.g. "4x4:2048:getrf,potrf:comm"),
# SL_LIBS (default "ref ours ourscal": which libraries to simulate) and SL_KEEP=1
# (keep OUT/raw's earlier outputs): SL_LIBS=ours SL_KEEP=1 reruns ours only,
# against the reference's cells already in OUT/raw (the comm and flops
# modes are deterministic).
set -u
B=${1:?build dir}; OUT=${2:?out dir}
RAW=$OUT/raw
mkdir -p "$OUT" "$RAW"
TMO=${SL_TIMEOUT:-7200}
JOBS=${SL_JOBS:-2}
SPEED=${SL_HOST_SPEED:-20Gf}
NB=64
ALL=getrf,potrf,geqrf,sytrd
NETS=${SL_NETS:-node16}
. TIMING/sim/smpi.sh

for x in sl_bench_ref sl_bench_ours; do
  [ -x "$B/$x" ] || { echo "scalapack.sh: $B/$x missing (make bench-scalapack builds it)"; exit 2; }
done

if [ -n "${SL_CELLS:-}" ]; then
  CELLS=$SL_CELLS
elif [ -n "${BENCH_SL_QUICK:-}" ]; then
  CELLS="4x4:1024:$ALL:comm"
else
  # the table of TIMING/README section 8: the four routines on 4x4, 2x8
  # and 8x8 at N = 2048 and on 16x16 at N = 4096, communication and
  # computation charged by operation count
  CELLS="4x4:2048:$ALL:comm,flops 2x8:2048:$ALL:comm,flops 8x8:2048:$ALL:comm,flops
         16x16:4096:$ALL:comm,flops"
fi

# one job per (cell, network, mode, library): "lib net mode P Q N routines"
jobs=()
for c in $CELLS; do
  IFS=: read -r g n rs ms <<< "$c"
  p=${g%x*}; q=${g#*x}
  for net in $NETS; do
    for m in ${ms//,/ }; do
      for lib in ${SL_LIBS:-ref ours ourscal}; do jobs+=("$lib $net $m $p $q $n $rs"); done
    done
  done
done

# the machine ourscal is told per platform (above): "BLACS_ALPHA BLACS_BETA
# BLACS_SEND_ALPHA"; on the node platforms what a ping-pong between two
# nodes gives (1.5 us of links and SIM_OS at each end, 25 GB/s)
machine() {
  local ts
  ts=$(awk -v s="$SIM_OS" 'BEGIN { print s * 1e6 }')
  case $1 in
    net10g) echo "1.0 1e-4 $ts" ;;
    net1g) echo "5.0 8e-4 $ts" ;;
    node*) echo "1.86 4e-5 $ts" ;;
  esac
}

run1() { # lib net mode P Q N routines
  local lib=$1 net=$2 m=$3 p=$4 q=$5 n=$6 rs=$7
  local tag=${lib}_${net}_${m}_${p}x${q}_N${n}
  local cfg=()
  [ "$m" = comp ] && cfg=(--cfg=smpi/simulate-computation:yes --cfg=smpi/host-speed:$SPEED)
  local flops=0 copyb=${SL_COPY_BETA:-5e-5}
  [ "$m" = flops ] && flops=1
  # the BLACS' own copies (sl_copy.c): measured with the host code in comp
  [ "$m" = comp ] && copyb=0
  # (run1 runs in a subshell of its own: the export stays in this job)
  # ranks by block on the node platforms (node16: 16 a node)
  case $net in node*) export SIM_PPN=${net#node} ;; *) unset SIM_PPN ;; esac
  local bin=$lib
  if [ "$lib" = ourscal ]; then
    bin=ours
    read -r BLACS_ALPHA BLACS_BETA BLACS_SEND_ALPHA <<< "$(machine "$net")"
    export BLACS_ALPHA BLACS_BETA BLACS_SEND_ALPHA
  fi
  # SL_LOG: every BLACS call's timeline (sl_wrap.c, sl_timeline.sh)
  [ -n "${SL_LOG:-}" ] && export SL_LOG=$SL_LOG.$tag
  local t0=$(date +%s)
  SL_COPY_BETA=$copyb SL_FLOPS=$flops sim_run $((p * q)) TIMING/platforms/scalapack_$net.xml "$B" "$TMO" "$B/sl_bench_$bin" "${SIM_MPICH[@]}" "${cfg[@]}" \
    "$rs" "$n" "$NB" "$p" "$q" "$RAW/$tag.wrap" > "$RAW/$tag.out" 2> "$RAW/$tag.err"
  local rc; rc=$(sim_status $? "$RAW/$tag.err")
  echo "  $tag: rc $rc, $(( $(date +%s) - t0 )) s wall"
  [ "$rc" = 0 ] || echo "scalapack.sh: simulation failed (rc $rc); see $RAW/$tag.err" >&2
}

t00=$(date +%s)
echo "== bench-scalapack: ${#jobs[@]} simulations, $JOBS at once ($(date -u +%H:%M:%S) UTC)"
[ -n "${SL_KEEP:-}" ] || rm -f "$RAW"/*
# on an interrupt, stop the simulations of this script (timeout puts each
# in a process group of its own, out of reach of the terminal's signal)
pids=()
trap 'for p in "${pids[@]}"; do pkill -TERM -P "$p"; done; exit 130' INT TERM
running=0
for j in "${jobs[@]}"; do
  # shellcheck disable=SC2086
  run1 $j &
  pids+=($!)
  running=$((running + 1))
  if [ $running -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait
echo "== simulations done in $(( $(date +%s) - t00 )) s"

SL_NETS=$NETS python3 TIMING/sim/scalapack_table.py "$RAW" "$OUT" "$CELLS"
echo "== $OUT/scalapack.txt, scalapack.csv, attribution.csv ($(( $(date +%s) - t00 )) s in all)"
