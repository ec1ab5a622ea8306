#!/usr/bin/env python3
"""How much each way of turning tct's paired blocks into a speedup drifts over a minute, and
how far each reads from a plain hot loop: the evidence for choosing `tct bench`'s estimator.

One process records tct's own block path (the agent's `bench.time_block`, tct's calls per
sample and samples per block at default settings, random pair order) for `--seconds`, in
chunks as long as one of a default run's (10 s over 2 processes x 3 looks), with a hot
loop (`--calls` eager, then compiled calls) after each chunk. Then, on the same blocks:

- mean:  the mean of the pairs' log ratios of block means (what tct reports);
- q10:   each side's 10th-percentile block mean, then their ratio (the uncontended machine,
         as timeit's "min");
- filt33: the mean log ratio of the pairs whose both blocks are under their side's 33rd
         percentile.

For each: the range (max/min) over groups of 6 chunks (one default run's worth; a re-run's
spread, without the variation between processes), and the ratio to the hot loop's median
round and to its mean log ratio (a preempted compiled loop pulls the latter down).
Usage: bench/estimator_drift.py [--targets 64x32,16x32] [--seconds 60]   (run with the repository's venv)
"""
import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

from harness_bias import block_path, hot_loop_ratio  # tct's block path, sized as tct sizes it

# One chunk of a default run: --budget 10 over 2 processes x 3 looks.
CHUNK_S = 10 / 6


def record(n_ops, size, seconds, calls):
    """Chunks of block pairs ([eager samples], [compiled samples]) and a hot loop after each."""
    fn, args, compiled, block, cps, spb, warmup = block_path(n_ops, size)
    chunks = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pairs, start = [], time.monotonic()
        while time.monotonic() - start < CHUNK_S:
            order = [("eager", 0), ("k", 1)]
            random.shuffle(order)
            pair = [None, None]
            for which, i in order:
                pair[i] = block(which, spb, cps, warmup[which])
            pairs.append(pair)
        chunks.append({"pairs": pairs, "hot": hot_loop_ratio(fn, args, compiled, calls)})
    return chunks


def quantile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def mean_log_ratio(pairs):
    return statistics.fmean(math.log(statistics.fmean(e) / statistics.fmean(c)) for e, c in pairs)


def q10(pairs):
    return math.log(quantile([statistics.fmean(e) for e, _ in pairs], 0.1) /
                    quantile([statistics.fmean(c) for _, c in pairs], 0.1))


def filt33(pairs):
    e = [statistics.fmean(x) for x, _ in pairs]
    c = [statistics.fmean(x) for _, x in pairs]
    qe, qc = quantile(e, 0.33), quantile(c, 0.33)
    kept = [math.log(a / b) for a, b in zip(e, c) if a <= qe and b <= qc]
    return statistics.fmean(kept) if kept else math.nan


ESTIMATORS = {"mean": mean_log_ratio, "q10": q10, "filt33": filt33}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--targets", default="64x32,16x32", help="n_opsxsize,... of held_out.py:elementwise")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--calls", type=int, default=1000, help="hot-loop calls each way")
    ap.add_argument("--save", help="write the recorded blocks to this JSON file")
    args = ap.parse_args()
    saved = {}
    print(f"{'target':<14} {'estimator':<8} {'speedup':>8} {'range/6 chunks':>15} {'/loop median':>13} {'/loop mean':>11}")
    for spec in args.targets.split(","):
        n_ops, size = (int(v) for v in spec.split("x"))
        chunks = record(n_ops, size, args.seconds, args.calls)
        saved[spec] = chunks
        hot = [math.log(ch["hot"]) for ch in chunks]
        for name, est in ESTIMATORS.items():
            per_chunk = [est(ch["pairs"]) for ch in chunks]
            groups = [est([p for ch in chunks[i:i + 6] for p in ch["pairs"]]) for i in range(0, len(chunks) - 5, 6)]
            level = statistics.fmean(per_chunk)
            spread = math.exp(max(groups) - min(groups)) if len(groups) > 1 else math.nan
            print(f"{f'{n_ops} ops x {size}':<14} {name:<8} {math.exp(level):7.2f}x {spread:15.3f} "
                  f"{math.exp(level - statistics.median(hot)):13.3f} {math.exp(level - statistics.fmean(hot)):11.3f}",
                  flush=True)
    if args.save:
        Path(args.save).write_text(json.dumps(saved))


if __name__ == "__main__":
    sys.exit(main())
