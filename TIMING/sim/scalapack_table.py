#!/usr/bin/env python3
"""scalapack_table.py -- the tables of make bench-scalapack (TIMING/sim/scalapack.sh).

    scalapack_table.py RAWDIR OUTDIR "CELLS"

Reads RAWDIR/<lib>_<net>_<mode>_<P>x<Q>_N<N>.out (sl_bench.c's SLB rows; lib is
ref, ours -- this library with its built-in machine -- or ourscal -- told the
platform's) and
the BLACS accounting <tag>.wrap.<routine>.csv (sl_wrap.c); writes
OUTDIR/scalapack.csv, scalapack.txt and attribution.csv.
"""
import csv, glob, os, re, sys

raw, out, cells = sys.argv[1], sys.argv[2], sys.argv[3].split()
os.makedirs(out, exist_ok=True)
ROUTINES = ["getrf", "potrf", "geqrf", "sytrd"]
NETS = os.environ.get("SL_NETS", "node16").split()
MODES = ["comm", "flops", "comp"]
TOL = 1e-8  # checksum agreement: relative difference
RESMAX = 30.0  # a scaled residual above this is not small (LAPACK's test threshold)

res = {}  # (lib, net, mode, P, Q, N, routine) -> (seconds, checksum, info)
for f in glob.glob(os.path.join(raw, "*.out")):
    m = re.match(r"(ref|ours|ourscal)_((?:net|node)\w+?)_(comm|comp|flops)_(\d+)x(\d+)_N(\d+)\.out$", os.path.basename(f))
    if not m:
        continue
    lib, net, mode = m.group(1), m.group(2), m.group(3)
    for line in open(f):
        if line.startswith("SLB,"):
            f = line.strip().split(",")
            _, r, n, nb, p, q, s, cs, info = f[:9]
            rs = float(f[9]) if len(f) > 9 else -1.0  # -1: no residual (an older driver)
            res[(lib, net, mode, int(p), int(q), int(n), r)] = (float(s), float(cs), int(info), rs)

def wrapfile(lib, net, mode, p, q, n, r):
    d = {}
    f = os.path.join(raw, f"{lib}_{net}_{mode}_{p}x{q}_N{n}.wrap.{r}.csv")
    if os.path.exists(f):
        for row in csv.DictReader(open(f)):
            d[(row["blacs_routine"], row["scope"], row["top"])] = (int(row["calls"]), float(row["seconds"]))
    return d

def reldiff(c, a):
    """c's checksum against the reference's a, relative"""
    return abs(c - a) / max(abs(a), 1e-300)

def good(x):
    """checksums agree, INFO 0, and each residual small (or not computed: -1)"""
    return (x["checksum_reldiff"] <= TOL and not x["ours_info"] and not x["ref_info"]
            and x["ref_resid"] <= RESMAX and x["ours_resid"] <= RESMAX
            and (x["ourscal_s"] == "" or (x["ourscal_reldiff"] <= TOL and not x["ourscal_info"]
                                          and x["ourscal_resid"] <= RESMAX)))

cols = []  # (P, Q, N, net) in the order of CELLS
for c in cells:
    g, n, rs, ms = c.split(":")
    p, q = map(int, g.split("x"))
    for net in NETS:
        if (p, q, int(n), net) not in cols:
            cols.append((p, q, int(n), net))

