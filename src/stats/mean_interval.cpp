#include "stats/mean_interval.hpp"

#include <cmath>
#include <vector>

namespace tct::stats {
namespace {

// t_{0.975, df} for df = 1..30 (Fisher & Yates, table III).
constexpr double kT975[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                            2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                            2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

// Mean and the t half-width of finite values; n counts them.
struct MeanHalf {
  double mean = NAN, half = NAN;
  int n = 0;
};

MeanHalf mean_half(const std::vector<double>& v) {
  MeanHalf out;
  out.n = static_cast<int>(v.size());
  if (v.empty()) return out;
  double sum = 0;
  for (double x : v) sum += x;
  out.mean = sum / out.n;
  if (out.n < 2) return out;
  double ss = 0;
  for (double x : v) ss += (x - out.mean) * (x - out.mean);
  const double sd = std::sqrt(ss / (out.n - 1));
  out.half = student_t_975(out.n - 1) * sd / std::sqrt(static_cast<double>(out.n));
  return out;
}

}  // namespace

double student_t_975(int df) {
  if (df < 1) return NAN;
  if (df <= 30) return kT975[df - 1];
  // Abramowitz & Stegun 26.7.5: t = z + g1/df + g2/df^2 + g3/df^3, z the normal quantile.
  const double z = 1.959963984540054, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  const double g1 = (z3 + z) / 4, g2 = (5 * z5 + 16 * z3 + 3 * z) / 96,
               g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  const double n = df;
  return z + g1 / n + g2 / (n * n) + g3 / (n * n * n);
}

Interval mean_interval(std::span<const double> xs) {
  std::vector<double> v;
  for (double x : xs)
    if (std::isfinite(x)) v.push_back(x);
  const MeanHalf m = mean_half(v);
  Interval iv;
  iv.estimate = m.mean;
  if (std::isfinite(m.half)) {
    iv.low = m.mean - m.half;
    iv.high = m.mean + m.half;
  }
  return iv;
}

Interval paired_ratio_interval(std::span<const double> a, std::span<const double> b) {
  std::vector<double> logs;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (std::isfinite(a[i]) && std::isfinite(b[i]) && a[i] > 0 && b[i] > 0) logs.push_back(std::log(a[i] / b[i]));
  const MeanHalf m = mean_half(logs);
  Interval iv;
  if (m.n == 0) return iv;
  iv.estimate = std::exp(m.mean);
  if (std::isfinite(m.half)) {
    iv.low = std::exp(m.mean - m.half);
    iv.high = std::exp(m.mean + m.half);
  }
  return iv;
}

}  // namespace tct::stats
