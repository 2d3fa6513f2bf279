#!/usr/bin/env bash
# run_fmangle.sh BINARY KIND -- runs one build of TESTING/fmangle.f90 (one MPI
# process of it).  KIND says how it was compiled: default (blacs_pinfo_),
# two (-fsecond-underscore: blacs_pinfo__, dgesd2d_) or none
# (-fno-underscoring: blacs_pinfo, dgesd2d).  A binary linked against
# libblacs.so is first checked to import exactly those spellings from it, so
# the test cannot pass by the flags being ignored.
set -u
bin=$1; kind=$2
case $kind in
  default) want="blacs_pinfo_ blacs_gridinit_ dgesd2d_ dsendrecv_" ;;
  two)     want="blacs_pinfo__ blacs_gridinit__ dgesd2d_ dsendrecv_" ;;
  none)    want="blacs_pinfo blacs_gridinit dgesd2d dsendrecv" ;;
  *) echo "run_fmangle: unknown kind $kind" >&2; exit 2 ;;
esac
if ldd "$bin" | grep -q 'libblacs\.so'; then
  undef=$(nm -D --undefined-only "$bin" | awk '{print $2}')
  for s in $want; do
    grep -qx "$s" <<<"$undef" || { echo "$bin does not import $s (imports: $(grep -iE 'blacs_pinfo|dgesd2d' <<<"$undef" | tr '\n' ' '))"; exit 1; }
  done
fi
exec "$bin"
