"""Does `tct startup` time each start mode as a plain script in a fresh process would?

For each mode, `tct startup` times its starts, and bench/startup_plain.py (no agent, no
protocol, no trace) runs the same start as often, each in a fresh process with its own cache
folders, timed the same way: the parent's CLOCK_MONOTONIC at launch to the child's at its
first output. The two alternate, round by round (`tct startup --repeats 1`, then one plain
start of each mode): on a shared machine the load drifts over minutes, and a run of all of
tct's starts before all of the plain ones measured the drift (a GPT-2 eager start: 5.05 s
against 3.70 s that way; alternated, three pairs 10.17/10.52, 10.76/10.73, 13.03/11.64 s on
a loaded machine). A mode agrees when the plain median lies within
the range of tct's starts, or within 10% of their median. On a quiet machine (2 cores, load
average 0), GPT-2 (bench/targets/held_out.py:gpt2 --param layers=1 --param seq=32 --repeats 3),
tct median [range] / plain median: eager 3.14 [2.82, 3.49] / 3.08 s, cold 15.64 [14.05, 16.13] /
14.71 s, warm 5.74 [5.60, 5.91] / 5.82 s, shipped 13.34 [12.96, 13.84] / 13.87 s: all four agree.

    .venv/bin/python bench/startup_oracle.py builtin:tiny_ops --repeats 3
    .venv/bin/python bench/startup_oracle.py builtin:mlp --param width=64 --modes eager,warm

Exit status 1 when a mode disagrees.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tool_paths import ROOT, add_params, params_of, parser

PLAIN = Path(__file__).resolve().parent / "startup_plain.py"


def plain_start(python, mode, target, params, cache, artifacts=None):
    """Seconds from launch to the first output of one plain start, its caches in `cache`."""
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(Path(cache) / "inductor"),
               TRITON_CACHE_DIR=str(Path(cache) / "triton"),
               PYTHONPATH=str(ROOT / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("TORCH_TRACE", None)
    args = [python, str(PLAIN), mode, target, json.dumps(params), str(artifacts or "")]
    launch = time.monotonic_ns()
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True, timeout=900).stdout
    return (int(out.strip().splitlines()[-1]) - launch) / 1e9


def plain_mode(python, mode, target, params, repeats):
    """The plain script's starts of one mode: warm and shipped after a cold start that fills
    (and saves) their caches, as tct's are."""
    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as d:
            if mode in ("eager", "cold"):
                times.append(plain_start(python, mode, target, params, Path(d) / "c"))
                continue
            artifacts = Path(d) / "artifacts.bin"
            plain_start(python, "save", target, params, Path(d) / "c", artifacts)
            if mode == "warm":
                times.append(plain_start(python, "warm", target, params, Path(d) / "c"))
            else:
                times.append(plain_start(python, "shipped", target, params, Path(d) / "s", artifacts))
    return times


def tct_round(a, modes):
    """One `tct startup --repeats 1`: {mode: seconds to its first output, or the reason it has none}."""
    cmd = [a.tct, "startup", a.target, "--modes", ",".join(modes), "--repeats", "1", "--python", a.python,
           "--json", "--quiet"] + [x for kv in a.param for x in ("--param", kv)]
    doc = json.loads(subprocess.run(cmd, capture_output=True, text=True, timeout=3600).stdout)
    if doc.get("error"):
        raise SystemExit(f"tct failed: {doc['error']['message']}")
    return {m["mode"]: (m["first_output_ns"] / 1e9 if m["first_output_ns"] is not None else (m["error"] or m["skipped"]))
            for m in doc["startup"]["modes"] if m["mode"] in modes}


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("target")
    add_params(ap)
    ap.add_argument("--modes", default="eager,cold,warm,shipped")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    params = params_of(a)
    modes = a.modes.split(",")
    tct = {m: [] for m in modes}
    plain = {m: [] for m in modes}
    for _ in range(a.repeats):
        for m, t in tct_round(a, modes).items():
            tct[m].append(t)
        for m in modes:
            plain[m] += plain_mode(a.python, m, a.target, params, 1)
    failed = False
    print(f"{'mode':8} {'tct median':>11} {'tct range':>19} {'plain median':>13} {'plain/tct':>9}  agrees")
    for m in modes:
        measured = [t for t in tct[m] if isinstance(t, float)]
        if len(measured) < len(tct[m]):
            print(f"{m:8} tct measured nothing: {next(t for t in tct[m] if not isinstance(t, float))}")
            failed = True
            continue
        mid, p = statistics.median(measured), statistics.median(plain[m])
        agrees = min(measured) <= p <= max(measured) or abs(p / mid - 1) <= 0.10
        failed |= not agrees
        print(f"{m:8} {mid:10.2f}s [{min(measured):7.2f}, {max(measured):7.2f}]s {p:12.2f}s {p / mid:9.3f}  "
              f"{'yes' if agrees else 'NO'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
