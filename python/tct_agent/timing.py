"""Timing primitives for `bench`: raw samples in nanoseconds, no statistics.

Two ways to time, chosen by what is being measured:

* `time_each(call, n, sync)`: one call per sample, host wall clock around the call and a
  device synchronize. Used for the first calls of a compiled object (the warm-up curve),
  where the cost is mostly on the host (tracing, compiling, autotuning, CUDA-graph
  capture): a CUDA event pair would only see the GPU side and miss the compile.
* `time_block(call, samples, calls_per_sample, device)`: steady-state samples. Each sample
  runs `calls_per_sample` calls back to back and reports total / calls (calls shorter than
  the clock's resolution are timed in batches; runner/sampling.hpp picks the batch). On
  CUDA the sample is timed with a pair of CUDA events recorded on the current stream
  around the batch, after a synchronize, so queued work from before cannot leak in and
  asynchronous launches are not mistaken for finished work; the end event is waited for
  before reading (Event.elapsed_time requires both events to have completed).

The garbage collector is paused while a block is timed (as timeit does) so that a
collection triggered by one side's allocations is not charged to the other side.
"""
from __future__ import annotations

import gc
import time
from typing import Callable

perf_counter_ns = time.perf_counter_ns


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


def synchronizer(device: str | None) -> Callable[[], None]:
    """A function that waits for queued work on `device` (a no-op on the CPU)."""
    kind = device_type(device)
    if kind == "cuda":
        import torch
        return torch.cuda.synchronize
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


def time_block(call: Callable[[], object], samples: int, calls_per_sample: int,
               device: str | None = None) -> list[float]:
    """`samples` per-call times (ns), each the mean over `calls_per_sample` back-to-back calls."""
    samples = max(1, int(samples))
    cps = max(1, int(calls_per_sample))
    out: list[float] = []
    if device_type(device) == "cuda":
        import torch
        with _GcPaused():
            for _ in range(samples):
                torch.cuda.synchronize()
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(cps):
                    call()
                end.record()
                end.synchronize()
                out.append(start.elapsed_time(end) * 1e6 / cps)  # ms -> ns
        return out
    sync = synchronizer(device)
    with _GcPaused():
        sync()
        for _ in range(samples):
            t0 = perf_counter_ns()
            for _ in range(cps):
                call()
            sync()
            out.append((perf_counter_ns() - t0) / cps)
    return out
