#!/usr/bin/env bash
# run_mkl_diff.sh KIND NP MKLBIN OURBIN [ARGS...] -- differential test of our
# BLACS against Intel MKL's own (issue 19), both runs on NP processes.
#
#   KIND sendrecv  TESTING/t_sendrecv.c: MKLBIN (on MKL's BLACS) and OURBIN
#                  (ours) run every Cdsendrecv case and dump every matrix,
#                  guard zones included; the dumps must be byte for byte the
#                  same.  MKLBIN must also pass "interleave" (MKL's
#                  Cdsendrecv is a stream of its own, which ours mimics).
#   KIND sl        TESTING/mkl_sl.c: MKL's ScaLAPACK on MKL's BLACS (MKLBIN)
#                  and on ours (OURBIN) on the grids ARGS; OURBIN compares
#                  every result with MKL's run.  The run on ours is also
#                  watched with LD_DEBUG=bindings: every BLACS name that
#                  libmkl_scalapack references must be bound to our
#                  libblacs.so.
# Environment: MPIEXEC (with its flags).  Prints "... skipped" and succeeds
# when MKLBIN was not built (MKL not installed, or INTSIZE=8).
set -u
kind=$1; np=$2; mkl=$3; ours=$4; shift 4
MPIEXEC=${MPIEXEC:-mpiexec}
if [ ! -x "$mkl" ] || [ ! -x "$ours" ]; then
  echo "$(basename "$mkl"): SKIPPED -- not built (Intel MKL's ScaLAPACK/BLACS not installed, see README \"Using this BLACS with Intel MKL's ScaLAPACK\"; or INTSIZE=8)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/blacs_mkl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
run() { timeout -k 5 240 $MPIEXEC -n "$np" "$@"; }
case $kind in
  sendrecv)
    run "$mkl" diff "$tmp/mkl" || { echo "on MKL's BLACS: failed"; exit 1; }
    run "$mkl" interleave || { echo "on MKL's BLACS: interleave failed"; exit 1; }
    run "$ours" diff "$tmp/ours" || { echo "on ours: failed"; exit 1; }
    for ((r = 0; r < np; r++)); do
      cmp "$tmp/mkl.$r" "$tmp/ours.$r" || { echo "process $r: memory after Cdsendrecv differs from MKL's"; exit 1; }
    done
    echo "Cdsendrecv: every matrix and guard zone on $np processes byte for byte as with MKL's BLACS ($(cat "$tmp"/ours.* | wc -c) bytes)"
    ;;
  sl)
    run "$mkl" mkl "$tmp/mkl" "$@" || { echo "on MKL's BLACS: failed"; exit 1; }
    run env LD_BIND_NOW=1 LD_DEBUG=bindings LD_DEBUG_OUTPUT="$tmp/ld" "$ours" ours "$tmp/ours" --against "$tmp/mkl" "$@" ||
      { echo "on our BLACS: failed"; exit 1; }
    so=$(ldd "$ours" | awk '/libblacs\.so/ {print $3; exit}')
    [ -n "$so" ] || { echo "$ours is not linked with libblacs.so"; exit 1; }
    nm -D --defined-only "$so" | awk '{print $3}' | sort -u > "$tmp/names"
    cat "$tmp"/ld.* | sed -nE "s/.*binding file ([^ ]*libmkl_scalapack[^ ]*) \[[0-9]+\] to ([^ ]*) \[[0-9]+\]: normal symbol \`([^']*)'.*/\3 \2/p" |
      sort -u > "$tmp/bind"
    join "$tmp/names" "$tmp/bind" > "$tmp/blacs_bind"
    total=$(wc -l < "$tmp/blacs_bind"); other=$(awk '$2 !~ /libblacs\.so/' "$tmp/blacs_bind")
    if [ "$total" = 0 ] || [ -n "$other" ]; then
      echo "libmkl_scalapack's BLACS symbols: $total bound, not to libblacs.so:"; echo "$other" | head -5; exit 1
    fi
    grep -q Cdsendrecv "$tmp/blacs_bind" || { echo "libmkl_scalapack's Cdsendrecv is not bound to libblacs.so"; exit 1; }
    echo "all $total BLACS symbols libmkl_scalapack references (Cdsendrecv included) bound to $so"
    ;;
  *) echo "run_mkl_diff: unknown kind $kind" >&2; exit 2 ;;
esac
