#!/usr/bin/env bash
# cluster.sh -- hosts on one machine: Linux network namespaces joined by veth
# pairs to a bridge, real TCP between them (issue 21's test bed).
#
#   cluster.sh check               can beds be made here? ("skipped: why", exit 77 if not)
#   cluster.sh up NAME H           make bed NAME: hosts h1..hH (10.77.0.1..H/24),
#                                  a bridge in a namespace of its own
#   cluster.sh down NAME           kill every process in the bed, remove its
#                                  namespaces (and with them its links) and state
#   cluster.sh with H CMD...       a fresh bed of H hosts for CMD (exported as
#                                  CLUSTER=NAME), removed on every exit, Ctrl-C too
#   cluster.sh run NAME MPI PPN -n N CMD...
#                                  a job of N ranks, PPN per host in host order
#                                  (h1 gets ranks 0..PPN-1, ...); MPI is mpich or
#                                  ompi.  PPN spread: as few per host as the
#                                  bed's hosts allow, so a job of 2 or more
#                                  ranks spans them all.  Usable as the test
#                                  runner's MPIEXEC:
#                                  MPIEXEC="bash cluster.sh run NAME mpich 1"
#   cluster.sh link NAME HOST down|up        cut (restore) HOST's link
#   cluster.sh link NAME HOST rate R|norate  hold HOST's link to R (tc tbf, both
#                                  directions, e.g. 1gbit, 1mbit) or release it
#   cluster.sh pids NAME           processes still running in the bed
#   cluster.sh leftovers           beds (namespaces blacs-*) that still exist
#
# Nothing outside the bed changes: the veth pairs are made inside the
# namespaces (never in the root namespace), /etc is not touched (no
# /etc/netns entries, no /etc/hosts lines: hosts are reached by address),
# and each host runs in a UTS namespace of its own whose host name is hN,
# so both MPIs see H different machines.
#   MPICH (ch4:ucx): hydra reaches a host through a launcher script given as
# its ssh stand-in; proxies call back to h1's address (-localhost).  UCX
# would otherwise find the other hosts' processes through /dev/shm (one
# kernel, same boot id) and never use the network: UCX_TLS=tcp,self keeps
# it on TCP, and MPICH's own shared memory still joins ranks of one host.
# (UCX_TLS=tcp,self,sm or posix would not hang as below, but then ranks of
# different hosts meet in /dev/shm: h1's eth0 carries ~10 KB instead of
# ~540 KB for t_usertraffic 2 2 100.)  Known: with Debian's MPICH 4.0.2 and
# UCX 1.13.1, a job hangs in MPI_Finalize in about 2 runs of 5, with 1 or 2
# ranks per host and with MPIR_CVAR_NOLOCAL=1 too: every result printed, one
# rank spinning in ucp_worker_progress (endpoint close), the others in the
# PMI barrier; UCX_TCP_PUT_ENABLE=n, UCX_TCP_CONN_NB=y, UCX_PROTO_ENABLE=y,
# UCX_NET_DEVICES=eth0 do not help (compare openucx/ucx#8738).  So MPICH
# jobs preload finalize_shim.c: MPI_Finalize is a barrier and PMI's finalize,
# and the process's exit ends MPI (CLUSTER_FINALIZE=mpi: MPICH's own, hang
# and all).
#   Open MPI: the same script as its rsh agent, --mca btl tcp,self (vader
# too when a host has several ranks), out-of-band and data on eth0.
#   Environment: STATE (/tmp), MPICH_EXEC (mpiexec.mpich), OMPI_EXEC
# (mpirun.openmpi), CLUSTER_MPIEXEC_FLAGS (more launcher options).
#   with: SIGINT, SIGTERM or SIGHUP stop CMD and every process it started
# (TERM, then KILL) and remove the bed; so does any exit.
set -u
STATE=${STATE:-/tmp}
NET=10.77.0
die() { echo "cluster.sh: $*" >&2; exit 2; }
dir_of() { echo "$STATE/blacs-cluster-$1"; }
ns() { echo "blacs-$1-$2"; }   # ns NAME h1 | ns NAME br

check() {
  local why=""
  if ! command -v ip > /dev/null 2>&1; then why="iproute2 (ip) is not installed"
  elif ! command -v unshare > /dev/null 2>&1; then why="unshare (util-linux) is not installed"
  elif [ "$(id -u)" != 0 ]; then why="network namespaces need root (CAP_NET_ADMIN)"
  else
    local t="blacs-probe-$$"
    if ! ip netns add "$t" 2> /dev/null; then why="cannot make a network namespace here (no CAP_NET_ADMIN?)"
    else
      ip -n "$t" link add va type veth peer name vb 2> /dev/null || why="cannot make veth pairs inside a namespace"
      unshare --uts true 2> /dev/null || why="cannot make UTS namespaces (unshare --uts)"
      ip netns del "$t" 2> /dev/null
    fi
  fi
  if [ -n "$why" ]; then echo "skipped: $why"; return 77; fi
  return 0
}

