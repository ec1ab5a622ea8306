"""Ops `expect.*`: raw evidence for `tct expect` (is the workload overhead, memory or
compute bound?). Facts only: op classes, aggregates, the class, the predicted speedup
and every suggestion are decided in C++ (src/expect/).

  expect.profile      after warm-up, plain timed calls with calls under torch.profiler
                      paced among them over 4 s: per-call wall, the top-level operator
                      events (name, duration) in order, each name's schema tags; on CUDA
                      the device kernels' intervals; the op floor's adds and the rounds of
                      one compiled call timed beside the profiled calls (the same seconds).
  expect.flops        one eager call under torch.utils.flop_counter.FlopCounterMode and a
                      TorchDispatchMode that sums tensor bytes per aten op (with its tags).
  expect.device_info  what identifies the machine for the ceilings cache (the cache
                      itself is read and written by the C++ CLI, not here).
  expect.ceilings     the machine's memory bandwidth (a large copy), FLOP/s (a large
                      matrix product), per-op floor (a 1-element add) and the cost of
                      one compiled call (a compiled 1-element add) for a
                      device/dtype: the timings of a few repeats; C++ takes the best.

Minimums, medians and envelopes are C++'s (src/expect/evidence.cpp): the agent sends every
timing it took. Every op that runs the target needs `target.load` first (session.target).
"""
from __future__ import annotations

import os
import platform
import time

from .. import timing
from ..errors import TctError
from ..protocol import finite, progress
from ..replies import reply

# Cap on the operator events sent back: enough for stable percentiles, small on the wire.
_MAX_OP_EVENTS = 20000
# 1-element adds profiled before the profiled calls: the op floor, in the calls' seconds.
_FLOOR_ADDS = 100
# Target calls per profiler run. The first call in a run is recorded slower (GPT-2: 0.74 ms
# outside ops against 0.62 ms for the second, fastest of 40 runs each); the envelope takes
# the second's, and the runs are spread over the seconds.
_CALLS_PER_RUN = 2


def _sync(device) -> None:
    timing.synchronizer(device)()


def _device_type(loaded) -> str:
    return timing.device_type(loaded.device)


def _call(loaded, stage: str):
    """One eager call; the target raising is the user's error (exit 3), not ours."""
    try:
        return loaded.call()
    except TctError:
        raise
    except Exception as exc:
        raise TctError("target_raised",
                       f"{loaded.name} raised {type(exc).__name__} on its {stage}: {exc}",
                       "run the target eagerly once outside tct to see the error",
                       stage=stage, cause=exc) from None


# ------------------------------------------------------------------------- profile

# Profiler events that are scopes, not operators: descend through them.
_SCOPE_PREFIXES = ("autograd::", "tct::", "profiler::", "Optimizer.", "## ")


def _is_op(evt) -> bool:
    name = evt.name
    return "::" in name and not name.startswith(_SCOPE_PREFIXES)


def _top_level_ops(evt, out):
    """The outermost operators under `evt` (an aten op's own children are its internals)."""
    for child in evt.cpu_children:
        if _is_op(child):
            out.append(child)
        else:
            _top_level_ops(child, out)


_FACTS_BY_NAME: dict[str, dict] = {}


def _schema_facts(func) -> dict:
    """What torch says about an operator overload: its tags and whether it is a view."""
    tags = sorted(str(t).rsplit(".", 1)[-1] for t in (getattr(func, "tags", ()) or ()))
    return {"tags": tags, "is_view": bool(getattr(func, "is_view", False))}


def _name_facts(name: str) -> dict:
    """_schema_facts() of a profiler event name such as 'aten::linear' (its first usual
    overload); names that are not torch.ops (record_function scopes) have none."""
    facts = _FACTS_BY_NAME.get(name)
    if facts is None:
        facts = {"tags": [], "is_view": False}
        try:
            import torch
            ns, _, op = name.partition("::")
            packet = getattr(getattr(torch.ops, ns), op)
            overloads = packet.overloads()
            pick = next((o for o in ("Tensor", "default", "self") if o in overloads), overloads[0])
            facts = _schema_facts(getattr(packet, pick))
        except Exception:
            pass
        _FACTS_BY_NAME[name] = facts
    return facts


