"""Ops for `tct bench`: raw samples (ns) and facts, never a statistic or a verdict.

The C++ side (src/bench/) drives them: what to time, how many calls, when to
stop. Every op expects `target.load` to have run (session.target).

  bench.env          clock resolution, backends, modes, set_stance, device
  bench.eager_warmup {n, max_ns, memory}         per-call ns of the first n eager calls
                                                 (+ peak memory above what was held before)
  bench.compile      {key, backend, mode, dynamic, fullgraph}  torch.compile (lazy)
  bench.first_calls  {key, n, max_ns}            the warm-up curve (the first call compiles)
  bench.time_block   {which, samples, calls_per_sample, warmup_ns, eager_via, key}  steady-state
                                                 samples of eager, a compiled key, or the
                                                 harness floor (which="floor")
  bench.memory_mark  {}                          reset the peak; memory held now
  bench.memory_peak  {}                          peak since the mark; memory held now
  bench.check        {key, tolerances, reference, fallback_random}  difference facts,
                                                 eager twice and compiled (output_check.py)
  bench.counters     {}                          dynamo counters and compile time breakdown
  bench.memory       {which, calls}              peak memory while running `which` (extra
                                                 calls: the fallback where no resettable peak)
  bench.exit         {}                          exit now (no reply): atexit handlers, no teardown
"""
from __future__ import annotations

import contextlib
import os
import re

from .. import timing
from ..errors import TctError
from ..protocol import progress
from ..output_check import run_check
from ..replies import reply

_SCRATCH = "bench"



def _scratch(session) -> dict:
    return session.scratch.setdefault(_SCRATCH, {})


def _compiled(session, key):
    fn = session.compiled.get(key)
    if fn is None:
        raise TctError("internal", f"no compiled object '{key}'", "tct and its agent disagree: reinstall tct")
    return fn


def _first_line(exc: BaseException, limit: int = 300) -> str:
    text = str(exc).strip()
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


# ----------------------------------------------------------------------------- facts

def op_env(params, session) -> dict:
    import torch
    import torch._dynamo as dynamo
    loaded = session.loaded_target()
    try:
        backends = sorted(dynamo.list_backends(exclude_tags=()))
    except TypeError:  # older torch without exclude_tags
        backends = sorted(dynamo.list_backends())
    try:
        from torch._inductor import list_mode_options
        modes = sorted(list_mode_options().keys())
    except Exception:  # noqa: BLE001 - fall back to the documented set
        modes = ["default", "max-autotune", "max-autotune-no-cudagraphs", "reduce-overhead"]
    if "default" not in modes:
        modes.append("default")
    return reply("bench.env", {
        "clock": reply("bench.env clock", timing.clock_resolution_ns()),
        "backends": backends,
        "modes": modes,
        "set_stance": hasattr(getattr(torch, "compiler", None), "set_stance"),
        "device": loaded.device,
        "device_type": timing.device_type(loaded.device),
        "torch_version": torch.__version__,
        "num_threads": torch.get_num_threads(),
        "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "pid": os.getpid(),
        "allocator": _allocator_facts(),
    })


def _dynamo_counters() -> dict:
    from torch._dynamo.utils import counters
    breaks = counters.get("graph_break", {})
    frames = counters.get("frames", {})
    stats = counters.get("stats", {})
    return reply("bench.first_calls counters", {
        "frames_total": int(frames.get("total", 0)),
        "frames_ok": int(frames.get("ok", 0)),
        "unique_graphs": int(stats.get("unique_graphs", 0)),
        "calls_captured": int(stats.get("calls_captured", 0)),
        "graph_breaks": int(sum(breaks.values())),
        "graph_break_reasons": [reply("bench.first_calls counters graph_break_reasons",
                                      {"reason": str(k)[:500], "count": int(v)}) for k, v in breaks.items()],
        "recompiles": int(sum(counters.get("recompiles", {}).values())) if "recompiles" in counters else None,
        # torch's text of every break it could not handle, as written: which skipped a frame
        # (Dynamo ran it eagerly) tct decides (src/core/graph_breaks.cpp, skips_frame).
        "unimplemented_reasons": [str(k)[:2000] for k in counters.get("unimplemented", {})],
        # Cache and CUDA-graph facts torch counts itself (torch/_inductor/codecache.py,
        # _functorch/_aot_autograd/autograd_cache.py, _inductor/cudagraph_utils.py).
        "fxgraph_cache_hit": int(counters.get("inductor", {}).get("fxgraph_cache_hit", 0)),
        "fxgraph_cache_miss": int(counters.get("inductor", {}).get("fxgraph_cache_miss", 0)),
        "autograd_cache_hit": int(counters.get("aot_autograd", {}).get("autograd_cache_hit", 0)),
        "autograd_cache_miss": int(counters.get("aot_autograd", {}).get("autograd_cache_miss", 0)),
        "cudagraph_skips": int(counters.get("inductor", {}).get("cudagraph_skips", 0)),
    })


