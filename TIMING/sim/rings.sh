#!/usr/bin/env bash
# rings.sh -- the ring broadcasts 'I', 'S', 'M' (BLACS_SET 11 = 2 rings) on
# long vectors in SimGrid SMPI, against their cost models and against
# hops * T_p2p(n), the time of forwarding the whole vector hop by hop.
#
#   TIMING/sim/rings.sh BUILDDIR OUTDIR
#
# BUILDDIR holds simdrv (make simulate-bins).  1 x p grids, p = 8 and 16
# (RINGS_P), n = 2^15 and 2^17 doubles (RINGS_N), source rank 0, on the flat
# 256-node cluster (TIMING/platforms/modern_flat_256.xml; RINGS_PLATFORM
# for another file) with the SMPI configuration of TIMING/sim/smpi.sh.  As
# in models.sh, the models and the library see T_c = T_s = alpha + beta n
# with alpha the simulated one-way latency of that p.  Prints one line per
# (p, top, n) and writes OUTDIR/rings.csv.
set -u
B=${1:?build dir}; OUT=${2:?out dir}
PF=${RINGS_PLATFORM:-TIMING/platforms/modern_flat_256.xml}
PS=${RINGS_P:-8 16}; N=${RINGS_N:-32768,131072}
BC=0.00064 G=0.002 LBETA=0.00008 LGAMMA=0.00025 TMO=${SIM_TIMEOUT:-900}
. TIMING/sim/smpi.sh
mkdir -p "$OUT"; : > "$OUT/rings_raw.csv"
for p in $PS; do
  sim_run "$p" "$PF" "$OUT" "$TMO" "$B/simdrv" run -k p2p -n 1 -p "1,$BC,1,$BC,$G" -l a > "$OUT/p2p1_$p.csv" 2> /dev/null
  ac=$(sim_alpha "$OUT/p2p1_$p.csv" $BC)
  for k in p2p bcast; do
    BLACS_ALPHA=$ac BLACS_SEND_ALPHA=$ac BLACS_POST_ALPHA=0 BLACS_BETA=$LBETA BLACS_GAMMA=$LGAMMA \
      sim_run "$p" "$PF" "$OUT" "$TMO" "$B/simdrv" --cfg=smpi/coll-selector:mpich \
      run -k $k -t ISM -b 2 -n "$N" -p "$ac,$BC,$ac,$BC,$G,0" -l rings >> "$OUT/rings_raw.csv" 2> "$OUT/err_${p}_$k"
  done
done
grep -E '^rings,(p2p|bcast),' "$OUT/rings_raw.csv" | awk -F, -v csv="$OUT/rings.csv" '
  $2 == "p2p" { tp[$4, $5] = $7; next }
  { row[++nr] = $0 }
  END {
    print "p,top,n,sim_us,model_us,hops,hops_tp2p_us,check" > csv
    printf "%3s %3s %7s %10s %10s %5s %12s %9s %s\n", "p", "top", "n", "sim_us", "model_us", "hops", "hops*Tp2p", "sim/hTc", "check"
    for (i = 1; i <= nr; i++) {
      split(row[i], f, ","); p = f[4]; t = f[3]; n = f[5]
      h = t == "S" ? int(p / 2) : t == "M" ? int((p - 1 + 1) / 2) : p - 1
      ht = h * tp[p, n]
      printf "%3d %3s %7d %10.1f %10.1f %5d %12.1f %9.3f %s\n", p, t, n, f[7], f[9], h, ht, f[7] / ht, f[11]
      printf "%d,%s,%d,%.2f,%.2f,%d,%.2f,%s\n", p, t, n, f[7], f[9], h, ht, f[11] >> csv
    }
  }'