def op_profile(params: dict, session) -> dict:
    """Warm up, then plain timed calls with `calls` profiled calls paced among them (two to a
    profiler run), until `min_seconds` (4) have passed and at least `timed_calls` plain calls
    were timed.

    Other processes slow this machine down for a second or two at a time (GPT-2's share
    outside ops from 35% to 47%, while a compiled 1-element add did not slow). The C++ side
    takes lower envelopes (each op's fastest run, the fastest gap between ops, the fastest
    plain call), and an envelope is only as quiet as the quietest moment its calls saw
    (bench/calibration/envelope_windows.py: how far the share moves between windows of 1 to
    8 s). Before, all profiled calls ran in the first half second.

    Returned: the wall of each plain call (`wall_samples_ns`), each round of _CompiledAdd
    timed beside the profiler runs (`compiled_call_rounds_ns`, unless params compiled_call is
    false; `compiled_call_error` when it cannot compile), per profiler run the durations of
    the _FLOOR_ADDS 1-element adds profiled before its calls (`op_floor_adds_ns`: the op
    floor, taken in C++); per profiled call when its run started (`at_s`,
    seconds into the profile), its wall under the profiler, its top-level operator events in
    order (`calls[i].op`: indices into `op_names`, `calls[i].ns`: durations), and on CUDA
    the device kernels' intervals relative to the call's start (`calls[i].kernels_ns`).
    Calls whose events would pass the cap are sent without them (`events_truncated`).
    `op_names` carries each name's schema facts (tags, is_view) and its total self time.
    The C++ side takes every minimum and median, classifies and aggregates
    (src/expect/evidence.cpp).
    """
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    loaded = session.loaded_target()
    warmup = max(1, int(params.get("warmup", 3)))
    calls = max(1, int(params.get("calls", 10)))
    timed_calls = max(1, int(params.get("timed_calls", 20)))
    min_seconds = max(0.0, float(params.get("min_seconds", 4.0)))
    dev_type = _device_type(loaded)

    progress("profile: warm-up")
    t0 = time.perf_counter()
    _call(loaded, "first call")
    _sync(dev_type)
    call_s = time.perf_counter() - t0
    for _ in range(warmup - 1):
        t0 = time.perf_counter()
        _call(loaded, "warm-up")
        _sync(dev_type)
        call_s = min(call_s, time.perf_counter() - t0)

    activities = [ProfilerActivity.CPU]
    on_cuda = dev_type == "cuda" and torch.cuda.is_available()
    if on_cuda:
        activities.append(ProfilerActivity.CUDA)
    # The cost of a compiled call, timed beside the profiled calls: a shared machine runs the
    # same Python up to 1.7x slower from one second to the next, and the prediction divides
    # one by the other.
    compiled_add, compiled_ns, compiled_error = None, [], None
    if params.get("compiled_call", True):
        progress("profile: compiling a 1-element add (the cost of one compiled call)")
        try:
            compiled_add = _compiled_add(dev_type)
        except Exception as exc:  # no C++ compiler, no Triton: tct probe tells the user why
            compiled_error = f"{type(exc).__name__}: {str(exc)[:300]}"
    progress(f"profile: {calls} profiled calls among plain timed calls over {min_seconds:g} s")
    names: dict[str, int] = {}
    self_ns: dict[str, float] = {}
    wall: list = []
    out_calls: list = []
    truncated = False
    floor_ns, floor_x, floor_y = [], torch.ones(1, device=dev_type), torch.ones(1, device=dev_type)

    def profile_calls(n: int) -> None:
        nonlocal truncated, attempted
        attempted += n
        at = time.perf_counter() - started
        with profile(activities=activities, record_shapes=False) as prof:
            for _ in range(_FLOOR_ADDS):
                floor_x.add(floor_y)
            _sync(dev_type)
            # No synchronize inside the profiled calls: on CUDA the device events carry the
            # kernel time. One after them, so that every kernel has ended when the profiler stops.
            for i in range(n):
                with record_function(f"tct::call{i}"):
                    _call(loaded, "profiled call")
            _sync(dev_type)
        events = prof.events()
        call_start = min((e.time_range.start for e in events if e.name.startswith("tct::call")), default=None)
        if call_start is None:
            return
        floor_ns.append(_add_ns(events, before=call_start))
        before = len(out_calls)
        truncated |= _add_calls(events, on_cuda, names, out_calls)
        for call in out_calls[before:]:
            call["at_s"] = at
        for e in events:
            if e.name in names and e.time_range.start >= call_start:
                self_ns[e.name] = self_ns.get(e.name, 0.0) + float(e.self_cpu_time_total) * 1000.0
        if compiled_add is not None:
            compiled_ns.extend(compiled_add.round_ns(50) for _ in range(3))

    # The profiler's first run in a process takes a second to start: before the clock starts.
    _profiled_add_ns(lambda: floor_x.add(floor_y), dev_type)
    # Profiled calls are paced evenly over the run, its length planned from the warm-up: at
    # least min_seconds, longer when the calls themselves take longer. A fast call gets many
    # plain calls between two profiled ones, a slow one (seconds a call) alternates them.
    # Paced by the calls asked of the profiler, not those it recorded: a run that records none
    # (another profiler active in the target) must not keep the loop going.
    planned_s = max(min_seconds, (calls + timed_calls) * call_s)
    attempted = 0
    started = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - started
        if attempted >= calls and len(wall) >= timed_calls and elapsed >= min_seconds:
            break
        due = elapsed / planned_s if planned_s > 0 else 1.0
        if attempted < calls and attempted <= due * calls:
            profile_calls(min(_CALLS_PER_RUN, calls - attempted))
        t0 = time.perf_counter_ns()
        _call(loaded, "timed call")
        _sync(dev_type)
        wall.append(time.perf_counter_ns() - t0)

    op_names = [reply("expect.profile op_names", {"name": n, **_name_facts(n), "self_ns_total": self_ns.get(n, 0.0)})
                for n in sorted(names, key=names.get)]
    return reply("expect.profile", {
        "device_type": dev_type,
        "warmup_calls": warmup,
        "seconds": time.perf_counter() - started,
        "wall_samples_ns": wall,
        "compiled_call_rounds_ns": compiled_ns,
        "compiled_call_error": compiled_error,
        "op_floor_adds_ns": floor_ns,
        "calls": out_calls,
        "op_names": op_names,
        "events_truncated": truncated,
    })


