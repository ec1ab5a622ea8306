// Unit tests for src/stats: summary, outliers, bootstrap, steady state, break-even.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "stats/bootstrap.hpp"
#include "stats/break_even.hpp"
#include "stats/outliers.hpp"
#include "stats/paired.hpp"
#include "stats/steady_state.hpp"
#include "stats/summary.hpp"

namespace {

using namespace tct::stats;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Lognormal samples with median `median`, log-sd `sigma`. Box-Muller on mt19937_64 so the
// data do not depend on the standard library's normal_distribution.
std::vector<double> lognormal(std::size_t n, double median, double sigma, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto unit = [&] { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; };
  std::vector<double> out(n);
  for (auto& x : out) {
    const double r = std::sqrt(-2.0 * std::log(unit()));
    const double z = r * std::cos(2.0 * std::numbers::pi * unit());
    x = median * std::exp(sigma * z);
  }
  return out;
}

std::vector<double> one_to_ten() { return {7, 3, 10, 1, 5, 2, 9, 4, 8, 6}; }

// ---------------------------------------------------------------- summary

TEST(StatsSummary, MedianOddAndEven) {
  const std::vector<double> odd{3, 1, 2};
  const std::vector<double> even{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(odd), 2.0);
  EXPECT_DOUBLE_EQ(median(even), 2.5);
}

TEST(StatsSummary, QuantileType7) {
  const auto xs = one_to_ten();  // unsorted on purpose
  EXPECT_DOUBLE_EQ(quantile(xs, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile(xs, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(quantile(xs, 0.25), 3.25);  // h = 9 * 0.25 = 2.25
  EXPECT_DOUBLE_EQ(quantile(xs, 0.95), 9.55);  // h = 8.55
  EXPECT_DOUBLE_EQ(quantile(xs, 0.05), 1.45);  // h = 0.45
  EXPECT_DOUBLE_EQ(quantile(xs, 0.5), 5.5);
}

TEST(StatsSummary, QuantileOutOfRangeIsNaN) {
  const auto xs = one_to_ten();
  EXPECT_TRUE(std::isnan(quantile(xs, -0.01)));
  EXPECT_TRUE(std::isnan(quantile(xs, 1.01)));
  EXPECT_TRUE(std::isnan(quantile(xs, kNaN)));
}

TEST(StatsSummary, QuantileSortedMatchesQuantile) {
  const std::vector<double> sorted{1, 2, 4, 8};
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.5), 3.0);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 1.0 / 3.0), 2.0);
  EXPECT_TRUE(std::isnan(quantile_sorted(std::span<const double>{}, 0.5)));
}

TEST(StatsSummary, MeanMadRobustSd) {
  const std::vector<double> xs{1, 2, 3, 4, 100};
  EXPECT_DOUBLE_EQ(mean(xs), 22.0);
  // median 3; |x - 3| = {2, 1, 0, 1, 97} -> median 1.
  EXPECT_DOUBLE_EQ(mad(xs), 1.0);
  EXPECT_DOUBLE_EQ(robust_sd(xs), 1.4826);
}

TEST(StatsSummary, EmptyInputIsNaN) {
  const std::vector<double> none;
  EXPECT_TRUE(std::isnan(median(none)));
  EXPECT_TRUE(std::isnan(quantile(none, 0.3)));
  EXPECT_TRUE(std::isnan(mean(none)));
  EXPECT_TRUE(std::isnan(mad(none)));
  EXPECT_TRUE(std::isnan(robust_sd(none)));
  const Summary s = summarize(none);
  EXPECT_EQ(s.n, 0u);
  EXPECT_EQ(s.non_finite, 0u);
  for (double v : {s.min, s.max, s.mean, s.median, s.p05, s.p25, s.p75, s.p95, s.mad, s.robust_cv})
    EXPECT_TRUE(std::isnan(v));
}

TEST(StatsSummary, SingleValue) {
  const std::vector<double> one{7.0};
  const Summary s = summarize(one);
  EXPECT_EQ(s.n, 1u);
  for (double v : {s.min, s.max, s.mean, s.median, s.p05, s.p25, s.p75, s.p95}) EXPECT_DOUBLE_EQ(v, 7.0);
  EXPECT_DOUBLE_EQ(s.mad, 0.0);
  EXPECT_DOUBLE_EQ(s.robust_cv, 0.0);
}

