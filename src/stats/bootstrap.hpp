// The interval type every speedup estimate carries, and the seed of the bootstraps that
// compute it (stats/paired.hpp: the hierarchical interval of `bench`).
#pragma once

#include <cstdint>

namespace tct::stats {

struct Interval {
    double estimate;  // the statistic on the full data
    double low;       // lower bound of the confidence interval
    double high;      // upper bound
};

// (high - low) / 2 / |estimate|: the "±x%" precision of an interval. NaN when any field is
// NaN or the estimate is 0.
double relative_half_width(const Interval& iv);

inline constexpr std::uint64_t kDefaultBootstrapSeed = 0x7c7'5eed'2024ULL;

}  // namespace tct::stats
