#!/usr/bin/env bash
# man_check.sh -- the man pages (doc/man/blacs.man.in, INSTALL/mkman.sh):
# generates them into a temporary directory and fails, naming what is wrong,
# when
#   - the generator fails;
#   - a page or link page gives any warning or error with
#     groff -man -ww -z (default device and -Tutf8), with man -l, or its NAME
#     section cannot be read by lexgrog (whatis/apropos);
#   - a link page is not exactly ".so man3/<page>.3" of a real page;
#   - a routine of TESTING/exported.txt (its Fortran name in lower case, its
#     C name) has no page, or man cannot find it (MANPATH=<dir> man -w), or
#     the page it leads to does not name it in NAME, or (C) does not declare
#     it in its C synopsis;
#   - a page names a routine the library does not export;
#   - a page lacks one of NAME, SYNOPSIS (with Fortran and C forms),
#     DESCRIPTION, ARGUMENTS, ERRORS, EXAMPLE, SEE ALSO;
#   - a page refers to a page name(3) that does not exist;
#   - the C synopses do not compile against SRC/blacs.h (LP64 and ILP64;
#     needs mpicc, else that part is skipped with a note).
# Exit status 0 when all is well (a single test for run_tests.sh).
# Environment: EXPORTED (list, default TESTING/exported.txt), MAN_SOURCE
# (default doc/man/blacs.man.in), MPICC.
set -u
cd "$(dirname "$0")/.."
list=${EXPORTED:-TESTING/exported.txt}
src=${MAN_SOURCE:-doc/man/blacs.man.in}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/blacs_man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
nbad=0
bad() { nbad=$((nbad + 1)); echo "man_check: $*"; }
indent() { sed 's/^/    | /' | head -n "${1:-20}"; }

