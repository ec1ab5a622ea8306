#!/usr/bin/env python3
"""How long must `tct expect` spread its profiled calls? Profiles GPT-2 (small config, one
thread) every few tenths of a second for a while, then treats each window of W seconds as
one profile: its lower envelope of the share outside operators (the fastest gap between
ops over the window's calls against each op's fastest run), as tct computes it. Prints,
per W, that share's 10%, 50% and 90% quantiles and its largest value over the windows: the
spread a profile of W seconds shows on this machine as its load moves.

    python bench/calibration/envelope_windows.py [--seconds 300]

Run from the repository root. A tick: two calls in one profiler run (tct keeps the second's
events: the first call of a run is recorded slower), then 0.2 s idle. The machine load
(`uptime`) is printed before and after.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WINDOWS_S = (1, 2, 3, 5, 8)


def top_level_ops(evt, out):
    for child in evt.cpu_children:
        if "::" in child.name and not child.name.startswith(("autograd::", "tct::", "profiler::")):
            out.append(child)
        else:
            top_level_ops(child, out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=300)
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    torch.set_num_threads(1)
    sys.path.insert(0, str(ROOT))
    from workloads import hf_model

    fn, call_args = hf_model()
    print("load before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    ticks = []  # (time, [per op duration], gap total) of each tick's second call
    with torch.no_grad():
        for _ in range(5):
            fn(*call_args)
        with profile(activities=[ProfilerActivity.CPU]):
            fn(*call_args)  # the profiler's first run in a process is slow to start
        end = time.time() + args.seconds
        while time.time() < end:
            with profile(activities=[ProfilerActivity.CPU]) as prof:
                for i in range(2):
                    with record_function(f"tct::call{i}"):
                        fn(*call_args)
            call = max((e for e in prof.events() if e.name.startswith("tct::call")),
                       key=lambda e: e.time_range.start)
            ops: list = []
            top_level_ops(call, ops)
            durations = [o.time_range.end - o.time_range.start for o in ops]
            ticks.append((time.time(), durations, (call.time_range.end - call.time_range.start) - sum(durations)))
            time.sleep(0.2)
    print("load after: ", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    per_tick = (ticks[-1][0] - ticks[0][0]) / max(1, len(ticks) - 1)
    print(f"{len(ticks)} ticks, {per_tick:.2f} s apart; share outside ops of each window's envelope:")
    for w in WINDOWS_S:
        k = max(1, round(w / per_tick))
        shares = []
        for i in range(0, len(ticks) - k + 1, k):
            window = ticks[i:i + k]
            in_ops = sum(min(t[1][j] for t in window) for j in range(len(window[0][1])))
            outside = min(t[2] for t in window)
            shares.append(outside / (outside + in_ops))
        q = sorted(shares)
        print(f"  W = {w} s ({k} ticks, {len(q)} windows): p10 {q[len(q) // 10]:.3f}, "
              f"median {statistics.median(q):.3f}, p90 {q[9 * len(q) // 10]:.3f}, max {q[-1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
