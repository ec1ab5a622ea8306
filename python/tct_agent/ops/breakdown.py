"""Ops for the call breakdown of `tct bench`: where one compiled call's time goes, as torch's
own profiler events and Dynamo's cache entries record it. Raw durations and facts only; the
parts, their intervals and the words are C++'s (src/bench/breakdown.*).

  breakdown.sample {key, calls, max_ns}   `calls` compiled calls timed bare, then `calls`
                                          under torch's profiler: each profiled call's events
                                          (name, start and duration relative to the call)
  breakdown.chain  {key, checks}          Dynamo's cache entries of every frame compiled so
                                          far: compile id, guard count, and for the entry
                                          frame the entry the next call hits and each entry's
                                          guard check time (ns, steady state: one check's
                                          in each of CHECK_BATCHES batches)
  breakdown.fix_prepare {key, fix, into}  compile `key`'s function again with a guard filter
                                          (torch.compiler.<fix>) as the compiled object `into`
  breakdown.fix_block {key, fix, samples, calls_per_sample, warmup_ns}
                                          bench.time_block's samples of `key` under a fix's
                                          context (a stance), or of a fix's own object

The names of the events are torch's (checked in 2.13.0 and 2.14.1):
`TorchDynamo Cache Lookup` (torch's C++ frame evaluation, in libtorch_python), `Torch-Compiled Region:
<compile id>` (torch/_dynamo/convert_frame.py), `Pregraph bytecode` (torch/_dynamo/utils.py),
`AOTDispatcher Runtime Wrapper Prologue` (torch/_functorch/_aot_autograd/runtime_wrappers.py),
`## Call CompiledFxGraph <key> ##` (torch/_inductor/output_code.py). The middle two and the
last record only while torch.autograd.profiler._is_profiler_enabled is set (the flag
torch.profiler.profile sets), and the middle two only with
torch._dynamo.config.record_runtime_overhead (True by default in both).
"""
from __future__ import annotations

import inspect

from .. import timing
from ..errors import TctError
from ..replies import reply
from .bench import _block_call, _compiled, _first_line, op_time_block

# The event that brackets each profiled call, so that every other event falls in one call.
CALL_EVENT = "tct.call"
CHECK_BATCHES = 7  # guard check timing: batches of back-to-back checks, their median tct's


def _profiler():
    """torch's low-level profiler (what torch.profiler.profile drives), CPU events only: the
    same events with less work per event than the full profile object."""
    from torch._C._autograd import _disable_profiler, _enable_profiler, _prepare_profiler
    from torch._C._profiler import ProfilerActivity, ProfilerConfig, ProfilerState, _ExperimentalConfig
    config = ProfilerConfig(ProfilerState.KINETO, False, False, False, False, False, _ExperimentalConfig())
    activities = {ProfilerActivity.CPU}
    return (lambda: (_prepare_profiler(config, activities), _enable_profiler(config, activities))), _disable_profiler


def _timed_calls(fn, args, kwargs, n: int, max_ns: float, wrap=None) -> list[int]:
    """Per-call ns of up to n calls, stopping once max_ns are spent."""
    out = []
    clock = timing.perf_counter_ns
    start = clock()
    for _ in range(n):
        t0 = clock()
        if wrap is None:
            fn(*args, **kwargs)
        else:
            with wrap(CALL_EVENT):
                fn(*args, **kwargs)
        out.append(clock() - t0)
        if max_ns and clock() - start > max_ns:
            break
    return out


def _events_per_call(result, calls: int) -> tuple[list[str], list[dict]]:
    """The profiler's events grouped by the CALL_EVENT that holds them (same thread, start
    inside the call): a table of names, and per call its duration and [name index, start,
    duration] of each event, ns relative to the call's start."""
    events = list(result.events())
    marks = sorted((e for e in events if e.name() == CALL_EVENT), key=lambda e: e.start_ns())
    others = sorted((e for e in events if e.name() != CALL_EVENT), key=lambda e: e.start_ns())
    names: dict[str, int] = {}
    out = []
    j = 0
    for mark in marks[:calls]:
        start, end, thread = mark.start_ns(), mark.end_ns(), mark.start_thread_id()
        while j < len(others) and others[j].start_ns() < start:
            j += 1
        rows = []
        k = j
        while k < len(others) and others[k].start_ns() < end:
            e = others[k]
            if e.start_thread_id() == thread:
                idx = names.setdefault(e.name(), len(names))
                rows.append([idx, e.start_ns() - start, e.duration_ns()])
            k += 1
        out.append(reply("breakdown.sample calls", {"ns": mark.duration_ns(), "events": rows}))
    return list(names), out


