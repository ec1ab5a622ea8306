#include "stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "stats/summary.hpp"

namespace tct::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Uniform integer in [0, n), n >= 1, without modulo bias: Lemire's multiply-and-reject
// method. Only the fixed mt19937_64 output sequence is used, so results are portable.
std::uint64_t bounded_index(std::mt19937_64& rng, std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(rng()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
        while (low < threshold) {
            m = static_cast<unsigned __int128>(rng()) * n;
            low = static_cast<std::uint64_t>(m);
        }
    }
    return static_cast<std::uint64_t>(m >> 64);
}

// Median of one resample (with replacement) of sorted `data`; `counts` is reused scratch.
// Since `data` is sorted, a resample is fully described by how often each index was drawn,
// and its type-7 median is found by a cumulative scan of those counts: O(n) with no sort or
// selection, which matters because the sampler reruns the bootstrap after every block.
double resampled_median(std::span<const double> data, std::mt19937_64& rng,
                        std::vector<std::uint32_t>& counts) {
    const std::size_t n = data.size();
    counts.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) ++counts[bounded_index(rng, n)];
    // 0-based ranks of the middle value(s) among the n drawn values.
    const std::size_t upper_rank = n / 2;
    const std::size_t lower_rank = (n - 1) / 2;
    std::size_t cum = 0;
    std::size_t j = 0;
    for (; cum + counts[j] <= lower_rank; ++j) cum += counts[j];
    const double lower = data[j];
    for (; cum + counts[j] <= upper_rank; ++j) cum += counts[j];
    const double upper = data[j];
    return lower + 0.5 * (upper - lower);
}

bool valid_settings(double confidence, std::size_t resamples) {
    return confidence > 0.0 && confidence < 1.0 && resamples > 0;
}

// Percentile interval from the replicates (sorted in place).
void percentile_bounds(std::vector<double>& replicates, double confidence, Interval& out) {
    std::sort(replicates.begin(), replicates.end());
    const double alpha = 1.0 - confidence;
    out.low = quantile_sorted(replicates, alpha / 2.0);
    out.high = quantile_sorted(replicates, 1.0 - alpha / 2.0);
}

}  // namespace

double relative_half_width(const Interval& iv) {
    if (std::isnan(iv.estimate) || std::isnan(iv.low) || std::isnan(iv.high) ||
        iv.estimate == 0.0)
        return kNaN;
    return (iv.high - iv.low) / 2.0 / std::fabs(iv.estimate);
}

Interval bootstrap_median_ci(std::span<const double> xs, double confidence,
                             std::size_t resamples, std::uint64_t seed) {
    const auto data = finite_sorted(xs);
    Interval out{quantile_sorted(data, 0.5), kNaN, kNaN};
    if (data.size() < kMinBootstrapSamples || !valid_settings(confidence, resamples)) return out;

    std::mt19937_64 rng(seed);
    std::vector<std::uint32_t> scratch;
    std::vector<double> replicates(resamples);
    for (auto& r : replicates) r = resampled_median(data, rng, scratch);
    percentile_bounds(replicates, confidence, out);
    return out;
}

Interval bootstrap_ratio_of_medians(std::span<const double> numerator_samples,
                                    std::span<const double> denominator_samples,
                                    double confidence, std::size_t resamples,
                                    std::uint64_t seed) {
    const auto num = finite_sorted(numerator_samples);
    const auto den = finite_sorted(denominator_samples);
    const double num_med = quantile_sorted(num, 0.5);
    const double den_med = quantile_sorted(den, 0.5);
    const double ratio = num_med / den_med;
    Interval out{std::isfinite(ratio) ? ratio : kNaN, kNaN, kNaN};
    if (std::isnan(out.estimate) || num.size() < kMinBootstrapSamples ||
        den.size() < kMinBootstrapSamples || !valid_settings(confidence, resamples))
        return out;

    // One generator, numerator then denominator per replicate: the stream order is part of
    // the determinism contract.
    std::mt19937_64 rng(seed);
    std::vector<std::uint32_t> scratch;
    std::vector<double> replicates;
    replicates.reserve(resamples);
    for (std::size_t r = 0; r < resamples; ++r) {
        const double n_med = resampled_median(num, rng, scratch);
        const double d_med = resampled_median(den, rng, scratch);
        const double q = n_med / d_med;
        if (std::isfinite(q)) replicates.push_back(q);
    }
    if (replicates.size() * 2 < resamples) return out;
    percentile_bounds(replicates, confidence, out);
    return out;
}

}  // namespace tct::stats
