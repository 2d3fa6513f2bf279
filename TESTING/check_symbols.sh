#!/usr/bin/env bash
# check_symbols.sh LIBDIR -- the shared library exports every public BLACS
# name of the reference (Fortran and C spellings, spec section 1.4), our two
# documented extensions, and nothing else (no internal symbol).
set -u
lib=${1:-LIB}/libblacs.so
want=$(mktemp); have=$(mktemp)
{
  for s in abort barrier exit freebuff get gridexit gridinfo gridinit gridmap pcoord pinfo pnum set setup; do
    echo "blacs_${s}_"; echo "Cblacs_$s"; done
  for s in kbrid kbsid krecvid ksendid; do echo "${s}_"; echo "C$s"; done
  echo dcputime00_; echo Cdcputime00; echo dwalltime00_; echo Cdwalltime00
  echo sys2blacs_handle_; echo Csys2blacs_handle; echo blacs2sys_handle_; echo Cblacs2sys_handle
  echo free_blacs_system_handle_; echo Cfree_blacs_system_handle
  for t in i s d c z; do for f in gesd2d gerv2d trsd2d trrv2d gebs2d gebr2d trbs2d trbr2d gsum2d gamx2d gamn2d; do
    echo "$t${f}_"; echo "C$t$f"; done; done
  echo blacs_lastsrc_; echo Cblacs_lastsrc   # extension: sender of the last receive
  for t in i s d c z; do echo "${t}tuop2d_"; echo "C${t}tuop2d"; done   # extension: user combine
} | sort > "$want"
nm -D --defined-only "$lib" | awk '$2 ~ /[TDBRW]/ {print $3}' | grep -v -E '^(_init|_fini|__bss_start|_edata|_end)$' | sort > "$have"
missing=$(comm -23 "$want" "$have"); extra=$(comm -13 "$want" "$have")
n=$(wc -l < "$want")
rc=0
[ -n "$missing" ] && { echo "missing public symbols:"; echo "$missing"; rc=1; }
[ -n "$extra" ] && { echo "symbols that should not be exported:"; echo "$extra"; rc=1; }
[ $rc = 0 ] && echo "all $n public BLACS symbols exported, nothing else"
rm -f "$want" "$have"
exit $rc
