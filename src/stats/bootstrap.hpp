// The interval type every speedup estimate carries, and the seed of the bootstraps that
// compute it (stats/paired.hpp: the hierarchical interval of `bench`).
#pragma once

#include <cmath>
#include <cstdint>

namespace tct::stats {

struct Interval {
  double estimate = NAN;      // the statistic on the full data; NaN: not measured
  double low = NAN;           // lower bound of the confidence interval; NaN: not known
  double high = NAN;          // upper bound
  bool has_interval() const;  // all three finite, positive, low <= estimate <= high
};

// (high - low) / 2 / |estimate|: the "±x%" precision of an interval. NaN when any field is
// NaN or the estimate is 0.
double relative_half_width(const Interval& iv);

inline constexpr std::uint64_t kDefaultBootstrapSeed = 0x7c7'5eed'2024ULL;

}  // namespace tct::stats