def _compile_times_ns() -> dict:
    """torch._dynamo.utils.compile_times as {phase: total ns}, where torch exposes it."""
    try:
        from torch._dynamo.utils import compile_times
        names, values = compile_times(repr="csv", aggregate=True)
        out = {}
        for name, value in zip(names, values):
            try:
                out[str(name)] = float(str(value).split(",")[0]) * 1e9
            except ValueError:
                continue
        return out
    except Exception:  # noqa: BLE001 - introspection is best effort
        return {}


def op_counters(params, session) -> dict:
    out = _dynamo_counters()
    out["compile_times_ns"] = _compile_times_ns()
    return out


# --------------------------------------------------------------------------- eager

def op_eager_warmup(params, session) -> dict:
    loaded = session.loaded_target()
    n = max(1, int(params.get("n", 10)))
    done = []
    # Peak memory over the warm-up calls above the memory held before the first (in a
    # process that has only loaded the target: the post-load baseline), so that no extra
    # eager calls are needed for it. Started and read outside the timed calls.
    peak = _PeakMemory(loaded.device) if params.get("memory") else None
    if peak is not None:
        peak.start()

    def on_call(i, ns):
        done.append(ns)
    try:
        times = timing.time_each(loaded.call, n, loaded.device, params.get("max_ns"), on_call=on_call)
    except TctError:
        raise
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        which = "first call" if not done else f"call {len(done) + 1}"
        raise TctError("target_raised", f"the target raised on its {which} (eager): "
                       f"{type(exc).__name__}: {_first_line(exc)}",
                       "fix the target so that it runs eagerly with its example inputs; "
                       "rerun with --verbose for the traceback", stage="first_call" if not done else "eager_call",
                       cause=exc) from exc
    out = {"times_ns": times}
    if peak is not None:
        out["memory"] = _reading(peak.stop(f"over the first {len(times)} eager calls"))
    return reply("bench.eager_warmup", out)


# ------------------------------------------------------------------------- compile

def _dynamic(value):
    if value in (None, "auto", "none"):
        return None
    if value in (True, "true", "True", 1):
        return True
    if value in (False, "false", "False", 0):
        return False
    raise TctError("bad_param", f"dynamic must be auto, true or false, not {value!r}")


def op_compile(params, session) -> dict:
    import torch
    loaded = session.loaded_target()
    key = params["key"]
    backend = params.get("backend", "inductor")
    mode = params.get("mode") or "default"
    kwargs = {"backend": backend, "dynamic": _dynamic(params.get("dynamic")),
              "fullgraph": bool(params.get("fullgraph", False))}
    if mode != "default":
        kwargs["mode"] = mode
    # Each row starts from a clean dynamo state, so its warm-up curve holds its own compile
    # and its counters count only its own graphs.
    torch._dynamo.reset()
    from torch._dynamo.utils import counters
    counters.clear()
    session.compiled.pop(key, None)
    _scratch(session).setdefault("compile_kwargs", {})[key] = kwargs
    _scratch(session).get("fallback_random_objects", {}).pop(key, None)
    try:
        session.compiled[key] = torch.compile(loaded.fn, **kwargs)
    except Exception as exc:  # noqa: BLE001 - torch.compile validates its arguments eagerly
        raise TctError("compile_failed", f"torch.compile({backend}, mode={mode}) rejected the "
                       f"configuration: {type(exc).__name__}: {_first_line(exc)}",
                       "check --backend/--mode/--dynamic", stage="torch.compile", cause=exc) from exc
    return {"key": key}


