#!/usr/bin/env python3
"""Threads on a busy machine: `tct bench` with torch's default threads against `--threads 1`,
while a background job keeps one core busy, next to a plain loop timed the same way.

A background process spins on one core for the whole run (started here, stopped at the end).
For each thread setting (default, then 1): `tct bench TARGET --json`, then a plain hot loop
in a fresh process with the same OMP_NUM_THREADS (eager and compiled rounds alternated, the
speedup as the ratio of the round medians). Printed per setting: tct's speedup, interval,
verdict and whether it warned about oversubscription, the worst warm-up call against the
median compiled call, and the plain loop's speedup. The aim (issue: threads and busy
machines): default threads named oversubscribed, --threads 1 conclusive where the default
is not, and tct within 5% of the plain loop (or the loop inside tct's interval).
Usage: bench/oversubscription.py [--tct build/tct] [--python .venv/bin/python]
       [--target builtin:convnet] [--budget 20] [--no-load]
"""
import json
import multiprocessing
import os
import statistics
import subprocess
import time

from tool_paths import parser

HOT_LOOP = r'''
import statistics, sys, time, torch
sys.path.insert(0, sys.argv[1])
from tct_agent.examples import models
fn, args = getattr(models, sys.argv[2])()[:2]
compiled = torch.compile(fn)
rounds = []
with torch.no_grad():
    for _ in range(5):
        compiled(*args); fn(*args)
    for _ in range(int(sys.argv[3])):
        t = time.perf_counter(); [fn(*args) for _ in range(10)]; e = time.perf_counter() - t
        t = time.perf_counter(); [compiled(*args) for _ in range(10)]; c = time.perf_counter() - t
        rounds.append((e, c))
print(statistics.median(e for e, _ in rounds) / statistics.median(c for _, c in rounds))
'''


def spin():
    while True:
        pass


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="builtin:convnet")
    ap.add_argument("--budget", default="20")
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--no-load", action="store_true", help="measure without the background job")
    a = ap.parse_args()
    load = None if a.no_load else multiprocessing.Process(target=spin, daemon=True)
    if load:
        load.start()
        time.sleep(5)  # let the load average see it
    agent_dir = str(os.path.join(os.path.dirname(a.tct), "..", "python"))
    try:
        print(f"{'threads':>8} {'tct speedup [95% CI]':>24} {'verdict':>20} {'oversubscribed':>15} "
              f"{'worst warm-up / median':>23} {'plain loop':>11}")
        for threads in (None, 1):
            flags = [] if threads is None else ["--threads", str(threads)]
            r = subprocess.run([a.tct, "bench", a.target, "--budget", a.budget, "--no-memory", "--json",
                                "--python", a.python, *flags], capture_output=True, text=True)
            doc = json.loads(r.stdout)
            row = doc["bench"]["rows"][0]
            sp = row["speedup"]
            codes = {w["code"] for w in doc["warnings"]}
            curve = row["warmup_curve_ns"][1:]  # after the compiling call
            med = row["latency"]["compiled"]["median"]
            env = dict(os.environ)
            if threads:
                env["OMP_NUM_THREADS"] = str(threads)
            loop = subprocess.run([a.python, "-c", HOT_LOOP, agent_dir, a.target.split(":")[1], str(a.rounds)],
                                  capture_output=True, text=True, env=env)
            plain = float(loop.stdout.strip().splitlines()[-1]) if loop.returncode == 0 else float("nan")
            label = f"{doc['bench'].get('num_threads')}" + (" (default)" if threads is None else "")
            print(f"{label:>8} {sp['estimate']:>8.2f}x [{sp['low']:.2f}, {sp['high']:.2f}] {sp['verdict']:>20} "
                  f"{'yes' if 'oversubscribed' in codes else 'no':>15} {max(curve) / med if curve else float('nan'):>22.1f}x "
                  f"{plain:>10.2f}x")
    finally:
        if load:
            load.terminate()


if __name__ == "__main__":
    main()
