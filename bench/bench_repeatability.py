#!/usr/bin/env python3
"""Repeatability of the reported speedup: `tct bench builtin:mlp` (default settings) run N
times, next to two simpler methods run N times each in fresh processes:

  naive:   mean of 10 calls after 3 warm-up calls, eager then compiled; ratio of means
  harness: PyTorch's benchmark harness method (benchmarks/dynamo/common.py,
           speedup_experiment): 30 repeats, each timing one eager and one compiled call
           interleaved; ratio of the medians

The figure is the spread max/min of the N speedups (1.00 = perfectly repeatable).
Usage: bench/bench_repeatability.py [--runs 5] [--tct build/tct] [--python .venv/bin/python]
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from tool_paths import ROOT, parser

METHOD = r'''
import sys, time, statistics, torch
sys.path.insert(0, sys.argv[1])
from tct_agent.target import load_target
t = load_target("builtin:mlp")
compiled = torch.compile(t.fn)
call_e = lambda: t.call()
call_c = lambda: t.call(compiled)
call_c()  # compile (warm cache: the tct runs filled it)
def once(f):
    t0 = time.perf_counter_ns(); f(); return time.perf_counter_ns() - t0
if sys.argv[2] == "naive":
    for _ in range(3): call_e(); call_c()
    e = statistics.mean(once(call_e) for _ in range(10))
    c = statistics.mean(once(call_c) for _ in range(10))
else:
    es, cs = [], []
    for _ in range(30):
        es.append(once(call_e)); cs.append(once(call_c))
    e, c = statistics.median(es), statistics.median(cs)
print(e / c)
'''


def spread(xs):
    return max(xs) / min(xs) if xs and min(xs) > 0 else float("nan")


def main():
    ap = parser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--target", default="builtin:mlp")
    args = ap.parse_args()
    env = dict(os.environ)
    env.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(tempfile.gettempdir(), "tct-bench-repeat-cache"))

    results = {"tct": [], "naive": [], "harness": []}
    walls = {k: 0.0 for k in results}
    intervals = []
    for i in range(args.runs):
        t0 = time.monotonic()
        p = subprocess.run([args.tct, "bench", args.target, "--python", args.python, "--json", "-q"],
                           capture_output=True, text=True, env=env)
        walls["tct"] += time.monotonic() - t0
        if p.returncode not in (0, 1):
            sys.exit(f"tct bench failed ({p.returncode}): {p.stderr.strip()}")
        row = json.loads(p.stdout)["bench"]["rows"][0]
        results["tct"].append(row["speedup"]["estimate"])
        intervals.append((row["speedup"]["low"], row["speedup"]["high"], row["stop_reason"]))
        for method in ("naive", "harness"):
            t0 = time.monotonic()
            q = subprocess.run([args.python, "-c", METHOD, str(ROOT / "python"), method],
                               capture_output=True, text=True, env=env)
            walls[method] += time.monotonic() - t0
            if q.returncode != 0:
                sys.exit(f"{method} failed: {q.stderr[-2000:]}")
            results[method].append(float(q.stdout.strip().splitlines()[-1]))
        print(f"run {i + 1}: tct {results['tct'][-1]:.3f}x [{intervals[-1][0]:.3f}, {intervals[-1][1]:.3f}] "
              f"({intervals[-1][2]}), naive {results['naive'][-1]:.3f}x, harness {results['harness'][-1]:.3f}x",
              flush=True)

    print(f"\nRepeatability over {args.runs} runs of {args.target} (spread = max/min of the speedup)")
    print(f"{'method':<10}{'speedups':<44}{'spread':>8}{'wall s':>9}")
    for k, xs in results.items():
        print(f"{k:<10}{', '.join(f'{x:.3f}' for x in xs):<44}{spread(xs):>8.3f}{walls[k]:>9.1f}")
    print("(tct's wall time includes cold and warm compiles in fresh processes; the other two reuse "
          "the warm cache)")


if __name__ == "__main__":
    main()