def _add_calls(events, on_cuda: bool, names: dict, out_calls: list) -> bool:
    """Appends one profiler run's calls to `out_calls` (op names indexed in `names`);
    True when some call came without its events (the cap on events sent was reached)."""
    from torch.autograd import DeviceType

    call_events = sorted((e for e in events if e.name.startswith("tct::call")),
                         key=lambda e: e.time_range.start)
    kernels = sorted(((e.time_range.start * 1000.0, e.time_range.end * 1000.0) for e in events
                      if e.device_type != DeviceType.CPU), key=lambda iv: iv[0]) if on_cuda else []
    sent = sum(len(c.get("op", ())) for c in out_calls)
    truncated = False
    for k, ce in enumerate(call_events):
        start = ce.time_range.start * 1000.0
        # A call's kernels are those launched before the next call starts (they run
        # asynchronously, possibly after the call returned).
        end = (call_events[k + 1].time_range.start * 1000.0 if k + 1 < len(call_events)
               else float("inf"))
        ops: list = []
        _top_level_ops(ce, ops)
        call = {"wall_ns": (ce.time_range.end - ce.time_range.start) * 1000.0}
        if sent + len(ops) <= _MAX_OP_EVENTS:
            call["op"] = [names.setdefault(op.name, len(names)) for op in ops]
            call["ns"] = [(op.time_range.end - op.time_range.start) * 1000.0 for op in ops]
            sent += len(ops)
        else:
            truncated = True
        if on_cuda:
            call["kernels_ns"] = [[s - start, e - start] for s, e in kernels if start <= s < end]
        out_calls.append(reply("expect.profile calls", call))
    return truncated


# --------------------------------------------------------------------------- flops

def _tensor_bytes(t, output: bool) -> int:
    """Bytes an op reads (input) or writes (output) for one tensor. Inputs: the smaller
    of the logical size and the storage (a broadcast scalar reads 4 bytes, not numel*4)."""
    logical = t.numel() * t.element_size()
    if output:
        return logical
    try:
        return min(logical, t.untyped_storage().nbytes())
    except Exception:  # tensors without storage (sparse, nested, fake)
        return logical


