#pragma once
// Combining speedup intervals without the samples behind them. Each speedup's 95% interval
// is read on the log scale, where a ratio's error is roughly symmetric and independent
// errors add: log-errors of independent estimates combine in quadrature, each side of the
// interval on its own (so a skewed interval stays skewed). This is the delta method on
// log-normal errors, the usual way to carry intervals through products and ratios.
// Pure functions; unit-tested in tests/unit/test_suite.cpp.
#include <vector>

#include "stats/bootstrap.hpp"  // Interval

namespace tct::stats {

// Geometric mean of positive estimates, with the interval from the items' intervals
// (independent measurements). Slowdowns count as they are (no clipping to 1). The interval
// is NaN when any item has none; the estimate is NaN when `items` is empty or one estimate
// is not positive.
Interval geometric_mean(const std::vector<Interval>& items);

// current / baseline with its interval: the ratio is lowest when current is at its low end
// and baseline at its high end.
Interval ratio(const Interval& current, const Interval& baseline);

}  // namespace tct::stats
