// Unit tests for src/runner/sampling: batching rule and the AdaptiveSampler state machine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "runner/sampling.hpp"

namespace {

using namespace tct::runner;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Lognormal block with median `median` and log-sd `sigma` (Box-Muller on mt19937_64).
std::vector<double> block(std::size_t n, double median, double sigma, std::mt19937_64& rng) {
    auto unit = [&] { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; };
    std::vector<double> out(n);
    for (auto& x : out) {
        const double r = std::sqrt(-2.0 * std::log(unit()));
        const double z = r * std::cos(2.0 * std::numbers::pi * unit());
        x = median * std::exp(sigma * z);
    }
    return out;
}

SamplerConfig config(double precision, double budget_s, int min_blocks, int max_blocks,
                     int samples_per_block) {
    SamplerConfig c;
    c.precision = precision;
    c.budget_s = budget_s;
    c.min_blocks = min_blocks;
    c.max_blocks = max_blocks;
    c.samples_per_block = samples_per_block;
    c.resamples = 500;  // keeps the tests quick; the rule does not depend on it
    return c;
}

// ---------------------------------------------------------------- calls_per_sample

TEST(SamplingCallsPerSample, BatchesBelowThousandTicks) {
    // 20 ns clock -> samples of >= 20 us; a 50 ns call needs 400 calls per sample.
    EXPECT_EQ(calls_per_sample(50, 20, 0), 400);
    EXPECT_EQ(calls_per_sample(30, 1, 0), 34);  // ceil(1000 / 30)
    EXPECT_EQ(calls_per_sample(1000, 1, 0), 1);
    EXPECT_EQ(calls_per_sample(1e6, 20, 0), 1);  // already long enough
}

TEST(SamplingCallsPerSample, TargetWinsWhenLarger) {
    EXPECT_EQ(calls_per_sample(100, 1, 1e6), 10000);  // target 1 ms > 1000 ticks
    EXPECT_EQ(calls_per_sample(100, 10, 5e3), 100);   // 1000 ticks = 10 us > 5 us target
}

TEST(SamplingCallsPerSample, Degenerate) {
    EXPECT_EQ(calls_per_sample(0, 20, 0), 1000);  // below one tick: taken as one tick
    EXPECT_EQ(calls_per_sample(-5, 20, 0), 1000);
    EXPECT_EQ(calls_per_sample(kNaN, 20, 0), 1);
    EXPECT_EQ(calls_per_sample(10, 0, 0), 1);       // no resolution, no target
    EXPECT_EQ(calls_per_sample(10, kNaN, 1000), 100);  // bad resolution ignored
    EXPECT_EQ(calls_per_sample(0, 0, 1000), 1);     // nothing to scale the estimate by
    EXPECT_EQ(calls_per_sample(1e-9, 1, 0), kMaxCallsPerSample);
    EXPECT_EQ(calls_per_sample(10, 1, std::numeric_limits<double>::infinity()), 100);  // ignored
}

// ---------------------------------------------------------------- AdaptiveSampler

TEST(SamplingAdaptiveSampler, RejectsBadConfig) {
    EXPECT_THROW(AdaptiveSampler(config(0, 10, 5, 200, 10)), std::invalid_argument);
    EXPECT_THROW(AdaptiveSampler(config(0.02, 0, 5, 200, 10)), std::invalid_argument);
    EXPECT_THROW(AdaptiveSampler(config(0.02, 10, 0, 200, 10)), std::invalid_argument);
    EXPECT_THROW(AdaptiveSampler(config(0.02, 10, 5, 4, 10)), std::invalid_argument);
    EXPECT_THROW(AdaptiveSampler(config(0.02, 10, 5, 200, 0)), std::invalid_argument);
    auto c = config(0.02, 10, 5, 200, 10);
    c.confidence = 1.0;
    EXPECT_THROW(AdaptiveSampler{c}, std::invalid_argument);
    c.confidence = 0.95;
    c.resamples = 0;
    EXPECT_THROW(AdaptiveSampler{c}, std::invalid_argument);
    EXPECT_NO_THROW(AdaptiveSampler(config(0.02, 10, 5, 5, 1)));
}

TEST(SamplingAdaptiveSampler, EnforcesInterleaving) {
    AdaptiveSampler s(config(0.02, 10, 5, 200, 3));
    const std::vector<double> b{1, 2, 3};
    EXPECT_EQ(s.expected_side(), Side::Eager);
    EXPECT_THROW(s.add_compiled_block(b), std::logic_error);
    s.add_eager_block(b);
    EXPECT_EQ(s.expected_side(), Side::Compiled);
    EXPECT_THROW(s.add_eager_block(b), std::logic_error);
    EXPECT_THROW(s.add_compiled_block(std::span<const double>{}), std::invalid_argument);
    EXPECT_EQ(s.blocks(), 0);
    s.add_compiled_block(b);
    EXPECT_EQ(s.blocks(), 1);
    EXPECT_EQ(s.expected_side(), Side::Eager);
    EXPECT_EQ(s.eager_samples().size(), 3u);
    EXPECT_EQ(s.compiled_samples().size(), 3u);
}

TEST(SamplingAdaptiveSampler, StopsWhenPrecise) {
    // Quiet data with speedup 2: precise as soon as min_blocks pairs are in, not before.
    AdaptiveSampler s(config(0.02, 60, 5, 200, 20));
    std::mt19937_64 rng(42);
    Decision d;
    for (int i = 1; i <= 5; ++i) {
        EXPECT_EQ(s.phase(), Phase::Collecting);
        s.add_eager_block(block(20, 2e6, 0.02, rng));
        s.add_compiled_block(block(20, 1e6, 0.02, rng));
        d = s.next(0.1 * i);
        if (i < 5) {
            EXPECT_EQ(d.action, Action::Continue) << "pair " << i;
            EXPECT_EQ(s.phase(), Phase::Collecting);
        }
    }
    EXPECT_EQ(d.action, Action::Stop_Precise);
    EXPECT_EQ(d.blocks, 5);
    EXPECT_EQ(s.phase(), Phase::Done);
    EXPECT_LE(d.relative_half_width, 0.02);
    EXPECT_LT(d.speedup.low, 2.0);
    EXPECT_GT(d.speedup.high, 2.0);
    EXPECT_NEAR(d.speedup.estimate, 2.0, 0.02);
    EXPECT_EQ(s.eager_samples().size(), 100u);
    EXPECT_EQ(s.compiled_samples().size(), 100u);
}

TEST(SamplingAdaptiveSampler, NoisyDataConvergesLater) {
    // 15% spread and a 2% target: the CI half-width is about 1.96 * sqrt(2) * 1.25 * 0.15 /
    // sqrt(n), so n ~ 700 samples per side (~70 blocks): more than min_blocks, < max_blocks.
    AdaptiveSampler s(config(0.02, 1e9, 5, 200, 10));
    std::mt19937_64 rng(7);
    Decision d;
    do {
        s.add_eager_block(block(10, 1.3e5, 0.15, rng));
        s.add_compiled_block(block(10, 1.0e5, 0.15, rng));
        d = s.next(0.01 * s.blocks());
    } while (d.action == Action::Continue);
    EXPECT_EQ(d.action, Action::Stop_Precise);
    EXPECT_GT(d.blocks, 30);
    EXPECT_LT(d.blocks, 150);
    EXPECT_LT(d.speedup.low, 1.3);
    EXPECT_GT(d.speedup.high, 1.3);
}

TEST(SamplingAdaptiveSampler, StopsOnBudgetBeforeOverrun) {
    // 0.3 s per pair, 1 s budget: after 3 pairs (0.9 s) a 4th would end at 1.2 s.
    AdaptiveSampler s(config(0.001, 1.0, 5, 200, 10));
    std::mt19937_64 rng(1);
    Decision d;
    for (int i = 1; i <= 3; ++i) {
        s.add_eager_block(block(10, 2e6, 1.0, rng));
        s.add_compiled_block(block(10, 1e6, 1.0, rng));
        d = s.next(0.3 * i);
        if (i < 3) {
            EXPECT_EQ(d.action, Action::Continue);
        }
    }
    EXPECT_EQ(d.action, Action::Stop_Budget);
    EXPECT_EQ(d.blocks, 3);
    EXPECT_FALSE(std::isnan(d.speedup.estimate));
}

TEST(SamplingAdaptiveSampler, BudgetSpentOrNaNElapsed) {
    const std::vector<double> b{1, 2, 3};
    AdaptiveSampler s(config(0.02, 1.0, 5, 200, 3));
    s.add_eager_block(b);
    s.add_compiled_block(b);
    EXPECT_EQ(s.next(1.0).action, Action::Stop_Budget);

    AdaptiveSampler t(config(0.02, 1.0, 5, 200, 3));
    EXPECT_EQ(t.next(kNaN).action, Action::Stop_Budget);  // before any block, too
}

TEST(SamplingAdaptiveSampler, StopsAtMaxBlocks) {
    AdaptiveSampler s(config(1e-9, 1e9, 2, 4, 10));
    std::mt19937_64 rng(3);
    Decision d;
    int calls = 0;
    do {
        s.add_eager_block(block(10, 2e6, 0.5, rng));
        s.add_compiled_block(block(10, 1e6, 0.5, rng));
        d = s.next(0.001);
        ++calls;
    } while (d.action == Action::Continue);
    EXPECT_EQ(d.action, Action::Stop_MaxBlocks);
    EXPECT_EQ(d.blocks, 4);
    EXPECT_EQ(calls, 4);
}

TEST(SamplingAdaptiveSampler, PrecisionWinsOverMaxBlocksAndBudget) {
    // Identical constant samples: the interval is exact, so precision is reached on the same
    // decision that also hits max_blocks and the budget; Stop_Precise is reported.
    const std::vector<double> e{2, 2, 2};
    const std::vector<double> c{1, 1, 1};
    AdaptiveSampler s(config(0.02, 1.0, 1, 1, 3));
    s.add_eager_block(e);
    s.add_compiled_block(c);
    const Decision d = s.next(5.0);
    EXPECT_EQ(d.action, Action::Stop_Precise);
    EXPECT_DOUBLE_EQ(d.speedup.estimate, 2.0);
    EXPECT_DOUBLE_EQ(d.relative_half_width, 0.0);
}

TEST(SamplingAdaptiveSampler, UndefinedIntervalIsNeverPrecise) {
    // One sample per side: bootstrap bounds are NaN, so keep going.
    AdaptiveSampler s(config(0.5, 100, 1, 10, 1));
    const std::vector<double> e{2};
    const std::vector<double> c{1};
    s.add_eager_block(e);
    s.add_compiled_block(c);
    const Decision d = s.next(0.1);
    EXPECT_EQ(d.action, Action::Continue);
    EXPECT_EQ(s.phase(), Phase::Converging);
    EXPECT_DOUBLE_EQ(d.speedup.estimate, 2.0);
    EXPECT_TRUE(std::isnan(d.speedup.low));
    EXPECT_TRUE(std::isnan(d.relative_half_width));
}

TEST(SamplingAdaptiveSampler, DoneIsFinal) {
    const std::vector<double> b{1, 2, 3};
    AdaptiveSampler s(config(0.02, 1.0, 5, 200, 3));
    s.add_eager_block(b);
    s.add_compiled_block(b);
    const Decision first = s.next(2.0);
    ASSERT_EQ(first.action, Action::Stop_Budget);
    EXPECT_THROW(s.add_eager_block(b), std::logic_error);
    const Decision again = s.next(0.0);  // a later, smaller elapsed changes nothing
    EXPECT_EQ(again.action, Action::Stop_Budget);
    EXPECT_EQ(again.blocks, first.blocks);
}

TEST(SamplingAdaptiveSampler, DeterministicForSameInput) {
    auto run = [] {
        AdaptiveSampler s(config(1e-6, 1e9, 1, 3, 15));
        std::mt19937_64 rng(99);
        Decision d;
        do {
            s.add_eager_block(block(15, 3e5, 0.2, rng));
            s.add_compiled_block(block(15, 2e5, 0.2, rng));
            d = s.next(0.0);
        } while (d.action == Action::Continue);
        return d;
    };
    const Decision a = run();
    const Decision b = run();
    EXPECT_EQ(a.speedup.low, b.speedup.low);
    EXPECT_EQ(a.speedup.high, b.speedup.high);
    EXPECT_EQ(a.blocks, b.blocks);
}

}  // namespace