[ -r "$list" ] || { echo "man_check: cannot read $list"; exit 1; }
# groff (groff-base) and man, lexgrog (man-db) render and index the pages;
# a machine without them skips this test, and says so
for t in groff man lexgrog; do
  command -v $t > /dev/null || { echo "man_check: no $t (apt-get install groff-base man-db): skipped"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
done
listabs=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")
if ! bash INSTALL/mkman.sh -o "$tmp/man" "$src" > "$tmp/mkman.log" 2>&1; then
  echo "man_check: INSTALL/mkman.sh $src failed:"; indent < "$tmp/mkman.log"
  exit 1
fi
man3=$tmp/man/man3
cd "$tmp/man"   # .so requests are relative to the top of the man tree

# ---- pages and link pages --------------------------------------------------
# (bash built-ins in the loops: they run over some 200 files)
pages=(); links=()
declare -A target=() islink=()   # file name (no .3) -> page it shows
for f in man3/*.3; do
  n=${f#man3/}; n=${n%.3}
  mapfile -t body < "$f"
  [[ ${body[0]:-} == .so* ]] && { islink[$n]=1; links+=("$n"); } || pages+=("$n")
done
for n in "${pages[@]}"; do target[$n]=$n; done
for n in "${links[@]}"; do
  mapfile -t body < "man3/$n.3"
  t=""
  [[ ${#body[@]} == 1 && ${body[0]} =~ ^\.so\ man3/([A-Za-z0-9_]+)\.3$ ]] && t=${BASH_REMATCH[1]}
  if [ -z "$t" ]; then
    bad "link page $n.3 is not a single line \".so man3/<page>.3\":"; printf '%s\n' "${body[@]}" | indent 5; continue
  fi
  if [ ! -f "man3/$t.3" ]; then bad "link page $n.3 points to man3/$t.3, which does not exist"; continue; fi
  if [ -n "${islink[$t]:-}" ]; then bad "link page $n.3 points to man3/$t.3, itself a link"; continue; fi
  target[$n]=$t
done
[ ${#pages[@]} -gt 0 ] || { echo "man_check: no pages generated"; exit 1; }

# ---- rendering: no warning, no error ----------------------------------------
# all pages in one run of each tool (its messages name the file); if a run
# says anything, page by page, so that each message is tied to its page
render() {   # render <what> <command...> -- files from the array "files"
  local what=$1; shift
  local out
  out=$("$@" "${files[@]}" 2>&1 >/dev/null)
  [ -z "$out" ] && return
  for f in "${files[@]}"; do
    out=$("$@" "$f" 2>&1 >/dev/null)
    [ -n "$out" ] && { bad "$what ${f#man3/}:"; indent <<<"$out"; f=${f#man3/}; rfail[${f%.3}]=1; }
  done
}
declare -A rfail=()   # pages that rendered with messages
files=(); for n in "${pages[@]}"; do files+=("man3/$n.3"); done
render "groff -man -ww -z" groff -man -ww -z
render "groff -man -ww -z -Tutf8" groff -man -ww -z -Tutf8
MANWIDTH=80 render "man -l" man --warnings=w -l
# link pages through soelim, but not those of a page reported already
files=(); for n in "${links[@]}"; do [ -n "${target[$n]:-}" ] && [ -z "${rfail[${target[$n]}]:-}" ] && files+=("man3/$n.3"); done
[ ${#files[@]} -gt 0 ] && render "groff -s -man -ww -z (a link page)" groff -s -man -ww -z
declare -A names=()   # page -> the names its NAME section gives (lexgrog, as whatis reads it)
for n in "${pages[@]}"; do
  f=man3/$n.3
  if lex=$(lexgrog "$f" 2>&1); then
    names[$n]=$(sed -n 's/^[^:]*: "\([A-Za-z0-9_]*\) - .*/\1/p' <<<"$lex")
  else
    bad "lexgrog cannot read the NAME section of $n.3:"; indent <<<"$lex"
  fi
  grep -q '^@\|@[vVTFD]@' "$f" && { bad "$n.3 holds an unexpanded directive:"; grep -n '^@\|@[vVTFD]@' "$f" | indent 5; }
done

names_of() { printf '%s\n' "${names[$1]:-}"; }
# is word $1 one of the lines of $2
inlines() { [[ $'\n'$2$'\n' == *$'\n'$1$'\n'* ]]; }
# the C synopsis of a page (its .nf blocks), roff escapes removed
csyn_of() {
  awk '/^\.SH/ { syn = ($0 ~ /^\.SH SYNOPSIS/); c = 0; nf = 0; next }
       syn && /^\.SS/ { c = ($0 ~ /^\.SS C[ \t]*$/); next }
       /^\.nf/ { nf = 1; next }
       /^\.fi/ { nf = 0; next }
       syn && c && nf && !/^\./' "man3/$1.3" |
    sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' -e 's/\\&//g'
}

# ---- every exported routine has a page --------------------------------------
want=$tmp/want; : > "$want"
while read -r name kind; do
  case $kind in *F*) echo "$name" >> "$want" ;; esac
  case $kind in *C*) echo "C$name" >> "$want" ;; esac
