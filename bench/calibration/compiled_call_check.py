#!/usr/bin/env python3
"""Is the compiled call's cost `tct expect` prints (timed between the profile's plain calls)
what a plain loop measures? Alternates N `tct expect --json` runs with N fresh processes that
time torch.compile'd `a + b` on 1-element tensors under no_grad directly (the fastest of 15
rounds of 100 calls), and prints each pair and the median ratio tct / loop.

    python bench/calibration/compiled_call_check.py [--runs 5] [--tct build/tct] [--python ...]

Run from the repository root. Quote the machine load with the figures: its speed moves
between seconds, so a single pair can differ by 1.7x; the median ratio is the figure.
"""
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tool_paths import ROOT, parser  # noqa: E402

LOOP = """
import time, torch
x, y = torch.ones(1), torch.ones(1)
fn = torch.compile(lambda a, b: a + b)
with torch.no_grad():
    for _ in range(100):
        fn(x, y)
    best = float("inf")
    for _ in range(15):
        t0 = time.perf_counter_ns()
        for _ in range(100):
            fn(x, y)
        best = min(best, (time.perf_counter_ns() - t0) / 100)
print(best)
"""


def main() -> int:
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="1")
    ratios = []
    for i in range(args.runs):
        out = subprocess.run([args.tct, "expect", "builtin:tiny_ops", "--json", "--quiet", "--python", args.python],
                             capture_output=True, text=True, cwd=ROOT, env=env)
        try:
            pred = json.loads(out.stdout)["expect"]["predicted_speedup"]
        except (json.JSONDecodeError, KeyError):
            print(f"compiled_call_check: tct expect failed: {out.stderr.strip()[-300:]}", file=sys.stderr)
            return 1
        loop = float(subprocess.run([args.python, "-c", LOOP], capture_output=True, text=True, env=env,
                                    check=True).stdout)
        ratio = pred["compiled_call_ns"] / loop
        ratios.append(ratio)
        print(f"run {i + 1}: tct {pred['compiled_call_ns'] / 1e3:.1f} us ({pred['compiled_call_source']}), "
              f"plain loop {loop / 1e3:.1f} us, ratio {ratio:.3f}, load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"median ratio tct / plain loop: {statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
