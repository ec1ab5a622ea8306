// Sampling decisions for `bench`: how many calls to time per sample, and when the speedup
// interval is good enough to stop. Pure logic, no clock and no I/O: the runner measures,
// passes block pairs in, and acts on the returned decision.
//
// Schedule (run by bench/phases.cpp): the sampling budget is split over `processes`
// fresh processes and `looks` rounds; in each round every process runs block pairs for
// budget / (processes * looks) seconds, then the sampler looks at the combined interval.
//
// Why a few planned looks at a corrected level: an interval checked after every block and
// reported the first time it is narrow enough covers less often than it says (each look
// is another chance to stop on a lucky streak). With K planned looks, each interval is
// computed at level 1 - alpha/K (Bonferroni): the chance that ANY of the K intervals
// misses is at most K * alpha/K = alpha, so the interval reported at whichever look
// stops keeps its 1 - alpha promise. K is small (3 by default) so the correction costs
// little width (97.5%... 98.3% intervals instead of 95%).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "stats/paired.hpp"

namespace tct::bench {

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
int calls_per_sample(double estimated_call_ns, double clock_resolution_ns, double target_sample_ns);

// Untimed calls before each timed block whose samples are shorter than this: the first
// calls after the agent waited for its next request run slower (measured on a 2-core CPU:
// 38 us, then 21, 19, back to a steady 17 us after ~10 calls), which a block of tens of
// calls would carry into its mean, the faster side's more. 1 ms is several times that.
inline constexpr double kBlockWarmupNs = 1e6;

// The warm-up a block of samples of `sample_ns` gets: kBlockWarmupNs, or none when one
// sample already lasts as long (the ~20 us start-up is then under 2% of one sample of several).
double block_warmup_ns(double sample_ns);

// --precision's default, the one every config starts from: stop sampling when the speedup's
// interval is within +-5% of it.
inline constexpr double kDefaultPrecision = 0.05;

struct SamplerConfig {
  double precision = kDefaultPrecision;  // stop when the interval's half-width <= this * speedup
  int processes = 2;                     // fresh processes the budget is split over
  int looks = 3;                         // planned looks at the interval (rounds)
  double confidence = 0.95;              // what the reported interval promises
  std::size_t resamples = 2000;
  std::uint64_t seed = stats::kDefaultBootstrapSeed;
};

// The level each look's interval is computed at: 1 - (1 - confidence) / looks.
double look_confidence(double confidence, int looks);

enum class Action {
  Continue,      // run another round
  Stop_Precise,  // the interval is as narrow as asked
  Stop_Budget,   // the last planned look: the budget is spent
};

struct Decision {
  Action action = Action::Continue;
  stats::PairedInterval interval{};  // at look_confidence()
  double relative_half_width = 0;    // of interval.speedup; NaN while undefined
  int look = 0;                      // 1-based
};

class PairedSampler {
 public:
  // Throws std::invalid_argument for precision <= 0, processes < 1, looks < 1,
  // confidence outside (0, 1) or resamples == 0.
  explicit PairedSampler(const SamplerConfig& config);

  // One block pair measured in `process` (0-based, < processes): the per-call samples of
  // its eager block and of its compiled block. Throws std::invalid_argument for an empty
  // block or a process out of range, std::logic_error once the sampler is done.
  void add_pair(int process, std::span<const double> eager_ns, std::span<const double> compiled_ns);

  // The decision at the end of a round: Stop_Precise when the interval (at
  // look_confidence) is within precision, else Stop_Budget at the last look, else Continue.
  Decision look();

  bool done() const { return done_; }
  int pairs() const;
  // Each process's ratios cut at the looks: the segments the interval is built from.
  std::vector<stats::ProcessSegments> segments() const;
  const std::vector<double>& eager_samples() const { return eager_; }
  const std::vector<double>& compiled_samples() const { return compiled_; }
  const SamplerConfig& config() const { return config_; }

 private:
  SamplerConfig config_;
  std::vector<std::vector<double>> ratios_;     // per process, in measurement order
  std::vector<std::vector<std::size_t>> cuts_;  // per process, ratios_ size at each look
  std::vector<double> eager_, compiled_;        // every sample, for the latency summaries
  int looks_ = 0;
  bool done_ = false;
};

}  // namespace tct::bench
