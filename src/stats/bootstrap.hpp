// Percentile bootstrap confidence intervals for medians and for the ratio of two medians
// (the speedup eager / compiled).
//
// Method: Efron's percentile bootstrap (Efron 1979; Efron & Tibshirani, "An Introduction to
// the Bootstrap", 1993, ch. 13): draw `resamples` samples with replacement of the same size,
// compute the statistic on each, and take the alpha/2 and 1 - alpha/2 type-7 quantiles of
// those replicates as the interval. For the ratio, the two sides are resampled
// independently (they are independent measurements of two programs).
//
// Determinism: a given seed gives the same interval on every platform and standard
// library. The generator is std::mt19937_64, whose output sequence the C++ standard fixes;
// std::uniform_int_distribution is *not* fixed by the standard, so indices are drawn with
// our own unbiased bounded-integer routine (Lemire 2019, "Fast Random Integer Generation
// in an Interval", ACM TOMACS 29(1)).
//
// Non-finite samples are ignored (see summary.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tct::stats {

struct Interval {
    double estimate;  // the statistic on the full data
    double low;       // lower bound of the confidence interval
    double high;      // upper bound
};

// (high - low) / 2 / |estimate|: the "±x%" precision of an interval. NaN when any field is
// NaN or the estimate is 0.
double relative_half_width(const Interval& iv);

// Fewest finite samples (per side) for which an interval is computed. With 1 or 2 values
// the bootstrap distribution of a median has at most 3 distinct values and says nothing
// about its uncertainty, so the bounds are NaN rather than a falsely tight interval.
inline constexpr std::size_t kMinBootstrapSamples = 3;

inline constexpr std::uint64_t kDefaultBootstrapSeed = 0x7c7'5eed'2024ULL;

// Percentile-bootstrap CI of the median.
//  estimate: median of the finite values (NaN when none).
//  low/high: NaN when n < kMinBootstrapSamples, confidence not in (0, 1), or resamples == 0.
Interval bootstrap_median_ci(std::span<const double> xs, double confidence = 0.95,
                             std::size_t resamples = 2000,
                             std::uint64_t seed = kDefaultBootstrapSeed);

// Percentile-bootstrap CI of median(numerator) / median(denominator); with eager samples as
// numerator and compiled samples as denominator this is the speedup (> 1: compiled faster).
//  estimate: the ratio of the medians; NaN when either side has no finite value or the
//            denominator's median is 0 (a 0 ns latency is not a measurement).
//  low/high: NaN when either side has fewer than kMinBootstrapSamples finite values, the
//            estimate is NaN, confidence not in (0, 1), or resamples == 0. Replicates whose
//            ratio is not finite (a resampled denominator median of 0) are dropped; if more
//            than half are dropped the bounds are NaN.
Interval bootstrap_ratio_of_medians(std::span<const double> numerator_samples,
                                    std::span<const double> denominator_samples,
                                    double confidence = 0.95, std::size_t resamples = 2000,
                                    std::uint64_t seed = kDefaultBootstrapSeed);

}  // namespace tct::stats