def _storage_key(t):
    """The address of a tensor's storage (None for non-tensors and storage-less tensors)."""
    import torch
    if not isinstance(t, torch.Tensor):
        return None
    try:
        return t.untyped_storage().data_ptr() or None
    except Exception:  # sparse, nested, fake
        return None


class _BytesMode:
    """A TorchDispatchMode that counts, per aten op, calls, the bytes of its tensor
    inputs and outputs (what eager moves if no operand stays in cache: an upper bound
    on DRAM traffic; views move nothing) and the elements it writes (the per-element work
    a fused kernel still does). It also counts the tensors the call reads from
    outside (inputs, parameters, buffers, captured tensors: storages no op of the call
    produced), which a compiled graph takes as inputs and checks on every call."""

    def __new__(cls):
        from torch.utils._python_dispatch import TorchDispatchMode
        from torch.utils._pytree import tree_flatten

        class Mode(TorchDispatchMode):
            def __init__(self):
                super().__init__()
                self.ops: dict[str, dict] = {}
                self.produced: set[int] = set()  # storages an op of the call wrote
                self.outside: set[int] = set()   # storages read that no op of the call wrote

            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                import torch
                out = func(*args, **(kwargs or {}))
                key = str(func.overloadpacket.__name__)
                name = f"aten::{key}" if func.namespace == "aten" else f"{func.namespace}::{key}"
                entry = self.ops.get(name)
                if entry is None:
                    entry = self.ops[name] = {"name": name, **_schema_facts(func), "count": 0,
                                              "bytes": 0, "elements": 0}
                entry["count"] += 1
                ins, _ = tree_flatten((args, kwargs or {}))
                outs, _ = tree_flatten(out)
                self.outside.update(k for k in map(_storage_key, ins) if k is not None and k not in self.produced)
                self.produced.update(k for k in map(_storage_key, outs) if k is not None)
                if not entry["is_view"]:
                    entry["bytes"] += sum(_tensor_bytes(t, False) for t in ins
                                          if isinstance(t, torch.Tensor))
                    entry["bytes"] += sum(_tensor_bytes(t, True) for t in outs
                                          if isinstance(t, torch.Tensor))
                    entry["elements"] += sum(t.numel() for t in outs if isinstance(t, torch.Tensor))
                return out

        return Mode()


def _boundary_bytes(loaded, out) -> int:
    """Inputs + parameters + buffers + outputs: what a fully fused program must move."""
    import torch
    from ..target import tensor_leaves
    total = sum(_tensor_bytes(t, False) for _, t in tensor_leaves((loaded.args, loaded.kwargs)))
    if loaded.module is not None:
        total += sum(p.numel() * p.element_size() for p in loaded.module.parameters())
        total += sum(b.numel() * b.element_size() for b in loaded.module.buffers())
    total += sum(t.numel() * t.element_size() for _, t in tensor_leaves(out)
                 if isinstance(t, torch.Tensor))
    return int(total)


