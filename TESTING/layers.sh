#!/usr/bin/env bash
# layers.sh OBJDIR -- the call graph of the library, file by file, from its
# objects' symbol references (nm): what each file of SRC/ and FORTRAN/ calls
# or reads in another.  Inline helpers count where they are expanded, so a
# header's helpers are charged to the files that use them.  Fails when
#   - files call each other in a circle (every strongly connected group of
#     two or more files is listed, with the references that close it), or
#   - a file calls into a layer it may not: an
#     algorithm into the models, the selection step or a dispatcher, the
#     core into the algorithms, ... (SRC/layers.txt lists the layers), or
#   - a file of SRC/ or FORTRAN/ is in no layer of SRC/layers.txt, or
#   - doc/internals.md's table of layers names other files than the list.
#   layers.sh OBJDIR --graph   prints the edges "from -> to: symbols" too.
set -euo pipefail
obj=${1:?usage: layers.sh OBJDIR [--graph]}
graph=${2:-}
[ -d "$obj/SRC" ] || { echo "layers.sh: no objects in $obj/SRC (build first)" >&2; exit 1; }

# layer of each file, and the layers each may call (besides its own), from
# the one list, SRC/layers.txt
src=$(cd "$(dirname "$0")/.." && pwd)
list=${LAYERS_LIST:-$src/SRC/layers.txt}  # LAYERS_LIST: another list (the test of an unlisted file)
[ -r "$list" ] || { echo "layers.sh: $list missing" >&2; exit 1; }
layer_of() {
  awk -v f="$1" '
    /^[a-z]+:/ {
      lay = $1; sub(/:$/, "", lay)
      for (i = 2; i <= NF && $i != "calls:"; i++) {
        g = $i; gsub(/\*/, ".*", g)
        if (f ~ ("^" g "$")) { print lay; exit }
      }
    }' "$list"
}
may_call() { # layer -> layers it may reference
  awk -v l="$1:" '$1 == l {
      s = $1; sub(/:$/, "", s); on = 0
      for (i = 2; i <= NF; i++) { if ($i == "calls:") { on = 1; continue } if (on && $i !~ /^\(/) s = s " " $i; if ($i ~ /^\(/) break }
      print s; exit
    }' "$list"
}

syms=$(mktemp)
trap 'rm -f "$syms"' EXIT
for c in "$src"/SRC/*.c "$src"/FORTRAN/*.c; do  # objects of today's sources only
  d=$(basename "$(dirname "$c")"); b=$(basename "$c" .c); f=$obj/$d/$b.o
  [ -e "$f" ] || { echo "layers.sh: $f missing (build first)" >&2; exit 1; }
  nm "$f" | awk -v f="$b" '$2 ~ /^[TDBRC]$/ {print "D", f, $3} $1 == "U" {print "U", f, $2}'
done > "$syms"

edges=$(awk '$1 == "D" {def[$3] = $2; next}
             {u[++n] = $2 " " $3}
             END {
               for (i = 1; i <= n; i++) {
                 split(u[i], a, " ")
                 if ((a[2] in def) && def[a[2]] != a[1]) e[a[1] " " def[a[2]]] = e[a[1] " " def[a[2]]] " " a[2]
               }
               for (k in e) print k ":" e[k]
             }' "$syms" | sort)
nedges=$(printf '%s\n' "$edges" | grep -c . || true)
nfiles=$(awk '{print $2}' "$syms" | sort -u | wc -l)
[ "$graph" = --graph ] && printf '%s\n' "$edges" | sed 's/ /: /; s/^\([^:]*\): \([^:]*\):/\1 -> \2:/'

bad=0
# every file is in the list, in one layer
for c in "$src"/SRC/*.c "$src"/FORTRAN/*.c; do
  b=$(basename "$c" .c)
  if [ -z "$(layer_of "$b")" ]; then
    echo "UNLISTED: $b.c is in no layer of SRC/layers.txt"; bad=1
  fi
done
# doc/internals.md's table of layers names the same files as the list
doc=$src/doc/internals.md
if [ -r "$doc" ]; then
  while read -r lay files; do
    want=$(tr ' ' '\n' <<< "$files" | grep . | sort | tr '\n' ' ')
    row=$(awk -F'|' -v l=" $lay " '$2 == l {print $3; exit}' "$doc")
    have=$(sed 's/SRC\///g; s/FORTRAN\///g; s/\.c\b//g; s/,/ /g' <<< "$row" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
    if [ "$want" != "$have" ]; then
      echo "DOC: doc/internals.md's layer '$lay' lists '$have', SRC/layers.txt '$want'"; bad=1
    fi
  done < <(awk '/^[a-z]+:/ {l = $1; sub(/:$/, "", l); f = ""; for (i = 2; i <= NF && $i != "calls:"; i++) f = f " " $i; print l f}' "$list")
fi
# layer rules
while IFS= read -r line; do
  [ -n "$line" ] || continue
  from=${line%% *}; rest=${line#* }; to=${rest%%:*}; what=${rest#*:}
  lf=$(layer_of "$from"); lt=$(layer_of "$to")
  case " $(may_call "$lf") " in
    *" $lt "*) ;;
    *) echo "LAYER: $from ($lf) -> $to ($lt):$what"; bad=1 ;;
  esac
done <<< "$edges"

# circles: strongly connected groups of the file graph (transitive closure)
circles=$(printf '%s\n' "$edges" | awk -F'[ :]' 'NF >= 2 {
    a = $1; b = $2; if (!(a in id)) {id[a] = ++n; name[n] = a}; if (!(b in id)) {id[b] = ++n; name[n] = b}
    r[id[a], id[b]] = 1
  }
  END {
    for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if (r[i, k]) for (j = 1; j <= n; j++) if (r[k, j]) r[i, j] = 1
    for (i = 1; i <= n; i++) {
      if (done[i]) continue
      grp = ""
      for (j = 1; j <= n; j++) if (j == i || (r[i, j] && r[j, i])) { if (r[i, j] && r[j, i]) { grp = grp " " name[j]; done[j] = 1 } }
      if (grp != "") print "CIRCLE:" grp
    }
  }')
if [ -n "$circles" ]; then
  printf '%s\n' "$circles"
  bad=1
fi
if [ $bad = 0 ]; then
  echo "layers: $nfiles files, $nedges references between files, no circle, every reference downward"
else
  echo "layers: FAILED ($nfiles files, $nedges references between files)"
  exit 1
fi
