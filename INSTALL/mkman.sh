#!/usr/bin/env bash
# mkman.sh [-o OUTDIR] [-l] [SOURCE] -- the section-3 man pages of the BLACS
# from their one source, doc/man/blacs.man.in (SOURCE: another file).
#
# Writes OUTDIR/man3/<page>.3 for every page of the source (default OUTDIR:
# build/man), and for every other name a page covers -- each Fortran name in
# lower case and each C name -- a link page OUTDIR/man3/<name>.3 holding
# ".so man3/<page>.3".  The pages of an earlier run (listed in
# OUTDIR/man3/.mkman.list) are removed first, so a name dropped from the
# source leaves no stale page; nothing else in OUTDIR is touched.  Output is
# deterministic: the date and version come from the source.
#   -l  print "<file> <page it shows>" for every file written (page: itself)
#
# The format of the source is described at its top.  bash, awk and sed only.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=build/man
list=0
while getopts o:l opt; do
  case $opt in
    o) out=$OPTARG ;;
    l) list=1 ;;
    *) echo "usage: mkman.sh [-o OUTDIR] [-l] [SOURCE]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
src=${1:-$here/doc/man/blacs.man.in}
[ -r "$src" ] || { echo "mkman.sh: cannot read $src" >&2; exit 1; }
dir=$out/man3
mkdir -p "$dir"
if [ -f "$dir/.mkman.list" ]; then
  while read -r f _; do
    case $f in */*|'') continue ;; esac   # only plain names of this directory
    rm -f "$dir/$f"
  done < "$dir/.mkman.list"
fi
tmplist=$(mktemp)
trap 'rm -f "$tmplist"' EXIT

LC_ALL=C awk -v dir="$dir" -v srcname="$(basename "$src")" -v listfile="$tmplist" '
function die(msg) { printf "mkman.sh: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; failed = 1; exit 1 }
function fail(msg) { printf "mkman.sh: %s\n", msg > "/dev/stderr"; failed = 1; exit 1 }
# literal replacement of every s in t by r (no regular expressions)
function repl(t, s, r,    out, i) {
  out = ""
  while ((i = index(t, s)) > 0) { out = out substr(t, 1, i - 1) r; t = substr(t, i + length(s)) }
  return out t
}
function typesubst(t, k) {
  t = repl(t, "@v@", tl[k]); t = repl(t, "@V@", toupper(tl[k]))
  t = repl(t, "@T@", tc[k]); t = repl(t, "@F@", tf[k]); return repl(t, "@D@", td[k])
}
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# the words of a @fortran/@c line, a word holding @v@ once per type of the page
function names(p, spec,    n, w, i, k, r) {
  r = ""; n = split(spec, w, /[ \t]+/)
  for (i = 1; i <= n; i++) {
    if (w[i] == "") continue
    if (index(w[i], "@v@")) {
      if (ptypes[p] == "") fail("page " pname[p] ": " w[i] " needs @types")
      for (k = 1; k <= ntypesof[p]; k++) r = r " " typesubst(w[i], ptype[p, k])
    } else r = r " " w[i]
  }
  return trim(r)
}
# the words of "@use frag args": blanks separate them, "..." holds blanks
function usewords(s, w,    n, c) {
  n = 0
  while (s != "") {
    if (substr(s, 1, 1) == "\"") {
      c = index(substr(s, 2), "\"")
      if (c == 0) fail("unterminated \" in @use " s)
      w[++n] = substr(s, 2, c - 1); s = substr(s, c + 2)
    } else {
      c = match(s, /[ \t]/)
      if (c == 0) { w[++n] = s; s = "" } else { w[++n] = substr(s, 1, c - 1); s = substr(s, c) }
    }
    sub(/^[ \t]+/, "", s)
  }
  return n
}
# expand the lines lo..hi of the array L (a page body or a fragment) into
# the output, with @use, @each/@endeach and @index; depth guards recursion
function expand(L, lo, hi, p, k, args, depth,    i, j, line, w, n, nest, t, fr, a, m, q, ttl) {
  if (depth > 20) fail("page " pname[p] ": fragments nested too deep (a fragment using itself?)")
  for (i = lo; i <= hi; i++) {
    line = L[i]
    for (m = 1; m <= 9; m++) if (m in args) line = repl(line, "$" m, args[m])
    if (k) line = typesubst(line, k)
    if (line ~ /\$[1-9]/) fail("page " pname[p] ": argument missing for a fragment: " line)
    if (line ~ /@[vVTFD]@/) fail("page " pname[p] ": type placeholder outside @each: " line)
    if (line ~ /^@use[ \t]/) {
      n = usewords(trim(substr(line, 5)), w)
      fr = w[1]
      if (!(fr in fstart)) fail("page " pname[p] ": no fragment " fr)
      delete a
      for (m = 2; m <= n; m++) a[m - 1] = w[m]
      expand(FL, fstart[fr], fend[fr], p, k, a, depth + 1)
    } else if (line ~ /^@each[ \t]*$/) {
      if (k) fail("page " pname[p] ": @each inside @each")
      if (ptypes[p] == "") fail("page " pname[p] ": @each needs @types")
      nest = 1
      for (j = i + 1; j <= hi; j++) {
        if (L[j] ~ /^@each[ \t]*$/) nest++
        if (L[j] ~ /^@endeach[ \t]*$/ && --nest == 0) break
      }
      if (j > hi) fail("page " pname[p] ": @each without @endeach")
      for (t = 1; t <= ntypesof[p]; t++) expand(L, i + 1, j - 1, p, ptype[p, t], args, depth + 1)
      i = j
    } else if (line ~ /^@endeach[ \t]*$/) {
      fail("page " pname[p] ": @endeach without @each")
    } else if (line ~ /^@index[ \t]/) {
      q = trim(substr(line, 7))
      if (!(q in groupused)) fail("page " pname[p] ": @index " q ": no page is in that group")
      for (m = 1; m <= npages; m++) if (pgroup[m] == q) {
        ttl = plabel[m]
        print ".TP" > file
        print ".B " ttl > file
        print pbrief[m] ";" > file
        print ".BR " pname[m] " (3)." > file
      }
    } else if (line ~ /^@/) {
      fail("page " pname[p] ": unknown directive " line)
    } else print line > file
  }
}
BEGIN { npages = 0; nfl = 0; ntypes = 0; state = "out" }
# ---- reading ----------------------------------------------------------------
state == "out" {
  if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/) next
  if ($1 == "@set") { v = $0; sub(/^@set[ \t]+[^ \t]+[ \t]*/, "", v); setv[$2] = v; next }
  if ($1 == "@type") {
    n = split(substr($0, 7), f, "|")
    if (n != 4) die("@type wants letter|C type|Fortran type|description")
    ntypes++; k = trim(f[1]); typeidx[k] = ntypes
    tl[ntypes] = k; tc[ntypes] = trim(f[2]); tf[ntypes] = trim(f[3]); td[ntypes] = trim(f[4]); next
  }
  if ($1 == "@frag") {
    if (NF != 2) die("@frag wants one name")
    if ($2 in fstart) die("fragment " $2 " defined twice")
    cur = $2; fstart[cur] = nfl + 1; state = "frag"; next
  }
  if ($1 == "@page") {
    if (NF != 2) die("@page wants one name")
    if ($2 in pageof) die("page " $2 " defined twice")
    npages++; p = npages; pname[p] = $2; pageof[$2] = p; nbody[p] = 0
    pfort[p] = ""; pc[p] = ""; pbrief[p] = ""; pgroup[p] = ""; ptypes[p] = ""; ptitle[p] = ""; plabel[p] = ""
    state = "page"; next
  }
  die("outside a block: " $0)
}
state == "frag" {
  if ($0 ~ /^@end[ \t]*$/) { fend[cur] = nfl; state = "out"; next }
  FL[++nfl] = $0; next
}
state == "page" {
  if ($0 ~ /^@end[ \t]*$/) { state = "out"; next }
  d = $1; rest = $0; sub(/^[^ \t]+[ \t]*/, "", rest)
  if (d == "@fortran") { pfort[p] = pfort[p] " " rest; next }
  if (d == "@c")       { pc[p] = pc[p] " " rest; next }
  if (d == "@brief")   { pbrief[p] = rest; next }
  if (d == "@group")   { pgroup[p] = rest; groupused[rest] = 1; next }
  if (d == "@title")   { ptitle[p] = rest; next }
  if (d == "@label")   { plabel[p] = rest; next }
  if (d == "@types") {
    ptypes[p] = rest; n = split(rest, f, /[ \t]+/); ntypesof[p] = 0
    for (i = 1; i <= n; i++) if (f[i] != "") {
      if (!(f[i] in typeidx)) die("no @type " f[i])
      ptype[p, ++ntypesof[p]] = typeidx[f[i]]
    }
    next
  }
  B[p, ++nbody[p]] = $0; next
}
# ---- writing ----------------------------------------------------------------
END {
  if (failed) exit 1
  if (state != "out") fail("the last block has no @end")
  if (npages == 0) fail("no @page in the source")
  split("date version manual", need, " ")
  for (i = 1; i <= 3; i++) if (!(need[i] in setv)) fail("no @set " need[i])
  # the names of every page; each name is one file, so once in all pages
  for (p = 1; p <= npages; p++) {
    if (pbrief[p] == "") fail("page " pname[p] ": no @brief")
    if (plabel[p] == "") plabel[p] = toupper(pname[p])
    pf[p] = names(p, pfort[p]); pcn[p] = names(p, pc[p])
    all = trim(pf[p] " " pcn[p])
    if (all == "") all = pname[p]
    pall[p] = all
    n = split(all, w, " ")
    for (i = 1; i <= n; i++) {
      if (w[i] in owner) fail("name " w[i] " is in pages " pname[owner[w[i]]] " and " pname[p])
      if (w[i] !~ /^[A-Za-z0-9_]+$/) fail("page " pname[p] ": odd name " w[i])
      owner[w[i]] = p
    }
    if (pf[p] != "" && index(" " all " ", " " pname[p] " ") == 0)
      fail("page " pname[p] ": its file name is none of its routine names")
  }
  for (p = 1; p <= npages; p++) {
    file = dir "/" pname[p] ".3"
    title = ptitle[p] != "" ? ptitle[p] : toupper(pname[p])
    print ".\\\" " pname[p] ".3 -- generated by INSTALL/mkman.sh from doc/man/" srcname "; do not edit." > file
    printf ".TH %s 3 \"%s\" \"BLACS %s\" \"%s\"\n", title, setv["date"], setv["version"], setv["manual"] > file
    print ".\\\" names and code read better unhyphenated and ragged-right" > file
    print ".nh" > file
    print ".ad l" > file
    print ".SH NAME" > file
    nm = pall[p]; gsub(/ /, ", ", nm)
    print nm " \\- " pbrief[p] > file
    delete emptyargs
    for (i = 1; i <= nbody[p]; i++) BL[i] = B[p, i]
    expand(BL, 1, nbody[p], p, 0, emptyargs, 0)
    close(file)
    print pname[p] ".3 " pname[p] ".3" > listfile
    npage++
    n = split(pall[p], w, " ")
    for (i = 1; i <= n; i++) if (w[i] != pname[p]) {
      lf = dir "/" w[i] ".3"
      print ".so man3/" pname[p] ".3" > lf
      close(lf)
      print w[i] ".3 " pname[p] ".3" > listfile
      nlink++
    }
  }
  close(listfile)
  printf "mkman.sh: %d pages and %d links in %s\n", npage, nlink, dir > "/dev/stderr"
}
' "$src"
cat "$tmplist" > "$dir/.mkman.list"
[ "$list" = 1 ] && cat "$dir/.mkman.list"
exit 0
