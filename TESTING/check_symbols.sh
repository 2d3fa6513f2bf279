#!/usr/bin/env bash
# check_symbols.sh LIBDIR -- the shared library exports every public BLACS
# name of the reference (C spellings, and the Fortran ones under every
# convention a compiler uses: lower, lower_, UPPER, UPPER_, and lower__ for
# names holding an underscore), our documented extensions, Intel MKL's
# Cdsendrecv/DSENDRECV, and nothing else (no internal symbol).  Every
# Fortran spelling of a routine must be the same code (one address).
set -u
lib=${1:-LIB}/libblacs.so
want=$(mktemp); have=$(mktemp); fnames=$(mktemp)
{
  for s in abort barrier exit freebuff get gridexit gridinfo gridinit gridmap pcoord pinfo pnum set setup lastsrc; do
    echo "blacs_$s"; done
  echo kbrid; echo kbsid; echo krecvid; echo ksendid; echo dcputime00; echo dwalltime00
  echo sys2blacs_handle; echo blacs2sys_handle; echo free_blacs_system_handle
  for t in i s d c z; do for f in gesd2d gerv2d trsd2d trrv2d gebs2d gebr2d trbs2d trbr2d gsum2d gamx2d gamn2d tuop2d; do
    echo "$t$f"; done; done
  echo dsendrecv   # Intel MKL's extension
} > "$fnames"
{
  while read -r f; do
    F=${f^^}; echo "$f"; echo "${f}_"; echo "$F"; echo "${F}_"
    [[ $f == *_* ]] && echo "${f}__"
  done < "$fnames"
  for s in abort barrier exit freebuff get gridexit gridinfo gridinit gridmap pcoord pinfo pnum set setup; do
    echo "Cblacs_$s"; done
  for s in kbrid kbsid krecvid ksendid; do echo "C$s"; done
  echo Cdcputime00; echo Cdwalltime00; echo Csys2blacs_handle; echo Cblacs2sys_handle
  echo Cfree_blacs_system_handle
  for t in i s d c z; do for f in gesd2d gerv2d trsd2d trrv2d gebs2d gebr2d trbs2d trbr2d gsum2d gamx2d gamn2d; do
    echo "C$t$f"; done; done
  echo Cblacs_lastsrc                                  # extension: sender of the last receive
  for t in i s d c z; do echo "C${t}tuop2d"; done     # extension: user combine
  echo Cdsendrecv                                      # Intel MKL's extension
  echo MKLMPI_Get_wrappers                             # Intel MKL: its MPI wrappers (SRC/mklmpi.c)
} | sort > "$want"
nm -D --defined-only "$lib" | awk '$2 ~ /[TDBRW]/ {print $3}' | grep -v -E '^(_init|_fini|__bss_start|_edata|_end)$' | sort > "$have"
missing=$(comm -23 "$want" "$have"); extra=$(comm -13 "$want" "$have")
n=$(wc -l < "$want")
rc=0
[ -n "$missing" ] && { echo "missing public symbols:"; echo "$missing" | head -20; rc=1; }
[ -n "$extra" ] && { echo "symbols that should not be exported:"; echo "$extra" | head -20; rc=1; }
# one implementation behind the spellings: all at the address of lower_
nm -D --defined-only "$lib" | awk '{print $3, $1}' | sort > "$have"
while read -r f; do
  F=${f^^}
  addrs=$(for s in "$f" "${f}_" "$F" "${F}_" $([[ $f == *_* ]] && echo "${f}__"); do
    awk -v s="$s" '$1 == s {print $2}' "$have"; done | sort -u | wc -l)
  [ "$addrs" = 1 ] || { echo "$f: its Fortran spellings are $addrs different functions"; rc=1; }
done < "$fnames"
[ $rc = 0 ] && echo "all $n public BLACS symbols exported (every Fortran spelling an alias of one function), nothing else"
rm -f "$want" "$have" "$fnames"
exit $rc