def op_flops(params: dict, session) -> dict:
    """FLOPs (FlopCounterMode: matmul, conv, attention; elementwise ops count 0), bytes
    moved (per aten op, see _BytesMode) and nn.Module calls of one eager call."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    loaded = session.loaded_target()
    progress("counting FLOPs and bytes")
    counter = FlopCounterMode(display=False)
    bytes_mode = _BytesMode()
    module_calls = [0]
    # Every nn.Module forward the call runs (the target's own included): a compiled graph that
    # calls one also guards, on every call, on the module and on torch's global module hooks.
    # Counted in this untimed call; the hook is gone before anything is compiled.
    hook = torch.nn.modules.module.register_module_forward_pre_hook(
        lambda module, args: module_calls.__setitem__(0, module_calls[0] + 1))
    try:
        with counter, bytes_mode:
            out = _call(loaded, "counted call")
    except TctError:
        raise
    except Exception as exc:  # a dispatch mode the target does not survive: report, go on
        return reply("expect.flops", {"error": f"{type(exc).__name__}: {exc}", "flops_per_call": None,
                                      "bytes_per_call": None, "flops_by_op": {}, "ops": [],
                                      "boundary_bytes": None, "outside_tensors": None, "module_calls": None})
    finally:
        hook.remove()
    flops_by_op = {str(k): int(v) for k, v in counter.get_flop_counts().get("Global", {}).items()}
    ops = sorted(bytes_mode.ops.values(), key=lambda e: -e["bytes"])
    for e in ops:
        short = e["name"].split("::")[-1]
        e["flops"] = int(flops_by_op.get(f"aten.{short}", flops_by_op.get(short, 0)))
    return reply("expect.flops", {
        "flops_per_call": int(counter.get_total_flops()),
        "flops_by_op": flops_by_op,
        "bytes_per_call": int(sum(e["bytes"] for e in ops)),
        "boundary_bytes": _boundary_bytes(loaded, out),
        "outside_tensors": len(bytes_mode.outside),
        "module_calls": module_calls[0],
        "ops": [reply("expect.flops ops", e) for e in ops[:300]],
        "error": None,
    })


# ------------------------------------------------------------------------ ceilings

def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "cpu"


def _resolve_device_dtype(params, session):
    import torch
    from ..target import parse_device, parse_dtype, dtype_name
    dev = params.get("device")
    dt = params.get("dtype")
    if session.target is not None:
        dev = dev or session.target.device
        dt = dt or session.target.dtype
    device = parse_device(dev or "cpu")
    dtype = parse_dtype(dt or "float32")
    return device, dtype, dtype_name(dtype)


def op_device_info(params: dict, session) -> dict:
    """What identifies this machine's ceilings: device name, dtype, torch, threads."""
    import torch
    device, _, dtype_str = _resolve_device_dtype(params, session)
    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
    elif device.type == "cpu":
        name = _cpu_name()
    else:
        name = str(device)
    return reply("expect.device_info", {"device": str(device), "device_type": device.type, "device_name": name,
                                        "dtype": dtype_str, "torch_version": torch.__version__,
                                        "num_threads": torch.get_num_threads(), "logical_cores": os.cpu_count()})


def _times_ns(fn, repeats: int, device_type: str) -> list[int]:
    out = []
    for _ in range(repeats):
        _sync(device_type)
        t0 = time.perf_counter_ns()
        fn()
        _sync(device_type)
        out.append(time.perf_counter_ns() - t0)
    return out


def _profiled_add_ns(op, device_type: str) -> list[float]:
    """The profiled durations of `op` (a 1-element aten::add) run 100 times."""
    from torch.profiler import ProfilerActivity, profile

    for _ in range(20):
        op()
    _sync(device_type)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(100):
            op()
        _sync(device_type)
    return _add_ns(prof.events())


def _add_ns(events, before: float = float("inf")) -> list[float]:
    """The durations of the aten::add events that ended by `before` (profiler time)."""
    return [(e.time_range.end - e.time_range.start) * 1000.0 for e in events
            if e.name == "aten::add" and e.time_range.end <= before]


class _CompiledAdd:
    """torch.compile'd `x + y` on 1-element tensors (default backend and mode), compiled and
    warmed up once: one call costs what every compiled call pays whatever it computes
    (guards, the generated wrapper, one kernel). Timed under no_grad, as tct bench times
    inference (with grad mode on, the call also goes through autograd's wrapper: ~20% more
    here). Raises what torch.compile raises when this machine cannot compile."""

    def __init__(self, device_type: str):
        import torch

        self.device_type = device_type
        self.x = torch.ones(1, device=device_type)
        self.y = torch.ones(1, device=device_type)
        self.fn = torch.compile(lambda a, b: a + b)
        with torch.no_grad():
            for _ in range(100):
                self.fn(self.x, self.y)
        _sync(device_type)

    def round_ns(self, calls: int = 100) -> float:
        """The mean wall time of `calls` calls."""
        import torch

        with torch.no_grad():
            t0 = time.perf_counter_ns()
            for _ in range(calls):
                self.fn(self.x, self.y)
            _sync(self.device_type)
            return (time.perf_counter_ns() - t0) / calls


_COMPILED_ADDS: dict[str, _CompiledAdd] = {}


def _compiled_add(device_type: str) -> _CompiledAdd:
    """One _CompiledAdd per device for the process: a sweep profiles many points."""
    if device_type not in _COMPILED_ADDS:
        _COMPILED_ADDS[device_type] = _CompiledAdd(device_type)
    return _COMPILED_ADDS[device_type]