rows, attr = [], []
for p, q, n, net in cols:
    for mode in MODES:
        for r in ROUTINES:
            a, b = res.get(("ref", net, mode, p, q, n, r)), res.get(("ours", net, mode, p, q, n, r))
            if not a or not b:
                continue
            rel = reldiff(b[1], a[1])
            rows.append(dict(routine=r, grid=f"{p}x{q}", N=n, net=net, mode=mode, ref_s=a[0], ours_s=b[0],
                             ratio=b[0] / a[0] if a[0] > 0 else float("nan"), ref_checksum=repr(a[1]),
                             ours_checksum=repr(b[1]), checksum_reldiff=rel, ref_info=a[2], ours_info=b[2],
                             ref_resid=a[3], ours_resid=b[3]))
            c = res.get(("ourscal", net, mode, p, q, n, r))  # ours told the platform's machine
            rows[-1].update(ourscal_s=c[0] if c else "", ratio_cal=c[0] / a[0] if c and a[0] > 0 else "",
                            ourscal_checksum=repr(c[1]) if c else "",
                            ourscal_reldiff=reldiff(c[1], a[1]) if c else "",
                            ourscal_info=c[2] if c else "", ourscal_resid=c[3] if c else "")
            wr, wo = wrapfile("ref", net, mode, p, q, n, r), wrapfile("ours", net, mode, p, q, n, r)
            for k in sorted(set(wr) | set(wo)):
                cr, sr = wr.get(k, (0, 0.0))
                co, so = wo.get(k, (0, 0.0))
                attr.append(dict(routine=r, grid=f"{p}x{q}", N=n, net=net, mode=mode, blacs_routine=k[0],
                                 scope=k[1], top=k[2], ref_calls=cr, ref_s=sr, ours_calls=co, ours_s=so,
                                 diff_s=so - sr))

def write_csv(path, data):
    with open(path, "w", newline="") as f:
        if data:
            w = csv.DictWriter(f, fieldnames=list(data[0].keys()))
            w.writeheader()
            w.writerows(data)

write_csv(os.path.join(out, "scalapack.csv"), rows)
write_csv(os.path.join(out, "attribution.csv"), attr)

idx = {(x["routine"], x["grid"], x["N"], x["net"], x["mode"]): x for x in rows}
L = []
L.append("make bench-scalapack: Reference ScaLAPACK 2.x, NB = 64, simulated (SimGrid SMPI), ours / reference")
L.append("simulated time (max over ranks, after a barrier); < 1 means our BLACS is faster.")
if any(x["ourscal_s"] != "" for x in rows):
    L.append("A cell 'a / b': ours with its built-in machine / ours told the platform's (BLACS_ALPHA, BLACS_BETA,")
    L.append("BLACS_SEND_ALPHA as make calibrate measures them there).")
L.append("net10g: 10 GB/s, 1 us; net1g: 1.25 GB/s, 5 us (one single-core host per rank); "
         "node16, node32: nodes of 16, 32 ranks, one 25 GB/s 1.5 us link a node.")
for mode in MODES:
    have = [c for c in cols if any((r, f"{c[0]}x{c[1]}", c[2], c[3], mode) in idx for r in ROUTINES)]
    if not have:
        continue
    L.append("")
    L.append({"comm": "Communication only (smpi/simulate-computation:no): ours/reference",
              "flops": "With computation charged by operation count (BLAS and LAPACK at 20 Gflop/s, sl_flops.c): ours/reference",
              "comp": "With computation (simulate-computation:yes, 20 Gflop/s hosts): ours/reference"}[mode])
    head = ["routine"] + [f"{p}x{q} N={n} {net.replace('net', '').replace('node', 'n')}" for p, q, n, net in have]
    body = []
    for r in ROUTINES:
        line = [r]
        for p, q, n, net in have:
            x = idx.get((r, f"{p}x{q}", n, net, mode))
            line.append("-" if not x else "!" if not good(x) else f"{x['ratio']:.3f}"
                        + (f" / {x['ratio_cal']:.3f}" if x["ratio_cal"] != "" else ""))
        body.append(line)
    w = [max(len(t[i]) for t in [head] + body) for i in range(len(head))]
    L.append("| " + " | ".join(h.ljust(w[i]) for i, h in enumerate(head)) + " |")
    L.append("|" + "|".join("-" * (x + 2) for x in w) + "|")
    for b in body:
        L.append("| " + " | ".join(t.rjust(w[i]) if i else t.ljust(w[i]) for i, t in enumerate(b)) + " |")
