#include "stats/paired.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "stats/summary.hpp"

namespace tct::stats {
namespace {

// Unbiased integer in [0, n) (Lemire 2019), independent of the standard library's distributions.
std::size_t below(std::mt19937_64& rng, std::size_t n) {
  unsigned __int128 m = static_cast<unsigned __int128>(rng()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = -static_cast<std::uint64_t>(n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(rng()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::size_t>(m >> 64);
}

double unit(std::mt19937_64& rng) { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; }

double normal(std::mt19937_64& rng) {
  return std::sqrt(-2.0 * std::log(unit(rng))) * std::cos(2.0 * std::numbers::pi * unit(rng));
}

// Student t with integer degrees of freedom: Z / sqrt(chi2_nu / nu).
double student_t(std::mt19937_64& rng, int nu) {
  double chi2 = 0;
  for (int i = 0; i < nu; ++i) {
    const double z = normal(rng);
    chi2 += z * z;
  }
  return normal(rng) / std::sqrt(chi2 / nu);
}

double mean(const std::vector<double>& xs) {
  double s = 0;
  for (double x : xs) s += x;
  return xs.empty() ? NAN : s / static_cast<double>(xs.size());
}

// One circular-block-bootstrap replicate of the mean.
double block_replicate_mean(const std::vector<double>& xs, std::size_t len, std::mt19937_64& rng) {
  const std::size_t n = xs.size();
  double s = 0;
  std::size_t taken = 0;
  while (taken < n) {
    const std::size_t start = below(rng, n);
    for (std::size_t k = 0; k < len && taken < n; ++k, ++taken) s += xs[(start + k) % n];
  }
  return s / static_cast<double>(n);
}

}  // namespace

std::size_t block_length(std::size_t n) {
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(std::cbrt(static_cast<double>(n)))));
}

double block_bootstrap_variance_of_mean(const std::vector<double>& xs, std::size_t resamples, std::uint64_t seed) {
  if (xs.size() < 2 || resamples == 0) return 0;
  std::mt19937_64 rng(seed);
  const std::size_t len = block_length(xs.size());
  double s = 0, s2 = 0;
  for (std::size_t r = 0; r < resamples; ++r) {
    const double m = block_replicate_mean(xs, len, rng);
    s += m;
    s2 += m * m;
  }
  const double n = static_cast<double>(resamples);
  return std::max(0.0, s2 / n - (s / n) * (s / n));
}

PairedInterval paired_speedup(const std::vector<ProcessSegments>& per_process, double confidence, std::size_t resamples,
                              std::uint64_t seed) {
  std::vector<std::vector<double>> procs;     // each process's finite ratios, in order
  std::vector<std::vector<double>> segments;  // every segment's finite ratios
  for (const auto& p : per_process) {
    std::vector<double> all;
    for (const auto& seg : p) {
      std::vector<double> finite;
      for (double x : seg)
        if (std::isfinite(x)) finite.push_back(x);
      if (finite.empty()) continue;
      all.insert(all.end(), finite.begin(), finite.end());
      segments.push_back(std::move(finite));
    }
    if (!all.empty()) procs.push_back(std::move(all));
  }
  PairedInterval out;  // its speedup NaN until estimated
  out.processes = static_cast<int>(procs.size());
  out.segments = static_cast<int>(segments.size());
  for (const auto& p : procs) out.blocks += static_cast<int>(p.size());
  if (procs.empty()) return out;

  const double P = static_cast<double>(procs.size());
  std::vector<double> means, within;
  for (std::size_t i = 0; i < procs.size(); ++i) {
    means.push_back(mean(procs[i]));
    within.push_back(block_bootstrap_variance_of_mean(procs[i], 500, seed + 17 * (i + 1)));
  }
  const double mu = mean(means);
  out.speedup.estimate = std::exp(mu);
  bool enough = std::any_of(procs.begin(), procs.end(), [](const auto& p) { return p.size() >= 2; });
  if (!enough || !(confidence > 0 && confidence < 1) || resamples == 0) return out;

  // Segment-to-segment variance: moments (variance of the segment means minus their mean
  // block-noise variance, the plain var/n: segments are short), pooled with the prior
  // (kPriorDf pseudo-segments at kPriorSegmentSd).
  const double S = static_cast<double>(segments.size());
  double between_moments = 0;
  if (segments.size() >= 2) {
    std::vector<double> seg_means, seg_noise;
    for (const auto& seg : segments) {
      seg_means.push_back(mean(seg));
      double ss = 0;
      for (double x : seg) ss += (x - seg_means.back()) * (x - seg_means.back());
      if (seg.size() >= 2) seg_noise.push_back(ss / static_cast<double>(seg.size() - 1) / seg.size());
    }
    const double m = mean(seg_means);
    double ss = 0;
    for (double x : seg_means) ss += (x - m) * (x - m);
    between_moments = std::max(0.0, ss / (S - 1) - (seg_noise.empty() ? 0.0 : mean(seg_noise)));
  }
  const int nu = kPriorDf + static_cast<int>(segments.size()) - 1;
  const double tau2 = (kPriorDf * kPriorSegmentSd * kPriorSegmentSd + (S - 1) * between_moments) / nu;
  out.between_sd = std::sqrt(tau2);
  double wsum = 0;
  for (double v : within) wsum += v;
  out.within_sd = std::sqrt(wsum) / P;

  std::mt19937_64 rng(seed);
  std::vector<std::size_t> lens;
  for (const auto& p : procs) lens.push_back(block_length(p.size()));
  const double upper_sd = out.between_sd * std::sqrt(kEraShare + 1.0 / S);
  std::vector<double> reps;
  reps.reserve(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    double s = 0;
    for (std::size_t i = 0; i < procs.size(); ++i) s += block_replicate_mean(procs[i], lens[i], rng);
    reps.push_back(s / P + upper_sd * student_t(rng, nu));
  }
  const double alpha = 1 - confidence;
  out.speedup.low = std::exp(quantile(reps, alpha / 2));
  out.speedup.high = std::exp(quantile(reps, 1 - alpha / 2));
  return out;
}

}  // namespace tct::stats