def _compile_stage(exc: BaseException, backend: str, index: int) -> str:
    """Which part of torch.compile failed, from the exception's type (torch._dynamo.exc)."""
    try:
        from torch._dynamo import exc as dexc
    except Exception:  # noqa: BLE001
        dexc = None
    name = type(exc).__name__
    if dexc is not None:
        if isinstance(exc, getattr(dexc, "BackendCompilerFailed", ())):
            return f"backend ({backend})"
        if isinstance(exc, getattr(dexc, "Unsupported", ())):
            return "dynamo (tracing)"
        if isinstance(exc, getattr(dexc, "UserError", ())):
            return "dynamo (tracing)"
        if isinstance(exc, getattr(dexc, "TorchRuntimeError", ())):
            return "dynamo (fake tensor run)"
        if isinstance(exc, getattr(dexc, "InternalTorchDynamoError", ())):
            return "dynamo (internal)"
    if "Inductor" in name or "Lowering" in name or re.search(r"Codegen|CppCompileError", name):
        return f"backend ({backend})"
    return "first compiled call" if index == 0 else f"compiled call {index + 1}"


def op_first_calls(params, session) -> dict:
    """Per-call ns of the first n calls of a compiled object (the first one compiles)."""
    loaded = session.loaded_target()
    key = params["key"]
    compiled = _compiled(session, key)
    n = max(1, int(params.get("n", 20)))
    done = []

    def on_call(i, ns):
        done.append(ns)
        if i == 0:
            progress(f"compiled in {ns / 1e9:.1f} s; warming up")

    progress("compiling (first call)")
    try:
        times = timing.time_each(lambda: loaded.call(compiled), n, loaded.device, params.get("max_ns"),
                                 on_call=on_call)
    except TctError:
        raise
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        stage = _compile_stage(exc, params.get("backend", "?"), len(done))
        # The eager target already ran with these inputs, so the failure is the compiler's.
        raise TctError("compile_failed", f"{type(exc).__name__}: {_first_line(exc)}",
                       "try another --backend or --mode, or run `tct explain` on the target",
                       stage=stage, cause=exc) from exc
    return reply("bench.first_calls",
                 {"times_ns": times, "counters": _dynamo_counters(), "compile_times_ns": _compile_times_ns()})


# -------------------------------------------------------------------------- timing

def _block_call(loaded, session, which: str, params: dict):
    """(fn, args, kwargs, context) for one block: the tight loop calls fn(*args, **kwargs);
    `context` (grad mode, compile stance) is entered once around the block, not per call.
    Eager, compiled and the floor go through the same path, so they differ only in fn."""
    import torch
    if which == "floor":
        fn = timing.empty_call
    elif which == "eager":
        fn = loaded.fn
        if params.get("eager_via") == "stance" and params.get("key") in session.compiled and \
                hasattr(torch.compiler, "set_stance"):
            fn = session.compiled[params["key"]]
            if not loaded.train:
                return fn, loaded.args, loaded.kwargs, lambda: _stack(torch.no_grad(),
                                                                      torch.compiler.set_stance("force_eager"))
            return (lambda: loaded.call(fn)), (), {}, lambda: torch.compiler.set_stance("force_eager")
    else:
        fn = _compiled(session, which)
    if loaded.train:  # the train step (forward, loss, backward, reset) around fn
        return (timing.empty_call if which == "floor" else (lambda: loaded.call(fn))), (), {}, contextlib.nullcontext
    return fn, loaded.args, loaded.kwargs, torch.no_grad


def _stack(*contexts):
    stack = contextlib.ExitStack()
    for c in contexts:
        stack.enter_context(c)
    return stack


def _involuntary_switches() -> int:
    """The timing thread's own involuntary context switches. Per thread where the platform
    can (Linux): the whole process's count includes torch's intra-op worker threads, which
    a quiet 2-core machine switches ~25 times a second on their own (timing thread: ~2)."""
    try:
        import resource
        who = getattr(resource, "RUSAGE_THREAD", resource.RUSAGE_SELF)
        return int(resource.getrusage(who).ru_nivcsw)
    except Exception:  # noqa: BLE001 - not on every platform
        return 0


