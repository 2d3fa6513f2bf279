#!/usr/bin/env bash
# run_if_scalapack.sh MODE BINARY LIBDIR -- runs one ScaLAPACK client program
# (one MPI process of it: the test runner starts this script under mpiexec)
# on our BLACS and proves at symbol level that our BLACS is the one in use.
#
#   MODE static   BINARY has our libblacs.a linked in (whole archive, exported)
#   MODE preload  BINARY is linked against ScaLAPACK only; we run it with
#                 LD_PRELOAD=LIBDIR/libblacs.so
#
# Proof: the program runs with LD_BIND_NOW=1 LD_DEBUG=bindings, so the dynamic
# linker reports, for every symbol the ScaLAPACK library references, which
# object it is bound to.  Every BLACS entry point (the names libblacs.so
# exports) that libscalapack references must be bound to ours -- the program
# itself (static) or libblacs.so (preload) -- and none to the copy of the
# reference BLACS inside libscalapack.  The program also checks by itself
# (BLACS_GET WHAT=22, dladdr) and is run with the argument "ours".
#
# When BINARY was not built (ScaLAPACK not installed) prints
# "0 passed, 0 failed, 1 skipped" and succeeds.
set -u
mode=$1; bin=$2; libdir=$3
rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}}
say() { [ "$rank" = 0 ] && echo "$@"; return 0; }

if [ ! -x "$bin" ]; then
  say "$(basename "$bin"): SKIPPED -- not built (ScaLAPACK for this MPI not installed, e.g. Debian libscalapack-mpich-dev; or INTSIZE=8)"
  say "0 passed, 0 failed, 1 skipped"
  exit 0
fi
so=$libdir/libblacs.so
[ -e "$so" ] || { echo "run_if_scalapack: $so missing" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/blacs_sl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case $mode in
  static)  pre=(); ours_re="^$(readlink -f "$bin")\$|^$bin\$" ;;
  preload)
    # a sanitizer build of the library needs the ASan runtime loaded first
    asan=$(ldd "$so" 2>/dev/null | awk '/libasan/ {print $3; exit}')
    pre=(LD_PRELOAD="${asan:+$asan:}$(readlink -f "$so")${LD_PRELOAD:+:$LD_PRELOAD}"); ours_re="libblacs\.so" ;;
  *) echo "run_if_scalapack: unknown mode $mode" >&2; exit 2 ;;
esac
env "${pre[@]}" LD_BIND_NOW=1 LD_DEBUG=bindings LD_DEBUG_OUTPUT="$tmp/ld" "$bin" ours
rc=$?
[ $rc = 0 ] || { echo "$(basename "$bin") ($mode) on process $rank: exit status $rc"; exit $rc; }

# symbol-level proof
nm -D --defined-only "$so" | awk '{print $3}' | sort -u > "$tmp/names"
cat "$tmp"/ld.* 2>/dev/null |
  sed -nE "s/.*binding file ([^ ]*libscalapack[^ ]*) \[[0-9]+\] to ([^ ]*) \[[0-9]+\]: normal symbol \`([^']*)'.*/\3 \2/p" |
  sort -u > "$tmp/bind"
join "$tmp/names" "$tmp/bind" > "$tmp/blacs_bind"
total=$(wc -l < "$tmp/blacs_bind")
nours=$(awk '{print $2}' "$tmp/blacs_bind" | grep -cE "$ours_re")
theirs=$(awk '$2 ~ /libscalapack/' "$tmp/blacs_bind" | wc -l)
target=$(awk '{print $2}' "$tmp/blacs_bind" | grep -E "$ours_re" | head -1)
if [ "$total" -gt 0 ] && [ "$nours" = "$total" ] && [ "$theirs" = 0 ]; then
  say "$(basename "$bin") ($mode): all $total BLACS symbols referenced by libscalapack are bound to ${target} (0 to its own BLACS)"
  exit 0
fi
echo "$(basename "$bin") ($mode) on process $rank: BLACS symbol bindings: $total referenced, $nours to ours, $theirs to libscalapack's own BLACS"
awk '$2 !~ /'"${ours_re//\//\\/}"'/' "$tmp/blacs_bind" | head -5
exit 1
