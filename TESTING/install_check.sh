#!/usr/bin/env bash
# install_check.sh -- installation check: "make install PREFIX=<temporary
# directory>", then a small user program (C interface, blacs.h) is built
# against the installed copy in four ways and run on 2 processes:
#   pkg-config --cflags --libs blacs, static libblacs.a and shared libblacs.so
#   plain -I<prefix>/include -L<prefix>/lib -lblacs, static and shared
# (shared ones run with LD_LIBRARY_PATH=<prefix>/lib; ldd must show the
# installed libblacs.so.1 for them and no libblacs at all for static ones).
# Ends with "N passed, M failed".  Run from the top of the source tree; uses
# MAKE, MPICC, MPIEXEC from the environment, and the MPICC=... given to the
# calling make (MAKEFLAGS), defaulting to MPICH.
set -u
cd "$(dirname "$0")/.."
fromflags() { sed -nE "s/(^|.* )$1=([^ ]*).*/\2/p" <<<"${MAKEFLAGS:-}"; }
MAKE=${MAKE:-make}
mpicc=${MPICC:-$(fromflags MPICC)}
mpicc=${mpicc:-$(command -v mpicc.mpich || command -v mpicc)}
mpiexec=${MPIEXEC:-$(command -v mpiexec.mpich || command -v mpiexec)}
case "$mpiexec" in *openmpi*|*orterun*) [[ $mpiexec == *--oversubscribe* ]] || mpiexec="$mpiexec --allow-run-as-root --oversubscribe";; esac
extra=()
[ -n "$(fromflags SANITIZE)" ] && extra=(-fsanitize=address,undefined)

pass=0; fail=0
ok()  { pass=$((pass+1)); echo "install_check: ok     $*"; }
bad() { fail=$((fail+1)); echo "install_check: FAILED $*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/blacs_install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
if $MAKE -s install PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
  ok "make install PREFIX=$prefix"
else
  bad "make install PREFIX=$prefix"; tail -20 "$tmp/install.log"
  echo "$pass passed, $fail failed"; exit 1
fi
for f in include/blacs.h lib/libblacs.a lib/libblacs.so lib/libblacs.so.1 lib/pkgconfig/blacs.pc; do
  [ -e "$prefix/$f" ] || bad "installed file $f missing"
done

cat > "$tmp/user.c" <<'EOF'
/* a BLACS user program: 1 x NP grid, integer sum over the grid */
#include <stdio.h>
#include <blacs.h>
int main(void)
{
    blacs_int me, np, ctxt, nr, nc, r, c, v[2];
    Cblacs_pinfo(&me, &np);
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    Cblacs_gridinfo(ctxt, &nr, &nc, &r, &c);
    v[0] = me + 1;
    v[1] = 1;
    Cigsum2d(ctxt, "All", " ", 2, 1, v, 2, -1, -1);
    int good = nr == 1 && nc == np && c == me && v[0] == np * (np + 1) / 2 && v[1] == np;
    if (me == 0) printf("user program: %ld processes, sum %ld: %s\n", (long)np, (long)v[0],
                        good ? "ok" : "WRONG");
    Cblacs_gridexit(ctxt);
    Cblacs_exit(0);
    return good ? 0 : 1;
}
EOF

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pcc=$(pkg-config --cflags blacs 2>&1) || bad "pkg-config --cflags blacs: $pcc"
pcl=$(pkg-config --libs blacs 2>&1) || bad "pkg-config --libs blacs: $pcl"

build_run() { # name kind(static|shared) compile-flags...
  local name=$1 kind=$2; shift 2
  local exe=$tmp/user_$name
  if ! $mpicc "$@" "${extra[@]}" > "$tmp/$name.log" 2>&1; then
    bad "$name: build: $mpicc $*"; sed 's/^/    | /' "$tmp/$name.log" | tail -10; return
  fi
  local deps; deps=$(LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$exe" 2>/dev/null | grep libblacs)
  if [ $kind = static ] && [ -n "$deps" ]; then bad "$name: static program depends on $deps"; return; fi
  if [ $kind = shared ] && ! grep -q "$prefix/lib/libblacs.so.1" <<<"$deps"; then
    bad "$name: shared program does not use the installed libblacs.so.1 (ldd: ${deps:-none})"; return
  fi
  if LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout -k 5 60 \
       $mpiexec -n 2 "$exe" > "$tmp/$name.run" 2>&1 && grep -q ': ok$' "$tmp/$name.run"; then
    ok "$name ($(grep ': ok$' "$tmp/$name.run"))"
  else
    bad "$name: run"; sed 's/^/    | /' "$tmp/$name.run" | tail -10
  fi
}
# shellcheck disable=SC2086
{
build_run pkgconfig_static static -o "$tmp/user_pkgconfig_static" "$tmp/user.c" $pcc -Wl,-Bstatic $pcl -Wl,-Bdynamic -lm
build_run pkgconfig_shared shared -o "$tmp/user_pkgconfig_shared" "$tmp/user.c" $pcc $pcl
build_run plain_static static -o "$tmp/user_plain_static" "$tmp/user.c" -I"$prefix/include" -L"$prefix/lib" -Wl,-Bstatic -lblacs -Wl,-Bdynamic -lm
build_run plain_shared shared -o "$tmp/user_plain_shared" "$tmp/user.c" -I"$prefix/include" -L"$prefix/lib" -lblacs
}
echo "$pass passed, $fail failed"
[ $fail = 0 ]