def op_time_block(params, session) -> dict:
    """Steady-state samples of eager, a compiled object or the harness floor, with dynamo's
    counters before and after (did anything recompile while measuring?) and what other
    processes did to this one meanwhile (involuntary context switches, load average)."""
    loaded = session.loaded_target()
    which = params.get("which", "eager")
    samples = int(params.get("samples", 10))
    cps = int(params.get("calls_per_sample", 1))
    fn, args, kwargs, context = _block_call(loaded, session, which, params)
    before = _dynamo_counters()
    switches = _involuntary_switches()
    t0 = timing.perf_counter_ns()
    try:
        with context():
            times = timing.time_block(fn, args, kwargs, samples, cps, loaded.device,
                                      float(params.get("warmup_ns", 0)))
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        kind = "target_raised" if which == "eager" else "compile_failed"
        raise TctError(kind, f"{'eager' if which == 'eager' else 'compiled'} call raised while timing: "
                       f"{type(exc).__name__}: {_first_line(exc)}",
                       "the target fails on a later call; rerun with --verbose", stage="measurement",
                       cause=exc) from exc
    wall = timing.perf_counter_ns() - t0
    after = _dynamo_counters()
    return reply("bench.time_block", {
            "samples_ns": times,
            "wall_ns": float(wall),
            "involuntary_switches": _involuntary_switches() - switches,
            "loadavg_1m": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
            "frames_compiled": after["frames_total"] - before["frames_total"],
            "graph_breaks": after["graph_breaks"] - before["graph_breaks"],
            "cudagraph_skips": after["cudagraph_skips"] - before["cudagraph_skips"]})


# --------------------------------------------------------------------- correctness

def _checking_object(session, key: str, fallback_random: bool):
    """The compiled object the check calls: the timed one, or with fallback_random a
    separate one compiled with inductor's `fallback_random` in its own options, so that
    random ops draw from eager's generator. Its options differ from the timed object's,
    so dynamo keeps its graphs in a cache entry of their own; the timed object never sees
    the option."""
    import torch
    compiled = _compiled(session, key)
    if not fallback_random:
        return compiled
    kwargs = dict(_scratch(session).get("compile_kwargs", {}).get(key) or {})
    if kwargs.get("backend") != "inductor":
        return compiled  # other backends run random ops through eager's generator already
    from torch._inductor import list_mode_options
    mode = kwargs.pop("mode", None)
    # torch.compile takes mode or options, not both: a mode becomes its options.
    mode_options = list_mode_options(mode, kwargs.get("dynamic")) if mode else {}
    kwargs["options"] = {**mode_options, "fallback_random": True}
    cache = _scratch(session).setdefault("fallback_random_objects", {})
    if key not in cache:
        cache[key] = torch.compile(session.loaded_target().fn, **kwargs)
    return cache[key]


def op_aoti_load(params, session) -> dict:
    """`tct bench --backend aoti` timed from Python (the C++ runner could not be built here):
    the package loaded with torch._inductor.aoti_load_package as the compiled object `key`, so
    the warm-up, timing and check ops treat it as any compiled object."""
    from .startup import load_package
    t0 = timing.perf_counter_ns()
    runner = load_package(params["package"])
    session.compiled[params["key"]] = runner
    return reply("bench.aoti_load", {"load_ns": timing.perf_counter_ns() - t0})


class _SavedOutputs:
    """The C++ runner's outputs (a tensor folder, aoti_inputs.py's form) in the structure of
    eager's: called like the target, it returns them, so output_check compares them as it
    compares any compiled object's."""

    def __init__(self, folder: str, loaded):
        import torch
        import torch.utils._pytree as pytree
        from ..aoti_inputs import read_tensors
        self.tensors = read_tensors(folder, loaded.device)
        with torch.no_grad():
            leaves, self.spec = pytree.tree_flatten(loaded.call())
        self.where = [i for i, x in enumerate(leaves) if isinstance(x, torch.Tensor)]
        self.leaves = leaves
        if len(self.where) != len(self.tensors):
            raise TctError("compile_failed", f"the package returned {len(self.tensors)} tensors where eager "
                           f"returns {len(self.where)}", "rerun with --verbose", stage="check")

    def __call__(self, *args, **kwargs):
        import torch.utils._pytree as pytree
        leaves = list(self.leaves)
        for i, t in zip(self.where, self.tensors):
            leaves[i] = t.clone()
        return pytree.tree_unflatten(leaves, self.spec)