up() {
  local name=$1 h=$2 d i
  [[ $name =~ ^[A-Za-z0-9_]{1,20}$ ]] || die "bed name '$name': letters, digits, _ (at most 20)"
  [[ $h =~ ^[0-9]+$ ]] && [ "$h" -ge 1 ] && [ "$h" -le 200 ] || die "host count '$h': 1..200"
  d=$(dir_of "$name")
  [ -e "$d" ] && die "bed $name exists ($d); cluster.sh down $name"
  mkdir -p "$d" || die "cannot make $d"
  echo "$h" > "$d/hosts"
  # the launcher both MPIs use: skip ssh/rsh options, then run the command
  # on host hN: inside its network namespace and its own UTS namespace
  cat > "$d/nsexec" << EOF
#!/bin/sh
while [ \$# -gt 0 ]; do case "\$1" in -*) shift;; *) break;; esac; done
h=\$1; shift
exec ip netns exec blacs-$name-\$h unshare --uts sh -c "hostname \$h; \$*"
EOF
  chmod +x "$d/nsexec"
  local br; br=$(ns "$name" br)
  ip netns add "$br" || { down "$name"; die "ip netns add $br failed"; }
  ip -n "$br" link add br0 type bridge && ip -n "$br" link set br0 up && ip -n "$br" link set lo up ||
    { down "$name"; die "cannot make the bridge"; }
  for ((i = 1; i <= h; i++)); do
    local hn; hn=$(ns "$name" "h$i")
    ip netns add "$hn" &&
      ip -n "$br" link add "p$i" type veth peer name eth0 netns "$hn" &&
      ip -n "$br" link set "p$i" master br0 up &&
      ip -n "$hn" addr add "$NET.$i/24" dev eth0 &&
      ip -n "$hn" link set eth0 up &&
      ip -n "$hn" link set lo up || { down "$name"; die "cannot make host h$i"; }
  done
  # wait until every address answers (the bridge learns in a moment)
  for ((i = 2; i <= h; i++)); do
    local ok=0 k
    for k in $(seq 50); do
      ip netns exec "$(ns "$name" h1)" bash -c "exec 3<> /dev/tcp/$NET.$i/9" 2>&1 | grep -q refused && { ok=1; break; }
      sleep 0.1
    done
    [ $ok = 1 ] || { down "$name"; die "h1 cannot reach h$i"; }
  done
}

pids() {
  local n
  for n in $(ip netns list 2> /dev/null | awk '{print $1}' | grep -E "^blacs-$1-(h[0-9]+|br)$"); do
    ip netns pids "$n" 2> /dev/null
  done
}

down() {
  local name=$1 n p k
  # kill every process in the bed; repeat, since a launcher may start more
  for k in 1 2 3 4 5; do
    p=$(pids "$name" | tr '\n' ' ')
    [ -z "${p// /}" ] && break
    kill -9 $p 2> /dev/null
    sleep 0.2
  done
  for n in $(ip netns list 2> /dev/null | awk '{print $1}' | grep -E "^blacs-$name-(h[0-9]+|br)$"); do
    ip netns del "$n" 2> /dev/null || echo "cluster.sh: could not remove namespace $n" >&2
  done
  rm -rf "$(dir_of "$name")"
}

run() {
  local name=$1 mpi=$2 ppn=$3 d h np hosts i
  shift 3
  d=$(dir_of "$name")
  [ -f "$d/hosts" ] || die "no bed $name (cluster.sh up $name H)"
  h=$(cat "$d/hosts")
  [ "${1:-}" = -n ] || die "run: -n N expected"
  np=$2; shift 2
  [ "$ppn" = spread ] && ppn=$(( (np + h - 1) / h ))
  [ $(( (np + ppn - 1) / ppn )) -le "$h" ] || die "$np ranks at $ppn per host need more than the bed's $h hosts"
  hosts=""
  for ((i = 1; i <= (np + ppn - 1) / ppn; i++)); do hosts+="${hosts:+,}h$i"; done
  local h1; h1=$(ns "$name" h1)
  local launch
  case "$mpi" in
  mpich)
    # MPI_Finalize without UCX's endpoint-close hang (finalize_shim.c),
    # built once per bed; CLUSTER_FINALIZE=mpi runs MPICH's own
    local pre=()
    if [ "${CLUSTER_FINALIZE:-shim}" != mpi ]; then
      local shim="$d/finalize_shim.so"
      if [ ! -f "$shim" ]; then
        "${MPICC_MPICH:-mpicc.mpich}" -O2 -shared -fPIC -o "$shim.$$" "$(dirname "$0")/finalize_shim.c" &&
          mv "$shim.$$" "$shim" || die "cannot build $shim"
      fi
      # (a sanitizer build's runtime then comes second: allowed)
      pre=(-genv LD_PRELOAD "$shim${LD_PRELOAD:+:$LD_PRELOAD}"
           -genv ASAN_OPTIONS "${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
    fi
    launch=("${MPICH_EXEC:-mpiexec.mpich}" -launcher ssh -launcher-exec "$d/nsexec" -localhost "$NET.1"
            -hosts "$hosts" -ppn "$ppn" -genv UCX_TLS tcp,self "${pre[@]}" ${CLUSTER_MPIEXEC_FLAGS:-} -n "$np") ;;
  ompi)
    local oh="" btl=tcp,self
    for ((i = 1; i <= (np + ppn - 1) / ppn; i++)); do oh+="${oh:+,}h$i:$ppn"; done
    [ "$ppn" -gt 1 ] && btl=tcp,self,vader
    launch=("${OMPI_EXEC:-mpirun.openmpi}" --allow-run-as-root --oversubscribe --mca plm_rsh_agent "$d/nsexec"
            --host "$oh" --map-by "ppr:$ppn:node" --mca pml ob1 --mca btl "$btl" --mca oob_tcp_if_include eth0
            --mca btl_tcp_if_include eth0 ${CLUSTER_MPIEXEC_FLAGS:-} -n "$np") ;;
  *) die "MPI '$mpi': mpich or ompi" ;;
  esac
  # mpiexec itself runs on h1, under h1's host name
  local q="" a
  for a in "${launch[@]}" "$@"; do q+=" $(printf '%q' "$a")"; done
  exec ip netns exec "$h1" unshare --uts bash -c "hostname h1; exec$q"
}

