#include "stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tct::stats {
namespace {

// Median of sorted, finite data: the type-7 quantile at 0.5.
double median_sorted(std::span<const double> sorted) { return quantile_sorted(sorted, 0.5); }

// Raw MAD of sorted, finite data with known median.
double mad_sorted(std::span<const double> sorted, double med) {
  if (sorted.empty()) return NAN;
  std::vector<double> dev(sorted.size());
  std::transform(sorted.begin(), sorted.end(), dev.begin(), [med](double x) { return std::fabs(x - med); });
  std::sort(dev.begin(), dev.end());
  return median_sorted(dev);
}

}  // namespace

std::vector<double> finite_sorted(std::span<const double> xs) {
  std::vector<double> out;
  out.reserve(xs.size());
  std::copy_if(xs.begin(), xs.end(), std::back_inserter(out), [](double x) { return std::isfinite(x); });
  std::sort(out.begin(), out.end());
  return out;
}

double quantile_sorted(std::span<const double> sorted, double q) {
  // `!(q >= 0 && q <= 1)` also rejects a NaN q.
  if (sorted.empty() || !(q >= 0.0 && q <= 1.0)) return NAN;
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double frac = h - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double quantile(std::span<const double> xs, double q) {
  const auto s = finite_sorted(xs);
  return quantile_sorted(s, q);
}

double median(std::span<const double> xs) { return quantile(xs, 0.5); }

double mean(std::span<const double> xs) {
  double sum = 0.0;
  std::size_t n = 0;
  for (double x : xs) {
    if (!std::isfinite(x)) continue;
    sum += x;
    ++n;
  }
  return n == 0 ? NAN : sum / static_cast<double>(n);
}

double mad(std::span<const double> xs) {
  const auto s = finite_sorted(xs);
  return mad_sorted(s, median_sorted(s));
}

double robust_sd(std::span<const double> xs) { return kMadToSd * mad(xs); }

Summary summarize(std::span<const double> xs) {
  const auto s = finite_sorted(xs);
  Summary out{};
  out.n = s.size();
  out.non_finite = xs.size() - s.size();
  if (s.empty()) {
    out.min = out.max = out.mean = out.median = NAN;
    out.p05 = out.p25 = out.p75 = out.p95 = NAN;
    out.mad = out.robust_cv = NAN;
    return out;
  }
  out.min = s.front();
  out.max = s.back();
  out.mean = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
  out.median = median_sorted(s);
  out.p05 = quantile_sorted(s, 0.05);
  out.p25 = quantile_sorted(s, 0.25);
  out.p75 = quantile_sorted(s, 0.75);
  out.p95 = quantile_sorted(s, 0.95);
  out.mad = mad_sorted(s, out.median);
  const double rsd = kMadToSd * out.mad;
  // A zero spread is "no variation" whatever the level; otherwise divide by the level,
  // which is NaN when the level is 0 (a relative spread of nothing is meaningless).
  if (rsd == 0.0) out.robust_cv = 0.0;
  else out.robust_cv = out.median == 0.0 ? NAN : rsd / std::fabs(out.median);
  return out;
}

}  // namespace tct::stats
