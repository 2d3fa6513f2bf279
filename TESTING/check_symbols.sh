#!/usr/bin/env bash
# check_symbols.sh LIBDIR -- the shared library exports every public BLACS
# name of the reference (C spellings, and the Fortran ones under every
# convention a compiler uses: lower, lower_, UPPER, UPPER_, and lower__ for
# names holding an underscore), our documented extensions, Intel MKL's
# Cdsendrecv/DSENDRECV, and nothing else (no internal symbol).  Every
# Fortran spelling of a routine must be the same code (one address).
# The routines are listed in TESTING/exported.txt (EXPORTED=file: another
# list), which says for each which interfaces it has.
set -u
lib=${1:-LIB}/libblacs.so
list=${EXPORTED:-$(dirname "$0")/exported.txt}
[ -r "$list" ] || { echo "check_symbols.sh: cannot read the list of routines $list"; exit 1; }
bad=$(sed -e 's/#.*//' "$list" | awk 'NF && (NF != 2 || $2 !~ /^(FC|F|C|S)$/)')
[ -n "$bad" ] && { echo "check_symbols.sh: lines of $list not of the form <name> FC|F|C|S:"; echo "$bad"; exit 1; }
want=$(mktemp); have=$(mktemp); fnames=$(mktemp)
# <name> <interfaces> [# comment]: F Fortran spellings, C the C name C<name>,
# S the symbol <name> as it is
routines() { sed -e 's/#.*//' "$list" | awk -v k="$1" 'NF >= 2 && $2 ~ k {print $1}'; }
routines F > "$fnames"
{
  while read -r f; do
    F=${f^^}; echo "$f"; echo "${f}_"; echo "$F"; echo "${F}_"
    [[ $f == *_* ]] && echo "${f}__"
  done < "$fnames"
  routines C | sed 's/^/C/'
  routines S
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
