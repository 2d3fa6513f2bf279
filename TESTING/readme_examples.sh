#!/usr/bin/env bash
# readme_examples.sh LIBDIR -- the C and Fortran programs of the README's
# "Linking" section, taken from the README as it stands, built against this
# build of the library and run on 2 processes: the C one must print the
# sum 3, the Fortran one 42 on both processes.  Compilers follow MPIEXEC
# (Open MPI's or MPICH's) and VARIANT (ilp64: 64-bit integers; san: the
# sanitizers, as the library was built).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:?usage: readme_examples.sh LIBDIR}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
case ${MPIEXEC:-} in *openmpi*) cc=mpicc.openmpi; fc=mpif90.openmpi ;; *) cc=mpicc.mpich; fc=mpif90.mpich ;; esac
command -v $cc >/dev/null || cc=mpicc; command -v $fc >/dev/null || fc=mpif90
cflags=(-I"$src/SRC"); fflags=()
case ${VARIANT:-} in *ilp64*) cflags+=(-DBLACS_ILP64); fflags+=(-fdefault-integer-8) ;; esac
case ${VARIANT:-} in *san*) cflags+=(-fsanitize=address,undefined); fflags+=(-fsanitize=address,undefined) ;; esac
# the indented blocks: from "#include <stdio.h>" to the first "    }" at
# column 4, and from "program hello" to "end program hello"
sed -n '/^    #include <stdio.h>$/,/^    }$/s/^    //p' "$src/README" > "$tmp/hello.c"
sed -n '/^    program hello$/,/^    end program hello$/s/^    //p' "$src/README" > "$tmp/hello.f90"
rc=0
[ "$(wc -l < "$tmp/hello.c")" -ge 10 ] || { echo "readme: no C program found in README"; exit 1; }
[ "$(wc -l < "$tmp/hello.f90")" -ge 10 ] || { echo "readme: no Fortran program found in README"; exit 1; }
$cc -std=c11 -Wall -Wextra -Werror "${cflags[@]}" -o "$tmp/hello_c" "$tmp/hello.c" "$lib/libblacs.a" -lm \
  || { echo "readme: the C program does not build"; exit 1; }
$fc -Wall "${fflags[@]}" -o "$tmp/hello_f" "$tmp/hello.f90" "$lib/libblacs.a" -lm \
  || { echo "readme: the Fortran program does not build"; exit 1; }
run() { timeout -k 5 60 ${MPIEXEC:-mpiexec} -n 2 "$@" 2>&1; }
out=$(run "$tmp/hello_c"); echo "$out"
grep -q '^2 processes, sum 3$' <<< "$out" || { echo "readme: the C program did not print the sum 3"; rc=1; }
out=$(run "$tmp/hello_f"); echo "$out"
[ "$(grep -c 'has *42\.0' <<< "$out")" = 2 ] || { echo "readme: the Fortran program did not print 42 twice"; rc=1; }
[ $rc = 0 ] && echo "readme: both programs of the README build and run"
exit $rc
