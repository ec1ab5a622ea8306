#include "stats/steady_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stats/summary.hpp"

namespace tct::stats {
namespace {

// Theil-Sen slope (Sen 1968): the median of pairwise slopes, robust to the odd slow call
// where least squares would be dragged by it. O(m^2) pairs, so long series are thinned to
// at most kMaxTrendPoints evenly spaced points first; the slope is per original index.
constexpr std::size_t kMaxTrendPoints = 400;

struct Trend {
  double drift;     // |slope| * (length - 1): total change across the segment
  double resid_sd;  // robust SD of the residuals after removing the slope
};

Trend trend_of(std::span<const double> seg) {
  const std::size_t stride = (seg.size() + kMaxTrendPoints - 1) / kMaxTrendPoints;
  std::vector<double> xs, ys;
  for (std::size_t i = 0; i < seg.size(); i += stride) {
    xs.push_back(static_cast<double>(i));
    ys.push_back(seg[i]);
  }
  std::vector<double> slopes;
  slopes.reserve(xs.size() * (xs.size() - 1) / 2);
  for (std::size_t a = 0; a < xs.size(); ++a)
    for (std::size_t b = a + 1; b < xs.size(); ++b) slopes.push_back((ys[b] - ys[a]) / (xs[b] - xs[a]));
  const double slope = slopes.empty() ? 0.0 : median(slopes);

  std::vector<double> resid(seg.size());
  for (std::size_t i = 0; i < seg.size(); ++i) resid[i] = seg[i] - slope * static_cast<double>(i);
  return {std::fabs(slope) * static_cast<double>(seg.size() - 1), robust_sd(resid)};
}

SteadyState not_found(SteadyStateReason why) { return {false, 0, NAN, why}; }

}  // namespace

SteadyState detect_steady_state(std::span<const double> series, const SteadyStateParams& p) {
  const std::size_t n = series.size();
  if (n < std::max<std::size_t>(p.min_points, 2)) return not_found(SteadyStateReason::TooFewPoints);
  if (!std::all_of(series.begin(), series.end(), [](double x) { return std::isfinite(x); }))
    return not_found(SteadyStateReason::NonFinite);

  // 1. Reference from the last half. Warm-up is at the start, so if anything is steady it
  //    is the end; half is a compromise between robustness (more points) and not letting a
  //    long warm-up leak into the reference (the median tolerates up to half of it).
  const auto tail = series.subspan(n / 2);
  const double level = median(tail);
  const double floor_width = p.rel_floor * std::fabs(level);
  // The relative floor keeps the band from collapsing to nothing when timings are
  // quantised (MAD 0) or extremely quiet; 5% is below any speedup worth reporting.
  const double half_width = std::max(p.k * robust_sd(tail), floor_width);
  const double lo = level - half_width;
  const double hi = level + half_width;

  // 2. A steadily falling (or rising) tail inflates its own robust SD and so widens the
  //    band enough to hide itself; test the trend against the detrended noise instead.
  const Trend tr = trend_of(tail);
  if (tr.drift > std::max(floor_width, p.k * tr.resid_sd)) return not_found(SteadyStateReason::Trending);

  // 3. Window length: 5 calls by default, fewer for short series so the window stays a
  //    small part of them.
  const std::size_t w = std::clamp<std::size_t>(p.window, 1, std::max<std::size_t>(n / 4, 1));

  // Start the search after the last run of >= w consecutive points above the band: such
  // a run is a phase (a recompile, a second warm-up), not noise.
  std::size_t search_from = 0;
  for (std::size_t i = 0, run = 0; i < n; ++i) {
    run = series[i] > hi ? run + 1 : 0;
    if (run >= w) search_from = i + 1;
  }

  std::vector<double> win(w);
  for (std::size_t i = search_from; i + w <= n; ++i) {
    if (series[i] > hi) continue;  // a start that is itself still slow is not a start
    std::copy_n(series.begin() + static_cast<std::ptrdiff_t>(i), w, win.begin());
    const double m = median(win);
    if (m < lo || m > hi) continue;
    return {true, i, median(series.subspan(i)), SteadyStateReason::Found};
  }
  return not_found(SteadyStateReason::NeverInBand);
}

}  // namespace tct::stats
