#pragma once
// The breakdown phase of a `bench` row, in the main agent after the timed samples (so they
// stay honest): a window of calls under torch's profiler, the cache chain, and where overhead
// is material each fix A/B against the default (python/tct_agent/ops/breakdown.py). Fills
// row.breakdown; the parts and words are bench/breakdown.cpp's.
#include "bench/phases.hpp"

namespace tct::bench {

// Calls in the profiled window (and as many bare before it); the window stops early after
// max(0.5 s, 5% of the row's budget) on each side.
inline constexpr int kBreakdownCalls = 200;
// Block pairs per fix, in bench's paired order (random, seeded): enough for an interval of a
// few percent on a quiet machine (bench/breakdown_figures.py).
inline constexpr int kFixPairs = 40;

void measure_breakdown(const core::Progress& progress, const Caller& agent, const BenchConfig& cfg,
                       const BenchRowSpec& spec, double clock_resolution_ns, BenchRow& row);

}  // namespace tct::bench
