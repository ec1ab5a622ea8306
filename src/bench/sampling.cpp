#include "bench/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "stats/summary.hpp"

namespace tct::bench {

int calls_per_sample(double estimated_call_ns, double clock_resolution_ns, double target_sample_ns) {
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

double block_warmup_ns(double sample_ns) {
  return std::isfinite(sample_ns) && sample_ns >= kBlockWarmupNs ? 0.0 : kBlockWarmupNs;
}

double look_confidence(double confidence, int looks) { return 1.0 - (1.0 - confidence) / std::max(1, looks); }

PairedSampler::PairedSampler(const SamplerConfig& config) : config_(config) {
  if (!(config.precision > 0.0)) throw std::invalid_argument("precision must be > 0");
  if (config.processes < 1) throw std::invalid_argument("processes must be >= 1");
  if (config.looks < 1) throw std::invalid_argument("looks must be >= 1");
  if (!(config.confidence > 0.0 && config.confidence < 1.0))
    throw std::invalid_argument("confidence must be in (0, 1)");
  if (config.resamples == 0) throw std::invalid_argument("resamples must be > 0");
  ratios_.resize(static_cast<std::size_t>(config.processes));
  cuts_.resize(ratios_.size());
}

void PairedSampler::add_pair(int process, std::span<const double> eager_ns, std::span<const double> compiled_ns) {
  if (done_) throw std::logic_error("sampler is done; no more blocks");
  if (process < 0 || process >= config_.processes) throw std::invalid_argument("process out of range");
  if (eager_ns.empty() || compiled_ns.empty()) throw std::invalid_argument("empty sample block");
  eager_.insert(eager_.end(), eager_ns.begin(), eager_ns.end());
  compiled_.insert(compiled_.end(), compiled_ns.begin(), compiled_ns.end());
  // Block means, not medians: a user's loop pays every call. Samples are right-skewed, the
  // more so the shorter they are, so medians understate the faster side's time: on a 2-core
  // machine they read 3-8% above a plain hot loop of the same process (means: within 3.5%,
  // bench/harness_bias.py). A preempted sample moves one block of hundreds.
  const double e = stats::mean(eager_ns), c = stats::mean(compiled_ns);
  ratios_[static_cast<std::size_t>(process)].push_back(e > 0 && c > 0 ? std::log(e) - std::log(c) : NAN);
}

std::vector<stats::ProcessSegments> PairedSampler::segments() const {
  std::vector<stats::ProcessSegments> out(ratios_.size());
  for (std::size_t p = 0; p < ratios_.size(); ++p) {
    std::size_t from = 0;
    auto cuts = cuts_[p];
    if (cuts.empty() || cuts.back() != ratios_[p].size()) cuts.push_back(ratios_[p].size());
    for (std::size_t to : cuts) {
      if (to > from) out[p].emplace_back(ratios_[p].begin() + from, ratios_[p].begin() + to);
      from = to;
    }
  }
  return out;
}

int PairedSampler::pairs() const {
  int n = 0;
  for (const auto& r : ratios_) n += static_cast<int>(r.size());
  return n;
}

Decision PairedSampler::look() {
  Decision d;
  d.look = ++looks_;
  for (std::size_t p = 0; p < ratios_.size(); ++p) cuts_[p].push_back(ratios_[p].size());
  d.interval = stats::paired_speedup(segments(), look_confidence(config_.confidence, config_.looks), config_.resamples,
                                     config_.seed);
  d.relative_half_width = stats::relative_half_width(d.interval.speedup);
  // NaN <= precision is false: an undefined interval is never "precise".
  if (d.relative_half_width <= config_.precision) d.action = Action::Stop_Precise;
  else if (looks_ >= config_.looks) d.action = Action::Stop_Budget;
  if (d.action != Action::Continue) done_ = true;
  return d;
}

}  // namespace tct::bench
