"""The shape fixes of a job whose shapes vary, measured on its own inputs by `tct job
--shape-fixes`: per fix, its recompiles, compile time, the busiest site's steady per-call
median, and the job's total against the default (cold), the default's total over the fix's
with its 95% interval across paired rounds and the project's verdict; then the code tct says
to write for the installed torch. The figures are read from tct's JSON document.

    .venv/bin/python bench/job_shape_fixes.py --rounds 3 -- tests/e2e/jobs/varying_batch_mlp.py 48
    .venv/bin/python bench/job_shape_fixes.py --python .venv-torch2.15/bin/python -- tests/e2e/jobs/varying_batch_mlp.py
"""
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tool_paths import parser


def per_call(ns):
    if ns is None or not math.isfinite(ns):
        return "n/a"
    return f"{ns / 1e3:.1f} us" if ns < 1e6 else f"{ns / 1e6:.2f} ms"


def seconds(ns):
    return "n/a" if ns is None or not math.isfinite(ns) else f"{ns / 1e9:.2f} s"


def main():
    ap = parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--fixes", default="all")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the job (MLP_BACKEND=inductor)")
    ap.add_argument("job", nargs="+", help="the job's script and arguments (after --)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tct-shape-fixes-") as tmp:
        out = Path(tmp) / "job.json"
        env = dict(os.environ, **dict(kv.split("=", 1) for kv in args.env)) if args.env else None
        cmd = [args.tct, "job", "--modes", "cold", "--threads", "default", "--rounds", str(args.rounds),
               "--shape-fixes", args.fixes, "--dir", str(Path(tmp) / "runs"), "-o", str(out), "-q", "--",
               args.python, *args.job]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode != 0:
            sys.stderr.write(p.stdout + p.stderr)
            return p.returncode
        doc = json.loads(out.read_text())["job"]
    s = doc["shape_fixes"]
    print(f"torch {s['api']['torch']}; {args.rounds} rounds; job: {' '.join(args.job)}")
    for v in s["varied"]:
        print(f"shapes: {v['input']} dim {v['dim']} of {v['site_name']}: {v['sizes']} sizes, {v['min']} to {v['max']}")
    rows = [("fix", "recompiles", "compile", "per call (median)", "total", "default / fix [95%]", "verdict")]
    (cold,) = [m for m in doc["modes"] if m["mode"] == s["fixes"][0]["baseline"]]
    busiest = next((x for x in cold["sites"] if x["key"] == doc["anchor"]), cold["sites"][0] if cold["sites"] else None)
    rows.append(("default (cold)", str(sum(x["recompiles"] for x in cold["sites"])),
                 seconds(sum(x["compile_time_ns"] or 0 for x in cold["sites"])),
                 per_call(busiest["steady"]["mean_ns"]) if busiest else "n/a", seconds(cold["total"]["mean_ns"]), "1", ""))
    for x in s["fixes"]:
        if x["not_run"]:
            rows.append((x["fix"], "", "", "", "", "", "not run: " + x["not_run"]))
            continue
        sp = x["speedup"]
        interval = (f"{sp['estimate']:.2f} [{sp['low']:.2f}, {sp['high']:.2f}]"
                    if sp["low"] is not None and sp["estimate"] is not None else str(sp["estimate"]))
        rows.append((x["fix"], str(x["recompiles"]), seconds(x["compile_time_ns"]), per_call(x["steady"]["mean_ns"]),
                     seconds(x["total"]["mean_ns"]), interval, x["verdict"]))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    for x in s["fixes"]:
        for c in x["code"]:
            print(f"{x['fix']}: {c['code']}  ({c['where']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
