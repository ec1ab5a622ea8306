#pragma once
// Intervals from a handful of whole runs: a job run k times, each a fresh process, gives k
// totals (seconds to minutes each, so k is small). The mean with Student's t interval
// (Student 1908) is the textbook interval for few independent, roughly normal values; run
// totals are sums of many calls, so the central limit theorem makes them close to normal.
// Pairs (two modes' totals in the same round of an interleaved schedule) are compared on the
// log scale, where a ratio's error is symmetric and a round's drift, shared by both, cancels.
// Pure functions; unit-tested in tests/unit/test_stats.cpp.
#include <span>

#include "stats/bootstrap.hpp"  // Interval

namespace tct::stats {

// The 97.5% quantile of Student's t with `df` degrees of freedom (the half-width factor of a
// two-sided 95% interval): the exact values for df 1..30 (Fisher & Yates, Statistical Tables,
// table III), beyond that the Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5), within
// 1e-4 there. NaN for df < 1.
double student_t_975(int df);

// The mean of the finite values with its two-sided 95% t interval. Fewer than 2 values: the
// estimate (or NaN) with NaN bounds.
Interval mean_interval(std::span<const double> xs);

// The geometric mean of a[i] / b[i] over the pairs where both are finite and positive, with the
// 95% t interval of the mean log ratio, exponentiated. Fewer than 2 pairs: NaN bounds.
Interval paired_ratio_interval(std::span<const double> a, std::span<const double> b);

}  // namespace tct::stats
