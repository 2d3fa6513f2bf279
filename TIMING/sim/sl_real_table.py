#!/usr/bin/env python3
"""sl_real_table.py REAL_CSV -- the simulated/real lines of make bench-scalapack
(TIMING/sim/sl_real.sh): for every setting, grid, library and routine, the
median over the rounds of simulated / real, where each real run has its own
simulation (the column round), else the median simulated time over the
median real time.  A routine with a failed run, a missing run or a residual
that is not small prints no ratio."""
import csv
import statistics
import sys

RESMAX = 30.0  # as scalapack_table.py: LAPACK's test threshold
BAND = (0.85, 1.15)

runs = {}
rounds = {}
bad = set()
order = []
with open(sys.argv[1]) as f:
    for r in csv.DictReader(f):
        key = (r["setting"], r["grid"], r["lib"], r["routine"], r["N"])
        if key not in order:
            order.append(key)
        t, res = float(r["seconds"]), float(r["residual"])
        if not (0 <= res <= RESMAX):
            bad.add(key)
        runs.setdefault(key, {}).setdefault(r["world"], []).append(t)
        rounds.setdefault(key, {}).setdefault(r["world"], {})[r.get("round") or "-"] = t

print("# simulated/real: the same driver, ScaLAPACK and BLACS on this machine's MPICH and in SMPI on a")
print("# platform calibrated there (TIMING/sim/sl_real.sh); medians (of the pairs: paired);")
print("# band %.2f-%.2f" % BAND)
inband = total = 0
for key in order:
    s, g, lib, rt, n = key
    w = runs[key]
    if key in bad or "real" not in w or "sim" not in w:
        why = "residual not small" if key in bad else "no %s run" % ("real" if "real" not in w else "simulated")
        print(f"simulated/real {rt:<6} {s:<6} {g} N={n} {lib:<4}: error: {why}")
        total += 1
        continue
    sim, real = statistics.median(w["sim"]), statistics.median(w["real"])
    ratio, how = sim / real, ""
    ws, wr = rounds[key]["sim"], rounds[key]["real"]
    if len(ws) == len(w["sim"]) and len(wr) == len(w["real"]) and set(ws) == set(wr) and len(ws) > 1:
        ratio, how = statistics.median(ws[k] / wr[k] for k in ws), " paired"
    ok = BAND[0] <= ratio <= BAND[1]
    inband += ok
    total += 1
    print(f"simulated/real {rt:<6} {s:<6} {g} N={n} {lib:<4}: simulated {sim:8.3f} s, real {real:8.3f} s"
          f" ({len(w['real'])} runs, spread {min(w['real']):.3f}-{max(w['real']):.3f}),{how} {ratio:5.2f}"
          f"{'' if ok else '  outside the band'}")
print(f"# {inband} of {total} within {BAND[0]:.2f}-{BAND[1]:.2f}")

# the question the table answers: does the simulation tell ours/reference as the real runs do?
print("# ours/reference, real and simulated (medians)")
for key in order:
    s, g, lib, rt, n = key
    if lib != "ours":
        continue
    rk = (s, g, "ref", rt, n)
    if rk not in runs or key in bad or rk in bad:
        continue
    w, v = runs[key], runs[rk]
    if not all(x in w and x in v for x in ("real", "sim")):
        continue
    rr = statistics.median(w["real"]) / statistics.median(v["real"])
    sr = statistics.median(w["sim"]) / statistics.median(v["sim"])
    print(f"ours/reference {rt:<6} {s:<6} {g} N={n}: real {rr:5.2f}, simulated {sr:5.2f}")
