// Steady-state detection on a latency series in call order.
//
// The first calls of a compiled function are slow (tracing, compilation, autotuning,
// CUDA-graph capture, cache warm-up); later calls fluctuate around a level. Given one
// latency per call, find the first call from which the series is stationary, so that the
// warm-up calls can be reported separately and left out of the steady-state statistics.
//
// Rule (our own; see detect_steady_state in the .cpp for the reasoning):
//  1. Reference: the last half of the series is assumed to be steady. level = its median,
//     band = level ± max(k * robust_sd(last half), rel_floor * level).
//  2. Trend check: if the last half still drifts (Theil-Sen slope times its length) by more
//     than the band's own floor and more than k robust SDs of the detrended residuals, the
//     series has not settled -> found = false (measure more calls).
//  3. start = the first index i such that x[i] is not above the band, the median of the
//     window [i, i + w) lies inside the band, and no later run of w or more consecutive
//     points lies above the band (a long excursion means warm-up was not over; short ones
//     are ordinary noise such as a preemption).
#pragma once

#include <cstddef>
#include <span>

namespace tct::stats {

struct SteadyStateParams {
  double k = 3.0;               // band half-width in robust SDs of the last half
  double rel_floor = 0.05;      // minimum band half-width as a fraction of the level
  std::size_t window = 5;       // w = clamp(window, 1, n / 4)
  std::size_t min_points = 10;  // fewer points -> found = false
};

enum class SteadyStateReason {
  Found,
  TooFewPoints,  // n < min_points
  NonFinite,     // a NaN or inf latency: the series cannot be trusted as a sequence
  Trending,      // the last half still moves: it never settled within the series
  NeverInBand,   // no index satisfies the start rule
};

struct SteadyState {
  bool found = false;
  std::size_t start_index = 0;  // first steady call; 0 when not found
  double level = 0.0;           // median of x[start_index, n); NaN when not found
  SteadyStateReason reason = SteadyStateReason::TooFewPoints;
};

SteadyState detect_steady_state(std::span<const double> series, const SteadyStateParams& params = {});

}  // namespace tct::stats
