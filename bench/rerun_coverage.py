#!/usr/bin/env python3
"""Do tct bench's intervals hold up on a re-run? N fresh `tct bench` runs on each target;
for each run, is the median of the OTHER runs' estimates inside its 95% interval? Prints
the coverage (aim: >= 90%) and the spread max/min of the estimates (aim: <= 1.03).

It also splits the spread into its parts, so that a wide one can be traced to its cause:
each run samples in two processes that take turns over the same seconds, so
  * "processes disagree" (the sd of the log speedup between the two processes of one run,
    pooled over runs) is what a process brings (code layout, allocator, thread placement);
  * "runs disagree beyond that" (the sd of the run estimates minus what the processes
    explain) is the machine's state over the run's whole stretch of time, which all its
    processes share and no sampling inside one run can average out.

Usage: bench/rerun_coverage.py [--runs 8] [--targets elementwise,mlp,gpt2] [--tct build/tct]
       [--python ...] [--save runs.jsonl] [-- extra bench flags]
"""
import json
import math
import os
import statistics
import subprocess
import sys
import time

from tool_paths import ROOT, parser

TARGETS = {
    "elementwise": ("elementwise 64x32 (overhead bound)", [f"{ROOT}/bench/targets/held_out.py:elementwise"]),
    "mlp": ("mlp (builtin, compute bound, 2 threads)", ["builtin:mlp"]),
    "gpt2": ("gpt2 2 layers (real model: library ops and Python)", [f"{ROOT}/bench/targets/held_out.py:gpt2"]),
}


def decompose(runs):
    """(sd between the processes of a run, sd of runs beyond what processes explain), log
    units; NaN where the runs do not tell (fewer than 2 runs, or one process each)."""
    within = []
    for r in runs:
        logs = [math.log(p["speedup"]) for p in r.get("per_process", []) if p.get("speedup")]
        if len(logs) >= 2:
            within.append(statistics.variance(logs))
    if len(runs) < 2 or not within:
        return math.nan, math.nan
    w = statistics.mean(within)
    between = statistics.variance([math.log(r["estimate"]) for r in runs])
    # A run's estimate averages its processes: their disagreement reaches it divided by their count.
    procs = statistics.mean(len(r["per_process"]) for r in runs)
    return math.sqrt(w), math.sqrt(max(0.0, between - w / procs))


def main():
    ap = parser()
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--targets", default="elementwise,mlp", help=f"comma-separated, of: {', '.join(TARGETS)}")
    ap.add_argument("--save", help="append each run's speedup section to this JSON-lines file")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    keys = args.targets.split(",")
    if unknown := [k for k in keys if k not in TARGETS]:
        ap.error(f"--targets: unknown {', '.join(unknown)} (known: {', '.join(TARGETS)})")
    covered_all = total_all = 0
    for key in keys:
        name, target = TARGETS[key]
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
            per_process = ", ".join(f"{p['speedup']:.3f}" for p in sp.get("per_process", []) if p.get("speedup"))
            print(f"  {name} run {i + 1}: {sp['estimate']:.3f}x [{sp['low']:.3f}, {sp['high']:.3f}] "
                  f"processes {per_process}; {time.time() - t0:.0f} s, load {os.getloadavg()[0]:.1f}", flush=True)
        est = [r["estimate"] for r in runs]
        covered = 0
        for i, r in enumerate(runs):
            others = statistics.median(est[:i] + est[i + 1:])
            covered += r["low"] <= others <= r["high"]
        covered_all += covered
        total_all += len(runs)
        within, beyond = decompose(runs)
        print(f"{name}: {covered}/{len(runs)} intervals hold the median of the other runs; "
              f"spread max/min {max(est) / min(est):.3f}; processes disagree by {within:.1%} (sd), "
              f"runs disagree beyond that by {beyond:.1%} (sd)", flush=True)
    print(f"all targets: {covered_all}/{total_all} = {covered_all / total_all:.0%} (aim: >= 90%)")


if __name__ == "__main__":
    sys.exit(main())
