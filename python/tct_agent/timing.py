"""Timing primitives for `bench`: raw samples in nanoseconds, no statistics.

Two ways to time, chosen by what is being measured:

* `time_each(call, n, sync)`: one call per sample, host wall clock around the call and a
  device synchronize. Used for the first calls of a compiled object (the warm-up curve),
  where the cost is mostly on the host (tracing, compiling, autotuning, CUDA-graph
  capture): a CUDA event pair would only see the GPU side and miss the compile.
* `time_block(fn, args, kwargs, samples, calls_per_sample, device)`: steady-state samples.
  Each sample is a tight loop `fn(*args, **kwargs)` `calls_per_sample` times and reports
  total / calls: no wrapper frame, no context manager per call (the caller enters grad
  mode or a compile stance once around the whole block), so what is timed is the call a
  user's own hot loop makes. The same path with an empty `fn` measures the harness's own
  per-call cost (the floor). On CUDA one CUDA event is recorded on the device's current
  stream before the first sample and one after each sample, with a single synchronize
  before the block and one wait on the last event after it: nothing synchronizes inside
  the timed region, so asynchronous launches overlap as in real use, and queued work from
  before the block cannot leak in (Event.elapsed_time needs both events completed).

A block may start with `warmup_ns` of untimed calls. Between blocks the agent waits on its
pipe for tct's next request, and the first calls after such a wait run slower (caches and
branch predictors hold other work, the CPU may have clocked down): on a 2-core CPU a 17 us
compiled call took 38 us, then 21, 19, and was back to 17 us after about 10 calls. A short
block (tens of calls) would carry that start-up into its median, and more so on the faster
side, biasing the speedup low; a long hot loop never sees it.

`device` may name an index ("cuda:1"): synchronize, events and memory statistics then use
that device, not the current one.

The garbage collector is paused while a block is timed (as timeit does) so that a
collection triggered by one side's allocations is not charged to the other side.
"""
from __future__ import annotations

import gc
import os
import time
from typing import Callable

perf_counter_ns = time.perf_counter_ns


# glibc's largest dynamic mmap threshold is 32 MiB (on 64-bit); a freed mmapped block below it
# raises the threshold to the block's size.
_SETTLING_BLOCK_BYTES = 30 << 20


_settled = False


def settle_allocator() -> None:
    """Put this process's malloc in the state of one that has already run something big.
    glibc serves every block above its mmap threshold (128 KiB in a fresh process) with a
    fresh mmap, page faults included, until a larger mmapped block is freed; then the
    threshold follows it. So a workload's big intermediates cost a new mapping per call in
    one process and come from the heap in the next (rmsnorm on 2048 x 512 floats: eager
    0.5 ms or 6 ms per call, and a speedup interval of [0.32, 80]). Freeing one 30 MiB block
    at the start raises every agent's threshold alike; other allocators ignore it."""
    import torch
    block = torch.empty(_SETTLING_BLOCK_BYTES, dtype=torch.uint8)
    block[::4096] = 1  # touch it, so that it is really mapped
    del block
    global _settled
    _settled = True


# Allocators that replace malloc when preloaded (LD_PRELOAD), by the file name of their library.
_ALLOCATOR_LIBRARIES = (("tcmalloc", "libtcmalloc"), ("jemalloc", "libjemalloc"))


def allocator_facts() -> dict:
    """What serves malloc in this process, as raw facts: the allocator libraries mapped into it
    (from /proc/self/maps; none means glibc's malloc), whether LD_PRELOAD was set, and whether
    settle_allocator ran. tct decides what they mean."""
    mapped: list[dict] = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            paths = {line.split(None, 5)[5].strip() for line in f if len(line.split(None, 5)) == 6}
    except OSError:
        paths = None
    for path in sorted(paths or ()):
        name = path.rsplit("/", 1)[-1]
        for kind, prefix in _ALLOCATOR_LIBRARIES:
            if name.startswith(prefix):
                mapped.append({"kind": kind, "path": path})
    return {"mapped": mapped, "maps_readable": paths is not None,
            "ld_preload": os.environ.get("LD_PRELOAD"), "settled": _settled}


