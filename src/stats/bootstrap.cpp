#include "stats/bootstrap.hpp"

#include <cmath>
#include <limits>

namespace tct::stats {

bool Interval::has_interval() const {
  return std::isfinite(estimate) && std::isfinite(low) && std::isfinite(high) && low > 0 && low <= estimate &&
         estimate <= high;
}

double relative_half_width(const Interval& iv) {
  if (std::isnan(iv.estimate) || std::isnan(iv.low) || std::isnan(iv.high) || iv.estimate == 0.0)
    return std::numeric_limits<double>::quiet_NaN();
  return (iv.high - iv.low) / 2.0 / std::fabs(iv.estimate);
}

}  // namespace tct::stats
