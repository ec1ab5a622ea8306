#include "stats/outliers.hpp"

#include <cmath>

#include "stats/summary.hpp"

namespace tct::stats {
namespace {
// Phi^-1(3/4), the constant in Iglewicz & Hoaglin's modified z-score.
constexpr double kModifiedZ = 0.6745;
}  // namespace

Outliers detect_outliers(std::span<const double> xs, const OutlierParams& params) {
  Outliers out;
  const auto sorted = finite_sorted(xs);
  if (sorted.empty()) return out;

  const double med = quantile_sorted(sorted, 0.5);
  const double raw_mad = mad(sorted);
  out.used_relative_fallback = (raw_mad == 0.0);

  // Both rules reduce to "deviation from the median beyond a limit"; only the limit differs.
  const double limit = out.used_relative_fallback ? params.relative_threshold * std::fabs(med)
                                                  : params.z_threshold * raw_mad / kModifiedZ;

  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    if (!std::isfinite(x)) continue;
    const double dev = x - med;
    if (dev > limit) out.high.push_back(i);
    else if (-dev > limit) out.low.push_back(i);
  }
  out.count = out.high.size() + out.low.size();
  out.fraction = static_cast<double>(out.count) / static_cast<double>(sorted.size());
  return out;
}

}  // namespace tct::stats