def clock_resolution_ns(reads: int = 20000) -> dict:
    """The smallest positive step of perf_counter_ns seen in `reads` back-to-back reads
    (what a measurement can actually resolve, including the cost of reading the clock),
    next to what the OS declares."""
    smallest = None
    prev = perf_counter_ns()
    for _ in range(reads):
        now = perf_counter_ns()
        step = now - prev
        if step > 0 and (smallest is None or step < smallest):
            smallest = step
        prev = now
    info = time.get_clock_info("perf_counter")
    return {"resolution_ns": float(smallest or 1), "declared_resolution_ns": info.resolution * 1e9,
            "implementation": info.implementation}


def device_type(device: str | None) -> str:
    if not device:
        return "cpu"
    return str(device).split(":", 1)[0]


def cuda_index(device: str | None) -> int:
    """The CUDA device index `device` names ("cuda:1" -> 1); the current device for "cuda"."""
    import torch
    dev = torch.device(device or "cuda")
    return dev.index if dev.index is not None else torch.cuda.current_device()


def synchronizer(device: str | None) -> Callable[[], None]:
    """A function that waits for queued work on `device` (a no-op on the CPU)."""
    kind = device_type(device)
    if kind == "cuda":
        import torch
        index = cuda_index(device)
        return lambda: torch.cuda.synchronize(index)
    if kind == "mps":
        import torch
        return torch.mps.synchronize
    if kind == "xpu":
        import torch
        return torch.xpu.synchronize
    return lambda: None


class _GcPaused:
    def __enter__(self):
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was_enabled:
            gc.enable()


def time_each(call: Callable[[], object], n: int, device: str | None = None,
              max_ns: float | None = None, on_call: Callable[[int, int], None] | None = None) -> list[float]:
    """Host time of each of the first `n` calls (with a device synchronize inside the timed
    region). Stops early once the calls after the first have taken `max_ns` in total (a slow
    target must not spend the budget on its warm-up curve). An exception propagates; the
    caller knows which call raised from len(partial) via `on_call(index, ns)`."""
    sync = synchronizer(device)
    out: list[float] = []
    sync()
    spent_after_first = 0
    for i in range(n):
        t0 = perf_counter_ns()
        call()
        sync()
        dt = perf_counter_ns() - t0
        out.append(float(dt))
        if on_call is not None:
            on_call(i, dt)
        if i > 0:
            spent_after_first += dt
            if max_ns is not None and spent_after_first >= max_ns and i + 1 >= 3:
                break
    return out


def _warm_up(fn: Callable, args: tuple, kwargs: dict, warmup_ns: float) -> None:
    """Untimed calls until `warmup_ns` have passed (none when it is 0)."""
    end = perf_counter_ns() + warmup_ns
    while perf_counter_ns() < end:
        fn(*args, **kwargs)


def time_block(fn: Callable, args: tuple, kwargs: dict, samples: int, calls_per_sample: int,
               device: str | None = None, warmup_ns: float = 0) -> list[float]:
    """`samples` per-call times (ns), each the mean over `calls_per_sample` back-to-back
    `fn(*args, **kwargs)` calls, after `warmup_ns` of untimed calls (see the module docstring)."""
    samples = max(1, int(samples))
    cps = max(1, int(calls_per_sample))
    calls = range(cps)
    out: list[float] = []
    if device_type(device) == "cuda":
        import torch
        index = cuda_index(device)
        with torch.cuda.device(index), _GcPaused():
            stream = torch.cuda.current_stream(index)
            events = [torch.cuda.Event(enable_timing=True) for _ in range(samples + 1)]
            _warm_up(fn, args, kwargs, warmup_ns)
            torch.cuda.synchronize(index)
            events[0].record(stream)
            for i in range(samples):
                for _ in calls:
                    fn(*args, **kwargs)
                events[i + 1].record(stream)
            events[-1].synchronize()
        return [events[i].elapsed_time(events[i + 1]) * 1e6 / cps for i in range(samples)]  # ms -> ns
    sync = synchronizer(device)
    with _GcPaused():
        _warm_up(fn, args, kwargs, warmup_ns)
        sync()
        for _ in range(samples):
            t0 = perf_counter_ns()
            for _ in calls:
                fn(*args, **kwargs)
            sync()
            out.append((perf_counter_ns() - t0) / cps)
    return out


def empty_call(*args, **kwargs) -> None:
    """The harness floor's callable: what timing a call costs when the call does nothing."""
    return None