TEST(StatsSummary, AllEqual) {
  const std::vector<double> xs{5, 5, 5, 5};
  const Summary s = summarize(xs);
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.p05, 5.0);
  EXPECT_DOUBLE_EQ(s.p95, 5.0);
  EXPECT_DOUBLE_EQ(s.mad, 0.0);
  EXPECT_DOUBLE_EQ(s.robust_cv, 0.0);
}

TEST(StatsSummary, CvAtZeroLevel) {
  const std::vector<double> zeros{0, 0, 0};
  EXPECT_DOUBLE_EQ(summarize(zeros).robust_cv, 0.0);  // no spread at all
  const std::vector<double> spread{-1, 0, 1};         // median 0, MAD 1
  EXPECT_TRUE(std::isnan(summarize(spread).robust_cv));
}

TEST(StatsSummary, NonFiniteIgnoredAndCounted) {
  const std::vector<double> xs{1, kNaN, 3, kInf, 2, -kInf};
  EXPECT_DOUBLE_EQ(median(xs), 2.0);
  EXPECT_DOUBLE_EQ(mean(xs), 2.0);
  EXPECT_DOUBLE_EQ(mad(xs), 1.0);
  const Summary s = summarize(xs);
  EXPECT_EQ(s.n, 3u);
  EXPECT_EQ(s.non_finite, 3u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 3.0);

  const std::vector<double> only_nan{kNaN, kNaN};
  const Summary t = summarize(only_nan);
  EXPECT_EQ(t.n, 0u);
  EXPECT_EQ(t.non_finite, 2u);
  EXPECT_TRUE(std::isnan(t.median));
}

