#!/usr/bin/env python3
"""The two mechanisms `tct expect`'s model added in its last refit, checked with plain loops
(torch alone, no tct), so that neither rests on the fit that uses it:

1. Kept arithmetic: a compiled kernel still evaluates transcendental math per element. A
   chain of sin/tanh on 8192 floats should keep most of its eager time once compiled; a
   chain of adds/muls of the same length should not.
2. A cost per graph input: the same 8 matmuls (a Linear(32, 32) on 2 rows) compiled with one
   shared weight and bias, with 8 of each, and as an nn.Sequential.

Each figure is the fastest of 7 rounds of `--calls` calls, under no_grad, one thread.
Usage: python bench/calibration/mechanisms_check.py [--calls 2000]
"""
import argparse
import time

import torch


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


if __name__ == "__main__":
    main()
