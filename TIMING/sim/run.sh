#!/usr/bin/env bash
# run.sh -- the SimGrid SMPI experiments of `make simulate`.
#
#   TIMING/sim/run.sh BUILDDIR OUTDIR
#
# BUILDDIR holds simdrv (TIMING/sim/simdrv.c + the library sources, built by
# smpicc; see TIMING/simulate.mk).  Writes under OUTDIR:
#   priv.txt              privatisation check (64 ranks)
#   fig7.csv/.txt/.png    LAWN 29 figure 7 on the simulated 64-node iPSC/860
#   lawn73_<m>_{bcast,comb}.csv, lawn73.txt, lawn73_<m>_{bcast,comb}.png
#                         LAWN 73 surveys on the four 32-node machines, with
#                         the model's prediction and the relative error
#   collmark.csv/.txt, collmark_{bcast,sum}_p<P>.png
#                         T_coll(n,p)/T_p2p(n) on the 256-node modern cluster
#   bench_sim.csv         the CollMark rows in the bench.csv columns
#   trees.csv/.txt        '1' and 'H' broadcasts and the '1' leave-on-all sum
#                         against the reference BLACS's serial schedules
#                         (p = 16 and 64), with their checks
#   raw/                  every simulation's output
# Everything is simulated time: host code costs nothing
# (smpi/simulate-computation:no), combines pay gamma per item as flops
# (simops.c), so two runs give identical numbers.
# Knobs (environment): SIM_QUICK=1 (small sizes: the smoke test),
# SIM_TIMEOUT (seconds per simulation, default 900).
set -u
B=${1:?build dir}; OUT=${2:?out dir}
PLAT=TIMING/platforms
RAW=$OUT/raw
mkdir -p "$OUT" "$RAW"
TMO=${SIM_TIMEOUT:-900}
QUICK=${SIM_QUICK:-}
DRV=$B/simdrv

for t in smpirun smpicc; do
  command -v $t >/dev/null || { echo "run.sh: $t not found: install SimGrid (apt-get install -y libsimgrid-dev)"; exit 2; }
done
[ -x "$DRV" ] || { echo "run.sh: $DRV missing (make simulate builds it)"; exit 2; }
HAVE_GP=1; command -v gnuplot >/dev/null || { HAVE_GP=; echo "run.sh: gnuplot not found: tables and CSV only, no PNG plots (apt-get install -y gnuplot)"; }

