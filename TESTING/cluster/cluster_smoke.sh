#!/usr/bin/env bash
# cluster_smoke.sh MODE -- short checks of the host bed (TESTING/cluster/cluster.sh)
# for make test (TESTING/tests.d/cluster.list); each prints
# "N passed, M failed[, K skipped]"; "skipped: why" when namespaces cannot
# be made here.
#   job        small jobs across 2 hosts, 1 rank each (t_p2p, t_p2p_long, t_p2p_eager), and
#              t_bcast_pattern at 2 ranks each, with the MPI
#              of this build (VARIANT or MPIEXEC naming Open MPI: ompi and
#              build/ompi/tests; MPICH otherwise)
#   busysource t_busysource across 2 hosts whose links are held to 1 Gbit/s:
#              long broadcasts reach a receiver that waits for them while
#              their source computes outside MPI, with MPI moving a message
#              only while its sender is inside MPI (TCP); 512 KB (the
#              source's bound learns the link) and 4 MB to a receiver 3 ms
#              late (a send longer than BLACS_SOURCE_WAIT, the receiver's
#              word seen while the source waits); the source computes 1 s a
#              round, far longer than any transfer here even beside other
#              test runs (4 MB took up to 157 ms beside two of them); and a
#              1 MB GE panel (not contiguous) to a receiver there 5 ms
#              before its source, every round checked (no learning needed),
#              for 'C' as well
#   offmpi     t_offmpi across hosts: 1,000 sends of 1 KB to a receiver outside
#              MPI (1 rank a host), and short and long TOP ' ' broadcasts and
#              sums on 2 hosts x 2 ranks whose receivers come 0.2 s late
#              while their sources wait outside MPI (the node phases)
#   randprog   random programs (TESTING/t_randprog.c, seeds 1-30) with each
#              program's ranks spread over 2 hosts: the node-aware paths
#              (a short ' ' broadcast's node phases, pieces between nodes)
#              with peers outside MPI behind TCP; prints randprog.sh's count
#              (a failure is not shrunk here: randprog.sh one SEED does it)
#   reduce     leave-on-one TOP ' ' combines in scopes whose first member is
#              alone on its node while another node holds two (MPICH before
#              4.2 reduces wrong there: SRC/core.h, BI_REDUCE_LONE): t_comb
#              with vectors of 3,000-12,000 items on a 3 x 2 grid over 2
#              hosts x 3 ranks (column 1 is {1} on h1, {3,5} on h2), plain
#              and repeatable, and the program make fuzz-hosts found
#              (TESTING/programs/xhost_reduce_root.prog: BLACS_GRIDMAP 1 x 3
#              over h2, h1, h1); and t_offmpi's sum down the columns of that
#              grid to row 0 (column 1's destination is the lone member) and
#              to row 1, the destinations 0.2 s late, every other member
#              waiting for their signal outside MPI
#   exchange   the two-process exchange between hosts in eager pieces
#              (SRC/plan.c, xchg_pieces) and halves (xchg_halves), 1 rank a
#              host: t_xchg (sums and
#              AMX with RA/CA around the rule's bounds, and TOP ' '
#              broadcasts of the same vectors in 16,447-byte pieces to 64 KB
#              (pair_pieces): data, guards and the
#              pieces from the trace), t_comb 1 x 2 with vectors of
#              3,000-12,000 items, and DGSUM2D with counts that differ
#              between the two (t_mpierr comb: pieced against whole below and
#              above the range, and against other pieces, an empty last one
#              (2,055 x 2 doubles) included; from 4 MB halves, against halves and a whole
#              vector), each a BLACS error naming Cdgsum2d within 60 s;
#              and TOP ' ' broadcasts whose source and receiver pass
#              different counts (t_mpierr bcast: pieces of 16,447 bytes
#              against one message either way, against other pieces, an
#              empty last one included, and against the one message past
#              64 KB), each a BLACS error naming
#              Cdgebr2d
#   relay      t_bcast_pieces on 3 hosts, 1 rank each: the rings' pieces
#              between hosts as the plan has them (MPICH: 8 KB up to
#              128 KB, which MPICH sends eagerly over TCP too), every
#              receiver once, data and guards; and its late case, 'I' of
#              128 KB whose last host is 300 ms late to its receive: under
#              MPICH the relay and the source return within 0.1 s (one
#              message kept the relay 304-324 ms)
#   interrupt  `cluster.sh with 2 sleep 100` in the background, stopped by
#              SIGINT, then another by SIGTERM: no bed namespace and no
#              process of it may be left
set -u
cs="bash TESTING/cluster/cluster.sh"
why=$($cs check) || { echo "$why"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
# the MPI of this build, and its test binaries
mpi=mpich
[[ ${VARIANT:-}${MPIEXEC:-} == *ompi* || ${MPIEXEC:-} == *openmpi* ]] && mpi=ompi
bin=${BIN:-build/default/tests}
# the modes that run several jobs in one bed (offmpi, reduce): `job LABEL
# CMD...` prints "LABEL ok" or "LABEL FAILED"; $total prints the tally and
# is the exit status
tally='p=0 f=0
job() { local label=$1; shift
  if "$@" > /dev/null 2>&1; then echo "$label ok"; p=$((p + 1))
  else echo "$label FAILED"; f=$((f + 1)); fi; }
joberr() { local label=$1 re=$2 out; shift 2
  if out=$(timeout 60 "$@" 2>&1); then echo "$label FAILED (no error)"; f=$((f + 1))
  elif grep -qE "$re" <<< "$out"; then echo "$label ok"; p=$((p + 1))
  else echo "$label FAILED: $(tail -3 <<< "$out")"; f=$((f + 1)); fi; }'
total='echo "$p passed, $f failed"; [ $f = 0 ]'
case "${1:-}" in
job)
  # t_p2p_long: the pieces of a peer on another node (SRC/p2p.c), and
  # (direct) whole messages from A to a receiver that waits, strided ones
  # through their datatype at both ends;
  # t_p2p_eager: short messages from A (MPI_Send), 3000 each way over TCP
  # before a receive; t_bcast_pattern on 2 hosts x 2 ranks: the short ' '
  # tree and the mark in node phases (SRC/bcast_tree.c)
  if $cs with 2 bash -c "$cs run \$CLUSTER $mpi 1 -n 2 $bin/t_p2p && $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_p2p_long &&
       $cs run \$CLUSTER $mpi 1 -n 2 env BLACS_MEMCPY_BETA=0.01 $bin/t_p2p_long direct && $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_p2p_eager &&
       $cs run \$CLUSTER $mpi 2 -n 4 $bin/t_bcast_pattern"; then echo "1 passed, 0 failed"
  else echo "0 passed, 1 failed"; exit 1; fi ;;
