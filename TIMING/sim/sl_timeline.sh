#!/bin/bash
# sl_timeline.sh OURS REF NP [TOP]: two SL_LOG timelines side by side
# (TIMING/sim/sl_wrap.c).  OURS and REF are the SL_LOG prefixes of one cell
# run with this library and with the reference BLACS (files PREFIX.<rank>:
# with SL_LOG=/tmp/x, scalapack.sh makes them /tmp/x.ours_<cell> and
# /tmp/x.ref_<cell>, <cell> as in its raw/ files, e.g. node16_flops_4x4_N2048;
# one line per BLACS call: routine scope top items start end, simulated
# seconds).  Both executables make the same calls in the same order, so
# line k of the two files of a rank is the same call.
#
# Prints, for each rank, how far ours is ahead (-) or behind (+) at the end
# of its calls, at each tenth of them and at its worst point; then, over all
# ranks, the TOP call classes (routine, scope, top, size class) whose calls
# added the most to ours' lag, as "lag added" = the change in (ours' end -
# reference's end) from the call before to this call, in microseconds.
# Size classes: items rounded down to a power of 2.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 OURS_PREFIX REF_PREFIX NP [TOP]" >&2; exit 2; }
ours=$1 ref=$2 np=$3 top=${4:-12}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for ((r = 0; r < np; r++)); do
  if [ ! -f "$ours.$r" ] || [ ! -f "$ref.$r" ]; then echo "missing $ours.$r or $ref.$r" >&2; exit 1; fi
  paste -d' ' "$ours.$r" "$ref.$r" | awk -v r="$r" -v out="$tmp" '
    function cls(n,  c) { c = 1; while (c * 2 <= n) c *= 2; return n < 1 ? 0 : c }
    {
      if ($1 != $7 || $4 != $10) { printf "rank %d line %d: the calls differ (%s %s / %s %s)\n", r, NR, $1, $4, $7, $10; exit 1 }
      lag = ($6 - $12) * 1e6
      add = lag - prev; prev = lag
      key = $1 " " $2 " " $3 " " cls($4)
      printf "%s %.3f %.3f\n", key, add, ($6 - $5 - $12 + $11) * 1e6 >> out
      lagat[NR] = lag
      if (NR == 1 || lag > worst) { worst = lag; wline = NR }
    }
    END {
      if (NR == 0) exit
      printf "rank %2d: %6d calls, ours %+8.1f us at the end (worst %+8.1f us at call %d); by tenths:", r, NR, lag, worst, wline
      for (t = 1; t <= 10; t++) printf " %+.0f", lagat[int(NR * t / 10) < 1 ? 1 : int(NR * t / 10)]
      printf "\n"
    }'
done
echo
echo "call classes that added most to ours' lag (us, summed over ranks): routine scope top items>= calls lag-added own-time-diff"
awk '{ k = $1 " " $2 " " $3 " " $4; n[k]++; a[k] += $5; d[k] += $6 }
     END { for (k in n) printf "%-28s %7d %+10.1f %+10.1f\n", k, n[k], a[k], d[k] }' "$tmp" |
  sort -k6 -g -r | head -n "$top"
