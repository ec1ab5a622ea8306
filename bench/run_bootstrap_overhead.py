"""What tct run's bootstrap (python/tct_run_bootstrap) costs the job it records.

1. Startup of a Python that never imports torch: `python -c pass` with and without the
   bootstrap on PYTHONPATH, median of N interleaved runs each (aim: under 5 ms).
2. The timing wrapper alone, in process: a trivial function bare and wrapped (the wrapper's
   fixed cost per call, without torch's noise).
3. The wrapper given one tensor, in process: a site's first 256 calls (each call's shapes
   counted) and its later ones (1 in 64 counted).
4. The wrapper on a real compiled call, in one process: through it and around it
   (its __wrapped__), interleaved; sampling off, so no window lands in a timed loop.
5. Per compiled call, in separate processes: a tiny function compiled with backend="eager" (so the call is mostly
   Python, the worst case for a fixed cost), called M times, in a fresh interpreter with and
   without the bootstrap; median ns per call, interleaved processes (aim: under 1 us, or 1%).
   The difference holds the timing wrapper and the compiled-graph run counter (and, with the
   sampler on, whatever windows fell in the best of the 5 loops).
6. What sampling costs such a job in all: the mean per call over all 5 loops (the sampler's
   windows, its profiler starts, stops and reads included) with the bootstrap's sampling on
   and off (TCT_RUN_BREAKDOWN=0, tct run --no-breakdown), median of the same processes.

    python bench/run_bootstrap_overhead.py [--runs 21] [--calls 20000] [--python .venv/bin/python]
        [--bootstrap DIR]   (another copy of python/tct_run_bootstrap, e.g. an older commit's
                             from `git worktree add`, to compare before and after)
        [--flush]           (the records flushed at the bootstrap's own interval, as in a job,
                             rather than never: with --calls 200000 each process runs for
                             seconds, so the periodic flush of every call so far is in the figure)
"""
import os
import statistics
import subprocess
import tempfile
import time

from tool_paths import ROOT, parser

BOOTSTRAP = ROOT / "python" / "tct_run_bootstrap"

CALLS = r"""
import sys, time, torch
torch.set_num_threads(1)
def f(x):
    return x + 1
g = torch.compile(f, backend="eager")
x = torch.ones(4)
for _ in range(50):
    g(x)
n = int(sys.argv[1])
best = []
for rep in range(5):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        g(x)
    best.append((time.perf_counter_ns() - t0) / n)
print(min(best), sum(best) / len(best))
"""


# With the bootstrap on: the same compiled call through tct's timing wrapper and around it
# (its __wrapped__), interleaved in one process: the wrapper's cost on a real compiled call,
# free of the process-to-process noise of the comparison above.
SAME_PROCESS = r"""
import sys, time, torch
torch.set_num_threads(1)
g = torch.compile(lambda x: x + 1, backend="eager")
x = torch.ones(4)
for _ in range(50):
    g(x)
inner = g.__wrapped__
n = int(sys.argv[1])
def loop(fn):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        fn(x)
    return (time.perf_counter_ns() - t0) / n
a, b = [], []
for _ in range(9):
    a.append(loop(inner))
    b.append(loop(g))
print(min(a), min(b))
"""


def same_process(python, calls, record_dir):
    # Sampling off: its windows (spread over the job by their cost) would land in the timed
    # loops; the unsampled call runs the same code either way, and line 6 says what sampling adds.
    p = subprocess.run([python, "-c", SAME_PROCESS, str(calls)], env=env_with(True, record_dir, breakdown=False),
                       check=True, capture_output=True, text=True)
    return tuple(map(float, p.stdout.split()))


FLUSH = False  # --flush: the bootstrap's own flush interval (TCT_RUN_FLUSH_S unset)


def env_with(bootstrap, record_dir, breakdown=True):
    env = dict(os.environ)
    env["TCT_RUN_BREAKDOWN"] = "1" if breakdown else "0"
    env.pop("PYTHONPATH", None)
    env.pop("TCT_RUN_FLUSH_S", None)
    if not FLUSH:
        env["TCT_RUN_FLUSH_S"] = "0"
    if bootstrap:
        env["PYTHONPATH"] = str(BOOTSTRAP)
        env["TCT_RUN_RECORD_DIR"] = record_dir
    return env


def startup(python, runs, record_dir):
    base, boot = [], []
    for _ in range(runs):
        for with_bootstrap, out in ((False, base), (True, boot)):
            t0 = time.perf_counter()
            subprocess.run([python, "-c", "pass"], env=env_with(with_bootstrap, record_dir), check=True)
            out.append(time.perf_counter() - t0)
    return statistics.median(base), statistics.median(boot)


def per_call(python, runs, calls, record_dir):
    """Medians over processes of (best loop, mean of loops) per call: without the bootstrap, with
    it, and with it and sampling off."""
    ways = {"without": [], "with": [], "unsampled": []}
    for _ in range(runs):
        for way, bootstrap, breakdown in (("without", False, False), ("with", True, True),
                                          ("unsampled", True, False)):
            p = subprocess.run([python, "-c", CALLS, str(calls)], env=env_with(bootstrap, record_dir, breakdown),
                               check=True, capture_output=True, text=True)
            ways[way].append(tuple(map(float, p.stdout.split()[-2:])))
    return {way: tuple(statistics.median(x[i] for x in v) for i in (0, 1)) for way, v in ways.items()}


