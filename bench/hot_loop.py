#!/usr/bin/env python3
"""Harness bias: `tct bench`'s speedup next to a plain hot loop taken in the same minute,
on overhead-bound targets of several sizes (where the harness matters most).

Hot loop (a fresh process, warm inductor cache): under one torch.no_grad(), `--calls`
calls of eager then `--calls` calls of compiled, alternated `--rounds` times; the speedup
is median(eager round times) / median(compiled round times). One process's figure moves
by tens of percent from one fresh process to the next on a small machine (thread placement,
memory layout), so the reference is the median over `--processes` hot-loop processes, and
their range is printed beside it. The aim: tct within 5% of that median.
Usage: bench/hot_loop.py [--tct build/tct] [--python .venv/bin/python] [--budget 10]
"""
import json
import os
import statistics
import subprocess
import sys

from tool_paths import ROOT, parser

TARGETS = ROOT / "bench" / "targets" / "held_out.py"
SIZES = [(16, 32), (64, 32), (64, 1024), (256, 32)]  # (n_ops, size)

HOT_LOOP = r'''
import importlib.util, statistics, sys, time, torch
spec = importlib.util.spec_from_file_location("held_out", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
fn, args = m.elementwise(int(sys.argv[2]), int(sys.argv[3]))
calls, rounds = int(sys.argv[4]), int(sys.argv[5])
compiled = torch.compile(fn)
with torch.no_grad():
    for _ in range(20): fn(*args); compiled(*args)
    e, c = [], []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for _ in range(calls): fn(*args)
        t1 = time.perf_counter_ns()
        for _ in range(calls): compiled(*args)
        t2 = time.perf_counter_ns()
        e.append((t1 - t0) / calls); c.append((t2 - t1) / calls)
print(statistics.median(e), statistics.median(c))
'''


def main():
    ap = parser()
    ap.add_argument("--budget", default="10")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--processes", type=int, default=3)
    args = ap.parse_args()
    print(f"load: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} CPUs")
    print(f"{'target':<22} {'tct speedup [95%]':<26} {'hot loop (range)':>24} {'tct/loop':>9} "
          f"{'compiled us tct/loop':>21} {'floor':>8}")
    worst = 0.0
    for n_ops, size in SIZES:
        cmd = [args.tct, "bench", f"{TARGETS}:elementwise", "--param", f"n_ops={n_ops}", "--param", f"size={size}",
               "--python", args.python, "--budget", args.budget, "--no-compile-time", "--no-memory", "--no-check",
               "--json", "-q"]
        doc = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)
        row = doc["bench"]["rows"][0]
        sp = row["speedup"]
        loops = []  # (speedup, compiled ns) of each hot-loop process
        for _ in range(args.processes):
            e, c = map(float, subprocess.run([args.python, "-c", HOT_LOOP, str(TARGETS), str(n_ops), str(size),
                                              str(args.calls), str(args.rounds)],
                                             capture_output=True, text=True, check=True).stdout.split())
            loops.append((e / c, c))
        speedups = [speedup for speedup, _ in loops]
        loop = statistics.median(speedups)
        c = statistics.median(compiled_ns for _, compiled_ns in loops)
        ratio = sp["estimate"] / loop
        worst = max(worst, abs(ratio - 1))
        spread = f"{loop:.2f}x ({min(speedups):.2f}-{max(speedups):.2f})"
        print(f"{f'{n_ops} ops x {size}':<22} {sp['estimate']:6.2f}x [{sp['low']:.2f}, {sp['high']:.2f}]{'':<6} "
              f"{spread:>24} {ratio:9.3f} {row['latency']['compiled']['median'] / 1e3:10.1f}/{c / 1e3:<10.1f}"
              f"{row['harness_floor_ns']:7.0f}ns")
    print(f"largest difference tct vs hot loop: {worst * 100:.1f}% (aim: <= 5%)")


if __name__ == "__main__":
    sys.exit(main())