done < <(sed -e 's/#.*//' "$listabs" | awk 'NF >= 2')
nf=0; nc=0
declare -A csyn_done=() csyn=() exported=() found=()
# where man finds each name (one run; one by one if it misses any)
mapfile -t wl < "$want"
if paths=$(MANPATH=$tmp/man man -w "${wl[@]}" 2>/dev/null) && [ "$(wc -l <<<"$paths")" = ${#wl[@]} ]; then
  i=0; while read -r p; do found[${wl[$i]}]=$p; i=$((i + 1)); done <<<"$paths"
else
  for r in "${wl[@]}"; do found[$r]=$(MANPATH=$tmp/man man -w "$r" 2>&1); done
fi
while read -r r; do
  exported[$r]=1
  case $r in C*) nc=$((nc + 1)) ;; *) nf=$((nf + 1)) ;; esac
  if [ ! -f "man3/$r.3" ]; then bad "no page for $r (exported, $list): man3/$r.3 missing"; continue; fi
  t=${target[$r]:-}
  [ -n "$t" ] || continue   # a broken link, reported above
  [ "${found[$r]}" = "$tmp/man/man3/$t.3" ] || bad "man -w $r finds \"${found[$r]}\", not man3/$t.3"
  inlines "$r" "${names[$t]:-}" || bad "page $t.3 (shown for $r) does not name $r in its NAME section"
  if [[ $r == C* ]]; then
    [ -n "${csyn_done[$t]:-}" ] || { csyn[$t]=$(csyn_of "$t"); csyn_done[$t]=1; }
    [[ ${csyn[$t]} =~ (^|[^A-Za-z0-9_])$r\( ]] || bad "page $t.3 (shown for $r) does not declare $r in its C synopsis"
  fi
done < "$want"

# ---- no page for a routine the library does not export -----------------------
# (a page that names only itself and no exported routine is an overview)
for n in "${pages[@]}"; do
  [ "$(names_of "$n")" = "$n" ] && [ -z "${exported[$n]:-}" ] && continue
  for r in $(names_of "$n"); do
    [ -n "${exported[$r]:-}" ] || bad "page $n.3 names $r, which $list does not list"
  done
done

# ---- sections and cross references --------------------------------------------
for n in "${pages[@]}"; do
  mapfile -t body < "man3/$n.3"
  text=$(printf '%s\n' "${body[@]}")
  if [ -n "${csyn_done[$n]:-}" ] || [ -n "${exported[$n]:-}" ]; then   # a routine page
    heads=$(printf '%s\n' "${body[@]}" | awk '/^\.SH/ {syn = ($0 ~ /^\.SH SYNOPSIS/); print; next} syn && /^\.SS/ {print "SYNOPSIS" $0}')
    for s in NAME SYNOPSIS DESCRIPTION ARGUMENTS ERRORS EXAMPLE "SEE ALSO"; do
      inlines ".SH $s" "$heads" || bad "page $n.3 has no section $s"
    done
    for s in Fortran C; do
      inlines "SYNOPSIS.SS $s" "$heads" || bad "page $n.3 has no $s form in its SYNOPSIS"
    done
  fi
  # name(3) references: ".BR name (3)" and "\fBname\fP(3)"
  refs=$(grep -o -e '^\.BR [A-Za-z0-9_]* (3)' -e '\\fB[A-Za-z0-9_]*\\f[PR](3)' <<<"$text" | sed -e 's/^\.BR //' -e 's/^\\fB//' -e 's/\\f[PR](3)$//' -e 's/ *(3)$//' | sort -u)
  for ref in $refs; do
    [ -f "man3/$ref.3" ] || bad "page $n.3 refers to $ref(3), which does not exist"
  done
done

# ---- the C synopses against blacs.h ------------------------------------------
cc=${MPICC:-$(command -v mpicc.mpich || command -v mpicc || true)}
cnote=""
if [ -n "$cc" ] && [ ${#csyn_done[@]} -gt 0 ]; then
  { echo "#include <blacs.h>"; for t in "${!csyn_done[@]}"; do printf '%s\n' "${csyn[$t]}"; done; } | grep -v '^#include' > "$tmp/synopses.c"
  sed -i '1i #include <blacs.h>' "$tmp/synopses.c"
  for ilp in "" -DBLACS_ILP64; do
    out=$(cd "$OLDPWD" && $cc -std=c11 -Wall -fsyntax-only $ilp -ISRC "$tmp/synopses.c" 2>&1)
    [ -n "$out" ] && { bad "the C synopses do not agree with SRC/blacs.h ($cc $ilp):"; indent 30 <<<"$out"; }
  done
  cnote=", C synopses compile against SRC/blacs.h"
else
  cnote=" (C synopses not compiled: no mpicc)"
fi

if [ $nbad -gt 0 ]; then
  echo "man_check: FAILED, $nbad problems"
  exit 1
fi
echo "all ${#pages[@]} man pages and ${#links[@]} link pages render without warnings; every exported routine ($nf Fortran, $nc C names) has its page$cnote"
exit 0