def op_check(params, session) -> dict:
    """Facts of eager (twice) and the compiled object under identical seeds
    (python/tct_agent/output_check.py). params: key, tolerances ({dtype: {rtol, atol,
    ref_multiplier}}, "default"), reference (compute a float64 reference when an element
    is beyond its tolerance), fallback_random (check a copy compiled with inductor's
    fallback_random), outputs (a folder of the C++ AOTInductor runner's outputs on the
    target's inputs: those are checked instead of a compiled object's)."""
    loaded = session.loaded_target()
    fallback = bool(params.get("fallback_random"))
    try:
        compiled = _SavedOutputs(params["outputs"], loaded) if params.get("outputs") else \
            _checking_object(session, params["key"], fallback)
        out = run_check(loaded, compiled, params.get("tolerances"), bool(params.get("reference")))
    except TctError:
        raise
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise TctError("compile_failed", f"the correctness check raised: "
                       f"{type(exc).__name__}: {_first_line(exc)}", stage="check", cause=exc) from exc
    out["fallback_random"] = fallback and not params.get("outputs") and \
        compiled is not _compiled(session, params["key"])
    out["reference"] = reply("bench.check reference", out["reference"])
    out["cost_ns"] = reply("bench.check cost_ns", out["cost_ns"])
    return reply("bench.check", out)


# -------------------------------------------------------------------------- memory

def _proc_status() -> dict:
    out = {}
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    name, value = line.split(":", 1)
                    out[name] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


def _reset_rss_peak() -> bool:
    """Linux >= 4.0: writing 5 to clear_refs resets VmHWM (the peak RSS) to the current RSS."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class _PeakMemory:
    """Peak memory over calls the caller makes anyway (warm-up, timed blocks), so memory
    costs no extra calls: the CUDA caching allocator's peak on CUDA, else the process peak
    RSS (VmHWM, reset through clear_refs). start() before the calls, stop() after; stop()
    gives op_memory's fields, or None where no resettable peak exists (C++ then falls back
    to bench.memory)."""

    def __init__(self, device):
        self.cuda = timing.device_type(device) == "cuda"
        self.index = timing.cuda_index(device) if self.cuda else None  # cuda:N -> N
        self.ok = False
        self.base = None

    def current(self) -> int | None:
        if self.cuda:
            import torch
            return int(torch.cuda.memory_allocated(self.index))
        return _proc_status().get("VmRSS")

    def start(self) -> None:
        if self.cuda:
            import torch
            torch.cuda.synchronize(self.index)
            torch.cuda.reset_peak_memory_stats(self.index)
            self.base = torch.cuda.memory_allocated(self.index)
            self.ok = True
        else:
            self.ok = _reset_rss_peak()
            self.base = _proc_status().get("VmRSS") if self.ok else None

    def stop(self, over: str) -> dict | None:
        if not self.ok or self.base is None:
            return None
        if self.cuda:
            import torch
            torch.cuda.synchronize(self.index)
            peak = torch.cuda.max_memory_allocated(self.index)
            return {"kind": "cuda", "peak_bytes": int(peak), "baseline_bytes": int(self.base),
                    "increase_bytes": int(max(0, peak - self.base)),
                    "method": f"torch.cuda.max_memory_allocated {over}"}
        peak = _proc_status().get("VmHWM")
        if peak is None:
            return None
        return {"kind": "rss", "peak_bytes": int(peak), "baseline_bytes": int(self.base),
                "increase_bytes": int(max(0, peak - self.base)),
                "method": f"VmHWM after reset (clear_refs) {over}"}


def op_memory(params, session) -> dict:
    return _reading(_memory(params, session))


def _memory(params, session) -> dict:
    """Peak memory while running `which` (eager or a compiled key) `calls` times: the CUDA
    caching allocator's peak on CUDA, the process peak RSS elsewhere."""
    import torch
    loaded = session.loaded_target()
    which = params.get("which", "eager")
    calls = max(1, int(params.get("calls", 3)))
    call = loaded.call if which == "eager" else (lambda: loaded.call(_compiled(session, which)))
    if timing.device_type(loaded.device) == "cuda":
        index = timing.cuda_index(loaded.device)
        torch.cuda.synchronize(index)
        torch.cuda.reset_peak_memory_stats(index)
        base = torch.cuda.memory_allocated(index)
        for _ in range(calls):
            call()
        torch.cuda.synchronize(index)
        peak = torch.cuda.max_memory_allocated(index)
        return {"kind": "cuda", "peak_bytes": int(peak), "baseline_bytes": int(base),
                "increase_bytes": int(max(0, peak - base)), "method": "torch.cuda.max_memory_allocated"}
    import gc
    gc.collect()
    reset = _reset_rss_peak()
    base = _proc_status().get("VmRSS")
    if reset:
        for _ in range(calls):
            call()
        status = _proc_status()
        peak = status.get("VmHWM")
        method = "VmHWM after reset (clear_refs)"
    else:
        # No resettable peak: sample RSS from a thread while calling.
        import threading
        peak_box = [base or 0]
        stop = threading.Event()

        def sampler():
            while not stop.is_set():
                peak_box[0] = max(peak_box[0], _proc_status().get("VmRSS", 0))
                stop.wait(0.001)
        t = threading.Thread(target=sampler, daemon=True)
        t.start()
        for _ in range(calls):
            call()
        stop.set()
        t.join()
        peak = peak_box[0] or None
        method = "sampled VmRSS"
    if peak is None or base is None:
        try:
            import resource
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            method = "ru_maxrss (process lifetime peak)"
        except Exception:  # noqa: BLE001
            return {"kind": "rss", "peak_bytes": None, "baseline_bytes": None, "increase_bytes": None,
                    "method": "unavailable"}
    return {"kind": "rss", "peak_bytes": int(peak), "baseline_bytes": int(base) if base else None,
            "increase_bytes": int(max(0, peak - base)) if base else None, "method": method}


