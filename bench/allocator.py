#!/usr/bin/env python3
"""The allocator as a measured fact: a resnet18-like CNN in a plain loop in each malloc state,
next to `tct bench --allocator STATE` for the same state.

States: system (glibc as a process starts), settled (glibc after one 30 MiB block is freed,
what tct's agent does with --allocator settled), settled-env (glibc with the MALLOC_* settings
tct's finding suggests for the settled state), tcmalloc and jemalloc (LD_PRELOAD of Debian's
libraries, skipped when absent). Each plain loop runs in a fresh process: load, 30 eager calls,
compile and 30 compiled calls (the warm-up), then alternating rounds of eager and compiled
calls; the speedup is the ratio of the round medians. Then `tct bench --allocator STATE`
(the system run with the comparison on, so its warnings show the allocator finding; the
others with --no-allocator-compare). Printed per state: the plain loop's eager, compiled and
speedup, tct's speedup and interval, whether they agree (within 5%, or the loop's speedup
inside tct's interval), and the speedup in each of tct's two processes (the first ran eager
before compiling, like the plain loop; the second compiled first). The aim (issue 27): tct's headline matches a plain loop in the state
it names, and the finding appears when the states differ.
Usage: bench/allocator.py [--tct build/tct] [--python .venv/bin/python] [--budget 6]
       [--rounds 20] [--batch 2] [--size 64] [--threads 1]
"""
import json
import os
import subprocess
import sys
import tempfile

from tool_paths import ROOT, parser

TARGET = str(ROOT / "bench" / "targets" / "held_out.py") + ":resnet18"
LIBS = {"tcmalloc": ("/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4", "/usr/lib64/libtcmalloc_minimal.so.4"),
        "jemalloc": ("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib64/libjemalloc.so.2")}
# What tct's finding suggests for the settled state (core/allocator.cpp, allocator_fix).
SETTLED_ENV = {"MALLOC_MMAP_THRESHOLD_": str(30 << 20), "MALLOC_TRIM_THRESHOLD_": str(60 << 20)}

PLAIN_LOOP = r'''
import statistics, sys, time, torch
sys.path.insert(0, sys.argv[1])
from held_out import resnet18
torch.set_num_threads(int(sys.argv[5]))
if sys.argv[2] == "1":  # the settling block, as tct's agent frees it (timing.settle_allocator)
    b = torch.empty(30 << 20, dtype=torch.uint8); b[::4096] = 1; del b
model, args = resnet18(int(sys.argv[3]), int(sys.argv[4]))
compiled = torch.compile(model)
rounds = []
with torch.no_grad():
    for _ in range(30):
        model(*args)
    for _ in range(30):
        compiled(*args)
    for _ in range(int(sys.argv[6])):
        t = time.perf_counter(); [model(*args) for _ in range(5)]; e = (time.perf_counter() - t) / 5
        t = time.perf_counter(); [compiled(*args) for _ in range(5)]; c = (time.perf_counter() - t) / 5
        rounds.append((e, c))
e = statistics.median(x for x, _ in rounds); c = statistics.median(y for _, y in rounds)
print(e * 1e3, c * 1e3)
'''


def library(state):
    return next((p for p in LIBS.get(state, ()) if os.path.exists(p)), None)


def plain_loop(a, state, cache):
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, OMP_NUM_THREADS=str(a.threads))
    env.pop("LD_PRELOAD", None)
    if state in LIBS:
        env["LD_PRELOAD"] = library(state)
    if state == "settled-env":
        env.update(SETTLED_ENV)
    settle = "1" if state == "settled" else "0"
    r = subprocess.run([a.python, "-c", PLAIN_LOOP, str(ROOT / "bench" / "targets"), settle, str(a.batch),
                        str(a.size), str(a.threads), str(a.rounds)], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-2000:])
        return None
    e, c = map(float, r.stdout.split()[-2:])
    return e, c


def tct_bench(a, state, cache):
    allocator = "settled" if state == "settled-env" else state
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache)
    env.pop("LD_PRELOAD", None)
    if state == "settled-env":  # the fix, on a system-state run: does it give settled's figures?
        env.update(SETTLED_ENV)
        allocator = "system"
    cmd = [a.tct, "bench", TARGET, "--param", f"batch={a.batch}", "--param", f"size={a.size}", "--budget",
           str(a.budget), "--threads", str(a.threads), "--allocator", allocator, "--no-memory",
           "--no-compile-time", "--no-check", "--json", "--python", a.python, "-q"]
    if state != "system":
        cmd.append("--no-allocator-compare")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(r.stderr[-2000:])
        return None


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=6)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    cache = tempfile.mkdtemp(prefix="tct-bench-allocator-")
    print(f"{'state':>12} {'eager':>9} {'compiled':>9} {'loop':>7}   {'tct speedup [95% CI]':>22}  {'agree':>5}  "
          f"tct per process")
    finding = None
    for state in ("system", "settled", "settled-env", "tcmalloc", "jemalloc"):
        if state in LIBS and not library(state):
            print(f"{state:>12} skipped: library not installed")
            continue
        loop = plain_loop(a, state, cache)
        doc = tct_bench(a, state, cache)
        if loop is None or doc is None:
            print(f"{state:>12} failed")
            continue
        e, c = loop
        plain = e / c
        sp = doc["bench"]["rows"][0]["speedup"] or {}
        est, lo, hi = sp.get("estimate"), sp.get("low"), sp.get("high")
        agree = est is not None and (abs(est / plain - 1) <= 0.05 or lo <= plain <= hi)
        # The row's processes: the first ran eager before compiling, the second compiled first.
        per = ", ".join(f"{p['speedup']:.2f}x" for p in sp.get("per_process", []))
        print(f"{state:>12} {e:>7.2f}ms {c:>7.2f}ms {plain:>6.2f}x   {est:>8.2f}x [{lo:.2f}, {hi:.2f}]  "
              f"{'yes' if agree else 'NO':>5}  {per}")
        if state == "system":
            finding = doc
    if finding:
        al = finding["bench"].get("allocator", {})
        print("\ntct bench --allocator system, its comparison of the states (first row):")
        for s in al.get("states", []):
            spd = s.get("speedup") or {}
            if s["status"] in ("headline", "measured"):
                print(f"  {s['state']:>9} {s['status']:>9}  eager {s['eager_ns'] / 1e6:6.2f} ms  compiled "
                      f"{s['compiled_ns'] / 1e6:6.2f} ms  speedup {spd.get('estimate', float('nan')):.2f}x "
                      f"[{spd.get('low', float('nan')):.2f}, {spd.get('high', float('nan')):.2f}]  found {s.get('detected')}")
            else:
                print(f"  {s['state']:>9} {s['status']:>9}  {s.get('reason')}")
        for w in finding.get("warnings", []):
            if w["code"] == "allocator_moves_result":
                print(f"\nfinding: {w['message']}\n  hint: {w['hint']}")
                break
        else:
            print("\nno allocator finding (the states agree within the headline's interval)")


if __name__ == "__main__":
    main()
