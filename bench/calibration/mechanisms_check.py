#!/usr/bin/env python3
"""The mechanisms `tct expect`'s model added in its last refits, checked with plain loops
(torch alone, no tct), so that none rests on the fit that uses it:

1. Kept arithmetic: a compiled kernel still evaluates transcendental math per element. A
   chain of sin/tanh on 8192 floats should keep most of its eager time once compiled; a
   chain of adds/muls of the same length should not.
2. A cost per graph input: the same 8 matmuls (a Linear(32, 32) on 2 rows) compiled with one
   shared weight and bias, with 8 of each, and as an nn.Sequential.
3. Eager's fused kernels: layer_norm, a scale, softmax on 1024 x 512 floats move no
   intermediates inside the two fused kernels, so compiled they should keep most of their
   eager time, against the chain's fused traffic.
4. Elementwise work: 200 adds/muls compiled on 64 and on 4096 floats; the difference per
   element-op against the model's kElementwiseWork / the matmul FLOP rate (512 x 512 mm).
5. A module call: 8 matmuls on 2 rows compiled, on a captured tensor, on a captured
   nn.Parameter, and through one bias-free Linear (the same inputs, one module called); the
   module's extra cost in compiled calls (a compiled 1-element add) against kModuleCallScale.

Each figure is the fastest of 7 rounds of `--calls` calls, under no_grad, one thread.
Usage: python bench/calibration/mechanisms_check.py [--calls 2000]
"""
import argparse
import re
import time
from pathlib import Path

import torch

HEADER = Path(__file__).resolve().parents[2] / "src" / "analysis" / "expect_calibration.hpp"


def per_call_us(fn, args, calls):
    for _ in range(50):
        fn(*args)
    best = float("inf")
    for _ in range(7):
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            fn(*args)
        best = min(best, (time.perf_counter_ns() - t0) / calls)
    return best / 1e3


def chain(ops):
    def f(x):
        for op in ops:
            x = op(x)
        return x
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    with torch.no_grad():
        print("1. kept arithmetic: 16 ops on 8192 floats, compiled time / eager time")
        x = torch.randn(8192)
        for name, ops in [("sin, tanh", [torch.sin, torch.tanh] * 8),
                          ("add, mul", [lambda t: t + 0.5, lambda t: t * 0.99] * 8)]:
            f = chain(ops)
            eager = per_call_us(f, (x,), args.calls)
            compiled = per_call_us(torch.compile(f), (x,), args.calls)
            print(f"   {name:10}  eager {eager:7.1f} us  compiled {compiled:6.1f} us  kept {compiled / eager:.2f}")

        print("2. graph inputs: a Linear(32, 32) on 2 rows, 8 times, compiled per-call time")
        x = torch.randn(2, 32)
        one = torch.nn.Linear(32, 32)
        eight = [torch.nn.Linear(32, 32) for _ in range(8)]
        sequential = torch.nn.Sequential(*eight)
        cases = [("one weight and bias (3 inputs)", chain([one] * 8)),
                 ("8 of each (17 inputs)", chain(eight)),
                 ("nn.Sequential of the 8 (17 inputs)", sequential)]
        for name, f in cases:
            print(f"   {name:36}  {per_call_us(torch.compile(f), (x,), args.calls):6.1f} us")

        print("3. eager's fused kernels: layer_norm, scale, softmax on 1024 x 512 floats")
        # glibc serves a 2 MiB allocation with mmap (and page faults on every call) until a
        # larger mmapped block has been freed: eager then takes 3 ms instead of 0.55. Freeing an
        # 8 MiB tensor first raises that threshold, as a process that has run anything big has.
        big = torch.empty(1 << 21)
        del big
        x = torch.randn(1024, 512)
        ln = torch.nn.LayerNorm(512).eval()
        f = lambda t: torch.softmax(ln(t) * 0.125, dim=-1)  # noqa: E731
        eager = per_call_us(f, (x,), args.calls // 10)
        compiled = per_call_us(torch.compile(f), (x,), args.calls // 10)
        print(f"   eager {eager:7.1f} us  compiled {compiled:7.1f} us  kept {compiled / eager:.2f}")

        print("4. elementwise work: 200 adds/muls compiled, per call")
        a = torch.randn(512, 512)
        mm_us = per_call_us(torch.mm, (a, a), 20)
        peak = 2 * 512 ** 3 / (mm_us * 1e-6)
        poly = chain([lambda t: t + 0.001, lambda t: t * 0.999] * 100)
        small = per_call_us(torch.compile(poly), (torch.randn(64),), args.calls)
        big = per_call_us(torch.compile(poly, dynamic=False), (torch.randn(4096),), args.calls)
        per_op_ns = (big - small) * 1e3 / (200 * (4096 - 64))
        weight = constant("kElementwiseWork")
        print(f"   64 floats {small:6.1f} us  4096 floats {big:6.1f} us: {per_op_ns * 1e3:.1f} ps per element-op; "
              f"the model: {weight:g} / {peak / 1e9:.0f} GFLOP/s = {weight / peak * 1e12:.1f} ps")

        print("5. a module call: 8 matmuls on 2 rows, compiled per-call time")
        x = torch.randn(2, 32)
        linear = torch.nn.Linear(32, 32, bias=False)
        tensor, parameter = torch.randn(32, 32), torch.nn.Parameter(torch.randn(32, 32))
        # What tct times as one compiled call: `a + b` on two 1-element tensors.
        add = per_call_us(torch.compile(lambda a, b: a + b), (torch.ones(1), torch.ones(1)), args.calls)
        # Functions of their own: `chain`'s one code object has used up most of Dynamo's
        # recompile limit (8) by now, and the 9th compile would silently run eager.
        def on_tensor(t):
            for _ in range(8):
                t = t @ tensor
            return t

        def on_parameter(t):
            for _ in range(8):
                t = t @ parameter
            return t

        def through_linear(t):
            for _ in range(8):
                t = linear(t)
            return t
        rows = [("on a captured tensor", on_tensor), ("on a captured nn.Parameter", on_parameter),
                ("through one nn.Linear", through_linear)]
        times = [per_call_us(torch.compile(f), (x,), args.calls) for _, f in rows]
        for (name, _), us in zip(rows, times):
            print(f"   {name:28}  {us:6.1f} us")
        extra = (times[2] - times[1]) / add
        print(f"   the module: +{times[2] - times[1]:.1f} us = {extra:.2f} compiled calls ({add:.1f} us); "
              f"the model: {constant('kModuleCallScale'):g}")


def constant(name: str) -> float:
    """A fitted constant of tct's model, as the generated header holds it."""
    return float(re.search(rf"{name} = ([0-9.e+-]+);", HEADER.read_text()).group(1))


if __name__ == "__main__":
    main()