_MARK = "memory_mark"


def op_allocator(params, session) -> dict:
    """The allocator facts of this process (timing.allocator_facts): which allocator library is
    mapped, LD_PRELOAD, whether the settling block ran. tct names the state."""
    return _allocator_facts()


def _allocator_facts() -> dict:
    facts = reply("bench.allocator", timing.allocator_facts())
    facts["mapped"] = [reply("bench.allocator mapped", m) for m in facts["mapped"]]
    return facts


def _reading(out):
    return None if out is None else reply("bench.memory", out)


def op_memory_mark(params, session) -> dict:
    """Resets the peak (outside any timed call) and returns the memory held now: the
    baseline the next bench.memory_peak is measured against."""
    loaded = session.loaded_target()
    peak = _PeakMemory(loaded.device)
    peak.start()
    _scratch(session)[_MARK] = peak
    return {"kind": "cuda" if peak.cuda else "rss", "baseline_bytes": peak.base, "resettable": peak.ok}


def op_memory_peak(params, session) -> dict:
    """The peak since bench.memory_mark, above its baseline, and the memory held now."""
    peak = _scratch(session).get(_MARK)
    if peak is None:
        raise TctError("internal", "bench.memory_peak without bench.memory_mark", "tct and its agent disagree")
    out = peak.stop(str(params.get("over", "since the mark")))
    if out is None:
        return reply("bench.memory_peak", {"kind": "cuda" if peak.cuda else "rss", "peak_bytes": None,
                                           "increase_bytes": None, "current_bytes": None,
                                           "method": "unavailable (no resettable peak)"})
    out["current_bytes"] = peak.current()
    return reply("bench.memory_peak", out)


# ---------------------------------------------------------------------------- exit

def op_exit(params, session):
    """End the process without a reply once C++ has every result: flush, run the atexit
    handlers (compile-worker shutdown, multiprocessing cleanup, the user's own), then
    os._exit. This skips the interpreter's teardown of every module and object, which with
    torch and inductor loaded costs seconds of CPU that would otherwise compete with the
    next measurement (the warm compile in a fresh process)."""
    import atexit
    import sys
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed stream must not keep the process alive
            pass
    try:
        atexit._run_exitfuncs()
    finally:
        os._exit(0)
