"""Does `tct job` time each mode's total as a plain timing loop in fresh processes would?

Round by round, `tct job --rounds 1` runs every mode once (its own fill run first, when warm or
shipped are asked for), then this script runs the same command once per mode, in the same
rotated order, each a fresh process timed from launch to exit with time.monotonic_ns, with the
same environment but no tct code: eager with TORCH_COMPILE_DISABLE=1, cold with empty cache
folders, warm with a copy of the caches of one plain compiled run, shipped through
bench/job_plain_wrapper.py (load_cache_artifacts of that run's save), threads through
OMP_NUM_THREADS and MKL_NUM_THREADS. Alternating the two keeps a shared machine's drift out of
the comparison. A mode agrees when the plain mean lies within tct's 95% t interval across the
rounds (the formula tct uses), or within 10% of tct's mean.

    .venv/bin/python bench/job_oracle.py --rounds 3 -- tests/e2e/jobs/bucketed_scorer.py --requests 200
    .venv/bin/python bench/job_oracle.py --modes eager,cold,warm,shipped --threads default,1 --env SCORER_BACKEND=inductor -- tests/e2e/jobs/bucketed_scorer.py

Exit status 1 when a mode disagrees.
"""
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tool_paths import parser

WRAPPER = Path(__file__).resolve().parent / "job_plain_wrapper.py"
# t(0.975; df) for df 1..10 (Fisher & Yates, table III): tct's own interval, recomputed here.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]


def t_interval(xs):
    m = statistics.mean(xs)
    if len(xs) < 2:
        return m, math.nan, math.nan
    half = T975[min(len(xs) - 1, len(T975)) - 1] * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - half, m + half


def label(how, threads):
    return how if threads == "default" else f"{how}, {threads} thread{'' if threads == '1' else 's'}"


def plain_run(python, script, args, how, threads, work, fill_cache, artifacts, extra_env):
    """Seconds from launch to exit of one plain run of the job in `how` mode."""
    cache = Path(work) / "cache"
    if how == "warm":
        shutil.copytree(fill_cache, cache)
    env = dict(os.environ, **extra_env, TORCHINDUCTOR_CACHE_DIR=str(cache / "inductor"),
               TRITON_CACHE_DIR=str(cache / "triton"))
    for k in ("TORCH_TRACE", "PYTHONPATH"):
        env.pop(k, None)
    if how == "eager":
        env["TORCH_COMPILE_DISABLE"] = "1"
    if threads != "default":
        env["OMP_NUM_THREADS"] = env["MKL_NUM_THREADS"] = threads
    cmd = [python, str(WRAPPER), str(artifacts) if how == "shipped" else "-", "-", script, *args]
    launch = time.monotonic_ns()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=1800)
    return (time.monotonic_ns() - launch) / 1e9


def plain_fill(python, script, args, work, extra_env):
    cache, artifacts = Path(work) / "cache", Path(work) / "artifacts.bin"
    env = dict(os.environ, **extra_env, TORCHINDUCTOR_CACHE_DIR=str(cache / "inductor"),
               TRITON_CACHE_DIR=str(cache / "triton"))
    for k in ("TORCH_TRACE", "PYTHONPATH"):
        env.pop(k, None)
    subprocess.run([python, str(WRAPPER), "-", str(artifacts), script, *args], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True, timeout=1800)
    return cache, artifacts


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--modes", default="eager,cold,warm,shipped")
    ap.add_argument("--threads", default="default,1")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the job, in both tct's runs and plain ones")
    ap.add_argument("job", nargs="+", help="SCRIPT.py ARGS... (after --)")
    a = ap.parse_args()
    extra_env = dict(kv.split("=", 1) for kv in a.env)
    script, args = a.job[0], a.job[1:]
    hows, threads = a.modes.split(","), a.threads.split(",")
    modes = [(h, t) for h in hows for t in threads]
    tct_totals = {label(h, t): [] for h, t in modes}
    hits = {label(h, t): [0, 0] for h, t in modes}  # tct's runs: the trace's cache hits and misses
    plain_totals = {label(h, t): [] for h, t in modes}
    env = dict(os.environ, **extra_env)
    with tempfile.TemporaryDirectory(prefix="job-oracle-") as tmp:
        fill = None
        if any(h in ("warm", "shipped") for h in hows):
            fill = plain_fill(a.python, script, args, Path(tmp) / "plain-fill", extra_env)
        for r in range(a.rounds):
            out = Path(tmp) / f"tct-{r}.json"
            subprocess.run([a.tct, "job", "--modes", a.modes, "--threads", a.threads, "--rounds", "1", "--dir",
                            str(Path(tmp) / f"tct-{r}"), "-o", str(out), "--quiet", "--", a.python, script, *args],
                           env=env, check=True, stdout=subprocess.DEVNULL, timeout=7200)
            doc = json.loads(out.read_text())
            for m in doc["job"]["modes"]:
                for run in m["runs"]:
                    if run["ok"]:
                        tct_totals[m["mode"]].append(run["wall_ns"] / 1e9)
                        for site in run["sites"]:
                            hits[m["mode"]][0] += site["cache_hits"]
                            hits[m["mode"]][1] += site["cache_misses"]
            for i in range(len(modes)):  # tct's own rotation: round r starts at mode r
                h, t = modes[(i + r) % len(modes)]
                work = Path(tmp) / f"plain-{r}-{h}-{t}"
                work.mkdir()
                plain_totals[label(h, t)].append(
                    plain_run(a.python, script, args, h, t, work, fill[0] if fill else None, fill[1] if fill else None,
                              extra_env))
            print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    bad = 0
    print(f"{'mode':<22} {'tct mean [95% t]':<28} {'plain mean':>10}  agrees")
    for name in tct_totals:
        if not tct_totals[name]:  # e.g. shipped, when the compiled run saved no cache artifacts
            print(f"{name:<22} not run by tct (its document says why)")
            continue
        m, lo, hi = t_interval(tct_totals[name])
        p = statistics.mean(plain_totals[name])
        ok = (lo <= p <= hi) or abs(p - m) <= 0.10 * m
        bad += not ok
        print(f"{name:<22} {m:7.2f} s [{lo:6.2f}, {hi:6.2f}]     {p:8.2f} s  {'yes' if ok else 'NO'}"
              f"   (tct {', '.join(f'{x:.2f}' for x in tct_totals[name])}; plain "
              f"{', '.join(f'{x:.2f}' for x in plain_totals[name])}; cache {hits[name][0]} hit, {hits[name][1]} miss)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