WRAPPER = r"""
import sys, time
sys.path.insert(0, sys.argv[2])
import tct_run_recorder as r
class Site(r._Site):
    pass
site = r._Site(0, "function", "f", None, "", 0)
r._counts[0] = 0
def f(x):
    r._counts[0] += 1  # stands for the compiled graph's run counter, which the recorder adds
    return x
g = r._timed(f, site)
n = int(sys.argv[1])
def loop(fn):
    t0 = time.perf_counter_ns()
    for i in range(n):
        fn(i)
    return (time.perf_counter_ns() - t0) / n
best_f = min(loop(f) for _ in range(7))
best_g = min(loop(g) for _ in range(7))
print(best_f, best_g)
"""


# The wrapper on a trivial function given one tensor: its calls up to the site's 256th, whose
# shapes are all counted, against later ones, 1 in 64 of which are (the recorder's
# _SHAPES_ALL_CALLS and _SHAPES_SAMPLE_EVERY). Calls are timed in runs of 200, each run on a fresh
# site (counted) or on one past its 256th call (sampled), best of many.
SHAPES = r"""
import sys, time, torch
sys.path.insert(0, sys.argv[1])
import tct_run_recorder as r
r._Tensor = torch.Tensor
x = torch.ones(4)
def f(t):
    r._counts[0] += 1  # stands for the compiled graph's run counter, as in the wrapper's own figure
    return t
def fresh():
    return r._timed(f, r._Site(0, "function", "f", None, "", 0))
def run(g):
    t0 = time.perf_counter_ns()
    for _ in range(200):
        g(x)
    return (time.perf_counter_ns() - t0) / 200
late = fresh()
for _ in range(300):
    late(x)
bare = min(run(f) for _ in range(400))
counted = min(run(fresh()) for _ in range(400))
sampled = min(run(late) for _ in range(400))
print(bare, counted, sampled)
"""


def shape_counting(python):
    p = subprocess.run([python, "-c", SHAPES, str(BOOTSTRAP)], check=True, capture_output=True, text=True)
    return tuple(map(float, p.stdout.split()))


def wrapper_only(python, calls):
    p = subprocess.run([python, "-c", WRAPPER, str(calls), str(BOOTSTRAP)], check=True, capture_output=True, text=True)
    f, g = map(float, p.stdout.split())
    return f, g


def main():
    global BOOTSTRAP, FLUSH
    ap = parser()
    ap.add_argument("--runs", type=int, default=21, help="interleaved runs each, for startup")
    ap.add_argument("--call-runs", type=int, default=5, help="interleaved processes each, for the per-call cost")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--bootstrap", default=str(BOOTSTRAP), help="the bootstrap folder to time")
    ap.add_argument("--flush", action="store_true", help="flush the records at the bootstrap's own interval")
    a = ap.parse_args()
    BOOTSTRAP = a.bootstrap
    FLUSH = a.flush
    with tempfile.TemporaryDirectory() as rec:
        b, w = startup(a.python, a.runs, rec)
        print(f"startup, no torch (python -c pass, median of {a.runs}): {b * 1e3:.2f} ms without, "
              f"{w * 1e3:.2f} ms with the bootstrap: +{(w - b) * 1e3:.2f} ms (aim < 5 ms)")
        f, g = wrapper_only(a.python, 200000)
        print(f"timing wrapper alone (in process, best of 7 x 200000 calls of a trivial function): {f:.0f} ns "
              f"bare, {g:.0f} ns wrapped: +{g - f:.0f} ns per call")
        bare, counted, sampled = shape_counting(a.python)
        print(f"timing wrapper, one tensor argument (in process, best of 400 runs of 200 calls): {bare:.0f} ns bare, "
              f"+{counted - bare:.0f} ns wrapped while every call's shapes are counted (a site's first 256 calls), "
              f"+{sampled - bare:.0f} ns after (1 call in 64 counted)")
        inner, outer = same_process(a.python, a.calls, rec)
        print(f"per compiled call, same process (backend=eager, x + 1, best of 9 x {a.calls} interleaved): "
              f"{inner:.0f} ns around tct's wrapper, {outer:.0f} ns through it: +{outer - inner:.0f} ns per call "
              f"({(outer - inner) / inner * 100:.1f}%)")
        ways = per_call(a.python, a.call_runs, a.calls, rec)
        b, w = ways["without"][0], ways["with"][0]
        print(f"per compiled call (backend=eager, x + 1 on 4 floats, best of 5 x {a.calls} calls, median of "
              f"{a.call_runs} processes): {b:.0f} ns without, {w:.0f} ns with: +{w - b:.0f} ns per call "
              f"({(w - b) / b * 100:.1f}%; aim < 1000 ns or 1%)")
        on, off = ways["with"][1], ways["unsampled"][1]
        print(f"sampling in all (mean per call over the 5 x {a.calls} calls, same processes): {off:.0f} ns with "
              f"sampling off, {on:.0f} ns on: +{on - off:.0f} ns per call ({(on - off) / off * 100:.1f}%)")


if __name__ == "__main__":
    main()