# the simulation options (SIMCFG) and sim_hosts
. TIMING/sim/smpi.sh
hosts() { sim_hosts "$B" "$1"; }
# sim NP PLATFORM LOGNAME [extra smpirun cfg...] -- ARGS: simdrv's rows appended to $RAW/LOGNAME
sim() {
  local np=$1 pf=$2 log=$RAW/$3; shift 3
  local cfg=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do cfg+=("$1"); shift; done
  shift
  sim_run "$np" "$PLAT/$pf.xml" "$B" "$TMO" "$DRV" "${cfg[@]}" "$@" >> "$log" 2>> "$log.err"
  local rc=$?
  rc=$(sim_status "$rc" "$log.err")
  if [ $rc != 0 ]; then echo "run.sh: simulation failed (rc $rc): $pf np=$np $*; see $log.err" >&2; return $rc; fi
}
rows() { grep -E '^[A-Za-z0-9_]+,(bcast|all|one|mpibcast|mpiallreduce|mpireduce|p2p|blacsp2p),' "$@"; }
HDR="label,kind,top,np,n,bytes,max_us,src_us,pred_max_us,pred_src_us,check"
rm -f "$RAW"/* "$OUT"/*.dat
t00=$(date +%s)

# ---- 1. privatisation ---------------------------------------------------
echo "== privatisation of global state (64 ranks, smpi/privatization:dlopen)"
timeout -k 5 60 smpirun -np 64 -platform $PLAT/ipsc860_lawn29_64.xml -hostfile "$(hosts 64)" \
  "$DRV" "${SIMCFG[@]}" priv > "$OUT/priv.txt" 2>&1
rc=$?
grep -E '^privatisation' "$OUT/priv.txt"
if [ $rc != 0 ] || ! grep -q '^privatisation ok' "$OUT/priv.txt"; then
  echo "run.sh: the library's globals are not private per rank: results would be wrong"; exit 1
fi

# ---- 2. LAWN 29 figure 7 -------------------------------------------------
echo "== LAWN 29 figure 7: 64-node iPSC/860 (alpha 525 us, beta 2 us, gamma 0.35 us per item)"
if [ -n "$QUICK" ]; then F7N=0,100,500,2000; else F7N=0,25,50,75,100,150,200,250,300,400,500,600,700,800,900,1000,1200,1400,1600,1800,2000,2048; fi
# the hybrid's switch reads these (per byte; single precision: 4 bytes)
BLACS_ALPHA=525 BLACS_BETA=0.5 BLACS_GAMMA=0.0875 \
  sim 64 ipsc860_lawn29_64 fig7.raw --cfg=smpi/coll-selector:mpich -- run -k all -t 1HRY -T s -n $F7N -p 525,2.0,525,2.0,0.35 -l fig7 || exit 1
{ echo "$HDR"; rows "$RAW/fig7.raw"; } > "$OUT/fig7.csv"
awk -F, -v out="$OUT/fig7.dat" '
  NR > 1 { n[$5] = 1; o[$3, $5] = $7; p[$3, $5] = $9; if ($11 == "WRONG") bad = 1 }
  END {
    printf "LAWN 29 figure 7, simulated: combine-to-all (global sum of single-precision vectors) on a\n"
    printf "64-node hypercube, alpha = 525 us, beta = 2.0 us, gamma = 0.35 us per item.  Times in ms.\n"
    printf "v1 = TOP 1 (tree gather + broadcast), v2 = H (bidirectional exchange), v3 = R (recursive\n"
    printf "halving/doubling), hybrid = Y (Theorem 1 switch).  pred = LAWN 29 model (the library cost models).\n\n"
    printf "%6s | %8s %8s | %8s %8s | %8s %8s | %8s %8s | %7s %7s\n", "n", "v1 pred", "v1 obs", "v2 pred", "v2 obs",
           "v3 pred", "v3 obs", "hyb pred", "hyb obs", "obs/prd", "hyb-best"
    m = 0; for (k in n) ns[++m] = k + 0
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (ns[j] < ns[i]) { t = ns[i]; ns[i] = ns[j]; ns[j] = t }
    worst = 0; viol = 0
    for (i = 1; i <= m; i++) {
      k = ns[i]
      best = o["1", k]; if (o["H", k] < best) best = o["H", k]; if (o["R", k] < best) best = o["R", k]
      pbest = p["1", k]; if (p["H", k] < pbest) pbest = p["H", k]; if (p["R", k] < pbest) pbest = p["R", k]
      # obs/pred worst over the four versions
      r = 1
      split("1 H R Y", v, " ")
      for (q = 1; q <= 4; q++) { x = o[v[q], k] / p[v[q], k]; if ((x > 1 ? x - 1 : 1 - x) > (r > 1 ? r - 1 : 1 - r)) r = x }
      printf "%6d | %8.2f %8.2f | %8.2f %8.2f | %8.2f %8.2f | %8.2f %8.2f | %7.3f %+7.2f\n", k,
             p["1", k] / 1000, o["1", k] / 1000, p["H", k] / 1000, o["H", k] / 1000, p["R", k] / 1000, o["R", k] / 1000,
             p["Y", k] / 1000, o["Y", k] / 1000, r, (o["Y", k] - best) / 1000
      printf "%d %g %g %g %g %g %g %g %g\n", k, p["1", k] / 1000, o["1", k] / 1000, p["H", k] / 1000, o["H", k] / 1000,
             p["R", k] / 1000, o["R", k] / 1000, p["Y", k] / 1000, o["Y", k] / 1000 > out
      if (k >= 100) { d = (r > 1 ? r - 1 : 1 - r); if (d > worst) worst = d }
      allow = p["Y", k] - pbest; if (allow < 0) allow = 0
      if (o["Y", k] - best > allow + 0.02 * best) viol++
    }
    printf "\nobs/prd: the version farthest from its prediction at that n.\n"
    printf "hyb-best: hybrid minus the best observed of v1-v3 (ms).\n"
    printf "check: observed/predicted within 10%% for n >= 100: %s (worst %.1f%%)\n", worst <= 0.10 ? "yes" : "NO", 100 * worst
    printf "check: hybrid never slower than the best other version by more than the model says (+2%%): %s\n", viol ? "NO" : "yes"
    printf "check: every result correct: %s\n", bad ? "NO" : "yes"
  }' "$OUT/fig7.csv" > "$OUT/fig7.txt"
cat "$OUT/fig7.txt"
if [ -n "$HAVE_GP" ]; then
  gnuplot -e "dat='$OUT/fig7.dat'; out='$OUT/fig7.png'" TIMING/sim/fig7.gp 2>>"$RAW/gnuplot.err"
fi

# ---- 3. LAWN 73 surveys ----------------------------------------------------
echo "== LAWN 73 surveys: 32-node i860, Paragon, CM-5, SP1 (system T_c, T_s, T_o fits)"
if [ -n "$QUICK" ]; then L73N=0,5000,50000; else L73N=0,5000,10000,15000,20000,25000,30000,35000,40000,45000,50000; fi
declare -A MAC=([i860]="200,2.8576,48,2.8573,0.4145" [paragon]="212,0.2049,109,0.1957,0.4506"
                [cm5]="169,0.9118,150,0.9164,1.0706" [sp1]="772,1.14,524,1.1165,0.1052")
# the paper's "best" broadcast topology per machine (4.4.2: hypercube on the
# i860 and SP1, 1-tree on the Paragon and CM-5) and its tables 11 and 15
declare -A BEST=([i860]=H [paragon]=1 [cm5]=1 [sp1]=H)
declare -A T11=([i860]="2.95 3.16 4.18 3.56" [paragon]="10.40 4.60 10.00 6.84" [cm5]="1.71 2.07 2.45 5.61" [sp1]="26.55 44.41 26.76 42.64")
declare -A T15=([i860]="10.72 3.05" [paragon]="78.16 19.99" [cm5]="7.04 7.98" [sp1]="55.08 45.13")
BTOPS="_IDSMH1234FCPA"   # M: 3 rings (BLACS_SET 11 = 3), as the paper's 3-ring
CTOPS="_IM1234HRBYA"
: > "$OUT/lawn73.txt"
for mach in i860 paragon cm5 sp1; do
  pf=lawn73_${mach}_32
  IFS=, read -r ac bc as bs g <<< "${MAC[$mach]}"
  # the automatic choices ('A', 'P', 'Y') see this machine
  export BLACS_ALPHA=$ac BLACS_SEND_ALPHA=$as BLACS_BETA=$(awk -v b="$bc" 'BEGIN{print b/8}') \
         BLACS_GAMMA=$(awk -v b="$g" 'BEGIN{print b/8}')
  sim 32 $pf l73_$mach.raw --cfg=smpi/coll-selector:mpich -- run -k bcast -t "$BTOPS" -b 3 -n $L73N -p "${MAC[$mach]}" -l $mach || exit 1
  sim 32 $pf l73_$mach.raw --cfg=smpi/coll-selector:mpich -- run -k all -t "$CTOPS" -b 3 -n $L73N -p "${MAC[$mach]}" -l $mach || exit 1
  sim 32 $pf l73_$mach.raw --cfg=smpi/coll-selector:mpich -- run -k mpibcast -n $L73N -p "${MAC[$mach]}" -l $mach || exit 1
  sim 32 $pf l73_$mach.raw --cfg=smpi/coll-selector:mpich -- run -k mpiallreduce -n $L73N -p "${MAC[$mach]}" -l $mach || exit 1
  unset BLACS_ALPHA BLACS_SEND_ALPHA BLACS_BETA BLACS_GAMMA
  { echo "$HDR"; rows "$RAW/l73_$mach.raw" | grep -E '^[a-z0-9]+,(bcast|mpibcast),'; } > "$OUT/lawn73_${mach}_bcast.csv"
  { echo "$HDR"; rows "$RAW/l73_$mach.raw" | grep -E '^[a-z0-9]+,(all|mpiallreduce),'; } > "$OUT/lawn73_${mach}_comb.csv"
  awk -F, -v mach=$mach -v best=${BEST[$mach]} -v t11="${T11[$mach]}" -v t15="${T15[$mach]}" \
      -v dat="$OUT/lawn73_$mach" '
    FNR == 1 { f++; next }
    {
      key = $2 SUBSEP $3; if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
      if ($11 == "WRONG") wrong[key] = 1
      k = $5 + 0
      # the paper: RE over the 11 points, N = 0 left out; broadcasts divide by
      # the observed time (table 11), combines by the predicted (table 15)
      if (k > 0 && $9 > 0) {
        den = ($2 == "bcast") ? $7 : $9; e = ($7 - $9) / den; if (e < 0) e = -e
        if (e > re[key]) re[key] = e
        # a source that returns at once (simulated 0) has no relative error
        if ($2 == "bcast" && $8 > 0) { es = ($8 - $10) / $8; if (es < 0) es = -es; if (es > res[key]) res[key] = es; hasres[key] = 1 }
      }
      if (k == 50000) { t50[key] = $7; p50[key] = $9 }
      f0 = ($2 == "bcast" || $2 == "mpibcast") ? "_bcast.dat" : "_comb.dat"
      sn = ($3 == "_") ? "blank" : $3; if ($2 ~ /^mpi/) sn = "MPI"
      pv = ($9 > 0) ? $9 / 1000 : "NaN"
      printf "%s %d %g %s\n", sn, k, $7 / 1000, pv >> (dat f0)
    }
    END {
      split(t11, a, " "); split(t15, c, " ")
      printf "\n%s, 32 nodes: broadcasts from rank 0 (max time over the processes; src = the source)\n", mach
      printf "  %-4s %-24s %10s %10s %9s %9s\n", "TOP", "", "T(50000)ms", "pred ms", "RE max", "RE src"
      for (i = 1; i <= nk; i++) {
        split(order[i], kk, SUBSEP); if (kk[1] != "bcast" && kk[1] != "mpibcast") continue
        name = kk[1] == "mpibcast" ? "MPI_Bcast (MPICH schedule, simmpi.c)" : (kk[2] == "_" ? "\" \" (MPI inside BLACS)" : "")
        if (kk[1] == "bcast" && kk[2] == "M") name = "3-ring (paper: 3-RING)"
        if (kk[1] == "bcast" && kk[2] == best) name = name "paper: \"BEST\""
        c1 = (kk[1] == "mpibcast") ? "MPI" : kk[2]
        c3 = (p50[order[i]] > 0) ? sprintf("%.2f", p50[order[i]] / 1000) : "-"
        c4 = (kk[1] == "mpibcast") ? "-" : sprintf("%.2f", 100 * re[order[i]])
        c5 = (kk[1] == "mpibcast" || !hasres[order[i]]) ? "-" : sprintf("%.2f", 100 * res[order[i]])
        c6 = wrong[order[i]] ? "  WRONG RESULT" : ""
        printf "  %-4s %-24s %10.2f %10s %8s%% %8s%%%s\n", c1, name, t50[order[i]] / 1000, c3, c4, c5, c6
      }
      printf "  paper, table 11 (RE src / max): 3-ring %s%% / %s%%, best %s%% / %s%%\n", a[1], a[2], a[3], a[4]
      printf "\n%s, 32 nodes: leave-on-all sums (max time; RE relative to the prediction, as table 15)\n", mach
      printf "  %-4s %-24s %10s %10s %9s\n", "TOP", "", "T(50000)ms", "pred ms", "RE"
      for (i = 1; i <= nk; i++) {
        split(order[i], kk, SUBSEP); if (kk[1] != "all" && kk[1] != "mpiallreduce") continue
        name = kk[1] == "mpiallreduce" ? "MPI_Allreduce (mpich)" : ""
        if (kk[2] == "H" && kk[1] == "all") name = "bidir. exchange (paper)"
        if (kk[2] == "1" && kk[1] == "all") name = "1-tree (paper)"
        if (kk[2] == "_" && kk[1] == "all") name = "\" \" (MPI inside BLACS)"
        c1 = (kk[1] == "mpiallreduce") ? "MPI" : kk[2]
        c3 = (p50[order[i]] > 0) ? sprintf("%.2f", p50[order[i]] / 1000) : "-"
        c4 = (kk[1] == "mpiallreduce") ? "-" : sprintf("%.2f", 100 * re[order[i]])
        c6 = wrong[order[i]] ? "  WRONG RESULT" : ""
        printf "  %-4s %-24s %10.2f %10s %8s%%%s\n", c1, name, t50[order[i]] / 1000, c3, c4, c6
      }
      printf "  paper, table 15 (RE): bidirectional exchange %s%%, 1-tree %s%%\n", c[1], c[2]
    }' /dev/null "$OUT/lawn73_${mach}_bcast.csv" "$OUT/lawn73_${mach}_comb.csv" >> "$OUT/lawn73.txt"
done
cat "$OUT/lawn73.txt"
if [ -n "$HAVE_GP" ]; then
  for mach in i860 paragon cm5 sp1; do for w in bcast comb; do
    gnuplot -e "dat='$OUT/lawn73_${mach}_$w.dat'; out='$OUT/lawn73_${mach}_$w.png'; ttl='$mach 32 nodes, $w'" \
      TIMING/sim/survey.gp 2>>"$RAW/gnuplot.err"
  done; done
fi

# ---- 4. CollMark on the modern cluster -----------------------------------
echo "== CollMark: T_collective(n,p) / T_p2p(n), 256-node fat tree (1 us, 12.5 GB/s)"
if [ -n "$QUICK" ]; then CMP="16"; CMN=1,1024,65536; else CMP="16 64 256"; CMN=1,1024,32768,1048576; fi
# every topology at p = 16; at 64 and 256 ranks (the 20-minute budget) the
# reference-style trees, the hypercube, the long-vector algorithms and 'A'
tops_for() { # KIND P
  if [ "$2" -le 16 ]; then case $1 in bcast) echo _IDSMHFT123456789CPA;; *) echo _IDSMHFT123456789RBYA;; esac
  else case $1 in bcast) echo _12HMCPA;; all) echo _12HRBYA;; one) echo _1RY;; esac; fi
}
export BLACS_ALPHA=1 BLACS_SEND_ALPHA=0.5 BLACS_BETA=0.00008 BLACS_GAMMA=0.00025
MOD="1,0.00064,0.5,0.00064,0.002"
for p in $CMP; do
  sh=(); [ "$p" -ge 64 ] && sh=(-s)  # SMPI_SHARED_MALLOC for the user buffers
  sim $p modern_fattree_256 cm_p$p.raw -- run -k p2p -n $CMN -p $MOD -l mpich "${sh[@]}" || exit 1
  # the library's own point-to-point (copy, pieces past 40 KB): CollMark's second T_p2p
  sim $p modern_fattree_256 cm_p$p.raw -- run -k blacsp2p -n $CMN -p $MOD -l mpich "${sh[@]}" || exit 1
  for sel in mpich ompi; do
    for k in bcast all one; do
      t=$(tops_for $k $p); [ $sel = ompi ] && t=_
      sim $p modern_fattree_256 cm_p$p.raw --cfg=smpi/coll-selector:$sel -- run -k $k -t "$t" -b 4 -n $CMN -p $MOD -l $sel "${sh[@]}" || exit 1
    done
    for k in mpibcast mpiallreduce mpireduce; do
      sim $p modern_fattree_256 cm_p$p.raw --cfg=smpi/coll-selector:$sel -- run -k $k -n $CMN -p $MOD -l $sel "${sh[@]}" || exit 1
    done
  done
done
unset BLACS_ALPHA BLACS_SEND_ALPHA BLACS_BETA BLACS_GAMMA
{ echo "$HDR"; for p in $CMP; do rows "$RAW/cm_p$p.raw"; done; } > "$OUT/collmark.csv"
awk -F, -v bench="$OUT/bench_sim.csv" -v dat="$OUT/collmark" '
  NR == 1 { next }
  $2 == "p2p" { t2p[$4, $5] = $7; next }
  $2 == "blacsp2p" { t2b[$4, $5] = $7; next }
  { key = $1 SUBSEP $2 SUBSEP $3; if (!(key in seen)) { seen[key] = 1; ord[++nk] = key }
    T[key, $4, $5] = $7; if ($11 == "WRONG") wrong[key] = 1; P[$4] = 1; N[$5] = 1 }
  END {
    np = 0; for (p in P) ps[++np] = p + 0
    for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (ps[j] < ps[i]) { t = ps[i]; ps[i] = ps[j]; ps[j] = t }
    nn = 0; for (n in N) ns[++nn] = n + 0
    for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (ns[j] < ns[i]) { t = ns[i]; ns[i] = ns[j]; ns[j] = t }
    print "op,top,scope,np,n,ours_us,peer,peer_us,ratio" > bench
    printf "CollMark (van de Geijn): T_collective(n,p) / T_p2p(n), T_p2p = one message rank 0 -> p-1.\n"
    printf "Modern cluster: 256-node fat tree, 1 us, 12.5 GB/s, gamma 2 ns/double.  n in doubles.\n"
    printf "A long-vector ratio near 1 (broadcast) or 2 (sum) is optimal; log2(p) is a tree.\n"
    printf "mpich/ompi: SMPI collective selector (MPI_* primitives and TOP \" \" use it).\n"
    kinds["bcast"] = "broadcast"; kinds["all"] = "sum, leave-on-all"; kinds["one"] = "sum, leave-on-one"
    kinds["mpibcast"] = "broadcast"; kinds["mpiallreduce"] = "sum, leave-on-all"; kinds["mpireduce"] = "sum, leave-on-one"
    split("bcast mpibcast all mpiallreduce one mpireduce", order, " ")
    for (pi = 1; pi <= np; pi++) {
      p = ps[pi]
      printf "\np = %d%s\n", p, ""
      printf "  %-7s %-14s %-5s", "sel", "op", "TOP"; for (j = 1; j <= nn; j++) printf " %10s", "n=" ns[j]; printf "\n"
      printf "  %-7s %-14s %-5s", "", "T_p2p us", ""; for (j = 1; j <= nn; j++) printf " %10.2f", t2p[p, ns[j]]; printf "\n"
      for (oi = 1; oi <= 6; oi++) for (i = 1; i <= nk; i++) {
        split(ord[i], kk, SUBSEP); if (kk[2] != order[oi]) continue
        if (!((ord[i], p, ns[nn]) in T)) continue
        opn = kk[2]; top = kk[3] == "_" ? "\" \"" : kk[3]; if (kk[2] ~ /^mpi/) top = "MPI"
        printf "  %-7s %-14s %-5s", kk[1], opn, top
        for (j = 1; j <= nn; j++) {
          v = T[ord[i], p, ns[j]]; r = v / t2p[p, ns[j]]
          printf " %10.2f", r
          if (kk[2] !~ /^mpi/) {
            bop = kk[2] == "bcast" ? "bcast" : (kk[2] == "all" ? "gsum" : "gsum_one")
            peer = kk[2] == "bcast" ? "mpibcast" : (kk[2] == "all" ? "mpiallreduce" : "mpireduce")
            pv = T[kk[1] SUBSEP peer SUBSEP "-", p, ns[j]]
            printf "%s,%s,all,%d,%d,%.4f,%s,%.4f,%.6g\n", bop, kk[3] == "_" ? "\" \"" : kk[3], p, ns[j], v,
                   (kk[1] == "mpich" ? "mpi" : "mpi-" kk[1]), pv, (pv > 0 ? v / pv : 0) > bench
          }
          fn = dat "_" (kk[2] ~ /bcast/ ? "bcast" : "sum") "_p" p ".dat"
          sn = (kk[2] ~ /^mpi/) ? kk[2] "-" kk[1] : ((kk[2] == "one" ? "one-" : "") (kk[3] == "_" ? "blank-" kk[1] : kk[3]))
          printf "%s %d %g\n", sn, ns[j], r >> fn
        }
        printf "%s\n", wrong[ord[i]] ? "  WRONG RESULT" : ""
      }
      # the same BLACS operations against the library point-to-point
      printf "  against the BLACS point-to-point (Cdgesd2d/Cdgerv2d, one way):\n"
      printf "  %-7s %-14s %-5s", "", "T_p2p BLACS us", ""; for (j = 1; j <= nn; j++) printf " %10.2f", t2b[p, ns[j]]; printf "\n"
      printf "  %-7s %-14s %-5s", "", "BLACS/MPI p2p", ""; for (j = 1; j <= nn; j++) printf " %10.2f", t2b[p, ns[j]] / t2p[p, ns[j]]; printf "\n"
      for (oi = 1; oi <= 6; oi++) for (i = 1; i <= nk; i++) {
        split(ord[i], kk, SUBSEP); if (kk[2] != order[oi] || kk[2] ~ /^mpi/) continue
        if (!((ord[i], p, ns[nn]) in T)) continue
        printf "  %-7s %-14s %-5s", kk[1], kk[2], kk[3] == "_" ? "\" \"" : kk[3]
        for (j = 1; j <= nn; j++) printf " %10.2f", T[ord[i], p, ns[j]] / t2b[p, ns[j]]
        printf "\n"
      }
    }
  }' "$OUT/collmark.csv" | sed 's/"\(.\)"/"\1"/' > "$OUT/collmark.txt"
cat "$OUT/collmark.txt"
if [ -n "$HAVE_GP" ]; then
  for f in "$OUT"/collmark_*_p*.dat; do
    [ -f "$f" ] || continue
    gnuplot -e "dat='$f'; out='${f%.dat}.png'; ttl='$(basename "${f%.dat}")'" TIMING/sim/collmark.gp 2>>"$RAW/gnuplot.err"
  done
fi
# ---- 5. Trees against the reference's serial sending ----------------------
# 1 x p on the fat tree, every message rendezvous, the machine parameters
# unset (the library's defaults).  The reference BLACS's '1' schedules
# (simdrv refbcast, refall: blocking sends, one child after the other) are
# simulated beside ours.  A process that has received forwards one child
# after the other as the reference does, so the leave-on-all sum (whose
# final broadcast starts from a process that has received) matches it.  The
# broadcast source keeps that order too, waiting for each send at most a
# bound the model gives (SRC/transport.c), so with its receivers there its
# broadcasts must match the reference's, within 1.25% (4.05 one-way times
# for the reference's 4 at p = 16: issue 28), and the source must return no
# later than the reference's does (polling: 1% and 0.01 us allowed).  Not
# checked from 64 KB (marked ~): there the source sends from A once its
# receivers say they are there, and the simulation charges those words but
# not the copy they save.
echo "== trees against the reference BLACS's serial sending (fat tree, synchronous sends, BLACS_* unset)"
if [ -n "$QUICK" ]; then TRP="16"; TRN=1,100,10000; else TRP="16 64"; TRN=1,10,100,1000,10000,100000; fi
for p in $TRP; do
  sh=(); [ "$p" -ge 64 ] && sh=(-s)
  for k in p2p refbcast refall; do
    sim $p modern_fattree_256 tr_p$p.raw --cfg=smpi/coll-selector:mpich -- run -k $k -n $TRN -p $MOD -l tree "${sh[@]}" || exit 1
  done
  sim $p modern_fattree_256 tr_p$p.raw -- run -k bcast -t 1H -n $TRN -p $MOD -l tree "${sh[@]}" || exit 1
  sim $p modern_fattree_256 tr_p$p.raw -- run -k all -t 1 -n $TRN -p $MOD -l tree "${sh[@]}" || exit 1
done
{ echo "$HDR"; for p in $TRP; do grep -E '^tree,' "$RAW/tr_p$p.raw"; done; } > "$OUT/trees.csv"
awk -F, '
  NR == 1 { next }
  $2 == "p2p" { t2p[$4, $5] = $7; next }
  $2 == "refbcast" { rb[$4, $5] = $7; rbs[$4, $5] = $8; next }
  $2 == "refall" { ra[$4, $5] = $7; next }
  { T[$2, $3, $4, $5] = $7; S[$2, $3, $4, $5] = $8; P[$4] = 1; N[$5] = 1; if ($11 == "WRONG") bad = 1 }
  END {
    np = 0; for (p in P) ps[++np] = p + 0
    for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (ps[j] < ps[i]) { t = ps[i]; ps[i] = ps[j]; ps[j] = t }
    nn = 0; for (n in N) ns[++nn] = n + 0
    for (i = 1; i <= nn; i++) for (j = i + 1; j <= nn; j++) if (ns[j] < ns[i]) { t = ns[i]; ns[i] = ns[j]; ns[j] = t }
    printf "Times / T_p2p(n).  ref = the reference BLACS schedule (blocking sends, serial);\n"
    printf "bound = ref x 1.0125: one-way times within 1.25%% of the reference'"'"'s.\n"
    printf "~: 64 KB or more, not checked: the source sends from A once its receivers'"'"' words\n"
    printf "are in (SRC/plan.c, direct); here the words cost their latency and the copy\n"
    printf "they save costs nothing (SMPI does not time host code), so the simulation\n"
    printf "cannot weigh the two (TIMING/sim/smpi.sh).\n"
    viol_all = 0; viol_b = 0; viol_s = 0
    for (pi = 1; pi <= np; pi++) {
      p = ps[pi]; lg = 0; while (2 ^ lg < p) lg++
      printf "\np = %d\n  %-24s", p, "n"; for (j = 1; j <= nn; j++) printf " %9d", ns[j]; printf "\n"
      printf "  %-24s", "T_p2p us"; for (j = 1; j <= nn; j++) printf " %9.3f", t2p[p, ns[j]]; printf "\n"
      printf "  %-24s", "bcast ref"; for (j = 1; j <= nn; j++) printf " %9.2f", rb[p, ns[j]] / t2p[p, ns[j]]; printf "\n"
      printf "  %-24s", "bcast bound"
      for (j = 1; j <= nn; j++) {
        n = ns[j]; bound[n] = rb[p, n] * 1.0125; printf " %9.2f", bound[n] / t2p[p, n]
      }
      printf "\n"
      split("1 H", tops, " ")
      for (q = 1; q <= 2; q++) {
        printf "  %-24s", "bcast " tops[q]
        for (j = 1; j <= nn; j++) {
          n = ns[j]; v = T["bcast", tops[q], p, n]; printf " %9.2f", v / t2p[p, n]
          if (n * 8 >= 65536) printf "~"
          else if (v > bound[n] * 1.005 + 0.001) { viol_b++; printf "*" }
        }
        printf "\n  %-24s", "  source returns, us"
        for (j = 1; j <= nn; j++) {
          n = ns[j]; v = S["bcast", tops[q], p, n]; printf " %9.3f", v
          if (n * 8 >= 65536) printf "~"
          else if (v > rbs[p, n] * 1.01 + 0.01) { viol_s++; printf "*" }
        }
        printf "\n"
      }
      printf "  %-24s", "  ref source returns, us"; for (j = 1; j <= nn; j++) printf " %9.3f", rbs[p, ns[j]]; printf "\n"
      printf "  %-24s", "sum all ref"; for (j = 1; j <= nn; j++) printf " %9.2f", ra[p, ns[j]] / t2p[p, ns[j]]; printf "\n"
      printf "  %-24s", "sum all 1"
      for (j = 1; j <= nn; j++) {
        n = ns[j]; v = T["all", "1", p, n]; printf " %9.2f", v / t2p[p, n]
        if (v > ra[p, n] * 1.005 + 0.001) { viol_all++; printf "*" }
      }
      printf "\n"
    }
    printf "\ncheck: 1 leave-on-all sum never behind the reference: %s\n", viol_all ? "NO" : "yes"
    printf "check: 1 and H broadcasts within 1.25%% of the reference (bound): %s\n", viol_b ? "NO" : "yes"
    printf "check: the broadcast source returns no later than the reference'"'"'s: %s\n", viol_s ? "NO" : "yes"
    printf "check: every result correct: %s\n", bad ? "NO" : "yes"
    exit (viol_all || viol_b || viol_s || bad) ? 1 : 0
  }' "$OUT/trees.csv" > "$OUT/trees.txt"
trc=$?
cat "$OUT/trees.txt"
[ $trc = 0 ] || { echo "run.sh: trees against the reference: a check failed (see $OUT/trees.txt)"; exit 1; }

echo "== done in $(( $(date +%s) - t00 )) s; tables, CSV and plots in $OUT/"
