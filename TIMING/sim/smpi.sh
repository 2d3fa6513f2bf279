# smpi.sh -- sourced by TIMING/sim/run.sh, TIMING/bench.sh and
# TIMING/sim/models.sh: the one SMPI configuration of the simulated
# experiments and the helpers they share.
#
# SIMCFG, every simulation: exact alpha + n/bandwidth network (CM02, no
# cross traffic), no host-code timing (the computation of combines is
# charged by TIMING/sim/simops.c), MPI_Wtime free, the library's globals
# privatised per rank, and every message rendezvous, as the platforms of
# the papers' machines and the cost models assume.  Polls pass simulated
# time through TIMING/sim/simmpi.c (a failed MPI_Test naps), not through
# SMPI's injected test time (smpi/test), whose reasons are given there.
SIMCFG=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0
        --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:dlopen
        --cfg=smpi/async-small-thresh:0 --cfg=smpi/send-is-detached-thresh:0
        --cfg=smpi/test:0 --cfg=smpi/iprobe:0
        --cfg=smpi/wtime:0
        --log=root.thres:warning)

# SIM_MPICH, added where a simulation stands for a cluster running MPICH
# (make bench-scalapack): the simulated MPI set up as the MPICH users run,
# the same for both BLACS (doc/internals.md, "The simulated build"):
#   - MPICH's collective algorithms (smpi/coll-selector:mpich);
#   - MPICH's eager threshold: sends of up to SIM_EAGER bytes (8192) return
#     without their receiver, longer ones wait for it (MPICH 4.0.2 ch4 on
#     the development machine's shared memory: an 8 KB MPI_Send to a
#     receiver 10 ms away returns in 70 us, a 16 KB one in 10.7 ms);
#   - MPICH's per-message cost SIM_OS, the time to post a short send
#     (MPI_Send or MPI_Isend of 8 bytes: 0.18 us there), charged to sends,
#     and SIM_OR, charged to receives (SIM_OS unless given).
#   make calibrate measures them on the machine at hand and prints them as
#   the SIM_OS, SIM_OR and SIM_EAGER to export (TIMING/tsimcal.c).
# MPI_Ibcast, which ' ' broadcasts of more than 12 KB use, has no selector
# in SimGrid 3.32 (its root posts p-1 sends at once, a flat tree), so the
# simulation's layer TIMING/sim/simmpi.c runs MPICH 4.0.2's schedules
# instead, advanced only by their process's MPI calls, as MPICH's are.
# What SMPI cannot stand for: a copy costs no simulated time (make
# bench-scalapack charges each BLACS's own copies itself: SL_COPY_BETA,
# TIMING/sim/sl_copy.c; the other simulations do not, so there the
# library's sends straight from A pay their words and save nothing); and
# SMPI moves a point-to-point message whether or not its sender is inside
# MPI.
SIM_EAGER=${SIM_EAGER:-8192}
SIM_OS=${SIM_OS:-0.00000018}
SIM_OR=${SIM_OR:-$SIM_OS}
# sim_mpich_cfg EAGER OS [OR]: those settings for another eager threshold and
# per-message costs, OS a send's and OR a receive's (OS when not given;
# TIMING/sim/sl_real.sh: each setting's own, SIM_OS and SIM_OR).  SMPI sends
# eagerly what is shorter than its threshold, so it gets EAGER + 1: a send
# of exactly EAGER bytes is eager, as on MPICH (MPICH 4.0.2 on the
# development machine's shared memory sends up to 8,255 bytes eagerly; with
# a threshold of 8192, SMPI 3.32's MPI_Send of 8,192 bytes waited for its
# receiver, and ScaLAPACK's 1,024-double blocks are that long)
sim_mpich_cfg() {
  local t=$(($1 + 1))
  echo --cfg=smpi/coll-selector:mpich --cfg=smpi/async-small-thresh:"$t" --cfg=smpi/send-is-detached-thresh:"$t" \
    --cfg=smpi/os:0:"$2":0 --cfg=smpi/ois:0:"$2":0 --cfg=smpi/or:0:"${3:-$2}":0
}
read -r -a SIM_MPICH <<< "$(sim_mpich_cfg "$SIM_EAGER" "$SIM_OS" "$SIM_OR")"

# sim_hosts DIR N: the path of a hostfile of N ranks in DIR, written if
# missing: one a node, node-0 .. node-(N-1), or with SIM_PPN=K set, K
# consecutive ranks a node (by block, as mpiexec places them)
sim_hosts() {
  local k=${SIM_PPN:-1} f=$1/hosts$2${SIM_PPN:+.ppn$SIM_PPN}
  [ -f "$f" ] || for ((i = 0; i < $2; i++)); do echo node-$((i / k)); done > "$f"
  echo "$f"
}

# sim_alpha CSV BC: the simulated one-way latency (us) from simdrv's p2p rows
# in CSV (the n = 1 time less one double's BC): SMPI's end-to-end latency is
# not the platform file's nominal figure, and model and simulation must
# share T_p2p.  Empty when there is no such row.
sim_alpha() {
  awk -F, -v bc="$2" '$2 == "p2p" && $5 == 1 { printf "%.4f", $7 - bc; exit }' "$1"
}

# sim_run NP PLATFORM HOSTDIR TIMEOUT DRIVER ARGS...: DRIVER on NP simulated
# ranks of the platform file PLATFORM (nodes node-0 ..), SIMCFG, then ARGS
# (more --cfg=... items, then the driver's own arguments); SIMMPI_COLL is the
# coll-selector among them, for the layer TIMING/sim/simmpi.c (MPI_Bcast)
sim_run() {
  local np=$1 pf=$2 hd=$3 tmo=$4 drv=$5 sel= a; shift 5
  for a in "$@"; do case $a in --cfg=smpi/coll-selector:*) sel=${a#*:} ;; esac; done
  SIMMPI_COLL=$sel timeout -k 5 "$tmo" smpirun -np "$np" -platform "$pf" -hostfile "$(sim_hosts "$hd" "$np")" \
    "$drv" "${SIMCFG[@]}" "$@"
}

# sim_status RC ERRFILE: a simulation's exit status, 9 instead of 0 when its
# stderr shows an abort, a late synchronised start or a deadlock
sim_status() {
  local rc=$1
  grep -qE 'MPI_Abort|late for the synchronised|Deadlock' "$2" && [ "$rc" = 0 ] && rc=9
  echo "$rc"
}