L.append("")
L.append("'!' (no ratio) marks a cell whose checksums differ by more than %g (relative), whose INFO is not 0,"
         " or whose residual is not small (above %g) with either BLACS: an error." % (TOL, RESMAX))
bad = [x for x in rows if not good(x)]
mx = max((x["checksum_reldiff"] for x in rows), default=0.0)
rx = max((max(x["ref_resid"], x["ours_resid"], x["ourscal_resid"] if x["ourscal_s"] != "" else -1.0)
          for x in rows), default=-1.0)
L.append(f"Checksums and residuals: {len(rows) - len(bad)} of {len(rows)} cells good; largest checksum difference"
         f" {mx:.2e}, largest scaled residual {rx:.3g}"
         " (||Ax-b||/(||A|| ||x|| N eps); PDSYTRD: trace and Frobenius norm of T against A's).")
L.append("")
L.append("Simulated seconds, reference and ours (ours cal: told the platform's machine):")
L.append(f"{'routine':7} {'grid':5} {'N':>5} {'net':6} {'mode':5} {'reference':>11} {'ours':>11} {'ratio':>6} {'cksum rel.diff':>14}"
         f" {'resid ref':>9} {'resid ours':>10} {'ours cal':>11} {'ratio':>6}")
for x in rows:
    cal = (f" {x['ourscal_s']:11.5f} {x['ratio_cal']:6.3f}" if x["ourscal_s"] != "" else f" {'-':>11} {'-':>6}")
    L.append(f"{x['routine']:7} {x['grid']:5} {x['N']:5d} {x['net']:6} {x['mode']:5} {x['ref_s']:11.5f} {x['ours_s']:11.5f} "
             f"{x['ratio']:6.3f} {x['checksum_reldiff']:14.2e} {x['ref_resid']:9.3g} {x['ours_resid']:10.3g}" + cal)
# attribution: the worst cells, the (BLACS routine, scope, top) rows of the largest ours - reference
L.append("")
L.append("Attribution: the worst cells (largest ratio per mode, the worse network of each routine,")
L.append("grid and N) and their top (BLACS routine, SCOPE, TOP) rows by ours - reference (reference -")
L.append("ours where ours is faster): time inside the BLACS call, waiting included, summed over ranks")
L.append("(seconds; '_' is TOP ' ').")
for mode in MODES:
    # the worse network of each (routine, grid, N), then the six largest ratios
    best = {}
    for x in rows:
        k = (x["routine"], x["grid"], x["N"])
        if x["mode"] == mode and (k not in best or x["ratio"] > best[k]["ratio"]):
            best[k] = x
    worst = sorted(best.values(), key=lambda x: -x["ratio"])[:6]
    for x in worst:
        key = (x["routine"], x["grid"], x["N"], x["net"], mode)
        a = sorted((y for y in attr if (y["routine"], y["grid"], y["N"], y["net"], y["mode"]) == key),
                   key=lambda y: -y["diff_s"] if x["ratio"] >= 1 else y["diff_s"])
        dt = (x["ours_s"] - x["ref_s"]) * int(x["grid"].split("x")[0]) * int(x["grid"].split("x")[1])
        L.append(f"  {x['routine']} {x['grid']} N={x['N']} {x['net']} {mode}: ratio {x['ratio']:.3f}, "
                 f"(ours - ref) x ranks = {dt:+.4f} s")
        for y in a[:4]:
            L.append(f"      {y['blacs_routine']:7} {y['scope']} {y['top']}  ref {y['ref_s']:10.5f} s ({y['ref_calls']} calls)"
                     f"  ours {y['ours_s']:10.5f} s ({y['ours_calls']} calls)  diff {y['diff_s']:+.5f}")
open(os.path.join(out, "scalapack.txt"), "w").write("\n".join(L) + "\n")
print("\n".join(L))
