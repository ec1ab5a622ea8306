// Adaptive sampling decisions for `bench`: how many calls to time per sample, and when to
// stop asking the agent for more. Pure logic, no clock and no I/O: the runner measures,
// passes samples and elapsed time in, and acts on the returned decision. Modelled on
// martinus/nanobench's IterationLogic (a named state machine, each rule written once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "stats/bootstrap.hpp"

namespace tct::runner {

// nanobench's default (Bench::clockResolutionMultiple = 1000): a measurement should last at
// least 1000 clock ticks so the clock's quantisation contributes at most ~0.1% error.
inline constexpr double kClockResolutionMultiple = 1000.0;
// Upper bound on batching, so a bogus tiny estimate cannot ask for billions of calls.
inline constexpr int kMaxCallsPerSample = 1'000'000;

// Calls to time back to back as one sample (the sample is then total / calls), so that
// each sample lasts at least max(kClockResolutionMultiple * clock_resolution_ns,
// target_sample_ns). Always in [1, kMaxCallsPerSample].
//  - estimated_call_ns <= 0 (faster than the clock could see) is taken as one tick;
//  - a non-finite estimate, or no positive target at all, gives 1 (time calls singly);
//  - a non-positive or non-finite resolution is ignored (only the target applies), and so
//    is a non-finite target (only the resolution rule applies).
int calls_per_sample(double estimated_call_ns, double clock_resolution_ns,
                     double target_sample_ns);

struct SamplerConfig {
    double precision = 0.02;  // stop when the speedup's CI half-width <= this * speedup
    double budget_s = 10.0;   // time the sampling loop may take in all
    int min_blocks = 5;       // never judge precision on fewer block pairs
    int max_blocks = 200;     // hard cap on block pairs
    int samples_per_block = 10;  // samples the runner should request per block (advice)
    double confidence = 0.95;    // of the speedup interval
    std::size_t resamples = 2000;  // bootstrap replicates per decision
    std::uint64_t seed = stats::kDefaultBootstrapSeed;
};

enum class Side { Eager, Compiled };

enum class Action {
    Continue,        // request another eager block, then a compiled block
    Stop_Precise,    // the speedup CI is as narrow as asked
    Stop_Budget,     // the time budget is spent, or the next block would overrun it
    Stop_MaxBlocks,  // max_blocks pairs collected without reaching the precision
};

// States, in order: Collecting (fewer than min_blocks pairs; precision is not judged),
// Converging (judging precision after every pair), Done (a Stop_* was returned; further
// blocks are refused and next() repeats the final decision).
enum class Phase { Collecting, Converging, Done };

struct Decision {
    Action action = Action::Continue;
    stats::Interval speedup{};       // median(eager) / median(compiled), bootstrap CI
    double relative_half_width = 0;  // of `speedup`; NaN while the CI is undefined
    int blocks = 0;                  // completed eager+compiled pairs
};

// Why interleaved blocks (eager, compiled, eager, ...) and not all eager then all compiled:
// slow drifts of the machine (clock boost, thermal state, other load) then hit both sides
// alike instead of masquerading as a speedup.
class AdaptiveSampler {
public:
    // Throws std::invalid_argument when precision <= 0, budget_s <= 0, min_blocks < 1,
    // max_blocks < min_blocks, samples_per_block < 1, confidence outside (0, 1) or
    // resamples == 0.
    explicit AdaptiveSampler(const SamplerConfig& config);

    // The side the next block must come from: Eager first, then alternating.
    Side expected_side() const { return expected_; }

    // Appends a block of per-call samples (ns). Throws std::logic_error when the side is not
    // expected_side() or the sampler is Done, std::invalid_argument when the block is empty.
    // Non-finite samples are kept (the statistics ignore them).
    void add_block(Side side, std::span<const double> samples_ns);
    void add_eager_block(std::span<const double> s) { add_block(Side::Eager, s); }
    void add_compiled_block(std::span<const double> s) { add_block(Side::Compiled, s); }

    // Decision after the blocks so far, given the seconds spent sampling (caller's clock).
    // Runs one bootstrap over all samples: O(resamples * samples) time, ~0.1 s at 2000
    // resamples and 4000 samples per side; lower `resamples` for very long runs.
    // Checked in this order: precision (only from min_blocks pairs on), max_blocks, budget.
    // The budget counts as spent when elapsed_s >= budget_s, elapsed_s is NaN, or one more
    // pair at the average pace so far (elapsed_s / blocks) would exceed it.
    Decision next(double elapsed_s);

    Phase phase() const { return phase_; }
    int blocks() const { return blocks_; }
    const std::vector<double>& eager_samples() const { return eager_; }
    const std::vector<double>& compiled_samples() const { return compiled_; }
    const SamplerConfig& config() const { return config_; }

private:
    SamplerConfig config_;
    std::vector<double> eager_;
    std::vector<double> compiled_;
    Side expected_ = Side::Eager;
    int blocks_ = 0;
    Phase phase_ = Phase::Collecting;
    Decision final_{};
};

}  // namespace tct::runner
