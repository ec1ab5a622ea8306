#!/usr/bin/env python3
"""Is `tct expect` stable? Runs it N times on one target (fresh processes, the ceilings
cache as a user has it) and reports whether the class agrees and how much the predicted
ranges overlap: per pair of runs, the length of their intersection over the length of
their union, on a log scale (1.0: the same range; the issue asks for >= 0.8).

    python bench/calibration/stability.py [TARGET] [--param NAME=VALUE ...] [--runs 5]
                                          [--threads 1] [--tct build/tct]

Default target: bench/calibration/workloads.py:hf_model (GPT-2 from a small config).
Run from the repository root; prints the runs, then class agreement and the overlaps,
and the machine load (`uptime`) before and after.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def overlap(a, b) -> float:
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    inter = max(0.0, math.log(hi) - math.log(lo)) if hi > lo else 0.0
    union = math.log(max(a[1], b[1])) - math.log(min(a[0], b[0]))
    return inter / union if union > 0 else 1.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", nargs="?", default="bench/calibration/workloads.py:hf_model")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1, help="OMP_NUM_THREADS (0: unset), as measure.py")
    ap.add_argument("--tct", default=os.environ.get("TCT_BIN", str(ROOT / "build" / "tct")))
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    args = ap.parse_args()

    env = dict(os.environ)
    if args.threads:
        env["OMP_NUM_THREADS"] = str(args.threads)
    print("load before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    runs = []
    for i in range(args.runs):
        argv = [args.tct, "expect", args.target, "--json", "--quiet", "--python", args.python]
        for p in args.param:
            argv += ["--param", p]
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env)
        try:
            doc = json.loads(proc.stdout)
            e = doc["expect"]
        except (json.JSONDecodeError, KeyError):
            print(f"run {i + 1}: failed: {(proc.stderr.strip().splitlines() or ['no output'])[-1]}")
            continue
        p = e["predicted_speedup"]
        runs.append((e["class"], p["low"], p["point"], p["high"]))
        halves = "/".join(f"{h:.0%}" for h in e["profile"].get("overhead_fraction_halves") or [])
        print(f"run {i + 1}: {e['class']:15}{' (borderline)' if e.get('borderline_with') else ''} {p['point']:.2f}x ({p['low']:.2f}x-{p['high']:.2f}x), "
              f"wall {e['profile']['wall_per_call_ns'] / 1e3:.0f} us, outside ops "
              f"{e['time_shares']['outside_ops']:.0%} (halves {halves}), fixed cost {e['time_shares']['fixed_cost']:.0%} "
              f"(op floor {p['op_floor_ns']:.0f} ns), compiled call {p['compiled_call_ns'] / 1e3:.1f} us"
              + "".join(f"; warned: {w['message'][:90]}" for w in doc.get("warnings", [])
                        if w.get("code") == "noisy_measurement"))
    print("load after: ", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if len(runs) < 2:
        return 1
    classes = [r[0] for r in runs]
    top = max(set(classes), key=classes.count)
    pairs = [overlap((a[1], a[3]), (b[1], b[3])) for a, b in itertools.combinations(runs, 2)]
    print(f"class agreement: {classes.count(top)} of {len(runs)} runs say {top}")
    print(f"range overlap (intersection / union, log scale) over {len(pairs)} pairs: "
          f"min {min(pairs):.2f}, median {statistics.median(pairs):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
