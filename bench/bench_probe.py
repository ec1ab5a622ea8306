#!/usr/bin/env python3
"""Time of `tct probe` against `python -c "import torch"` in the same interpreter.
Aim: a cached probe at most 1.3x the import. Runs are interleaved (import, cached probe,
uncached probe, ...) so that machine load hits all three alike; medians are printed.
The cache lives in a fresh temporary $XDG_CACHE_HOME, filled by one warm-up probe.
Usage: bench/bench_probe.py [--runs 7] [--tct build/tct] [--python .venv/bin/python]
"""
import os
import statistics
import subprocess
import tempfile
import time

from tool_paths import ROOT, parser


def timed(argv, env):
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = parser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        probe = [args.tct, "probe", "-q", "--python", args.python]
        timed(probe, env)  # fills the cache
        runs = {"import torch": [], "tct probe (cached)": [], "tct probe --no-cache": []}
        for _ in range(args.runs):
            runs["import torch"].append(timed([args.python, "-c", "import torch"], env))
            runs["tct probe (cached)"].append(timed(probe, env))
            runs["tct probe --no-cache"].append(timed(probe + ["--no-cache"], env))
    base = statistics.median(runs["import torch"])
    print(f"load average {os.getloadavg()[0]:.2f}, {args.runs} interleaved runs, medians:")
    for name, times in runs.items():
        m = statistics.median(times)
        print(f"  {name:22} {m:6.2f} s  {m / base:4.2f}x the import")


if __name__ == "__main__":
    main()