TEST(StatsSummary, SummarizeOneToTen) {
  const Summary s = summarize(one_to_ten());
  EXPECT_EQ(s.n, 10u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_DOUBLE_EQ(s.p05, 1.45);
  EXPECT_DOUBLE_EQ(s.p25, 3.25);
  EXPECT_DOUBLE_EQ(s.p75, 7.75);
  EXPECT_DOUBLE_EQ(s.p95, 9.55);
  EXPECT_DOUBLE_EQ(s.mad, 2.5);  // |x - 5.5| = 0.5, 0.5, 1.5, 1.5, ..., 4.5 -> 2.5
  EXPECT_NEAR(s.robust_cv, 1.4826 * 2.5 / 5.5, 1e-12);
}

TEST(StatsSummary, FiniteSortedDropsAndSorts) {
  const std::vector<double> xs{3, kNaN, 1, 2};
  EXPECT_EQ(finite_sorted(xs), (std::vector<double>{1, 2, 3}));
}

// ---------------------------------------------------------------- outliers

TEST(StatsOutliers, ModifiedZScoreHighAndLow) {
  // median 10, MAD 1 -> limit 3.5 / 0.6745 = 5.19 from the median.
  const std::vector<double> xs{10, 11, 9, 10, 10, 12, 8, 100, 1};
  const Outliers o = detect_outliers(xs);
  EXPECT_FALSE(o.used_relative_fallback);
  EXPECT_EQ(o.high, (std::vector<std::size_t>{7}));
  EXPECT_EQ(o.low, (std::vector<std::size_t>{8}));
  EXPECT_EQ(o.count, 2u);
  EXPECT_DOUBLE_EQ(o.fraction, 2.0 / 9.0);
}

TEST(StatsOutliers, ThresholdBoundary) {
  // median 10, MAD 1: 15.1 is within 5.19, 15.2 is beyond.
  const std::vector<double> xs{9, 10, 11, 10, 10, 9, 11, 15.1, 15.2};
  const Outliers o = detect_outliers(xs);
  EXPECT_EQ(o.high, (std::vector<std::size_t>{8}));
  EXPECT_TRUE(o.low.empty());
  // A stricter cut-off flags both.
  OutlierParams strict;
  strict.z_threshold = 3.0;  // limit 4.45
  EXPECT_EQ(detect_outliers(xs, strict).high, (std::vector<std::size_t>{7, 8}));
}

TEST(StatsOutliers, ZeroMadUsesRelativeRule) {
  // More than half identical (a coarse clock): MAD 0, limit = 10% of the median = 10.
  const std::vector<double> xs{100, 100, 100, 100, 105, 115, kNaN, 85};
  const Outliers o = detect_outliers(xs);
  EXPECT_TRUE(o.used_relative_fallback);
  EXPECT_EQ(o.high, (std::vector<std::size_t>{5}));
  EXPECT_EQ(o.low, (std::vector<std::size_t>{7}));
  EXPECT_DOUBLE_EQ(o.fraction, 2.0 / 7.0);  // NaN not in the denominator
}

TEST(StatsOutliers, DegenerateInputs) {
  const std::vector<double> none;
  const Outliers e = detect_outliers(none);
  EXPECT_EQ(e.count, 0u);
  EXPECT_DOUBLE_EQ(e.fraction, 0.0);

  const std::vector<double> nans{kNaN, kNaN};
  EXPECT_EQ(detect_outliers(nans).count, 0u);

  const std::vector<double> one{42};
  EXPECT_EQ(detect_outliers(one).count, 0u);

  const std::vector<double> same{3, 3, 3};
  const Outliers s = detect_outliers(same);
  EXPECT_EQ(s.count, 0u);
  EXPECT_TRUE(s.used_relative_fallback);
}

// ---------------------------------------------------------------- bootstrap

TEST(StatsBootstrap, RelativeHalfWidth) {
  EXPECT_NEAR(relative_half_width({2.0, 1.9, 2.2}), 0.075, 1e-12);
  EXPECT_NEAR(relative_half_width({-2.0, -2.2, -1.8}), 0.1, 1e-12);
  EXPECT_TRUE(std::isnan(relative_half_width({0.0, -1.0, 1.0})));
  EXPECT_TRUE(std::isnan(relative_half_width({1.0, kNaN, kNaN})));
}

// ---------------------------------------------------------------- steady state

// Deterministic small "noise": a few incommensurate sines, amplitude ~ `amp`.
double wiggle(std::size_t i, double amp) {
  const double t = static_cast<double>(i);
  return amp * (0.6 * std::sin(t * 2.3) + 0.4 * std::cos(t * 0.77));
}

TEST(StatsSteadyState, CompileSpikeThenFlat) {
  std::vector<double> xs(40);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 1e5 + wiggle(i, 500);
  xs[0] = 5e8;  // the call that compiled
  const SteadyState s = detect_steady_state(xs);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.reason, SteadyStateReason::Found);
  EXPECT_EQ(s.start_index, 1u);
  EXPECT_NEAR(s.level, 1e5, 1e3);
  EXPECT_DOUBLE_EQ(s.level, median(std::span<const double>(xs).subspan(1)));
}

TEST(StatsSteadyState, CudaGraphTwoSlowCalls) {
  std::vector<double> xs(30);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 2e5 + wiggle(i, 2e3);
  xs[0] = 2e9;  // compile
  xs[1] = 3e7;  // graph capture
  const SteadyState s = detect_steady_state(xs);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.start_index, 2u);
  EXPECT_NEAR(s.level, 2e5, 2e3);
}

TEST(StatsSteadyState, SlowDecay) {
  // 100 + 400 exp(-i/5): the tail's level is ~100 and its spread tiny, so the band is the
  // 5% floor (~ +-5); x_i <= ~105.0 first at i = 22 (400 e^-4.4 = 4.9).
  std::vector<double> xs(60);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 100.0 + 400.0 * std::exp(-static_cast<double>(i) / 5.0);
  const SteadyState s = detect_steady_state(xs);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.start_index, 22u);
  EXPECT_NEAR(s.level, 100.0, 1.0);
}

TEST(StatsSteadyState, PureNoiseStartsAtZero) {
  std::vector<double> xs(50);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 1000 + wiggle(i, 50);
  const SteadyState s = detect_steady_state(xs);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.start_index, 0u);
  EXPECT_NEAR(s.level, 1000, 20);

  // Lognormal noise with 20% spread: no warm-up, no trend.
  const auto ln = lognormal(80, 1e6, 0.2, 77);
  const SteadyState t = detect_steady_state(ln);
  ASSERT_TRUE(t.found);
  EXPECT_EQ(t.start_index, 0u);
}

