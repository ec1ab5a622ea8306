#include "startup/interval.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tct::startup {
namespace {

// P(Binomial(n, 1/2) <= k).
double binomial_half_cdf(int n, int k) {
  double total = 0, term = std::pow(0.5, n);  // C(n, 0) / 2^n
  for (int i = 0; i <= k; ++i) {
    total += term;
    term = term * (n - i) / (i + 1);
  }
  return total;
}

}  // namespace

MedianInterval median_interval(std::span<const double> xs, double level) {
  std::vector<double> v;
  for (double x : xs)
    if (std::isfinite(x)) v.push_back(x);
  MedianInterval out;
  if (v.empty()) return out;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  out.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  if (n < 2) return out;
  // k = 1 is [min, max]; the largest k still at `level` gives the narrowest interval.
  int k = 1;
  while (k + 1 <= static_cast<int>(n) / 2 && 1 - 2 * binomial_half_cdf(static_cast<int>(n), k) >= level) ++k;
  out.low = v[static_cast<size_t>(k - 1)];
  out.high = v[n - static_cast<size_t>(k)];
  out.coverage = 1 - 2 * binomial_half_cdf(static_cast<int>(n), k - 1);
  return out;
}

}  // namespace tct::startup
