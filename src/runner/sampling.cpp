#include "runner/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tct::runner {

int calls_per_sample(double estimated_call_ns, double clock_resolution_ns,
                     double target_sample_ns) {
    const bool have_res = std::isfinite(clock_resolution_ns) && clock_resolution_ns > 0.0;
    double target = std::isfinite(target_sample_ns) ? target_sample_ns : 0.0;
    if (have_res) target = std::max(target, kClockResolutionMultiple * clock_resolution_ns);
    if (!(target > 0.0) || !std::isfinite(estimated_call_ns)) return 1;

    double call = estimated_call_ns;
    if (call <= 0.0) {
        if (!have_res) return 1;  // nothing to scale by
        call = clock_resolution_ns;
    }
    const double calls = std::ceil(target / call);
    if (calls >= static_cast<double>(kMaxCallsPerSample)) return kMaxCallsPerSample;
    return std::max(1, static_cast<int>(calls));
}

AdaptiveSampler::AdaptiveSampler(const SamplerConfig& config) : config_(config) {
    if (!(config.precision > 0.0)) throw std::invalid_argument("precision must be > 0");
    if (!(config.budget_s > 0.0)) throw std::invalid_argument("budget_s must be > 0");
    if (config.min_blocks < 1) throw std::invalid_argument("min_blocks must be >= 1");
    if (config.max_blocks < config.min_blocks)
        throw std::invalid_argument("max_blocks must be >= min_blocks");
    if (config.samples_per_block < 1)
        throw std::invalid_argument("samples_per_block must be >= 1");
    if (!(config.confidence > 0.0 && config.confidence < 1.0))
        throw std::invalid_argument("confidence must be in (0, 1)");
    if (config.resamples == 0) throw std::invalid_argument("resamples must be > 0");
}

void AdaptiveSampler::add_block(Side side, std::span<const double> samples_ns) {
    if (phase_ == Phase::Done) throw std::logic_error("sampler is done; no more blocks");
    if (side != expected_) throw std::logic_error("blocks must alternate eager, compiled");
    if (samples_ns.empty()) throw std::invalid_argument("empty sample block");
    auto& dst = side == Side::Eager ? eager_ : compiled_;
    dst.insert(dst.end(), samples_ns.begin(), samples_ns.end());
    if (side == Side::Compiled) {
        ++blocks_;
        if (blocks_ >= config_.min_blocks) phase_ = Phase::Converging;
    }
    expected_ = side == Side::Eager ? Side::Compiled : Side::Eager;
}

Decision AdaptiveSampler::next(double elapsed_s) {
    if (phase_ == Phase::Done) return final_;

    Decision d;
    d.blocks = blocks_;
    d.speedup = stats::bootstrap_ratio_of_medians(eager_, compiled_, config_.confidence,
                                                  config_.resamples, config_.seed);
    d.relative_half_width = stats::relative_half_width(d.speedup);

    // Predict the next pair at the average pace so far, so that a slow target stops before
    // overrunning the budget rather than after.
    bool budget_spent = !(elapsed_s < config_.budget_s);
    if (!budget_spent && blocks_ > 0 && elapsed_s > 0.0)
        budget_spent = elapsed_s + elapsed_s / blocks_ > config_.budget_s;

    // NaN <= precision is false: an undefined interval is never "precise".
    if (phase_ == Phase::Converging && d.relative_half_width <= config_.precision)
        d.action = Action::Stop_Precise;
    else if (blocks_ >= config_.max_blocks)
        d.action = Action::Stop_MaxBlocks;
    else if (budget_spent)
        d.action = Action::Stop_Budget;
    else
        d.action = Action::Continue;

    if (d.action != Action::Continue) {
        phase_ = Phase::Done;
        final_ = d;
    }
    return d;
}

}  // namespace tct::runner
