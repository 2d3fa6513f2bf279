# smpi.sh -- sourced by TIMING/sim/run.sh, TIMING/bench.sh and
# TIMING/sim/models.sh: the one SMPI configuration of the simulated
# experiments and the helpers they share.
#
# SIMCFG: exact alpha + n/bandwidth network (CM02, no cross traffic), no
# host-code timing, no injected time in MPI_Test/Iprobe/Wtime, every message
# rendezvous (SMPI's eager path adds envelope bytes), the library's globals
# privatised per rank.
SIMCFG=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0
        --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:dlopen
        --cfg=smpi/async-small-thresh:0 --cfg=smpi/send-is-detached-thresh:0
        --cfg=smpi/test:0 --cfg=smpi/iprobe:0 --cfg=smpi/wtime:0
        --log=root.thres:warning)

# sim_hosts DIR N: the path of a hostfile of N nodes node-0 .. node-(N-1)
# in DIR, written if missing
sim_hosts() {
  local f=$1/hosts$2
  [ -f "$f" ] || for ((i = 0; i < $2; i++)); do echo node-$i; done > "$f"
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
# (more --cfg=... items, then the driver's own arguments)
sim_run() {
  local np=$1 pf=$2 hd=$3 tmo=$4 drv=$5; shift 5
  timeout -k 5 "$tmo" smpirun -np "$np" -platform "$pf" -hostfile "$(sim_hosts "$hd" "$np")" \
    "$drv" "${SIMCFG[@]}" "$@"
}

# sim_status RC ERRFILE: a simulation's exit status, 9 instead of 0 when its
# stderr shows an abort, a late synchronised start or a deadlock
sim_status() {
  local rc=$1
  grep -qE 'MPI_Abort|late for the synchronised|Deadlock' "$2" && [ "$rc" = 0 ] && rc=9
  echo "$rc"
}
