#include "stats/log_interval.hpp"

#include <cmath>

namespace tct::stats {

Interval geometric_mean(const std::vector<Interval>& items) {
  Interval out;
  if (items.empty()) return out;
  double sum = 0, below = 0, above = 0;
  bool intervals = true;
  for (const auto& i : items) {
    if (!(std::isfinite(i.estimate) && i.estimate > 0)) return out;
    double l = std::log(i.estimate);
    sum += l;
    if (!i.has_interval()) {
      intervals = false;
      continue;
    }
    below += std::pow(l - std::log(i.low), 2);
    above += std::pow(std::log(i.high) - l, 2);
  }
  double n = static_cast<double>(items.size());
  double mean = sum / n;
  out.estimate = std::exp(mean);
  if (intervals) {
    // The mean of n logs has 1/n of the sum's error.
    out.low = std::exp(mean - std::sqrt(below) / n);
    out.high = std::exp(mean + std::sqrt(above) / n);
  }
  return out;
}

Interval ratio(const Interval& current, const Interval& baseline) {
  Interval out;
  if (!(std::isfinite(current.estimate) && current.estimate > 0 && std::isfinite(baseline.estimate) &&
        baseline.estimate > 0))
    return out;
  double l = std::log(current.estimate) - std::log(baseline.estimate);
  out.estimate = std::exp(l);
  if (current.has_interval() && baseline.has_interval()) {
    double cur_below = std::log(current.estimate) - std::log(current.low);
    double cur_above = std::log(current.high) - std::log(current.estimate);
    double base_below = std::log(baseline.estimate) - std::log(baseline.low);
    double base_above = std::log(baseline.high) - std::log(baseline.estimate);
    out.low = std::exp(l - std::hypot(cur_below, base_above));
    out.high = std::exp(l + std::hypot(cur_above, base_below));
  }
  return out;
}

}  // namespace tct::stats
