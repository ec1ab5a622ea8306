#!/usr/bin/env python3
"""Figures for the `tct expect` note: predicted class and speedup range against the measured
speedup on the built-in examples (tct expect --validate on each).

    python bench/bench_expect_table.py [--tct build/tct] [--python .venv/bin/python]
                                       [--budget 3] [--backend inductor] [--out table.md]

Prints a Markdown table; exits 1 when a predicted direction is wrong. Takes ~10 minutes on
a 2-core machine (one inductor compile per row).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tool_paths import ROOT, parser

CASES = [
    ("builtin:tiny_ops", {}),
    ("builtin:mlp", {"batch": 8}),
    ("builtin:mlp", {"batch": 512}),
    ("builtin:convnet", {}),
    ("builtin:transformer_block", {}),
]


def run_case(args, spec, params):
    argv = [args.tct, "expect", spec, "--validate", "--json", "--quiet", "--budget", str(args.budget),
            "--backend", args.backend, "--python", args.python]
    for k, v in params.items():
        argv += ["--param", f"{k}={json.dumps(v)}"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=args.timeout)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"error": (proc.stderr.strip().splitlines() or ["no output"])[0], "rc": proc.returncode}
    return {"doc": doc, "rc": proc.returncode}


def fmt_range(r):
    if not r or r.get("low") is None:
        return "n/a"
    return f"{r['low']:.2f}x - {r['high']:.2f}x"


def fmt_measured(m):
    if not m or m.get("estimate") is None:
        return "n/a"
    if m.get("low") is None:
        return f"{m['estimate']:.2f}x"
    return f"{m['estimate']:.2f}x [{m['low']:.2f}, {m['high']:.2f}]"


def main() -> int:
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=3.0)
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", help="also write the table to this file")
    args = ap.parse_args()

    lines = ["| target | class | predicted | measured speedup [95% CI] | range | direction |",
             "|---|---|---|---|---|---|"]
    wrong = 0
    for spec, params in CASES:
        name = spec.removeprefix("builtin:") + "".join(f" {k}={v}" for k, v in params.items())
        print(f"running {name} ...", file=sys.stderr, flush=True)
        r = run_case(args, spec, params)
        if "doc" not in r:
            lines.append(f"| {name} | failed: {r['error']} | | | | |")
            wrong += 1
            continue
        e = r["doc"].get("expect") or {}
        v = e.get("validation") or {}
        cls = (e.get("class") or "?").replace("_", " ")
        if not v:
            err = (r["doc"].get("error") or {}).get("message", "no validation")
            lines.append(f"| {name} | {cls} | {fmt_range(e.get('predicted_speedup'))} | failed: {err} | | |")
            wrong += 1
            continue
        right = v.get("direction_right")
        wrong += 0 if right else 1
        lines.append(f"| {name} | {cls} | {fmt_range(v.get('predicted'))} | {fmt_measured(v.get('measured'))} | "
                     f"{v.get('verdict')} | {v.get('predicted_direction')} / {v.get('measured_direction')}: "
                     f"{'right' if right else 'WRONG'} |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
