#include "bench/analysis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/graph_breaks.hpp"
#include "core/json_number.hpp"
#include "stats/verdict.hpp"

#include "report/warnings.hpp"
#include "stats/bootstrap.hpp"

namespace tct::bench {

json num(double x) { return core::number_or_null(x); }

json summary_json(const stats::Summary& s) {
  return {{"n", s.n},         {"non_finite", s.non_finite}, {"min", num(s.min)},   {"max", num(s.max)},
          {"mean", num(s.mean)}, {"median", num(s.median)},   {"p05", num(s.p05)},   {"p25", num(s.p25)},
          {"p75", num(s.p75)}, {"p95", num(s.p95)},           {"mad", num(s.mad)},   {"robust_cv", num(s.robust_cv)}};
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

CacheCounters cache_counters(const json& counters) {
  auto count = [&](const char* k) { return counters.is_object() ? counters.value(k, 0) : 0; };
  CacheCounters c;
  c.fxgraph_cache_hit = count("fxgraph_cache_hit");
  c.fxgraph_cache_miss = count("fxgraph_cache_miss");
  c.autograd_cache_hit = count("autograd_cache_hit");
  c.autograd_cache_miss = count("autograd_cache_miss");
  if (c.fxgraph_cache_hit + c.fxgraph_cache_miss + c.autograd_cache_hit + c.autograd_cache_miss > 0)
    c.hit = c.fxgraph_cache_miss == 0 && c.autograd_cache_miss == 0;
  return c;
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

std::optional<json> load_warning(const MachineLoad& m) {
  if (!m.busy()) return std::nullopt;
  const std::string figures = fmt::format("load average up to {:.1f}, {:.0f} involuntary context switches/s", m.load,
                                          std::isfinite(m.switches) ? m.switches : 0.0);
  if (m.oversubscribed)
    return report::make_warning(
        report::WarningCode::Oversubscribed,
        fmt::format("oversubscribed: torch ran {} threads on {} CPUs while other processes kept about {:.1f} busy "
                    "({}): its threads waited for a core, and the timings with them",
                    m.threads, m.cpus, m.others, figures),
        fmt::format("rerun with --threads {} (or --cpus to pin the target to free cores), or on a quieter machine; "
                    "a longer --budget does not help",
                    m.suggested_threads));
  return report::make_warning(
      report::WarningCode::NoisyMeasurement,
      fmt::format("other processes loaded the CPU while sampling ({} CPUs, {}): timings are noisier and may be biased",
                  m.cpus, figures),
      "rerun on a quiet machine; the interval covers the noise it saw, not load that changes later");
}

namespace {

json warn(report::WarningCode code, std::string message, std::string hint, const char* applies_to,
          std::optional<double> figure = std::nullopt) {
  json w = report::make_warning(code, std::move(message), std::move(hint), figure);
  w["applies_to"] = applies_to;
  return w;
}

}  // namespace

std::vector<json> row_warnings(const BenchRow& row, const std::string& label, const RowWarningInput& in) {
  using report::WarningCode;
  std::vector<json> out;
  const std::string who = label.empty() ? "" : label + ": ";
  if (!row.ok()) {
    if (row.failed()) {
      const RowError e = row.error.value_or(RowError{});
      out.push_back(warn(WarningCode::PartialResult,
                         fmt::format("{}failed at {} ({}); the numbers shown were measured before it", who,
                                     row.error ? e.stage : "?", e.message),
                         e.hint, "speedup"));
    }
    return out;
  }
  const int recompiles = row.recompiles_during_measurement.value_or(0);
  if (recompiles > 0)
    out.push_back(warn(WarningCode::RecompileDuringMeasure,
                       fmt::format("{}recompiled during measurement ({} time{}): {} block pair{} dropped and "
                                   "resampled, but the target keeps recompiling in real use too",
                                   who, recompiles, recompiles == 1 ? "" : "s", row.blocks_dropped_for_recompile,
                                   row.blocks_dropped_for_recompile == 1 ? "" : "s"),
                       "inputs or globals change between calls; try --dynamic true or run `tct explain` "
                       "to see the guard that failed",
                       "speedup", recompiles));
  // Nothing compiled: the "compiled" row timed eager code; any speedup is noise, and
  // advice about backends or modes would be beside the point.
  const bool nothing_compiled = row.warmup_counters && row.warmup_counters->nothing_compiled();
  if (nothing_compiled) {
    const auto& skips = row.warmup_counters->skip_reasons;
    std::string why;
    if (!skips.empty()) {
      core::SkipSplit split = core::split_skip(skips[0]);
      why = fmt::format(" ({}, after: {})", core::reason_headline(split.skip_reason.empty() ? split.cause : split.skip_reason),
                        core::reason_headline(split.cause));
    }
    out.push_back(warn(WarningCode::GraphBreaks,
                       fmt::format("{}0 graphs compiled: Dynamo skipped this function{}; the compiled timings are "
                                   "eager code",
                                   who, why),
                       "run `tct explain` on the target to see the break that made it skip and what to change",
                       "speedup"));
  }
  const int breaks = row.graph_breaks.value_or(0);
  if (breaks > 0)
    out.push_back(warn(WarningCode::GraphBreaks,
                       fmt::format("{}{} graph break{}: parts of the target run eagerly", who, breaks,
                                   breaks == 1 ? "" : "s"),
                       "run `tct explain` on the target to see where and what to change", "speedup"));
  if (row.steady_state && !row.steady_state->found)
    out.push_back(warn(WarningCode::NoSteadyState,
                       fmt::format("{}the warm-up curve did not settle ({}); steady state taken from the "
                                   "interleaved blocks after it",
                                   who, row.steady_state->reason.empty() ? "?" : row.steady_state->reason),
                       "raise --warmup so that more first calls are timed one by one", "latency"));
  // Noise: outliers on either side.
  const double worst_fraction = row.sampling ? row.sampling->worst_outlier_fraction() : 0.0;
  if (worst_fraction > in.noisy_outlier_fraction)
    out.push_back(warn(WarningCode::NoisyMeasurement,
                       fmt::format("{}noisy machine: {:.0f}% outliers", who, worst_fraction * 100),
                       in.busy_machine ? "close other programs (a longer --budget does not help while they run)"
                                       : "close other programs or raise --budget",
                       "speedup", worst_fraction));
  const stats::Interval iv = row.speedup ? row.speedup->interval : stats::Interval{};
  const double est = iv.estimate, lo = iv.low, hi = iv.high;
  const SpeedupVerdict verdict = row.speedup ? row.speedup->verdict : SpeedupVerdict::NotMeasured;
  // A budget that ran out before --precision matters only when the interval is too wide for
  // the verdict: 1.73x [1.64, 1.83] at +-5.3% against a 5% aim is "faster" all the same.
  const bool verdict_open = verdict == SpeedupVerdict::Inconclusive || verdict == SpeedupVerdict::NoClearDifference;
  if (row.stop_reason == "budget" && verdict_open) {
    const double half = stats::relative_half_width(iv);
    out.push_back(warn(WarningCode::PrecisionNotReached,
                       std::isfinite(half)
                           ? fmt::format("{}interval is ±{:.1f}%, wider than the ±{:.1f}% asked for", who,
                                         half * 100, in.precision * 100)
                           : fmt::format("{}too few samples for a confidence interval", who),
                       "the interval keeps room for how far a re-run drifts (seldom under ±4%): a longer "
                       "--budget narrows only this run's own noise; loosen --precision or rerun on a quieter machine",
                       "speedup", half));  // a NaN figure is left out
  }
  if (verdict == SpeedupVerdict::Inconclusive)
    out.push_back(warn(WarningCode::NoisyMeasurement,
                       fmt::format("{}speedup inconclusive: the interval [{:.2f}, {:.2f}] holds 1 and is too wide to tell; "
                                   "no break-even is given",
                                   who, lo, hi),
                       in.busy_machine ? "rerun on a quieter machine (see the warning on load: a longer --budget does not help)"
                                       : "rerun on a quieter machine or raise --budget",
                       "speedup"));
  else if (verdict == SpeedupVerdict::Slower && !nothing_compiled)
    out.push_back(warn(WarningCode::SlowerThanEager,
                       fmt::format("{}compiled is slower than eager ({:.2f}x)", who, est),
                       "try another --mode or --backend, a larger input, or do not compile this target",
                       "speedup"));
  if (row.compile.repeated && row.compile.repeated->warm_cache_hit == false)
    out.push_back(warn(WarningCode::WarmCompileMissedCache,
                       fmt::format("{}the warm compile was not a cache hit (torch counted cache misses): the "
                                   "warm figure includes compiling",
                                   who),
                       "check TORCHINDUCTOR_FX_GRAPH_CACHE and whether the target's graph depends on "
                       "run-specific values", "compile"));
  const int skips = row.cudagraph_skips.value_or(0);
  if (skips > 0 && row.mode.find("reduce-overhead") != std::string::npos)
    out.push_back(warn(WarningCode::CudagraphsSkipped,
                       fmt::format("{}CUDA graphs were skipped {} time{} (torch's cudagraph_skips counter): "
                                   "reduce-overhead ran without them",
                                   who, skips, skips == 1 ? "" : "s"),
                       "run with TORCH_LOGS=perf_hints to see why (CPU tensors, mutated inputs, dynamic shapes)",
                       "speedup"));
  // Every sample is a tight loop sized to >= 1000 clock ticks, so a batch of a few calls is
  // the harness working as designed (a 1 ms call gets 2); only a batch of many short calls
  // hides the per-call spread enough to say so.
  constexpr int kBatchWorthSaying = 10;
  const int cps = row.sampling ? row.sampling->calls_per_sample : 1;
  if (cps >= kBatchWorthSaying)
    out.push_back(warn(WarningCode::ClockResolution,
                       fmt::format("{}calls are short next to the clock's resolution: timed in batches "
                                   "of {} (eager) and {} (compiled) calls",
                                   who, cps, cps),
                       "per-call times are batch means; spread within a batch is not seen", "latency"));
  if (in.check && row.correctness && row.correctness->checked) {
    const Correctness& c = *row.correctness;
    if (c.nondeterministic.value_or(false))
      out.push_back(warn(WarningCode::Nondeterministic,
                         fmt::format("{}eager differs from itself under identical seeds; compiled was judged "
                                     "against eager's own spread, a weaker check",
                                     who),
                         "make the target deterministic (no unseeded or time-dependent randomness) "
                         "for a check element by element",
                         "correctness"));
    else if (c.match == false) {
      const auto& mm = c.mismatches;
      std::string first = mm.empty() ? "" : fmt::format(": {} {}", mm[0].path, mm[0].reason);
      out.push_back(warn(WarningCode::OutputMismatch,
                         fmt::format("{}compiled outputs differ from eager in {} leaf/leaves{}", who, mm.size(), first),
                         "loosen --rtol/--atol if the difference is acceptable rounding, else report it to "
                         "PyTorch; --no-check skips the check",
                         "correctness"));
    }
  }
  return out;
}

std::string flag_text(const json& w) { return report::flag_of(w.value("code", "")); }

}  // namespace tct::bench