def op_sample(params, session) -> dict:
    """A window of compiled calls after the timed samples: `calls` bare (their per-call ns,
    what sampling is compared with), then `calls` under the profiler with each call bracketed
    by CALL_EVENT. The profiler is on only inside this op."""
    import torch
    import torch._dynamo.config as dynamo_config
    import torch.autograd.profiler as autograd_profiler
    from torch._C._profiler import _RecordFunctionFast
    loaded = session.loaded_target()
    key = params["key"]
    fn, args, kwargs, context = _block_call(loaded, session, key, params)
    calls = max(3, int(params.get("calls", 100)))
    max_ns = float(params.get("max_ns", 0))
    start, stop = _profiler()
    saved_overhead = dynamo_config.record_runtime_overhead
    try:
        with context():
            bare = _timed_calls(fn, args, kwargs, calls, max_ns)
            dynamo_config.record_runtime_overhead = True
            start()
            autograd_profiler._set_is_profiler_enabled(True)
            try:
                walls = _timed_calls(fn, args, kwargs, len(bare), max_ns, wrap=_RecordFunctionFast)
            finally:
                autograd_profiler._set_is_profiler_enabled(False)
                result = stop()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise TctError("compile_failed", f"compiled call raised while sampling its breakdown: "
                       f"{type(exc).__name__}: {_first_line(exc)}", stage="breakdown", cause=exc) from exc
    finally:
        dynamo_config.record_runtime_overhead = saved_overhead
    names, per_call = _events_per_call(result, len(walls))
    return reply("breakdown.sample", {"bare_ns": bare, "profiled_wall_ns": walls, "names": names,
                                      "calls": per_call, "torch_version": torch.__version__})


# ------------------------------------------------------------------------ cache chain

def _metrics_by_compile_id() -> dict:
    """compilation_metrics' guard facts per compile id (torch/_dynamo/utils.py)."""
    try:
        from torch._dynamo.utils import get_compilation_metrics
        metrics = get_compilation_metrics()
    except Exception:  # noqa: BLE001 - introspection is best effort
        return {}
    out = {}
    for m in metrics:
        cid = getattr(m, "compile_id", None)
        if cid is None:
            continue
        out[str(cid)] = {"guard_count": getattr(m, "guard_count", None),
                         "shape_env_guard_count": getattr(m, "shape_env_guard_count", None),
                         "guard_latency_us": getattr(m, "guard_latency_us", None),
                         "cache_size": getattr(m, "cache_size", None),
                         "accumulated_cache_size": getattr(m, "accumulated_cache_size", None)}
    return out


def _entry_frame(loaded):
    """(code object, f_locals of the next call) of the frame Dynamo enters first: the
    module's forward, or the function itself. None where the inputs cannot be bound."""
    fn = loaded.fn
    target = type(fn).forward if loaded.module is not None else fn
    code = getattr(target, "__code__", None)
    if code is None or loaded.train:
        return code, None
    try:
        bound = inspect.signature(target).bind(*(((fn,) if loaded.module is not None else ()) + tuple(loaded.args)),
                                               **loaded.kwargs)
        bound.apply_defaults()
    except (TypeError, ValueError):
        return code, None
    return code, dict(bound.arguments)