def _compiled_call_rounds_ns(device_type: str, rounds: int):
    """At least 15 rounds of _CompiledAdd (C++ takes the fastest: a round that other
    processes left alone is the call's own cost). ([], why) when this machine cannot compile."""
    try:
        add = _compiled_add(device_type)
        return [add.round_ns() for _ in range(max(rounds, 15))], None
    except Exception as exc:  # no C++ compiler, no Triton: tct probe tells the user why
        return [], f"{type(exc).__name__}: {str(exc)[:300]}"


def op_ceilings(params: dict, session) -> dict:
    """Measure the ceilings on the target's device/dtype (or params device/dtype).

    bandwidth: dst.copy_(src) of `copy_bytes` (reads and writes them: 2 x bytes moved),
    FLOP/s: a `matmul_n`^3 matrix product (2 n^3 FLOPs), op floor: the profiled duration
    of an aten::add on 1-element tensors (the fixed cost every eager op pays: dispatch,
    allocation, a kernel launch), compiled call: the wall time of a compiled 1-element add
    (the fixed cost every compiled call pays). Raw timings only: `repeats` copies and
    matmuls interleaved after one warm-up (`copy_ns`, `matmul_ns`), `repeats` + 1 profiled
    rounds of 100 adds (`op_floor_rounds_ns`) and the rounds of the compiled add
    (`compiled_call_rounds_ns`); the ceilings (best of each, the first profiled round left
    out) are computed in C++ (src/expect/evidence.cpp, ceilings_from_json).
    """
    import torch

    device, dtype, dtype_str = _resolve_device_dtype(params, session)
    dt_name = device.type
    repeats = max(1, int(params.get("repeats", 7)))
    big = dt_name != "cpu"
    copy_bytes = int(params.get("copy_bytes") or (512 << 20 if big else 64 << 20))
    n = int(params.get("matmul_n") or (8192 if big else 1024))

    progress(f"ceilings: bandwidth and {n}x{n} matmul in {dtype_str} on {device}")
    src = torch.empty(copy_bytes // 4, dtype=torch.float32, device=device).fill_(1.0)
    dst = torch.empty_like(src)
    dst.copy_(src)
    try:
        a = torch.randn(n, n, device=device).to(dtype)
        b = torch.randn(n, n, device=device).to(dtype)
        a @ b
        mm_error = None
    except Exception as exc:  # e.g. a dtype without a matmul kernel on this device
        a = b = None
        mm_error = f"{type(exc).__name__}: {exc}"
    # Copy and matmul interleaved, best of `repeats` each: a burst of load from other
    # processes then slows one repeat of each, not every repeat of one of them.
    copy_ns, mm_ns = [], []
    for _ in range(repeats):
        copy_ns += _times_ns(lambda: dst.copy_(src), 1, dt_name)
        if a is not None:
            mm_ns += _times_ns(lambda: a @ b, 1, dt_name)
    copied_bytes = src.numel() * 4
    del src, dst, a, b

    progress("ceilings: per-op floor")
    x = torch.ones(1, device=device)
    y = torch.ones(1, device=device)
    floor_rounds = [_profiled_add_ns(lambda: x.add(y), dt_name) for _ in range(repeats + 1)]
    t0 = time.perf_counter_ns()
    for _ in range(1000):
        x.add(y)
    call_floor = (time.perf_counter_ns() - t0) / 1000.0
    _sync(dt_name)

    progress("ceilings: the cost of one compiled call (compiles a 1-element add once)")
    compiled_rounds, compiled_error = _compiled_call_rounds_ns(dt_name, repeats)

    return reply("expect.ceilings", {
        "device": str(device), "dtype": dtype_str,
        "op_floor_rounds_ns": floor_rounds,
        "compiled_call_rounds_ns": compiled_rounds, "compiled_call_error": compiled_error,
        "python_op_floor_ns": finite(call_floor),
        "copy_bytes": copy_bytes, "copied_bytes": copied_bytes, "matmul_n": n, "repeats": repeats,
        "copy_ns": copy_ns, "matmul_ns": mm_ns, "matmul_error": mm_error,
    })