TEST(StatsSteadyState, QuantisedFlatAfterWarmup) {
  // MAD 0 in the tail: the band is the relative floor alone.
  std::vector<double> xs(20, 100.0);
  xs[0] = 500.0;
  xs[1] = 200.0;
  const SteadyState s = detect_steady_state(xs);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.start_index, 2u);
  EXPECT_DOUBLE_EQ(s.level, 100.0);
}

TEST(StatsSteadyState, TooFewPoints) {
  const std::vector<double> xs{9e8, 100, 101, 99, 100, 100};
  const SteadyState s = detect_steady_state(xs);
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.reason, SteadyStateReason::TooFewPoints);
  EXPECT_TRUE(std::isnan(s.level));
  EXPECT_FALSE(detect_steady_state(std::span<const double>{}).found);

  SteadyStateParams p;
  p.min_points = 6;
  EXPECT_TRUE(detect_steady_state(xs, p).found);
}

TEST(StatsSteadyState, NeverSettlesWhileTrending) {
  std::vector<double> xs(50);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 1000.0 - 10.0 * static_cast<double>(i);
  const SteadyState s = detect_steady_state(xs);
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.reason, SteadyStateReason::Trending);

  // Same with noise, and a decay that is still going at the end.
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] += wiggle(i, 20);
  EXPECT_EQ(detect_steady_state(xs).reason, SteadyStateReason::Trending);
  std::vector<double> slow(40);
  for (std::size_t i = 0; i < slow.size(); ++i) slow[i] = 100.0 + 400.0 * std::exp(-static_cast<double>(i) / 30.0);
  EXPECT_EQ(detect_steady_state(slow).reason, SteadyStateReason::Trending);
}

TEST(StatsSteadyState, LongLateExcursionMovesStart) {
  // A run of 6 (>= w = 5) slow calls at 20..25: a second warm-up (e.g. a recompile).
  std::vector<double> xs(60);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 100 + wiggle(i, 1);
  for (std::size_t i = 20; i < 26; ++i) xs[i] = 300;
  const SteadyState s = detect_steady_state(xs);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.start_index, 26u);

  // A short one (3 calls) is noise and does not move the start.
  for (std::size_t i = 20; i < 23; ++i) xs[i] = 100 + wiggle(i, 1);
  EXPECT_EQ(detect_steady_state(xs).start_index, 0u);
}

TEST(StatsSteadyState, NonFiniteRejected) {
  std::vector<double> xs(20, 100.0);
  xs[5] = kNaN;
  const SteadyState s = detect_steady_state(xs);
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.reason, SteadyStateReason::NonFinite);
}

TEST(StatsSteadyState, LongWarmupPlateau) {
  // 12 slow calls then 12 fast ones: the plateau is one long run above the band.
  std::vector<double> xs(12, 1000.0);
  xs.resize(24, 100.0);
  SteadyStateParams p;
  p.window = 3;
  const SteadyState s = detect_steady_state(xs, p);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.start_index, 12u);
  EXPECT_DOUBLE_EQ(s.level, 100.0);
}

TEST(StatsSteadyState, NeverInBandWhenEndingInSlowRun) {
  // 35 calls at 100, then 5 (= w) at 1e6. The last half (20 points, 15 at 100) has median
  // 100, MAD 0 and a Theil-Sen slope of 0, so it is not "trending"; but the slow run at the
  // end leaves no window after it: the series did not end steady.
  std::vector<double> xs(35, 100.0);
  xs.resize(40, 1e6);
  const SteadyState s = detect_steady_state(xs);
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.reason, SteadyStateReason::NeverInBand);
}

// ---------------------------------------------------------------- break-even

TEST(StatsBreakEven, Basic) {
  // 1 s of compile, 2 ms -> 1 ms per call: pays off after 1000 calls.
  const auto n = break_even_calls(1e9, 2e6, 1e6);
  ASSERT_TRUE(n.has_value());
  EXPECT_DOUBLE_EQ(*n, 1000.0);
  EXPECT_DOUBLE_EQ(*break_even_calls(300, 10, 7), 100.0);
  EXPECT_DOUBLE_EQ(*break_even_calls(10, 4, 1), 10.0 / 3.0);  // fractional, caller rounds
}

TEST(StatsBreakEven, NeverPaysOff) {
  EXPECT_FALSE(break_even_calls(1e9, 1e6, 1e6).has_value());  // equal
  EXPECT_FALSE(break_even_calls(1e9, 1e6, 2e6).has_value());  // compiled slower
}