def _timed_checks(root, f_locals, checks: int) -> tuple[bool, list[float]]:
    """Whether the guards pass on f_locals, and one check's ns in each of CHECK_BATCHES batches
    of back-to-back checks (warm caches, as in the steady state; profile_guard_manager flushes
    the caches first). Batches, not one mean: a context switch on a loaded machine lands in one
    batch and tct's median of them leaves it out (one mean of 2000 checks once read 4.0 us, in
    CI beside another test's compile, for guards that pass in 2.0 us on a quiet machine)."""
    passed = bool(root.check(f_locals))
    clock = timing.perf_counter_ns
    per_batch = max(1, checks // CHECK_BATCHES)
    batches = []
    for _ in range(CHECK_BATCHES):
        t0 = clock()
        for _ in range(per_batch):
            root.check(f_locals)
        batches.append((clock() - t0) / per_batch)
    return passed, batches


def op_chain(params, session) -> dict:
    """Every compiled frame's cache entries in lookup order (torch keeps them most recently
    used first and moves a hit to the front: the lookup in torch's C++ extra state,
    seen on 2.13.0 and 2.14.1), with
    compilation_metrics' guard facts; for the entry frame, which entry the next call's
    inputs pass and how long each entry's guards take."""
    loaded = session.loaded_target()
    checks = max(1, int(params.get("checks", 2000)))
    # The guards run as a timed call would meet them: under the block's grad mode (a global
    # state guard), so the entry they pass is the one the steady calls hit.
    _, _, _, context = _block_call(loaded, session, params["key"], params)
    with context():
        return _chain(loaded, checks)


def _chain(loaded, checks: int) -> dict:
    from torch._dynamo.convert_frame import input_codes
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    metrics = _metrics_by_compile_id()
    entry_code, f_locals = _entry_frame(loaded)
    codes = [ref() for ref in getattr(input_codes, "seen", [])]
    if entry_code is not None and entry_code not in codes:
        codes.insert(0, entry_code)
    frames = []
    for code in codes:
        if code is None:
            continue
        entries = list(_debug_get_cache_entry_list(code))
        if not entries:
            continue
        is_entry = code is entry_code and f_locals is not None
        rows = []
        for entry in entries:
            cid = str(entry.compile_id)
            row = {"compile_id": cid, **metrics.get(cid, {})}
            if is_entry:
                try:
                    passed, batches = _timed_checks(entry.guard_manager.root, f_locals, checks)
                    row.update(passes=passed, check_batches_ns=batches)
                except Exception as exc:  # noqa: BLE001 - a guard that cannot run here is a fact
                    row["check_error"] = _first_line(exc)
            rows.append(reply("breakdown.chain frames entries", row))
        frames.append(reply("breakdown.chain frames", {
            "name": code.co_name, "file": code.co_filename, "line": code.co_firstlineno,
            "entry_frame": code is entry_code, "checked": is_entry, "entries": rows}))
    return reply("breakdown.chain", {"frames": frames, "checks": checks})


# ------------------------------------------------------------------------------ fixes

# Each fix tct can try and how: a stance around the same compiled object, or a guard filter
# the function is compiled again with (torch.compiler's *_unsafe helpers).
_STANCE_FIXES = {"skip_guard_eval_unsafe"}


def op_fix_available(params, session) -> dict:
    """Which fixes this torch has: the stance's keyword, each guard filter helper, and
    torch.compile's isolate_recompiles (a second compiled object of the same function must
    not share the first one's cache entries, or each lookup would walk both)."""
    import torch
    compiler = getattr(torch, "compiler", None)
    out = {}
    stance = getattr(compiler, "set_stance", None)
    out["skip_guard_eval_unsafe"] = stance is not None and \
        "skip_guard_eval_unsafe" in inspect.signature(stance).parameters
    isolate = "isolate_recompiles" in inspect.signature(torch.compile).parameters
    for name in params.get("filters", []):
        out[name] = isolate and callable(getattr(compiler, name, None))
    return reply("breakdown.fix_available", {"available": out, "isolate_recompiles": isolate})


def op_fix_prepare(params, session) -> dict:
    """The target compiled again, as `into`, with torch.compiler.<fix> as its guard filter,
    in a cache bucket of its own; its first calls compile it (outside any timing)."""
    import torch
    loaded = session.loaded_target()
    fix = params["fix"]
    from .bench import _scratch
    kwargs = dict(_scratch(session).get("compile_kwargs", {}).get(params["key"]) or {})
    options = dict(kwargs.pop("options", None) or {})
    mode = kwargs.pop("mode", None)
    if mode:
        from torch._inductor import list_mode_options
        options.update(list_mode_options(mode, kwargs.get("dynamic")))
    options["guard_filter_fn"] = getattr(torch.compiler, fix)
    try:
        obj = torch.compile(loaded.fn, options=options, isolate_recompiles=True, **kwargs)
        session.compiled[params["into"]] = obj
        _warm_until_settled(loaded, obj)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        session.compiled.pop(params["into"], None)
        return reply("breakdown.fix_prepare", {"ok": False, "error": f"{type(exc).__name__}: {_first_line(exc)}"})
    return reply("breakdown.fix_prepare", {"ok": True})


def _warm_until_settled(loaded, obj, quiet: int = 16, most: int = 400) -> None:
    """Calls until `quiet` calls in a row compiled nothing (a target whose calls cycle through
    several cache entries compiles each of its own), at most `most`."""
    from torch._dynamo.utils import counters
    calm = 0
    for _ in range(most):
        before = int(counters.get("frames", {}).get("total", 0))
        loaded.call(obj)
        calm = calm + 1 if int(counters.get("frames", {}).get("total", 0)) == before else 0
        if calm >= quiet:
            return


def op_fix_block(params, session) -> dict:
    """bench.time_block of `key`, under the fix's stance when the fix is one."""
    import torch
    fix = params.get("fix")
    if fix not in _STANCE_FIXES:
        return reply("breakdown.fix_block", op_time_block(params, session))
    try:
        with torch.compiler.set_stance("default", skip_guard_eval_unsafe=True):
            return reply("breakdown.fix_block", op_time_block(params, session))
    except Exception as exc:  # noqa: BLE001 - a fix that fails on these inputs is a fact, not the bench's failure
        return reply("breakdown.fix_block", {"error": f"{type(exc).__name__}: {exc}"[:300]})
