#!/usr/bin/env python3
"""Measure the calibration and validation sets of `tct expect` (cases.py): for each case,
`tct expect --validate --json` (the profile and FLOP count the prediction is made from,
then a `tct bench` of the same target in fresh processes), recording the evidence and the
measured speedup. fit.py fits the prediction's constants on the calibration rows only.

    python bench/calibration/measure.py [--out bench/calibration/measured.json]
        [--sets calibration,validation] [--transformers] [--budget 1.5] [--threads 1]
        [--tct build/tct] [--resume [--evidence-only [--retries 3] [--slow-rows-only]]]
        [--ceilings-cache DIR]

Run from the repository root. Rows are written after each case (a stopped run keeps them);
--resume skips the cases already measured in --out (and measures again those without a
speedup, e.g. with a larger --budget). The machine load (`uptime`) is recorded per case:
on a shared machine, quote it with the figures.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import cases  # noqa: E402


# A profile whose compiled call took more than this times the session's quickest ran on a
# machine slowed down by other processes.
SLOW = 1.25


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def run_case(args, target, params, refresh_ceilings: bool, validate: bool = True) -> dict:
    argv = [args.tct, "expect", target, "--json", "--quiet", "--python", args.python]
    argv += ["--validate", "--budget", str(args.budget)] if validate else []
    argv += ["--refresh-ceilings"] if refresh_ceilings else []
    for k, v in params.items():
        argv += ["--param", f"{k}={json.dumps(v)}"]
    t0 = time.time()
    # A cache of the machine's ceilings of our own, which no other tct run on the machine can
    # replace mid-session. (tct still measures them again when a workload beats the cached
    # FLOP/s ceiling; each row records the ceilings it was predicted from.)
    env = dict(os.environ, XDG_CACHE_HOME=str(Path(args.ceilings_cache).expanduser()))
    if args.threads:
        env["OMP_NUM_THREADS"] = str(args.threads)
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=args.timeout, cwd=ROOT, env=env)
    # Recorded without this machine's paths: `tct`, and the interpreter relative to the root.
    python = Path(args.python).absolute()
    shown = [str(python.relative_to(ROOT)) if a == args.python and python.is_relative_to(ROOT) else a for a in argv[1:]]
    row = {"argv": ["tct"] + shown, "rc": proc.returncode, "seconds": round(time.time() - t0, 1)}
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        row["error"] = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return row
    if doc.get("error"):
        row["error"] = doc["error"].get("message")
    e = doc.get("expect") or {}
    v = e.get("validation") or {}
    profile = e.get("profile") or {}
    row.update({
        "class": e.get("class"),
        "time_shares": e.get("time_shares"),
        "wall_per_call_ns": profile.get("wall_per_call_ns"),
        "ops_per_call": profile.get("ops_per_call"),
        "op_floor_ns": (e.get("ceilings") or {}).get("op_floor_ns"),
        # The compiled call's cost as the prediction used it (timed between the profiled calls).
        "compiled_call_ns": (e.get("predicted_speedup") or {}).get("compiled_call_ns",
                                                                   (e.get("ceilings") or {}).get("compiled_call_ns")),
        # Everything else the evidence holds, so that another model can be fitted without
        # measuring again.
        "profile": {k: v for k, v in profile.items() if k != "top_ops"},
        "counts": {k: e.get(k) for k in ("flops_per_call", "bytes_per_call", "boundary_bytes_per_call",
                                         "fused_kernel_bytes_per_call", "element_ops_per_call",
                                         "outside_tensors", "module_calls")},
        # The prediction's terms as tct summed them ({term: share}): fit.py fits their weights.
        "terms": {t["term"]: t["share"] for t in (e.get("predicted_speedup") or {}).get("terms", [])},
        "ceilings": e.get("ceilings"),
        "predicted": e.get("predicted_speedup", {}) and {k: e["predicted_speedup"].get(k)
                                                          for k in ("low", "point", "high")},
        "measured": v.get("measured"),
    })
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tct", default=os.environ.get("TCT_BIN", str(ROOT / "build" / "tct")))
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "calibration" / "measured.json"))
    ap.add_argument("--sets", default="calibration,validation")
    ap.add_argument("--transformers", action="store_true", help="add the Hugging Face models to both sets")
    ap.add_argument("--budget", type=float, default=1.5, help="seconds of interleaved sampling per bench")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--threads", type=int, default=1,
                    help="OMP_NUM_THREADS for the measured processes (0: leave it unset). One thread by "
                         "default: on a shared machine, multi-threaded kernels' fork/join cost follows the "
                         "load more than the workload")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--ceilings-cache", default="~/.cache/tct-calibration",
                    help="XDG_CACHE_HOME of the measured processes (the session's ceilings)")
    ap.add_argument("--evidence-only", action="store_true",
                    help="with --resume: run `tct expect` again (no bench) on the measured rows and replace "
                         "their evidence, keeping the measured speedups (after a change to what expect "
                         "measures; the speedups do not depend on the model)")
    ap.add_argument("--retries", type=int, default=3,
                    help="with --evidence-only: profile a row again up to this many times while its compiled "
                         f"call takes more than {SLOW} x the session's quickest (a slowed-down machine)")
    ap.add_argument("--slow-rows-only", action="store_true",
                    help="with --evidence-only: only the rows profiled on a slowed-down machine")
    args = ap.parse_args()

    out = Path(args.out)
    doc = json.loads(out.read_text()) if args.resume and out.exists() else {"rows": []}
    import torch  # only for the record
    doc["machine"] = {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                      "cores": os.cpu_count(), "torch": torch.__version__,
                      "omp_num_threads": args.threads or None}
    # A case without a measured speedup (bench inconclusive on a busy machine, or a failure)
    # is measured again on --resume (with a larger --budget, if need be).
    doc["rows"] = [r for r in doc["rows"] if (r.get("measured") or {}).get("estimate")]
    done = {(r["set"], r["name"]) for r in doc["rows"]}
    if args.evidence_only:
        # A row whose profile timed the compiled call well above the quickest of the session
        # was profiled while other processes slowed this machine down (the same Python up
        # to 1.7x slower for seconds at a time, Python more than kernels, so the shares move):
        # profiled again, up to --retries times, keeping the quietest attempt.
        quiet = min((r["compiled_call_ns"] for r in doc["rows"] if r.get("compiled_call_ns")), default=None)
        for i, row in enumerate(doc["rows"]):
            if args.slow_rows_only and quiet and row.get("compiled_call_ns") and \
                    row["compiled_call_ns"] <= SLOW * quiet:
                continue
            best = None
            for attempt in range(1 + args.retries):
                load = uptime()
                print(f"[evidence] {row['name']} ({load.split('load average:')[-1].strip()})"
                      f"{' again: profiled on a slow machine' if attempt else ''}", file=sys.stderr, flush=True)
                fresh = run_case(args, row["target"], row["params"], refresh_ceilings=i == 0 and attempt == 0,
                                 validate=False)
                fresh.pop("measured", None)
                fresh.update(evidence_uptime=load,
                             evidence_measured_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
                call = fresh.get("compiled_call_ns")
                if best is None or (call or math.inf) < (best.get("compiled_call_ns") or math.inf):
                    best = fresh
                if not call:  # nothing compiled: no yardstick to retry by
                    break
                quiet = min(quiet or call, call)
                if call <= SLOW * quiet:
                    break
            row.update(best)
            out.write_text(json.dumps(doc, indent=1) + "\n")
        return 0
    sets = {"calibration": cases.CALIBRATION + (cases.TRANSFORMERS_CALIBRATION if args.transformers else []),
            "validation": cases.VALIDATION + (cases.TRANSFORMERS_VALIDATION if args.transformers else [])}
    for set_name in args.sets.split(","):
        for name, target, params in sets[set_name]:
            if (set_name, name) in done:
                continue
            load = uptime()
            print(f"[{set_name}] {name} ({load.split('load average:')[-1].strip()})", file=sys.stderr, flush=True)
            row = {"set": set_name, "name": name, "target": target, "params": params, "uptime": load,
                   "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            # The first case of a session measures the machine's ceilings afresh (then cached):
            # every prediction of the session uses them.
            row.update(run_case(args, target, params, refresh_ceilings=not done and not doc["rows"]))
            doc["rows"].append(row)
            out.write_text(json.dumps(doc, indent=1) + "\n")
            m = row.get("measured") or {}
            print(f"    class {row.get('class')}, measured {m.get('estimate')}, {row['seconds']} s"
                  + (f", error: {row['error']}" if "error" in row else ""), file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
