#!/usr/bin/env python3
"""Overhead of `tct bench`: its wall time divided by (cold compile time + time spent in
timed calls). Aim: 1.25 or less. Timed calls = the eager warm-up, the compiled warm-up
curve after its first call (the first call is the cold compile), and every sample of the
interleaved blocks (samples x calls per sample), read from the --raw JSON.
The ratio moves with how long sampling runs (it stops early once precise), so the
untimed seconds (wall - timed) are printed too: that is what tct itself adds.
Usage: bench/bench_overhead.py [--runs 1] [--tct build/tct] [target and bench flags...]
"""
import json
import os
import statistics
import subprocess
import sys
import time

from tool_paths import ROOT, parser


def main():
    ap = parser()
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("bench_args", nargs="*", default=["builtin:mlp"])
    args = ap.parse_args()
    ratios, extra = [], []
    for i in range(args.runs):
        t0 = time.monotonic()
        p = subprocess.run([args.tct, "bench", *args.bench_args, "--python", args.python, "--json", "--raw", "-q"],
                           capture_output=True, text=True, env=dict(os.environ))
        wall = time.monotonic() - t0
        if p.returncode not in (0, 1):
            sys.exit(f"tct bench failed ({p.returncode}): {p.stderr.strip()}")
        b = json.loads(p.stdout)["bench"]
        eager_warm = sum(b["eager"]["warmup_ns"]) / 1e9
        cold = warm = curve = blocks = 0.0
        for row in b["rows"]:
            c = row["compile"]
            cold += (c.get("cold_ns") or c["first_call_ns"]) / 1e9
            warm += (c.get("warm_ns") or 0) / 1e9
            curve += sum(row["warmup_curve_ns"][1:]) / 1e9
            cps = row["calls_per_sample"]
            blocks += (sum(row["samples"]["eager"]) * cps["eager"] + sum(row["samples"]["compiled"]) * cps["compiled"]) / 1e9
        useful = cold + eager_warm + curve + blocks
        print(f"run {i + 1}: wall {wall:.1f} s; cold compile {cold:.1f} s, eager warm-up {eager_warm:.2f} s, "
              f"warm-up curve {curve:.2f} s, interleaved blocks {blocks:.1f} s (warm compile {warm:.1f} s, "
              f"in a fresh process, counted as overhead)")
        print(f"overhead ratio = wall / (cold compile + timed calls) = {wall:.1f} / {useful:.1f} = {wall / useful:.2f}"
              f" (untimed: {wall - useful:.1f} s)")
        ratios.append(wall / useful)
        extra.append(wall - useful)
    if len(ratios) > 1:
        print(f"median over {len(ratios)} runs: ratio {statistics.median(ratios):.2f}, "
              f"untimed {statistics.median(extra):.1f} s")


if __name__ == "__main__":
    main()
