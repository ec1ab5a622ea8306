#!/usr/bin/env python3
"""Does expect's range hold what bench measures when part of the function runs eagerly?
`tct expect --validate` on tests/e2e/fixtures/breaks_unresumable_gru.py (an nn.GRU Dynamo
cannot resume after: forward from the GRU's line to its end runs eagerly on every call), at a
few clip lengths: the compiled share of an eager call expect measured (time inside the
captured graphs, interleaved pairs), the model's range for the function captured whole, the
range with the eager part at 1.0x (Amdahl), and bench's measured speedup with its interval.

    python bench/eager_part_expect.py [--tct build/tct] [--python .venv/bin/python]
                                      [--budget 3] [--backend inductor] [--steps 5 40]

Prints a Markdown table; exits 1 when a measured speedup lies outside its predicted range.
Each row compiles the front-end once with inductor: a few minutes on 2 cores.
"""
from __future__ import annotations

import json
import subprocess
import sys

from tool_paths import ROOT, parser

TARGET = ROOT / "tests" / "e2e" / "fixtures" / "breaks_unresumable_gru.py"


def fmt(x, spec="{:.2f}x"):
    return "n/a" if x is None else spec.format(x)


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=3)
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--steps", type=int, nargs="+", default=[5, 40])
    ap.add_argument("--timeout", type=float, default=1200)
    args = ap.parse_args()
    print("| steps | compiled share | if captured whole | predicted (eager part at 1.0x) | measured (95% CI) | holds |")
    print("| --- | --- | --- | --- | --- | --- |")
    misses = 0
    for steps in args.steps:
        argv = [args.tct, "expect", f"{TARGET}:make", "--param", f"steps={steps}", "--validate", "--json", "--quiet",
                "--budget", str(args.budget), "--backend", args.backend, "--python", args.python]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=args.timeout)
        try:
            e = json.loads(proc.stdout)["expect"]
        except (json.JSONDecodeError, KeyError):
            print(f"| {steps} | error: {(proc.stderr.strip().splitlines() or ['no output'])[-1]} | | | | |")
            misses += 1
            continue
        run, pred, val = e["compiled_run"] or {}, e["predicted_speedup"] or {}, e.get("validation") or {}
        share = (run.get("compiled_share") or {}).get("covered")
        cap = run.get("if_captured") or {}
        m = val.get("measured") or {}
        low, high, est = pred.get("low"), pred.get("high"), m.get("estimate")
        holds = None not in (low, high, est) and low <= est <= high
        misses += not holds
        print(f"| {steps} | {fmt(share, '{:.0%}')} | {fmt(cap.get('low'))} to {fmt(cap.get('high'))} "
              f"| {fmt(low)} to {fmt(high)} (point {fmt(pred.get('point'))}) "
              f"| {fmt(est)} [{fmt(m.get('low'))}, {fmt(m.get('high'))}] | {'yes' if holds else 'NO'} |")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
