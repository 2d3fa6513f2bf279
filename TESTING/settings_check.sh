#!/usr/bin/env bash
# settings_check.sh -- the table of settings (SRC/settings.def) is the one
# description of the BLACS_* environment variables:
#   - doc/settings.md is what `make settings-doc` makes from it, unchanged;
#   - no file of SRC/ or FORTRAN/ but env.c calls getenv, so no variable is
#     read past the table;
#   - every BLACS_<NAME> that the library's code spells as a string and
#     that is not a routine is in the table (a variable read some other way
#     would still be named somewhere).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rc=0
${HOSTCC:-cc} -std=c11 -O1 -Wall -Wextra -Werror -I"$src/SRC" -o "$tmp/settings_doc" "$src/INSTALL/settings_doc.c" \
  || { echo "settings: INSTALL/settings_doc.c does not build"; exit 1; }
"$tmp/settings_doc" > "$tmp/settings.md"
if ! diff -u "$src/doc/settings.md" "$tmp/settings.md" > "$tmp/diff"; then
  echo "settings: doc/settings.md differs from the table (run make settings-doc):"; head -40 "$tmp/diff"; rc=1
fi
readers=$(grep -lE '\bgetenv *\(' "$src"/SRC/*.c "$src"/SRC/*.h "$src"/FORTRAN/*.c "$src"/FORTRAN/*.h 2>/dev/null | grep -v '/SRC/env\.c$' || true)
if [ -n "$readers" ]; then
  echo "settings: getenv outside SRC/env.c:"; grep -nE '\bgetenv *\(' $readers; rc=1
fi
names=$(sed -n 's/^BI_SETTING(\([A-Z0-9_]*\),.*/BLACS_\1/p' "$src/SRC/settings.def" | sort -u)
n=$(printf '%s\n' "$names" | grep -c .)
[ "$n" -ge 20 ] || { echo "settings: only $n settings read from SRC/settings.def"; rc=1; }
# routine names and other BLACS_ words that are not variables
notvar='^BLACS_(ABORT|BARRIER|EXIT|FREEBUFF|GET|GRIDEXIT|GRIDINFO|GRIDINIT|GRIDMAP|PCOORD|PINFO|PNUM|SET|SETUP|LASTSRC|ILP64|INT|H|API|VERSION)$'
spelled=$(cat "$src"/SRC/*.c "$src"/FORTRAN/*.c | grep -oE '"BLACS_[A-Z0-9_]+' | tr -d '"' | sort -u | grep -vE "$notvar" || true)
for v in $spelled; do
  printf '%s\n' "$names" | grep -qx "$v" || { echo "settings: $v is spelled in SRC/ or FORTRAN/ but is not in SRC/settings.def"; rc=1; }
done
[ $rc = 0 ] && echo "settings: $n variables, doc/settings.md matches the table, getenv in env.c only"
exit $rc
