#!/usr/bin/env bash
# models.sh -- `make bench-models`: every broadcast and combine topology
# against its own cost model in SimGrid SMPI (the goal: each within 2% of
# its model at every n, and 'A' within 5% of the best letter).
#
#   TIMING/sim/models.sh BUILDDIR OUTDIR
#
# BUILDDIR holds simdrv (make simulate-bins).  For p = 16, 64, 256 (1 x p
# grids; simdrv makes 1 x p grids only) and n = 1, 10, ..., 10^6 doubles it
# simulates every broadcast topology (' ' I D S M H F T 1-9 C P A) and every
# combine topology (' ' I D S M H F T 1-9 R B Y A), sums leave-on-all and
# leave-on-one, with the SMPI configuration of TIMING/sim/smpi.sh (bench.sh's
# SMPI table) and BLACS_SET 11-14 = 4 ('M' 4 rings, 'T' 4 branches), on
# the 256-node cluster with one distance (TIMING/platforms/modern_flat_256.xml,
# 1 us and 12.5 GB/s between any two nodes, 2 ns per double combined: what
# the one-alpha models assume) or, with MODELS_PLATFORM=fattree, on bench.sh's
# fat tree (0.5 us inside a leaf switch of 16 nodes, 1 us across), or with
# MODELS_PLATFORM=hosts on that flat cluster made of a measured machine
# (BLACS_ALPHA, BLACS_BETA, BLACS_GAMMA of the environment, as `make
# calibrate-hosts` prints them for the network test bed).  MPI's own
# collectives (TOP ' ') are SMPI's MPICH ones (smpi/coll-selector:mpich).
# The models see T_c = T_s = alpha + beta n, T_o = gamma n, with beta and
# gamma the platform's and alpha the simulated one-way latency of that p,
# and a posting cost T_p = 0 (SMPI charges nothing for posting a send; with
# every message rendezvous, a send waited for costs a whole T_c);
# the library ('A', 'P', 'Y', serial sends) is told the same machine.
#
# Writes OUTDIR/models.txt (one table per p and operation: simulated
# T_coll/T_p2p, the model's, the distance sim/model - 1, and per topology
# the largest distance; for 'A' its distance from the best letter at each n)
# and OUTDIR/models.csv:
#   platform,p,op,top,n,sim_us,model_us,p2p_us,dist,check
# (op bcast, all, one; check ok / WRONG / - when buffers are shared).
# Knobs: MODELS_P ("16 64 256"), MODELS_NMAX (10^6), MODELS_PLATFORM (flat, fattree, hosts),
# MODELS_BCAST / MODELS_COMB (the TOP letters, '_' for ' '), SIM_TIMEOUT
# (seconds per simulation, 900).
set -u
B=${1:?build dir}; OUT=${2:?out dir}
DRV=$B/simdrv
PS=${MODELS_P:-16 64 256}
NMAX=${MODELS_NMAX:-1000000}
PLATNAME=${MODELS_PLATFORM:-flat}
BTOPS=${MODELS_BCAST:-_IDSMHFT123456789CPA}
CTOPS=${MODELS_COMB:-_IDSMHFT123456789RBYA}
TMO=${SIM_TIMEOUT:-900}
# per double: 8 bytes at 12.5 GB/s; one flop at 0.5 Gflop/s
BC=0.00064 G=0.002
case $PLATNAME in
  flat) PF=TIMING/platforms/modern_flat_256.xml ;;
  fattree) PF=TIMING/platforms/modern_fattree_256.xml ;;
  hosts)
    # the flat cluster with a measured machine: BLACS_ALPHA (us), BLACS_BETA
    # and BLACS_GAMMA (us per byte) as `make calibrate-hosts` prints them
    # for the network test bed (or a real cluster): each node's link pays
    # half the latency, carries 1 / BLACS_BETA bytes per us, and a node
    # combines one double per 8 BLACS_GAMMA us
    for v in BLACS_ALPHA BLACS_BETA BLACS_GAMMA; do
      awk -v x="${!v:-}" 'BEGIN { exit !(x + 0 > 0) }' ||
        { echo "models.sh: MODELS_PLATFORM=hosts needs $v > 0 (the line make calibrate-hosts prints)"; exit 2; }
    done
    mkdir -p "$OUT"
    PF=$OUT/hosts_256.xml
    BC=$(awk -v b="$BLACS_BETA" 'BEGIN { printf "%.6g", 8 * b }')
    G=$(awk -v g="$BLACS_GAMMA" 'BEGIN { printf "%.6g", 8 * g }')
    awk -v a="$BLACS_ALPHA" -v b="$BLACS_BETA" -v g="$G" 'BEGIN {
      printf "<?xml version=\x27" "1.0\x27?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      printf "<!-- models.sh MODELS_PLATFORM=hosts: BLACS_ALPHA=%s us, BLACS_BETA=%s us/byte, %s us per double combined -->\n", a, b, g
      printf "<platform version=\"4.1\">\n  <config>\n    <prop id=\"network/model\" value=\"CM02\"/>\n"
      printf "    <prop id=\"network/crosstraffic\" value=\"0\"/>\n  </config>\n"
      printf "  <cluster id=\"hosts\" prefix=\"node-\" suffix=\"\" radical=\"0-255\" speed=\"%.6gMf\"\n", 1 / g
      printf "           bw=\"%.6gMBps\" lat=\"%.6gus\" sharing_policy=\"SPLITDUPLEX\"/>\n</platform>\n", 1 / b, a / 2
    }' > "$PF" ;;
  *) echo "models.sh: MODELS_PLATFORM is flat, fattree or hosts"; exit 2 ;;
