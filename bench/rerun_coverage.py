#!/usr/bin/env python3
"""Do tct bench's intervals hold up on a re-run? N fresh `tct bench` runs on each target;
for each run, is the median of the OTHER runs' estimates inside its 95% interval? Prints
the coverage (aim: >= 90%) and the spread max/min of the estimates (aim: <= 1.03).
Usage: bench/rerun_coverage.py [--runs 8] [--tct build/tct] [--python ...] [-- extra bench flags]
"""
import json
import os
import statistics
import subprocess
import sys
import time

from tool_paths import ROOT, parser

TARGETS = [
    ("elementwise 64x32 (overhead bound)", [f"{ROOT}/bench/targets/held_out.py:elementwise"]),
    ("mlp (builtin, compute)", ["builtin:mlp"]),
]


def main():
    ap = parser()
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--save", help="append each run's speedup section to this JSON-lines file")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    covered_all = total_all = 0
    for name, target in TARGETS:
        runs = []
        for i in range(args.runs):
            t0 = time.time()
            out = subprocess.run([args.tct, "bench", *target, "--python", args.python, "--json", "-q", *args.extra],
                                 capture_output=True, text=True).stdout
            row = json.loads(out)["bench"]["rows"][0]
            sp = row["speedup"]
            runs.append(sp)
            if args.save:
                with open(args.save, "a") as f:
                    f.write(json.dumps({"target": name, "speedup": sp}) + "\n")
            print(f"  {name} run {i + 1}: {sp['estimate']:.3f}x [{sp['low']:.3f}, {sp['high']:.3f}] "
                  f"between-segment sd {sp.get('between_segment_sd', float('nan')):.4f}, "
                  f"{time.time() - t0:.0f} s, load {os.getloadavg()[0]:.1f}", flush=True)
        est = [r["estimate"] for r in runs]
        covered = 0
        for i, r in enumerate(runs):
            others = statistics.median(est[:i] + est[i + 1:])
            covered += r["low"] <= others <= r["high"]
        covered_all += covered
        total_all += len(runs)
        print(f"{name}: {covered}/{len(runs)} intervals hold the median of the other runs; "
              f"spread max/min {max(est) / min(est):.3f}", flush=True)
    print(f"all targets: {covered_all}/{total_all} = {covered_all / total_all:.0%} (aim: >= 90%)")


if __name__ == "__main__":
    sys.exit(main())
