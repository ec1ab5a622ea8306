#!/usr/bin/env python3
"""What one element of each plain pointwise op costs inside a fused compiled kernel, relative
to an add: the weights of `tct expect`'s elementwise-work share (kElementOpWeights in
src/expect/ops.cpp). Inductor's CPU code makes some ops far dearer than others (a
clamp is a NaN-propagating min and max: ~7 adds), so counting elements alone would take a
chain of clamps for a chain of adds.

Each op: a chain of `--ops` applications compiled (one thread, static shapes), timed on 64
and on `--size` floats (fastest of 5 rounds); the difference per element-op, over the add's.
Usage: python bench/calibration/elementwise_costs.py [--ops 64] [--size 16384]   (~15 min: 24 compiles)

Measured 2026-12-01 (torch 2.13.0+cpu, 2-core x86_64), in ps per element-op: add 22.3, sub
22.7, mul 22.4, div 100.6, relu 17.5, clamp 233.0, clamp_min 106.9, clamp_max 107.8 (neg 1.3:
a chain of negations folds away, as abs does; the table leaves both at an add's weight).
"""
import argparse
import time

import torch

OPS = {
    "add": lambda t: t + 0.001, "sub": lambda t: t - 0.001, "mul": lambda t: t * 0.999,
    "div": lambda t: t / 1.001, "neg": torch.neg, "relu": torch.relu,
    "clamp": lambda t: t.clamp(-4.0, 4.0), "clamp_min": lambda t: t.clamp_min(-4.0),
    "clamp_max": lambda t: t.clamp_max(4.0), "maximum": lambda t: torch.maximum(t, t * 0.5),
    "minimum": lambda t: torch.minimum(t, t * 0.5), "where": lambda t: torch.where(t > 0, t, t * 0.5),
}


def per_call_us(fn, x, calls):
    for _ in range(20):
        fn(x)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            fn(x)
        best = min(best, (time.perf_counter_ns() - t0) / calls)
    return best / 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=64)
    ap.add_argument("--size", type=int, default=16384)
    ap.add_argument("--calls", type=int, default=300)
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    cost = {}
    with torch.no_grad():
        for name, op in OPS.items():
            def chain(x, op=op):
                for _ in range(args.ops):
                    x = op(x)
                return x
            compiled = torch.compile(chain, dynamic=False)
            small = per_call_us(compiled, torch.randn(64), args.calls)
            big = per_call_us(compiled, torch.randn(args.size), args.calls)
            torch._dynamo.reset()
            cost[name] = (big - small) * 1e6 / (args.ops * (args.size - 64))
            print(f"{name:10} {small:6.1f} us on 64 floats, {big:7.1f} us on {args.size}: "
                  f"{cost[name]:6.1f} ps per element-op", flush=True)
    print("relative to an add: " + ", ".join(f"{k} {v / cost['add']:.2g}" for k, v in cost.items()))


if __name__ == "__main__":
    main()