busysource)
  if $cs with 2 bash -c "$cs link \$CLUSTER h1 rate 1gbit && $cs link \$CLUSTER h2 rate 1gbit &&
       $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_busysource 65536 4 1000 && $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_busysource 524288 4 1000 3 &&
       $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_busysource 131072 3 500 -5 ge \"S 1C\" &&
       $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_busysource 131072 4 500 5 ge \"S 1C\""
  then echo "1 passed, 0 failed"
  else echo "0 passed, 1 failed"; exit 1; fi ;;
offmpi)
  $cs with 2 bash -c "$tally
    off() { local ppn=\$1 np=\$2; shift 2; job \"\$*\" $cs run \$CLUSTER $mpi \$ppn -n \$np $bin/t_offmpi \"\$@\"; }
    off 1 2 sends 1000 128
    off 2 4 bcast ' ' A 100 2 2
    off 2 4 bcast ' ' A 100000 2 2
    off 2 4 sum 100000 2 2
    $total" ;;
randprog)
  $cs with 2 bash -c "BIN=$bin RANDPROG_OUT=$bin/randprog-hosts RANDPROG_SHRINK=0 MPIEXEC=\"$cs run \$CLUSTER $mpi spread\" bash TESTING/randprog.sh seeds 1 30" ;;
reduce)
  $cs with 2 bash -c "$tally
    job 't_comb 3x2 long' $cs run \$CLUSTER $mpi 3 -n 6 $bin/t_comb 3 2 ' ' long
    job 't_comb 3x2 long repeat' $cs run \$CLUSTER $mpi 3 -n 6 $bin/t_comb 3 2 ' ' long repeat
    job xhost_reduce_root.prog env BIN=$bin RANDPROG_OUT=$bin/randprog-hosts RANDPROG_SHRINK=0 \
      MPIEXEC=\"$cs run \$CLUSTER $mpi spread\" bash TESTING/randprog.sh file TESTING/programs/xhost_reduce_root.prog
    job 't_offmpi sum 3x2 C to row 0' $cs run \$CLUSTER $mpi 3 -n 6 $bin/t_offmpi sum 12000 3 2 C 0 0
    job 't_offmpi sum 3x2 C to row 1' $cs run \$CLUSTER $mpi 3 -n 6 $bin/t_offmpi sum 12000 3 2 C 1 0
    $total" ;;
