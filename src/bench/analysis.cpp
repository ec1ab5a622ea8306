#include "bench/analysis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/graph_breaks.hpp"
#include "core/json_number.hpp"
#include "stats/verdict.hpp"

#include "stats/bootstrap.hpp"

namespace tct::bench {

json num(double x) { return core::number_or_null(x); }

json summary_json(const stats::Summary& s) {
  return {{"n", s.n},          {"non_finite", s.non_finite}, {"min", num(s.min)},
          {"max", num(s.max)}, {"mean", num(s.mean)},        {"median", num(s.median)},
          {"p05", num(s.p05)}, {"p25", num(s.p25)},          {"p75", num(s.p75)},
          {"p95", num(s.p95)}, {"mad", num(s.mad)},          {"robust_cv", num(s.robust_cv)}};
}

std::string steady_reason_name(stats::SteadyStateReason r) {
  switch (r) {
    case stats::SteadyStateReason::Found: return "found";
    case stats::SteadyStateReason::TooFewPoints: return "too_few_points";
    case stats::SteadyStateReason::NonFinite: return "non_finite";
    case stats::SteadyStateReason::Trending: return "trending";
    case stats::SteadyStateReason::NeverInBand: return "never_in_band";
  }
  return "unknown";
}

double warmup_level_ns(std::span<const double> curve, const stats::SteadyState& ss) {
  if (ss.found && std::isfinite(ss.level)) return ss.level;
  if (curve.empty()) return NAN;
  if (curve.size() == 1) return curve[0];
  return stats::median(curve.subspan(curve.size() / 2));
}

double first_call_extra_ns(std::span<const double> curve, std::size_t steady_start, double steady_ns,
                           std::optional<double> first_call_ns) {
  if (curve.empty() || !std::isfinite(steady_ns)) return NAN;
  std::size_t end = std::clamp<std::size_t>(steady_start, 1, curve.size());
  double extra = 0;
  for (std::size_t i = 0; i < end; ++i) {
    double x = (i == 0 && first_call_ns && std::isfinite(*first_call_ns)) ? *first_call_ns : curve[i];
    if (std::isfinite(x)) extra += x - steady_ns;
  }
  return extra;
}

int samples_per_block(double budget_s, int min_blocks, double sample_ns, int min_samples, int max_samples) {
  if (!(sample_ns > 0) || !std::isfinite(sample_ns) || !(budget_s > 0)) return max_samples;
  double n = budget_s * 1e9 / (4.0 * std::max(1, min_blocks) * sample_ns);
  if (!(n < max_samples)) return max_samples;
  return std::max(min_samples, static_cast<int>(n));
}

CacheCounters cache_counters(const reply::Counters& counters) {
  CacheCounters c;
  c.fxgraph_cache_hit = counters.fxgraph_cache_hit;
  c.fxgraph_cache_miss = counters.fxgraph_cache_miss;
  c.autograd_cache_hit = counters.autograd_cache_hit;
  c.autograd_cache_miss = counters.autograd_cache_miss;
  if (c.fxgraph_cache_hit + c.fxgraph_cache_miss + c.autograd_cache_hit + c.autograd_cache_miss > 0)
    c.hit = c.fxgraph_cache_miss == 0 && c.autograd_cache_miss == 0;
  return c;
}

CompileTimers compile_timers(const json& times_ns) { return compile_timers(reply::timers_from(times_ns)); }

CompileTimers compile_timers(const reply::Timers& times_ns) {
  CompileTimers out;
  for (const auto& [name, ns] : times_ns) out[name] = Nanoseconds(ns);
  return out;
}

// Involuntary context switches per second of timing above which the timing thread was
// being preempted: with a CPU to itself a busy thread sees a handful a second; sharing one
// with another busy task, the scheduler switches every few milliseconds (CFS slices of
// 3-24 ms: 40-300 a second). Measured on a 2-core machine, the timing thread alone (the
// agent counts that thread, not its intra-op workers): 2.3/s quiet, 126/s beside two busy
// processes.
constexpr double kBusySwitchesPerSecond = 30;

MachineLoad machine_load(const std::vector<BenchRow>& rows, int threads) {
  MachineLoad m;
  m.threads = threads;
  for (const auto& r : rows) {
    if (!r.sampling) continue;
    const Load& l = r.sampling->load;
    m.load = std::fmax(std::isfinite(m.load) ? m.load : 0, l.loadavg_1m_max);
    m.switches = std::fmax(std::isfinite(m.switches) ? m.switches : 0, l.involuntary_switches_per_s);
    m.cpus = l.cpus.value_or(m.cpus);
  }
  // The sampling process itself keeps one CPU busy (load ~1). Beyond that: others. And a
  // thread that has a CPU to itself is rarely preempted (a few switches a second).
  m.loaded = m.cpus > 0 && std::isfinite(m.load) && m.load - 1.0 >= 0.5 * m.cpus;
  m.preempted = std::isfinite(m.switches) && m.switches > kBusySwitchesPerSecond;
  if (std::isfinite(m.load)) m.others = std::max(0.0, m.load - 1.0);
  if (m.busy() && m.cpus > 0 && threads > 1 && std::isfinite(m.others)) {
    // Intra-op threads that outnumber the free cores wait for one at every parallel region:
    // a call lasts as long as its slowest thread (OpenMP's barrier), so a core taken by
    // another process slows every call, and unevenly (pyperf pins workers for this reason).
    const double free = std::max(1.0, m.cpus - m.others);
    m.suggested_threads = std::max(1, static_cast<int>(std::floor(free)));
    m.oversubscribed = threads > m.suggested_threads;
  }
  return m;
}

std::optional<report::Warning> load_warning(const MachineLoad& m) {
  if (!m.busy()) return std::nullopt;
  const report::kind::MachineFigures figures{m.load, m.switches, m.cpus};
  if (m.oversubscribed)
    return report::Warning{report::kind::Oversubscribed{figures, m.threads, m.suggested_threads, m.others}, ""};
  return report::Warning{report::kind::MachineLoaded{figures}, ""};
}

std::vector<RowWarning> row_warnings(const BenchRow& row, const std::string& label, const RowWarningInput& in) {
  namespace kind = report::kind;
  std::vector<RowWarning> out;
  auto warn = [&](report::WarningKind k, const char* applies_to) {
    out.push_back({report::Warning{std::move(k), label}, applies_to});
  };
  if (!row.ok()) {
    if (row.failed()) {
      const RowError e = row.error.value_or(RowError{});
      warn(kind::RowFailed{row.error ? e.stage : "?", e.message, e.hint}, "speedup");
    }
    return out;
  }
  const int recompiles = row.recompiles_during_measurement.value_or(0);
  if (recompiles > 0) warn(kind::RecompiledDuringMeasurement{recompiles, row.blocks_dropped_for_recompile}, "speedup");
  // Nothing compiled: the "compiled" row timed eager code; any speedup is noise, and
  // advice about backends or modes would be beside the point.
  const bool nothing_compiled = row.warmup_counters && row.warmup_counters->nothing_compiled();
  if (nothing_compiled) {
    const auto& skips = row.warmup_counters->skip_reasons;
    kind::NothingCompiled why;
    if (!skips.empty()) {
      core::SkipSplit split = core::split_skip(skips[0]);
      why = {true, core::reason_headline(split.skip_reason.empty() ? split.cause : split.skip_reason),
             core::reason_headline(split.cause)};
    }
    warn(why, "speedup");
  }
  const int breaks = row.graph_breaks.value_or(0);
  if (breaks > 0) warn(kind::GraphBreaksInRow{breaks}, "speedup");
  if (row.steady_state && !row.steady_state->found) warn(kind::NoSteadyState{row.steady_state->reason}, "latency");
  // Noise: outliers on either side.
  const double worst_fraction = row.sampling ? row.sampling->worst_outlier_fraction() : 0.0;
  if (worst_fraction > in.noisy_outlier_fraction) warn(kind::Outliers{worst_fraction, in.busy_machine}, "speedup");
  const stats::Interval iv = row.speedup ? row.speedup->interval : stats::Interval{};
  const SpeedupVerdict verdict = row.speedup ? row.speedup->verdict : SpeedupVerdict::NotMeasured;
  // A budget that ran out before --precision matters only when the interval is too wide for
  // the verdict: 1.73x [1.64, 1.83] at +-5.3% against a 5% aim is "faster" all the same.
  const bool verdict_open = verdict == SpeedupVerdict::Inconclusive || verdict == SpeedupVerdict::NoClearDifference;
  if (row.stop_reason == "budget" && verdict_open)
    warn(kind::PrecisionNotReached{stats::relative_half_width(iv), in.precision}, "speedup");
  if (verdict == SpeedupVerdict::Inconclusive)
    warn(kind::SpeedupInconclusive{iv.low, iv.high, in.busy_machine}, "speedup");
  else if (verdict == SpeedupVerdict::Slower && !nothing_compiled) warn(kind::SlowerThanEager{iv.estimate}, "speedup");
  if (row.compile.repeated && row.compile.repeated->warm_cache_hit == false)
    warn(kind::WarmCompileMissedCache{}, "compile");
  const int skips = row.cudagraph_skips.value_or(0);
  if (skips > 0 && row.mode.find("reduce-overhead") != std::string::npos)
    warn(kind::CudagraphsSkipped{skips}, "speedup");
  // Every sample is a tight loop sized to >= 1000 clock ticks, so a batch of a few calls is
  // the harness working as designed (a 1 ms call gets 2); only a batch of many short calls
  // hides the per-call spread enough to say so.
  constexpr int kBatchWorthSaying = 10;
  const int cps = row.sampling ? row.sampling->calls_per_sample : 1;
  if (cps >= kBatchWorthSaying) warn(kind::BatchedCalls{cps}, "latency");
  if (in.check && row.correctness && row.correctness->checked) {
    const Correctness& c = *row.correctness;
    if (c.nondeterministic.value_or(false)) warn(kind::EagerNondeterministic{}, "correctness");
    else if (c.match == false) {
      const auto& mm = c.mismatches;
      warn(kind::OutputMismatch{mm.size(), mm.empty() ? "" : mm[0].path, mm.empty() ? "" : mm[0].reason},
           "correctness");
    }
  }
  return out;
}

}  // namespace tct::bench
