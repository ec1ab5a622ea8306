// Descriptive statistics over timing samples. Pure functions, unit-agnostic (callers pass
// nanoseconds). Modelled on google/benchmark src/statistics.cc, with the degenerate cases
// written down instead of left to chance.
//
// Conventions shared by every function in this header:
//  - Non-finite values (NaN, +inf, -inf) are ignored: a latency is never infinite, so such a
//    value can only be a failed or missing measurement. `summarize` counts how many it
//    skipped (Summary::non_finite) so callers can warn about them.
//  - With no finite value the result is NaN (quiet), never an exception.
//  - Input order does not matter; the span is never modified.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace tct::stats {

// Scale factor that makes the MAD a consistent estimator of the standard deviation for
// normal data: 1 / Phi^-1(3/4) = 1.4826 (Rousseeuw & Croux 1993; R's mad() default).
inline constexpr double kMadToSd = 1.4826;

// Finite values of `xs`, sorted ascending. Shared building block for the functions below.
std::vector<double> finite_sorted(std::span<const double> xs);

// Quantile of already sorted, all-finite data; `q` in [0, 1], else NaN; empty -> NaN.
// Hyndman & Fan (1996) type 7 (R's default, NumPy's "linear"):
// h = (n - 1) q, result = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
double quantile_sorted(std::span<const double> sorted, double q);

// Type-7 quantile of the finite values; q outside [0, 1] or no finite value -> NaN.
double quantile(std::span<const double> xs, double q);

// Median (= type-7 quantile at 0.5: mean of the two middle values for even n).
double median(std::span<const double> xs);

// Arithmetic mean of the finite values.
double mean(std::span<const double> xs);

// Raw median absolute deviation, median(|x - median(x)|), no scale factor. 0 when more than
// half the values are equal (e.g. a coarse clock); n = 1 -> 0.
double mad(std::span<const double> xs);

// kMadToSd * mad(xs): a standard deviation estimate that ignores outliers.
double robust_sd(std::span<const double> xs);

struct Summary {
  std::size_t n = 0;           // finite values used
  std::size_t non_finite = 0;  // NaN / inf values ignored
  double min, max, mean, median, p05, p25, p75, p95;
  double mad;        // raw MAD (not scaled)
  double robust_cv;  // robust_sd / |median|; 0 when robust_sd is 0; NaN when median is 0
                     // but the spread is not
};

// All of the above in one pass over one sorted copy.
// n = 0: every double field is NaN. n = 1: every location field equals the value,
// mad = 0, robust_cv = 0. All values equal: quantiles equal the value, mad = 0, cv = 0.
Summary summarize(std::span<const double> xs);

}  // namespace tct::stats