exchange)
  $cs with 2 bash -c "$tally
    job t_xchg $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_xchg
    job 't_comb 1x2 long' $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_comb 1 2 ' H' long
    for pair in '64 45' '45 64' '64 90' '64 91' '46 64' '64 63' '1024 1025' '1024 700' '2055 2054 2' '2054 2055 2'; do
      joberr \"counts \$pair\" \"BLACS ERROR 'Cdgsum2d: (MPI error in MPI_(Recv|Sendrecv|Wait):.*[Tt]runcat|[0-9]+ items arrived)\" \\
        $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_mpierr comb ' ' \$pair
    done
    for pair in '64 45' '45 64' '64 65' '90 91' '2055 2054 2' '2054 2055 2'; do
      joberr \"bcast counts \$pair\" \"BLACS ERROR 'Cdgebr2d: (MPI error in MPI_(Recv|Wait):.*[Tt]runcat|[0-9]+ items arrived)\" \\
        $cs run \$CLUSTER $mpi 1 -n 2 $bin/t_mpierr bcast ' ' \$pair
    done
    $total" ;;
relay)
  if $cs with 3 bash -c "$cs run \$CLUSTER $mpi 1 -n 3 $bin/t_bcast_pieces && $cs run \$CLUSTER $mpi 1 -n 3 $bin/t_bcast_pieces late"
  then echo "1 passed, 0 failed"
  else echo "0 passed, 1 failed"; exit 1; fi ;;
interrupt)
  p=0 f=0
  # job control: a background job that ignored SIGINT (as bash makes them
  # without it) could never be stopped by it
  set -m
  for sig in INT TERM; do
    $cs with 2 sleep 100 &
    pid=$! bed=b$!
    # wait until the bed is up and CMD (sleep) runs
    for k in $(seq 300); do ps -e -o pgid=,cmd= | grep -qE "^ *$pid sleep 100" && break; sleep 0.1; done
    kill -$sig $pid
    for k in $(seq 100); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
    left=$($cs leftovers | grep -E "^blacs-$bed-")
    procs=$(ps -e -o pid=,pgid=,cmd= | awk -v g=$pid '$2 == g')
    if kill -0 $pid 2> /dev/null; then echo "SIG$sig: cluster.sh with is still running"; f=$((f + 1)); kill -9 $pid
    elif [ -n "$left" ] || [ -n "$procs" ] || [ -e /tmp/blacs-cluster-$bed ]; then
      echo "SIG$sig: left behind: namespaces [$left] processes [$procs]"; f=$((f + 1)); $cs down $bed
    else echo "SIG$sig: bed $bed removed, no process left"; p=$((p + 1)); fi
  done
  echo "$p passed, $f failed"; [ $f = 0 ] ;;
*) echo "usage: cluster_smoke.sh job|busysource|offmpi|randprog|reduce|interrupt" >&2; exit 2 ;;
esac
