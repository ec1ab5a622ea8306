#!/usr/bin/env python3
"""Harness bias: `tct bench`'s speedup next to a plain hot loop taken in the same minute,
on overhead-bound targets of several sizes (where the harness matters most).

Hot loop (a fresh process, warm inductor cache): under one torch.no_grad(), `--calls`
calls of eager then `--calls` calls of compiled, alternated `--rounds` times; the speedup
is median(eager rounds) / median(compiled rounds), with each compiled round made as long in
time as an eager one (`--calls` compiled calls, then as many more as the eager round lasted
longer). Not with equal calls each way: an eager round then lasts `speedup` times longer,
and on a shared machine nearly every eager round holds a stall (another process, the host)
while most compiled rounds hold none, so the medians' ratio is biased high by the stall rate
(at 256 ops here, per 20-call chunk of a long eager loop: median 1102 us, mean 1186 us).
Equal-time rounds give both sides the same stalls; tct's block medians leave both sides'
out. The equal-calls figure is printed too (column "equal calls"). One process's figure moves
by ~8% (sd) from one fresh process to the next on a small shared machine, for a plain hot
loop as much as for tct, so one run of each cannot show a bias of a few percent. Per size,
`--runs` tct runs and `--processes` hot-loop processes are interleaved (a tct run, then
hot loops, and so on: the same minutes), and the ratio compared is median over tct runs /
median over hot loops; the ranges are printed beside them. The aim: within 5%.
Usage: bench/hot_loop.py [--tct build/tct] [--python .venv/bin/python] [--budget 10]
       [--runs 3] [--processes 6] [--sizes 64x32,256x32]
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
pc = time.perf_counter_ns
with torch.no_grad():
    for _ in range(20): fn(*args); compiled(*args)
    t0 = pc(); [fn(*args) for _ in range(20)]; t1 = pc(); [compiled(*args) for _ in range(20)]; t2 = pc()
    more = max(0, round(calls * (t1 - t0) / (t2 - t1)) - calls)  # compiled calls that make its round as long
    e, c, c_long = [], [], []
    for _ in range(rounds):
        t0 = pc()
        for _ in range(calls): fn(*args)
        t1 = pc()
        for _ in range(calls): compiled(*args)
        t2 = pc()
        for _ in range(more): compiled(*args)
        t3 = pc()
        e.append((t1 - t0) / calls); c.append((t2 - t1) / calls); c_long.append((t3 - t1) / (calls + more))
print(statistics.median(e), statistics.median(c), statistics.median(c_long))
'''


def tct_run(args, n_ops, size):
    cmd = [args.tct, "bench", f"{TARGETS}:elementwise", "--param", f"n_ops={n_ops}", "--param", f"size={size}",
           "--python", args.python, "--budget", args.budget, "--no-compile-time", "--no-memory", "--no-check",
           "--json", "-q"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if not r.stdout.strip():
        sys.exit(f"tct bench failed (exit {r.returncode}): {r.stderr.strip()[-500:]}")
    row = json.loads(r.stdout)["bench"]["rows"][0]
    return row["speedup"]["estimate"], row["latency"]["compiled"]["median"], row["harness_floor_ns"]


def hot_loop(args, n_ops, size):
    out = subprocess.run([args.python, "-c", HOT_LOOP, str(TARGETS), str(n_ops), str(size), str(args.calls),
                          str(args.rounds)], capture_output=True, text=True, check=True).stdout
    e, c, c_long = map(float, out.split())
    return e / c_long, c_long, e / c


def main():
    ap = parser()
    ap.add_argument("--budget", default="10")
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3, help="tct runs per size")
    ap.add_argument("--processes", type=int, default=6, help="hot-loop processes per size")
    ap.add_argument("--sizes", default=",".join(f"{n}x{s}" for n, s in SIZES), help="n_opsxsize,...")
    args = ap.parse_args()
    sizes = [tuple(map(int, s.split("x"))) for s in args.sizes.split(",")]
    print(f"load: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} CPUs; {args.runs} tct runs and "
          f"{args.processes} hot-loop processes per size, interleaved")
    print(f"{'target':<16} {'tct (range)':>22} {'hot loop (range)':>22} {'tct/loop':>9} "
          f"{'compiled us tct/loop':>21} {'floor':>7} {'equal calls':>12}")
    worst = 0.0
    for n_ops, size in sizes:
        tct, loops = [], []
        every = max(1, args.processes // args.runs)  # tct runs spread among the hot loops
        for i in range(max(args.runs * every, args.processes)):
            if i % every == 0 and len(tct) < args.runs:
                tct.append(tct_run(args, n_ops, size))
            if len(loops) < args.processes:
                loops.append(hot_loop(args, n_ops, size))
        t = [x[0] for x in tct]
        lp = [x[0] for x in loops]
        ratio = statistics.median(t) / statistics.median(lp)
        worst = max(worst, abs(ratio - 1))
        print(f"{f'{n_ops} ops x {size}':<16} {f'{statistics.median(t):.2f}x ({min(t):.2f}-{max(t):.2f})':>22} "
              f"{f'{statistics.median(lp):.2f}x ({min(lp):.2f}-{max(lp):.2f})':>22} {ratio:9.3f} "
              f"{statistics.median(x[1] for x in tct) / 1e3:10.1f}/{statistics.median(x[1] for x in loops) / 1e3:<10.1f}"
              f"{statistics.median(x[2] for x in tct):5.0f}ns {statistics.median(x[2] for x in loops):11.2f}x")
    print(f"largest difference tct vs hot loop: {worst * 100:.1f}% (aim: <= 5%)")


if __name__ == "__main__":
    sys.exit(main())