esac
command -v smpirun > /dev/null || { echo "models.sh: smpirun not found: apt-get install -y libsimgrid-dev"; exit 2; }
[ -x "$DRV" ] || { echo "models.sh: $DRV missing (make simulate-bins builds it)"; exit 2; }
. TIMING/sim/smpi.sh
RAW=$OUT/models_raw
mkdir -p "$OUT" "$RAW"
rm -f "$RAW"/*
t0=$(date +%s)
N=1 NL=1; while [ $((NL * 10)) -le "$NMAX" ]; do NL=$((NL * 10)); N=$N,$NL; done
# the same machine as the library's settings (per byte)
LBETA=$(awk -v x="$BC" 'BEGIN { print x / 8 }') LGAMMA=$(awk -v x="$G" 'BEGIN { print x / 8 }')

# run P LOG KIND TOPS ALPHA [simdrv args]: rows appended to RAW/LOG
run() {
  local p=$1 log=$RAW/$2 k=$3 t=$4 ac=$5; shift 5
  BLACS_ALPHA=$ac BLACS_SEND_ALPHA=$ac BLACS_POST_ALPHA=0 BLACS_BETA=$LBETA BLACS_GAMMA=$LGAMMA \
    sim_run "$p" "$PF" "$RAW" "$TMO" "$DRV" --cfg=smpi/coll-selector:mpich \
    run -k "$k" -t "$t" -b 4 -n "$N" -p "$ac,$BC,$ac,$BC,$G,0" -l "$PLATNAME" "$@" >> "$log" 2>> "$log.err"
  local rc=$?
  rc=$(sim_status "$rc" "$log.err")
  [ $rc = 0 ] || echo "models.sh: simulation failed (rc $rc): p=$p $k $t; see $log.err" >&2
  return $rc
}

fail=0
for p in $PS; do
  t1=$(date +%s)
  sh=(); [ "$p" -ge 256 ] && sh=(-s) # SMPI_SHARED_MALLOC: 256 x 8 MB otherwise
  run "$p" p2p_$p p2p - 1 || { fail=1; continue; }
  ac=$(sim_alpha "$RAW/p2p_$p" $BC)
  : > "$RAW/p2p_$p"
  run "$p" p2p_$p p2p - "$ac" || fail=1
  run "$p" sim_$p bcast "$BTOPS" "$ac" "${sh[@]}" || fail=1
  run "$p" sim_$p all "$CTOPS" "$ac" "${sh[@]}" || fail=1
  run "$p" sim_$p one "$CTOPS" "$ac" "${sh[@]}" || fail=1
  echo "models.sh: p = $p simulated in $(( $(date +%s) - t1 )) s (alpha $ac us)" >&2
done

for p in $PS; do cat "$RAW/p2p_$p" "$RAW/sim_$p" 2> /dev/null; done | grep -E '^[a-z]+,(p2p|bcast|all|one),' |
awk -F, -v csv="$OUT/models.csv" -v plat="$PLATNAME" -v pf="$PF" '
  function abs(x) { return x < 0 ? -x : x }
  $2 == "p2p" { tp[$4, $5] = $7; next }
  {
    key = $4 SUBSEP $2
    if (!(key in seenk)) { seenk[key] = 1; keys[++nkey] = key }
    if (!(key SUBSEP $3 in seent)) { seent[key SUBSEP $3] = 1; tops[key, ++ntop[key]] = $3 }
    if (!($5 in seenn)) { seenn[$5] = 1; ns[++nn] = $5 }
    T[key, $3, $5] = $7; M[key, $3, $5] = $9; C[key, $3, $5] = $11
  }
  END {
    print "platform,p,op,top,n,sim_us,model_us,p2p_us,dist,check" > csv
    desc["bcast"] = "broadcast from rank 0"; desc["all"] = "sum, leave-on-all"; desc["one"] = "sum, leave-on-one (rank 0)"
    printf "Every topology against its own cost model, SimGrid SMPI, %s (%s); 1 x p grids.\n", plat, pf
    printf "Each cell: simulated T_coll/T_p2p, the model'"'"'s, and the distance simulated/model - 1 in %%;\n"
    printf "n in doubles; \"max\" the largest distance of the row; (*) more than 2%% from the model.\n"
    for (i = 1; i <= nkey; i++) {
      split(keys[i], kk, SUBSEP); p = kk[1]; op = kk[2]
      printf "\np = %d, %s (T_p2p: n=1 %.3f us, n=%d %.1f us)\n", p, desc[op], tp[p, ns[1]], ns[nn], tp[p, ns[nn]]
      printf "  %-4s", "TOP"; for (j = 1; j <= nn; j++) printf " %21s", "n=" ns[j]; printf " %8s\n", "max"
      for (t = 1; t <= ntop[keys[i]]; t++) {
        top = tops[keys[i], t]; worst = 0; wrong = ""
        printf "  %-4s", top == "_" ? "\" \"" : top
        for (j = 1; j <= nn; j++) {
          n = ns[j]; s = T[keys[i], top, n]; m = M[keys[i], top, n]; q = tp[p, n]
          if (m > 0) { d = s / m - 1; if (abs(d) > abs(worst)) worst = d; cell = sprintf("%7.2f %6.2f %+6.1f", s / q, m / q, 100 * d) }
          else { d = 0; cell = sprintf("%7.2f %6s %6s", s / q, "-", "-") }
          printf " %21s", cell
          if (C[keys[i], top, n] == "WRONG") wrong = "  WRONG RESULT"
          printf "%s,%d,%s,%s,%d,%.4f,%.4f,%.4f,%.6f,%s\n", plat, p, op, top == "_" ? " " : top, n, s, m, q, d, C[keys[i], top, n] >> csv
          if (top != "A" && top != "_" && (!((keys[i], n) in best) || s < best[keys[i], n])) { best[keys[i], n] = s; bl[keys[i], n] = top }
        }
        printf " %+7.1f%%%s%s\n", 100 * worst, (abs(worst) > 0.02 ? " (*)" : ""), wrong
        W[p, op, top] = worst
        if (!(top in seentop)) { seentop[top] = 1; alltops[++nalltop] = top }
      }
      if ((keys[i] SUBSEP "A" in seent)) {
        printf "  %-4s", "A/b"; aw = 0
        for (j = 1; j <= nn; j++) {
          n = ns[j]; d = T[keys[i], "A", n] / best[keys[i], n] - 1; if (d > aw) aw = d
          printf " %21s", sprintf("best %s  A %+6.1f%%", bl[keys[i], n], 100 * d)
        }
        printf " %+7.1f%%%s\n", 100 * aw, (aw > 0.05 ? " (*)" : "")
        AB[p, op] = aw
      }
    }
    printf "\nSummary: largest distance from the model (%%) per topology; A/b: A over the best letter\n"
    printf "  %-10s", "p op"; for (t = 1; t <= nalltop; t++) printf " %6s", alltops[t] == "_" ? "\" \"" : alltops[t]; printf " %6s\n", "A/b"
    nbad = 0; nab = 0
    for (i = 1; i <= nkey; i++) {
      split(keys[i], kk, SUBSEP); printf "  %-10s", kk[1] " " kk[2]
      for (t = 1; t <= nalltop; t++) {
        top = alltops[t]
        if (!((kk[1], kk[2], top) in W)) { printf " %6s", ""; continue }
        w = W[kk[1], kk[2], top]; printf " %6.1f", 100 * w; if (abs(w) > 0.02) nbad++
      }
      if ((kk[1], kk[2]) in AB) { printf " %6.1f", 100 * AB[kk[1], kk[2]]; if (AB[kk[1], kk[2]] > 0.05) nab++ }
      printf "\n"
    }
    printf "rows more than 2%% from their model somewhere: %d; (p, op) where A is more than 5%% over the best letter: %d\n", nbad, nab
  }' > "$OUT/models.txt"
cat "$OUT/models.txt"
echo "models.sh: $(( $(date +%s) - t0 )) s; $OUT/models.txt, $OUT/models.csv"
exit $fail
