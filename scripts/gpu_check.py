#!/usr/bin/env python3
"""The checks scripts/gpu_check.sh runs: tct's figures on a GPU, each against a direct torch
measurement made in a fresh process of the same interpreter (a plain timing loop with CUDA
events, torch.cuda.max_memory_allocated, torch._dynamo.explain, dynamo's own counters under
TORCH_TRACE). Without a GPU it runs the CPU half (the same checks on the CPU, timed with
perf_counter_ns) and names each GPU check it skipped.

Usage: gpu_check.py --tct BIN --python PY [--cpu-only] [--budget S]
Exit: 0 every check that ran passed; 1 one failed; 2 bad usage or the tools are missing.

The orchestrator itself needs only the standard library; `--direct JSON` (run by the
orchestrator under --python) does the torch side.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Tiny and shaped so that its tensors (8 x 256 floats, 8 KiB) stay below glibc's 128 KiB mmap
# threshold: the allocator's state cannot move the CPU figures between tct's processes and ours.
BENCH_TARGET = "builtin:mlp"
BENCH_PARAMS = {"batch": 8, "width": 256, "depth": 3}
# On a GPU, big enough that the peak memory above the loaded model (2 MiB per activation) is a
# figure worth comparing, small enough to be launch-bound (where reduce-overhead matters).
GPU_BENCH_PARAMS = {"batch": 512, "width": 1024, "depth": 3}
BREAKS_TARGET = "builtin:graph_breaks"
EXPECT_TARGET = "builtin:tiny_ops"
SPEEDUP_TOLERANCE = 0.05   # the bar: within 5% of the plain loop, or inside the interval
LATENCY_TOLERANCE = 0.10   # a GPU's per-call latency, tct against the plain loop
MEMORY_SLACK_BYTES = 256 << 10  # allocator rounding (the caching allocator rounds blocks to 512 B)
CEILING_TOLERANCE = 0.15   # expect's bandwidth and FLOP/s against our own best-of-7 with CUDA events


# --------------------------------------------------------------------------- the torch side

def _direct(spec: dict) -> dict:
    sys.path.insert(0, str(ROOT / "python"))
    import torch
    what = spec["what"]
    if what == "facts":
        n = torch.cuda.device_count() if torch.cuda.is_available() else 0
        return {"version": torch.__version__, "cuda_build": torch.version.cuda,
                "cuda_available": torch.cuda.is_available(), "device_count": n,
                "names": [torch.cuda.get_device_name(i) for i in range(n)]}
    if what == "ceilings":
        return _direct_ceilings(torch, spec["device"])
    from tct_agent.target import load_target
    loaded = load_target(spec["target"], spec.get("params") or {}, spec.get("device"))
    if what == "bench":
        return _direct_bench(torch, loaded, spec)
    if what == "explain":
        out = torch._dynamo.explain(loaded.fn)(*loaded.args, **loaded.kwargs)
        return {"graph_count": out.graph_count, "graph_break_count": out.graph_break_count}
    if what == "trace":  # TORCH_TRACE is set in this process's environment by the orchestrator
        from torch._dynamo.utils import counters
        compiled = torch.compile(loaded.fn, backend=spec.get("backend", "inductor"))
        for _ in range(2):
            loaded.call(compiled)
        return {"graph_count": int(counters["stats"]["unique_graphs"]),
                "graph_break_count": int(sum(counters["graph_break"].values()))}
    raise SystemExit(f"unknown direct measurement {what!r}")


def _direct_ceilings(torch, device: str) -> dict:
    """A 512 MiB device copy (read and written: 2 x bytes) and an 8192^3 float32 matmul
    (2 n^3 FLOPs), best of 7 each, timed with CUDA events: what expect's ceilings claim to be."""
    def best_ns(fn):
        out = []
        for _ in range(7):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            out.append(start.elapsed_time(end) * 1e6)
        return min(out)
    src = torch.ones((512 << 20) // 4, device=device)
    dst = torch.empty_like(src)
    dst.copy_(src)
    n = 8192
    a, b = torch.randn(n, n, device=device), torch.randn(n, n, device=device)
    a @ b
    return {"bandwidth": 2.0 * src.numel() * 4 / (best_ns(lambda: dst.copy_(src)) / 1e9),
            "flops": 2.0 * n ** 3 / (best_ns(lambda: a @ b) / 1e9)}


def _per_call_ns(torch, fn, args, kwargs, n, cuda_index):
    """Mean per-call time of n back-to-back calls: CUDA events on the device's stream (nothing
    synchronizes inside the loop, as in a user's own loop), perf_counter_ns on the CPU."""
    if cuda_index is not None:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize(cuda_index)
        start.record()
        for _ in range(n):
            fn(*args, **kwargs)
        end.record()
        end.synchronize()
        return start.elapsed_time(end) * 1e6 / n
    t0 = time.perf_counter_ns()
    for _ in range(n):
        fn(*args, **kwargs)
    return (time.perf_counter_ns() - t0) / n


def _plain_loop(torch, loaded, fns: dict, seconds: float) -> dict:
    """Median per-call ns of each callable, and the median of the rounds' eager/compiled ratios:
    rounds of ~5 ms each, the callables in turn (their order alternating), under no_grad, the
    garbage collector off, after 30 warm-up calls."""
    import gc
    device = loaded.device or "cpu"
    cuda_index = None
    if device.startswith("cuda"):
        d = torch.device(device)
        cuda_index = d.index if d.index is not None else torch.cuda.current_device()
        torch.cuda.set_device(cuda_index)
    args, kwargs = loaded.args, loaded.kwargs
    with torch.no_grad():
        for fn in fns.values():
            for _ in range(30):
                fn(*args, **kwargs)
        n = {k: max(1, int(5e6 / max(1.0, _per_call_ns(torch, fn, args, kwargs, 20, cuda_index))))
             for k, fn in fns.items()}
        times = {k: [] for k in fns}
        gc.disable()
        end = time.monotonic() + seconds
        order = list(fns)
        while time.monotonic() < end or min(len(v) for v in times.values()) < 5:
            for k in order:
                times[k].append(_per_call_ns(torch, fns[k], args, kwargs, n[k], cuda_index))
            order.reverse()
        gc.enable()
    out = {k: statistics.median(v) for k, v in times.items()}
    if "compiled" in times:  # each round's pair ran back to back: a burst of load hits both alike
        out["paired_speedup"] = statistics.median(e / c for e, c in zip(times["eager"], times["compiled"]))
    return out


def _direct_bench(torch, loaded, spec) -> dict:
    kwargs = {"backend": spec["backend"]}
    if spec.get("mode") not in (None, "default"):
        kwargs["mode"] = spec["mode"]
    compiled = torch.compile(loaded.fn, **kwargs)
    med = _plain_loop(torch, loaded, {"eager": loaded.fn, "compiled": compiled}, spec["seconds"])
    out = {"eager_ns": med["eager"], "compiled_ns": med["compiled"], "speedup": med["paired_speedup"]}
    device = loaded.device or "cpu"
    if device.startswith("cuda"):  # the peak above what the loaded target holds, over 3 calls
        index = torch.device(device).index or 0
        for name, fn in (("eager", loaded.fn), ("compiled", compiled)):
            torch.cuda.synchronize(index)
            torch.cuda.reset_peak_memory_stats(index)
            base = torch.cuda.memory_allocated(index)
            with torch.no_grad():
                for _ in range(3):
                    fn(*loaded.args, **loaded.kwargs)
            torch.cuda.synchronize(index)
            out[f"{name}_peak_increase_bytes"] = int(torch.cuda.max_memory_allocated(index) - base)
        out["device_index"] = index
    return out


# --------------------------------------------------------------------------- the orchestrator

class Checks:
    def __init__(self):
        self.rows: list[tuple[str, str, str, str, str]] = []  # check, tct, direct, PASS/FAIL/INFO, note
        self.skipped: list[tuple[str, str]] = []
        self.start = time.monotonic()

    def add(self, name, tct_fig, direct_fig, ok, note=""):
        verdict = "INFO" if ok is None else ("PASS" if ok else "FAIL")
        self.rows.append((name, tct_fig, direct_fig, verdict, note))
        print(f"  {verdict:<4} {name}: tct {tct_fig}, direct {direct_fig}{'; ' + note if note else ''}"
              f"  [{time.monotonic() - self.start:.0f} s]", flush=True)

    def skip(self, name, why):
        self.skipped.append((name, why))
        print(f"  SKIP {name}: {why}", flush=True)

    @property
    def failed(self):
        return [r for r in self.rows if r[3] == "FAIL"]


def ms(ns):
    return "?" if ns is None or not math.isfinite(ns) else f"{ns / 1e6:.3f} ms" if ns >= 1e5 else f"{ns / 1e3:.1f} us"


def mib(b):
    return "?" if b is None else f"{b / (1 << 20):.2f} MiB"


class Runner:
    def __init__(self, args):
        self.tct_bin, self.python, self.budget = args.tct, args.python, args.budget
        self.tmp = Path(tempfile.mkdtemp(prefix="tct-gpu-check-"))

    def tct(self, *argv, env=None, timeout=900):
        full = dict(os.environ, **(env or {}))
        cmd = [self.tct_bin, *map(str, argv), "--python", self.python, "--json", "--quiet"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=full, timeout=timeout)
        try:
            doc = json.loads(proc.stdout)
        except ValueError:
            doc = None
        return proc.returncode, doc, proc.stderr.strip().splitlines()[-1:] or [""]

    def direct(self, env=None, timeout=900, **spec):
        full = dict(os.environ, **(env or {}))
        proc = subprocess.run([self.python, __file__, "--direct", json.dumps(spec)], capture_output=True,
                              text=True, env=full, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"direct {spec['what']} failed: {proc.stderr.strip()[-2000:]}")
        return json.loads(proc.stdout.strip().splitlines()[-1])


def check_probe(r: Runner, c: Checks, facts: dict):
    rc, doc, err = r.tct("probe", "--smoke")
    if doc is None:
        return c.add("probe", f"exit {rc}: {err[0]}", "-", False)
    p = doc["probe"]
    devices = p["facts"]["devices"]
    c.add("probe: torch version", p["facts"]["torch"]["version"], facts["version"],
          p["facts"]["torch"]["version"] == facts["version"])
    c.add("probe: GPUs visible", str(len(devices.get("cuda", []))), str(facts["device_count"]),
          len(devices.get("cuda", [])) == facts["device_count"] and devices["cuda_available"] == facts["cuda_available"])
    smoke = {s["device"]: s for s in p["smoke"]}
    for dev in (["cpu", "cuda"] if facts["cuda_available"] else ["cpu"]):
        s = smoke.get(dev, {})
        c.add(f"probe: smoke compile on {dev}", "matches eager" if s.get("match") else f"{s.get('error') or 'differs'}",
              "-", bool(s.get("match")))
    if facts["cuda_build"] and not facts["cuda_available"]:
        codes = {x["code"] for x in p["reasons"]}
        c.add("probe: CUDA build without a GPU is named", "cuda_no_gpu" if "cuda_no_gpu" in codes else "not named",
              f"CUDA {facts['cuda_build']} build, no GPU", "cuda_no_gpu" in codes)


def check_bench(r: Runner, c: Checks, device: str, backend: str, mode: str = "default"):
    """One try, and a second when the speedup disagrees: a burst of load from other processes
    can move one side's figures. A disagreement twice fails, unless tct's own interval called
    both tries inconclusive: then the machine was too noisy to judge, and the summary says so."""
    rows, agrees, inconclusive = _bench_try(r, device, backend, mode)
    if agrees is False:
        first = (inconclusive, busy())
        rows, agrees, inconclusive = _bench_try(r, device, backend, mode)
        rows = [(name, t, d, ok, f"{note}, second try" if note else "second try") for name, t, d, ok, note in rows]
        second = (inconclusive, busy())
        why = "tct's interval was inconclusive both times" if first[0] and second[0] else \
            (first[1] or second[1])
        if agrees is False and why:
            rows = [(name, t, d, None, note + f"; NOT JUDGED: {why}") if name.endswith(": speedup")
                    else (name, t, d, ok, note) for name, t, d, ok, note in rows]
    for row in rows:
        c.add(*row)


def busy() -> str:
    """Why this machine cannot judge a CPU timing now ("" when it can): other processes want more
    cores than it has (a 2-core machine at a load of 7 gave plain-loop speedups of 0.41x, 0.72x
    and 1.41x for one target in three runs a minute apart)."""
    load, cpus = os.getloadavg()[0], len(os.sched_getaffinity(0))
    return f"load average {load:.1f} on {cpus} CPUs" if load > cpus else ""


def _bench_try(r: Runner, device: str, backend: str, mode: str):
    """tct bench and the plain loop once: ([(check, tct, direct, ok, note)], speedup agrees
    (None when there is nothing to compare), tct's interval inconclusive)."""
    label = f"bench {device} {backend}" + ("" if mode == "default" else f" --mode {mode}")
    gpu = device.startswith("cuda")
    params = GPU_BENCH_PARAMS if gpu else BENCH_PARAMS
    argv = ["bench", BENCH_TARGET, "--device", device, "--backend", backend, "--mode", mode,
            "--budget", r.budget, "--no-compile-time"]
    for k, v in params.items():
        argv += ["--param", f"{k}={v}"]
    if not gpu:
        argv.append("--no-memory")  # RSS peaks: no direct torch counterpart worth checking here
    # One CPU thread on both sides: on a machine whose cores are busy, OpenMP's threads wait for
    # a core and a call's time jumps 100-fold from one process to the next (a 0.16 ms call took
    # 112 ms in one of tct's processes while the plain loop's process saw 0.16 ms).
    env = {"OMP_NUM_THREADS": "1"}
    rc, doc, err = r.tct(*argv, env=env)
    if doc is None or not doc.get("bench", {}).get("rows"):
        return [(label, f"exit {rc}: {err[0]}", "-", False, "")], None, False
    row = doc["bench"]["rows"][0]
    if row["status"] != "ok":
        return [(label, f"{row['status']}: {(row.get('error') or {}).get('message')}", "-", False, "")], None, False
    d = r.direct(what="bench", target=BENCH_TARGET, params=params, device=device, backend=backend,
                 mode=mode, seconds=float(r.budget), env=env)
    out = []
    sp = row["speedup"]
    # An inconclusive interval (wider than 1.5x) holds almost anything: inside it is no evidence.
    inside = sp["low"] <= d["speedup"] <= sp["high"] and not sp["inconclusive"]
    close = abs(sp["estimate"] / d["speedup"] - 1) <= SPEEDUP_TOLERANCE
    where = "inside the interval" if inside else \
        "the interval is inconclusive" if sp["inconclusive"] else "outside the interval"
    out.append((f"{label}: speedup", f"{sp['estimate']:.3f}x [{sp['low']:.3f}, {sp['high']:.3f}]",
                f"{d['speedup']:.3f}x", inside or close, f"{where}, {100 * (sp['estimate'] / d['speedup'] - 1):+.1f}%"))
    out.append((f"{label}: correctness", "match" if row["correctness"].get("match") else "MISMATCH", "-",
                row["correctness"].get("match") is True, ""))
    for side in ("eager", "compiled"):
        t, dd = row["latency"][side]["median"], d[f"{side}_ns"]
        # On a GPU the loop is the device's time and must agree; on a shared CPU absolute
        # latencies drift between processes by more than the speedup does: shown, not judged.
        out.append((f"{label}: {side} latency", ms(t), ms(dd), abs(t / dd - 1) <= LATENCY_TOLERANCE if gpu else None,
                    f"{100 * (t / dd - 1):+.1f}%"))
    if gpu:
        m = row.get("memory") or {}
        for side, key in (("eager", "eager_increase_bytes"), ("compiled", "compiled_increase_bytes")):
            t, dd = m.get(key), d.get(f"{side}_peak_increase_bytes")
            ok = t is not None and dd is not None and abs(t - dd) <= max(MEMORY_SLACK_BYTES, 0.05 * dd)
            out.append((f"{label}: {side} peak memory (max_memory_allocated)", mib(t), mib(dd), ok, ""))
    return out, inside or close, bool(sp["inconclusive"])


def check_explain(r: Runner, c: Checks, device: str):
    rc, doc, err = r.tct("explain", BREAKS_TARGET, "--device", device)
    if doc is None or "explain" not in doc:
        return c.add(f"explain {device}", f"exit {rc}: {err[0]}", "-", False)
    e = doc["explain"]
    d = r.direct(what="explain", target=BREAKS_TARGET, device=device)
    c.add(f"explain {device}: graphs, breaks", f"{e['graph_count']}, {e['graph_break_count']}",
          f"{d['graph_count']}, {d['graph_break_count']}",
          (e["graph_count"], e["graph_break_count"]) == (d["graph_count"], d["graph_break_count"]))


def check_trace(r: Runner, c: Checks, device: str, backend: str):
    log_dir = r.tmp / f"trace-{device.replace(':', '-')}"
    d = r.direct(what="trace", target=BREAKS_TARGET, device=device, backend=backend,
                 env={"TORCH_TRACE": str(log_dir)})
    rc, doc, err = r.tct("trace", log_dir)
    if doc is None or not doc.get("trace", {}).get("ranks"):
        return c.add(f"trace {device}", f"exit {rc}: {err[0]}", "-", False)
    rank = doc["trace"]["ranks"][0]
    c.add(f"trace {device}: graphs, breaks", f"{rank['graph_count']}, {rank['graph_break_count']}",
          f"{d['graph_count']}, {d['graph_break_count']} (dynamo's counters)",
          (rank["graph_count"], rank["graph_break_count"]) == (d["graph_count"], d["graph_break_count"]))


def check_expect(r: Runner, c: Checks, device: str):
    rc, doc, err = r.tct("expect", EXPECT_TARGET, "--device", device, "--calls", "3", "--profile-seconds", "1",
                         env={"XDG_CACHE_HOME": str(r.tmp / "xdg")})
    if doc is None or "expect" not in doc:
        return c.add(f"expect {device}", f"exit {rc}: {err[0]}", "-", False)
    x = doc["expect"]
    c.add(f"expect {device}: class", str(x.get("class")), "-", x.get("class") is not None)
    ceilings = x.get("ceilings") or {}
    d = r.direct(what="ceilings", device=device)
    for key, name, unit, scale in (("peak_bandwidth_bytes_per_s", "bandwidth", "GB/s", 1e9),
                                   ("peak_flops", "flops", "TFLOP/s", 1e12)):
        t = ceilings.get(key)
        ok = t is not None and abs(t / d[name] - 1) <= CEILING_TOLERANCE
        c.add(f"expect {device}: ceiling {name}", "?" if t is None else f"{t / scale:.1f} {unit}",
              f"{d[name] / scale:.1f} {unit}", ok, "" if t is None else f"{100 * (t / d[name] - 1):+.1f}%")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--direct", help=argparse.SUPPRESS)
    ap.add_argument("--tct", default=str(ROOT / "build" / "tct"))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--cpu-only", action="store_true", help="skip the GPU checks even when a GPU is visible")
    ap.add_argument("--budget", default="3", help="seconds of sampling per bench (tct's --budget and the plain loop's)")
    ap.add_argument("--backend", default=None, help="CPU bench backend (default aot_eager: no C++ codegen)")
    args = ap.parse_args(argv)
    if args.direct:
        print(json.dumps(_direct(json.loads(args.direct))))
        return 0
    r, c = Runner(args), Checks()
    start = time.monotonic()
    facts = r.direct(what="facts")
    gpu = facts["cuda_available"] and not args.cpu_only
    print(f"gpu_check: torch {facts['version']} ({'CUDA ' + facts['cuda_build'] if facts['cuda_build'] else 'CPU'} build), "
          f"{facts['device_count']} GPU(s) {facts['names']}, {'GPU' if gpu else 'CPU-only'} mode", flush=True)
    check_probe(r, c, facts)
    check_bench(r, c, "cpu", args.backend or "aot_eager")
    check_explain(r, c, "cpu")
    check_trace(r, c, "cpu", "aot_eager")
    gpu_checks = ["bench cuda inductor (CUDA events)", "bench cuda --mode reduce-overhead (CUDA graphs)",
                  "bench cuda:1", "explain cuda", "trace cuda", "expect cuda (GPU ceilings)",
                  "peak memory (torch.cuda.max_memory_allocated)"]
    if not gpu:
        why = "--cpu-only" if args.cpu_only else "no GPU visible"
        for name in gpu_checks:
            c.skip(name, why)
    else:
        check_bench(r, c, "cuda", "inductor")
        check_bench(r, c, "cuda", "inductor", "reduce-overhead")
        if facts["device_count"] > 1:
            check_bench(r, c, "cuda:1", "inductor")
        else:
            c.skip("bench cuda:1", "one GPU visible")
        check_explain(r, c, "cuda")
        check_trace(r, c, "cuda", "inductor")
        check_expect(r, c, "cuda")
    print_summary(c, facts, gpu, time.monotonic() - start)
    return 1 if c.failed else 0


def print_summary(c: Checks, facts: dict, gpu: bool, seconds: float):
    print(f"\n## gpu_check summary: torch {facts['version']}, {'GPU: ' + ', '.join(facts['names']) if gpu else 'CPU-only'}"
          f", {seconds:.0f} s\n")
    print("| check | tct | direct | verdict |\n| --- | --- | --- | --- |")
    for name, t, d, v, note in c.rows:
        print(f"| {name} | {t} | {d}{' (' + note + ')' if note else ''} | {v} |")
    for name, why in c.skipped:
        print(f"| {name} | - | - | SKIPPED: {why} |")
    passed = sum(r[3] == "PASS" for r in c.rows)
    for name, t, d, v, note in c.rows:
        if "NOT JUDGED" in note:
            print(f"\n{name}: tct {t} against a plain loop's {d}: {note.split('NOT JUDGED: ')[1]}, so not judged;"
                  " rerun on a quiet machine")
    # Not "N passed, N failed" alone on a line: CI logs read such a line as a test runner's count.
    print(f"\nchecks passed: {passed}, failed: {len(c.failed)}, skipped: {len(c.skipped)}")


if __name__ == "__main__":
    sys.exit(main())
