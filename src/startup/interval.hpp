#pragma once
// The interval of a median from a handful of fresh processes: distribution-free, from order
// statistics (the sample's k-th smallest and k-th largest hold the population median with
// probability 1 - 2 P(Binomial(n, 1/2) < k); Hollander & Wolfe, Nonparametric Statistical
// Methods, ch. 3). A start-up takes seconds, so n is small: with 3 processes the widest
// interval, [min, max], covers the median 75% of the time, with 6 about 97%. Pure.
#include <span>

namespace tct::startup {

struct MedianInterval {
  double median = 0.0 / 0.0, low = 0.0 / 0.0, high = 0.0 / 0.0;
  double coverage = 0;  // the probability [low, high] holds the median; 0 without two values
};

// The narrowest order-statistic interval whose coverage is at least `level`, or [min, max]
// (with its lower coverage) when n is too small for it. NaN values are left out.
MedianInterval median_interval(std::span<const double> xs, double level = 0.95);

}  // namespace tct::startup