TEST(StatsBreakEven, NoExtraCost) {
  EXPECT_DOUBLE_EQ(*break_even_calls(0, 2, 1), 0.0);
  EXPECT_DOUBLE_EQ(*break_even_calls(-5, 2, 1), 0.0);
}

TEST(StatsBreakEven, InvalidInputs) {
  EXPECT_FALSE(break_even_calls(kNaN, 2, 1).has_value());
  EXPECT_FALSE(break_even_calls(1, kInf, 1).has_value());
  EXPECT_FALSE(break_even_calls(1, 2, kNaN).has_value());
  EXPECT_FALSE(break_even_calls(1, 2, -1).has_value());
  EXPECT_FALSE(break_even_calls(1, -1, -2).has_value());
}

}  // namespace

// ---------------------------------------------------------------- paired (hierarchical)

namespace {

TEST(StatsPaired, BlockLengthGrowsAsCubeRoot) {
  EXPECT_EQ(tct::stats::block_length(1), 1u);
  EXPECT_EQ(tct::stats::block_length(8), 2u);
  EXPECT_EQ(tct::stats::block_length(27), 3u);
}

TEST(StatsPaired, BlockBootstrapSeesCorrelation) {
  // A slow wave (neighbours move together) has a larger variance of the mean than the
  // same values shuffled; the block bootstrap must see more of it.
  std::vector<double> wave, shuffled;
  for (int i = 0; i < 64; ++i) wave.push_back(std::sin(i / 4.0));
  shuffled = wave;
  std::mt19937_64 rng(1);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  EXPECT_GT(tct::stats::block_bootstrap_variance_of_mean(wave, 2000, 3),
            1.5 * tct::stats::block_bootstrap_variance_of_mean(shuffled, 2000, 3));
  EXPECT_EQ(tct::stats::block_bootstrap_variance_of_mean({1.0}, 100, 3), 0.0);
}

TEST(StatsPaired, ProcessesWeighEquallyAndSegmentsDisagreeingWiden) {
  using tct::stats::paired_speedup;
  std::vector<double> a(20, std::log(2.0)), b(4, std::log(2.2));
  auto r = paired_speedup({{a}, {b}}, 0.95, 1000, 5);
  EXPECT_NEAR(r.speedup.estimate, std::exp((std::log(2.0) + std::log(2.2)) / 2), 1e-9);
  EXPECT_EQ(r.processes, 2);
  EXPECT_EQ(r.segments, 2);
  EXPECT_EQ(r.blocks, 24);
  EXPECT_GT(r.between_sd, tct::stats::kPriorSegmentSd);  // the data add to the prior
  auto agree = paired_speedup({{a}, {std::vector<double>(4, std::log(2.0))}}, 0.95, 1000, 5);
  EXPECT_LT(agree.speedup.high - agree.speedup.low, r.speedup.high - r.speedup.low);
  EXPECT_LE(agree.speedup.low, 2.0);
  EXPECT_GE(agree.speedup.high, 2.0);
  // One process that drifted between its segments: the drift is what a re-run meets.
  std::vector<double> early(10, std::log(2.0)), late(10, std::log(2.3));
  auto drift = paired_speedup({{early, late}, {std::vector<double>(20, std::log(2.15))}}, 0.95, 1000, 5);
  auto steady = paired_speedup({{a}, {std::vector<double>(20, std::log(2.0))}}, 0.95, 1000, 5);
  EXPECT_EQ(drift.segments, 3);
  EXPECT_GT(drift.between_sd, steady.between_sd);
  EXPECT_GT(drift.speedup.high / drift.speedup.low, steady.speedup.high / steady.speedup.low);
}

TEST(StatsPaired, DegenerateInputs) {
  using tct::stats::paired_speedup;
  auto none = paired_speedup({}, 0.95);
  EXPECT_TRUE(std::isnan(none.speedup.estimate));
  auto one = paired_speedup({{{std::log(3.0)}}, {{NAN}}}, 0.95);
  EXPECT_NEAR(one.speedup.estimate, 3.0, 1e-12);
  EXPECT_TRUE(std::isnan(one.speedup.low));
  EXPECT_EQ(one.processes, 1);
}

}  // namespace