link() {
  local name=$1 host=$2 what=$3 rate=${4:-}
  local br hn i=${host#h}
  br=$(ns "$name" br); hn=$(ns "$name" "$host")
  ip netns list | grep -q "^$hn\b" || die "no host $host in bed $name"
  case "$what" in
  down) ip -n "$br" link set "p$i" down ;;
  up) ip -n "$br" link set "p$i" up ;;
  rate)
    [ -n "$rate" ] || die "link ... rate R"
    # both directions: the bridge's port towards the host, the host's eth0
    ip netns exec "$br" tc qdisc replace dev "p$i" root tbf rate "$rate" burst 64kb latency 400ms &&
      ip netns exec "$hn" tc qdisc replace dev eth0 root tbf rate "$rate" burst 64kb latency 400ms ;;
  norate)
    ip netns exec "$br" tc qdisc del dev "p$i" root 2> /dev/null
    ip netns exec "$hn" tc qdisc del dev eth0 root 2> /dev/null
    true ;;
  *) die "link: down, up, rate R or norate" ;;
  esac
}

# the processes of CMD, deepest first
tree() {
  local c
  for c in $(pgrep -P "$1" 2> /dev/null); do tree "$c"; done
  echo "$1"
}

# stop CMD (outside the bed: the test runner, timeout, ...), then the bed
with_stop() {
  local t
  if [ -n "${WITH_CHILD:-}" ]; then
    t=$(tree "$WITH_CHILD"); kill -TERM $t 2> /dev/null
    for k in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$WITH_CHILD" 2> /dev/null || break; sleep 0.1; done
    t=$(tree "$WITH_CHILD"); kill -KILL $t 2> /dev/null
  fi
  down "$WITH_BED"
}

with() {
  local h=$1 rc
  shift
  WITH_BED="b$$" WITH_CHILD=""
  check > /dev/null || { check; return 77; }
  trap 'with_stop; trap - EXIT; exit 130' INT
  trap 'with_stop; trap - EXIT; exit 143' TERM
  trap 'with_stop; trap - EXIT; exit 129' HUP
  trap 'with_stop' EXIT
  up "$WITH_BED" "$h" || return 2
  # CMD in the background, so that a signal runs the trap at once (bash
  # defers traps while a foreground command runs); stdin stays CMD's
  CLUSTER=$WITH_BED "$@" <&0 &
  WITH_CHILD=$!
  wait "$WITH_CHILD"; rc=$?
  WITH_CHILD=""
  return $rc
}

cmd=${1:-}; shift || true
case "$cmd" in
check) check ;;
up) [ $# = 2 ] || die "up NAME H"; check > /dev/null || { check; exit 77; }; up "$@" ;;
down) [ $# = 1 ] || die "down NAME"; down "$1" ;;
with) [ $# -ge 2 ] || die "with H CMD..."; with "$@" ;;
run) [ $# -ge 6 ] || die "run NAME MPI PPN -n N CMD..."; run "$@" ;;
link) [ $# -ge 3 ] || die "link NAME HOST what"; link "$@" ;;
pids) pids "$1" ;;
leftovers) ip netns list 2> /dev/null | awk '{print $1}' | grep -E '^blacs-' ;;
*) sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; [ -z "$cmd" ] && exit 0; exit 2 ;;
esac
