#!/usr/bin/env python3
"""The output check on Hugging Face models (tiny configs, random weights, built offline:
bench/output_check/hf_tiny.py), and what the check costs.

For each model, one default `tct bench` run (inductor, default budget, compile time in
fresh processes): whether the check is conclusive and matches, by which rule, how many
leaves it compared, and the check's wall time (row.correctness.check_s: the seeded eager
calls, the compiled call, any float64 reference or fallback_random recompile, the
comparison) as a share of the whole run's wall time.

Usage: bench/output_check/bench_output_check.py [--models gpt2,llama,bert,t5,vit]
       [--tct build/tct] [--python .venv/bin/python] [extra tct bench flags, e.g. --train]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = Path(__file__).resolve().parent / "hf_tiny.py"


def run(args, model, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        t0 = time.monotonic()
        p = subprocess.run([args.tct, "bench", f"{TARGETS}:{model}", "--python", args.python, "-q",
                            "-o", str(out), *extra], capture_output=True, text=True, env=dict(os.environ))
        wall = time.monotonic() - t0
        if not out.exists():
            return {"model": model, "error": p.stderr.strip().splitlines()[:1]}
        doc = json.loads(out.read_text())
    row = doc["bench"]["rows"][0]
    c = row.get("correctness") or {}
    cost = c.get("agent_cost_ns") or {}
    return {"model": model, "rc": p.returncode, "wall_s": wall, "match": c.get("match"),
            "basis": c.get("basis"), "nondeterministic": c.get("nondeterministic"),
            "leaves": c.get("leaves"), "not_compared": len(c.get("not_compared") or []),
            "reference": (c.get("reference") or {}).get("computed"),
            "fallback_random": c.get("fallback_random"), "check_s": c.get("check_s"),
            "eager_s": cost.get("eager_ns", 0) / 1e9, "compiled_s": cost.get("compiled_ns", 0) / 1e9,
            "reference_s": cost.get("reference_ns", 0) / 1e9,
            "speedup": (row.get("speedup") or {}).get("estimate"),
            "first_mismatch": (c.get("mismatches") or [{}])[0] if c.get("mismatches") else None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="gpt2,llama,bert,t5,vit")
    ap.add_argument("--tct", default=str(ROOT / "build" / "tct"))
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    args, extra = ap.parse_known_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; "
          f"extra flags: {' '.join(extra) or '(none: a default tct bench run)'}")
    print(f"{'model':6} {'rc':>2} {'match':>5} {'basis':>17} {'leaves':>6} {'n/c':>3} {'ref':>5} "
          f"{'check s':>8} {'(eager/compiled/ref s)':>22} {'run s':>6} {'check share':>11}")
    shares = []
    for model in args.models.split(","):
        r = run(args, model, extra)
        if "error" in r:
            print(f"{model:6} failed: {r['error']}")
            continue
        share = r["check_s"] / r["wall_s"] if r["check_s"] is not None else float("nan")
        shares.append(share)
        parts = f"{r['eager_s']:.2f}/{r['compiled_s']:.2f}/{r['reference_s']:.2f}"
        print(f"{model:6} {r['rc']:>2} {str(r['match']):>5} {str(r['basis']):>17} {r['leaves']:>6} "
              f"{r['not_compared']:>3} {str(r['reference']):>5} {r['check_s']:>8.2f} {parts:>22} "
              f"{r['wall_s']:>6.1f} {100 * share:>10.2f}%")
        if r["first_mismatch"]:
            print(f"       first mismatch: {r['first_mismatch']}")
    if shares:
        print(f"check share of the run: max {100 * max(shares):.2f}%, "
              f"mean {100 * sum(shares) / len(shares):.2f}%")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
