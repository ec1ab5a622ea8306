// Every warning kind's words: the code it is written under, its message, its hint (what to
// do), and its figure (how bad, for the brief report's choice of which one leads). Severity
// and title are the code's, in the catalog (report/warnings.cpp). The producers decide which
// warnings a run has (report/warning.hpp names them); this file only says them.
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/warning.hpp"

namespace tct::report {
namespace {

using namespace kind;

// Which WarningCode each kind is written under.
WarningCode warning_code(const WarningKind& k) {
  return std::visit(
      [](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, RowFailed> || std::is_same_v<T, LoggedRunUnsupported>)
          return WarningCode::PartialResult;
        else if constexpr (std::is_same_v<T, RecompiledDuringMeasurement>) return WarningCode::RecompileDuringMeasure;
        else if constexpr (std::is_same_v<T, NothingCompiled> || std::is_same_v<T, GraphBreaksInRow> ||
                           std::is_same_v<T, SkippedFrames> || std::is_same_v<T, GraphBreakGateFailed>)
          return WarningCode::GraphBreaks;
        else if constexpr (std::is_same_v<T, NoSteadyState>) return WarningCode::NoSteadyState;
        else if constexpr (std::is_same_v<T, Outliers> || std::is_same_v<T, SpeedupInconclusive> ||
                           std::is_same_v<T, MachineLoaded> || std::is_same_v<T, ProfileLoadUnstable> ||
                           std::is_same_v<T, ProfileSlowedDown> || std::is_same_v<T, ProfileLoadDrift>)
          return WarningCode::NoisyMeasurement;
        else if constexpr (std::is_same_v<T, PrecisionNotReached>) return WarningCode::PrecisionNotReached;
        else if constexpr (std::is_same_v<T, SlowerThanEager>) return WarningCode::SlowerThanEager;
        else if constexpr (std::is_same_v<T, WarmCompileMissedCache>) return WarningCode::WarmCompileMissedCache;
        else if constexpr (std::is_same_v<T, CudagraphsSkipped>) return WarningCode::CudagraphsSkipped;
        else if constexpr (std::is_same_v<T, BatchedCalls>) return WarningCode::ClockResolution;
        else if constexpr (std::is_same_v<T, CheckSkipped>) return WarningCode::CheckSkipped;
        else if constexpr (std::is_same_v<T, EagerNondeterministic>) return WarningCode::Nondeterministic;
        else if constexpr (std::is_same_v<T, OutputMismatch>) return WarningCode::OutputMismatch;
        else if constexpr (std::is_same_v<T, Oversubscribed>) return WarningCode::Oversubscribed;
        else if constexpr (std::is_same_v<T, AllocatorMovesResult>) return WarningCode::AllocatorMovesResult;
        else if constexpr (std::is_same_v<T, ExplainViewsDisagree>) return WarningCode::ExplainViewsDisagree;
        else if constexpr (std::is_same_v<T, AboveRoofline> || std::is_same_v<T, ValidationInconclusive>)
          return WarningCode::NoisyMeasurement;
        else if constexpr (std::is_same_v<T, PredictionModelsDefault>) return WarningCode::PredictionModelsDefault;
        else if constexpr (std::is_same_v<T, NoFlopCeiling>) return WarningCode::NoFlopCeiling;
        else if constexpr (std::is_same_v<T, FlopsNotCounted>) return WarningCode::FlopsNotCounted;
        else if constexpr (std::is_same_v<T, CaptureUnchecked> || std::is_same_v<T, SweepPointsFailed> ||
                           std::is_same_v<T, AuditStepFailed> || std::is_same_v<T, TraceDamaged>)
          return WarningCode::PartialResult;
        else if constexpr (std::is_same_v<T, ResumeLeftOut>) return WarningCode::ResumeLeftOut;
        else return WarningCode::Other;  // AsWritten and MixedEnvironments carry their own code
      },
      k);
}

const char* plural(long n) { return n == 1 ? "" : "s"; }

std::string machine_figures(const MachineFigures& m) {
  return fmt::format("load average up to {:.1f}, {:.0f} involuntary context switches/s", m.load,
                     std::isfinite(m.switches) ? m.switches : 0.0);
}

struct WarningWords {
  std::string message, hint;
};

WarningWords row_failed(const RowFailed& p) {
  return {fmt::format("failed at {} ({}); the numbers shown were measured before it", p.stage, p.message), p.hint};
}
WarningWords recompiled(const RecompiledDuringMeasurement& p) {
  return {fmt::format("recompiled during measurement ({} time{}): {} block pair{} dropped and resampled, but the "
                      "target keeps recompiling in real use too",
                      p.recompiles, plural(p.recompiles), p.blocks_dropped, plural(p.blocks_dropped)),
          "inputs or globals change between calls; try --dynamic true or run `tct explain` to see the guard that "
          "failed"};
}
WarningWords nothing_compiled(const NothingCompiled& p) {
  const std::string why = p.reason_given ? fmt::format(" ({}, after: {})", p.skip_reason, p.cause) : "";
  return {fmt::format("0 graphs compiled: Dynamo skipped this function{}; the compiled timings are eager code", why),
          "run `tct explain` on the target to see the break that made it skip and what to change"};
}
WarningWords graph_breaks(const GraphBreaksInRow& p) {
  return {fmt::format("{} graph break{}: parts of the target run eagerly", p.breaks, plural(p.breaks)),
          "run `tct explain` on the target to see where and what to change"};
}
WarningWords no_steady_state(const NoSteadyState& p) {
  return {fmt::format("the warm-up curve did not settle ({}); steady state taken from the interleaved blocks after "
                      "it",
                      p.reason.empty() ? "?" : p.reason),
          "raise --warmup so that more first calls are timed one by one"};
}
WarningWords outliers(const Outliers& p) {
  return {fmt::format("noisy machine: {:.0f}% outliers", p.fraction * 100),
          p.busy_machine ? "close other programs (a longer --budget does not help while they run)"
                         : "close other programs or raise --budget"};
}
WarningWords precision(const PrecisionNotReached& p) {
  return {std::isfinite(p.half_width) ? fmt::format("interval is ±{:.1f}%, wider than the ±{:.1f}% asked for",
                                                    p.half_width * 100, p.precision * 100)
                                      : "too few samples for a confidence interval",
          "the interval keeps room for how far a re-run drifts (seldom under ±4%): a longer --budget narrows only "
          "this run's own noise; loosen --precision or rerun on a quieter machine"};
}
WarningWords inconclusive(const SpeedupInconclusive& p) {
  return {fmt::format("speedup inconclusive: the interval [{:.2f}, {:.2f}] holds 1 and is too wide to tell; no "
                      "break-even is given",
                      p.low, p.high),
          p.busy_machine ? "rerun on a quieter machine (see the warning on load: a longer --budget does not help)"
                         : "rerun on a quieter machine or raise --budget"};
}
WarningWords slower(const SlowerThanEager& p) {
  return {fmt::format("compiled is slower than eager ({:.2f}x)", p.speedup),
          "try another --mode or --backend, a larger input, or do not compile this target"};
}
WarningWords warm_missed(const WarmCompileMissedCache&) {
  return {"the warm compile was not a cache hit (torch counted cache misses): the warm figure includes compiling",
          "check TORCHINDUCTOR_FX_GRAPH_CACHE and whether the target's graph depends on run-specific values"};
}
WarningWords cudagraphs(const CudagraphsSkipped& p) {
  return {fmt::format("CUDA graphs were skipped {} time{} (torch's cudagraph_skips counter): reduce-overhead ran "
                      "without them",
                      p.skips, plural(p.skips)),
          "run with TORCH_LOGS=perf_hints to see why (CPU tensors, mutated inputs, dynamic shapes)"};
}
WarningWords batched(const BatchedCalls& p) {
  return {fmt::format("calls are short next to the clock's resolution: timed in batches of {} (eager) and {} "
                      "(compiled) calls",
                      p.calls_per_sample, p.calls_per_sample),
          "per-call times are batch means; spread within a batch is not seen"};
}
WarningWords check_skipped(const CheckSkipped&) {
  return {"outputs were not compared with eager (--no-check)", "drop --no-check to verify the compiled outputs"};
}
WarningWords nondeterministic(const EagerNondeterministic&) {
  return {
      "eager differs from itself under identical seeds; compiled was judged against eager's own spread, a "
      "weaker check",
      "make the target deterministic (no unseeded or time-dependent randomness) for a check element by element"};
}
WarningWords mismatch(const OutputMismatch& p) {
  const std::string first = p.leaves == 0 ? "" : fmt::format(": {} {}", p.first_path, p.first_reason);
  return {fmt::format("compiled outputs differ from eager in {} leaf/leaves{}", p.leaves, first),
          "loosen --rtol/--atol if the difference is acceptable rounding, else report it to PyTorch; --no-check "
          "skips the check"};
}
WarningWords oversubscribed(const Oversubscribed& p) {
  return {fmt::format("oversubscribed: torch ran {} threads on {} CPUs while other processes kept about {:.1f} busy "
                      "({}): its threads waited for a core, and the timings with them",
                      p.threads, p.machine.cpus, p.others, machine_figures(p.machine)),
          fmt::format("rerun with --threads {} (or --cpus to pin the target to free cores), or on a quieter machine; "
                      "a longer --budget does not help",
                      p.suggested_threads)};
}
WarningWords loaded(const MachineLoaded& p) {
  return {fmt::format("other processes loaded the CPU while sampling ({} CPUs, {}): timings are noisier and may be "
                      "biased",
                      p.machine.cpus, machine_figures(p.machine)),
          "rerun on a quiet machine; the interval covers the noise it saw, not load that changes later"};
}
WarningWords allocator(const AllocatorMovesResult& p) {
  const std::string headline = p.states.empty() ? "" : p.states[0].name;
  // The figures: each state's speedup, the headline's first, then the compiled call's range.
  std::string figures;
  for (std::size_t i = 0; i < p.states.size(); ++i)
    figures += i == 0 ? fmt::format("{} {} (the headline)", format_ratio(p.states[i].speedup), p.states[i].name)
                      : fmt::format(", {} {}", format_ratio(p.states[i].speedup), p.states[i].name);
  std::string message;
  if (p.differs) {
    message = fmt::format("the allocator moves the result: speedup {}", figures);
    const double fastest = p.fastest_compiled_ns, slowest = p.slowest_compiled_ns;
    if (std::isfinite(fastest) && slowest > 0 && fastest > 0)
      message += fmt::format("; compiled per call {} to {} ({:.1f}x)", format_duration_ns(fastest),
                             format_duration_ns(slowest), slowest / fastest);
  }
  if (p.processes_disagree) {
    std::string each;
    for (double s : p.process_speedups) each += (each.empty() ? "" : ", ") + format_ratio(s);
    message += fmt::format(
        "{}the headline's processes disagreed ({}) in the {} state: its result depends on the "
        "process's history",
        message.empty() ? "" : "; ", each, headline);
  }
  std::string hint;
  if (!p.best.name.empty()) {
    hint = fmt::format("fastest compiled call with {}: {} per call, speedup {}", p.best.description,
                       format_duration_ns(p.best.compiled_ns), format_ratio(p.best.speedup));
    if (!p.best.fix.empty()) hint += fmt::format("; run your program with {}", p.best.fix);
    if (!p.best.headline) hint += fmt::format("; --allocator {} measures that state", p.best.name);
  }
  if (p.processes_disagree && headline == "system")
    hint += std::string(hint.empty() ? "" : "; ") + "--allocator settled measures glibc in one state";
  hint += std::string(hint.empty() ? "" : "; ") + "-v shows the table";
  return {message, hint};
}
WarningWords logged_unsupported(const LoggedRunUnsupported& p) {
  return {p.what + ": the counts come from torch._dynamo.explain alone, which can miss breaks",
          "use a newer torch for the compiled run's counts"};
}
WarningWords views_disagree(const ExplainViewsDisagree& p) {
  return {fmt::format("explain and the logged compiled run disagree in {} way(s): {}", p.count, p.first),
          "the logged run is what torch.compile really does; see 'disagreements'"};
}
WarningWords skipped_frames(const SkippedFrames& p) {
  // Every skipped frame by name: two different forwards that ran eagerly are two frames.
  std::string names;
  for (const auto& t : p.titles) names += (names.empty() ? "" : ", ") + t;
  const std::size_t n = p.titles.size();
  return {fmt::format("torch.compile skipped {} frame{} and ran {} eagerly: {} ({}, after a [{}] break at line {})", n,
                      n == 1 ? "" : "s", n == 1 ? "it" : "them", names, p.first_skip_reason, p.first_break_kind,
                      p.first_break_line),
          "fix the break that caused it (see SKIPPED FRAME); breaks after it show only then"};
}
WarningWords gate_failed(const GraphBreakGateFailed& p) {
  return {fmt::format("{} graph break(s) and {} skipped frame(s) in the compiled run; --max-graph-breaks {} allows no "
                      "skipped frame and at most {} break(s)",
                      p.breaks, p.skipped_frames, p.max_breaks, p.max_breaks),
          "fix the breaks listed above, or raise the limit"};
}
WarningWords profile_unstable(const ProfileLoadUnstable& p) {
  return {fmt::format("the share of a call spent outside operators ranged from {:.0f}% to {:.0f}% across the "
                      "profiled calls (10% to 90% quantile): other processes preempt this one. The evidence comes "
                      "from the fastest calls{}, but the class and range may still move with the machine's load",
                      100 * p.outside_low, 100 * p.outside_high,
                      p.envelope_outside ? fmt::format(" ({:.0f}% outside operators)", 100 * *p.envelope_outside) : ""),
          "rerun when the machine is quieter, or with more --calls"};
}
WarningWords profile_slowed(const ProfileSlowedDown& p) {
  return {fmt::format("a compiled call took {:.1f}x as long during the profile as when the ceilings were measured: "
                      "other processes slowed this machine down, Python more than kernels, so the class and the "
                      "predicted range may move",
                      p.ratio),
          "rerun when the machine is quieter"};
}
WarningWords profile_drift(const ProfileLoadDrift& p) {
  return {fmt::format("the share of a call outside operators read {:.0f}% in the profile's first half and {:.0f}% "
                      "in its second: other processes' load moved during the profile, so the class and the "
                      "predicted range may move on a re-run",
                      100 * p.first, 100 * p.second),
          "rerun when the machine is quieter, or with more --profile-seconds"};
}
WarningWords above_roofline(const AboveRoofline&) {
  return {
      "this workload ran faster than the measured FLOP/s ceiling: the ceiling (or the profile) was measured "
      "while the machine was busy, so the roofline fraction is left out",
      "rerun on a quiet machine with --refresh-ceilings"};
}
WarningWords models_default(const PredictionModelsDefault& p) {
  return {fmt::format("the predicted range models torch.compile's default (inductor, mode default); the bench "
                      "runs {} with mode {}",
                      p.backend, p.mode),
          "compare prediction and measurement with --backend inductor --mode default"};
}
WarningWords validation_inconclusive(const ValidationInconclusive&) {
  return {"--validate: the measured speedup interval is too wide to check the prediction against (inconclusive)",
          "rerun on a quieter machine or with a larger --budget"};
}
WarningWords no_flop_ceiling(const NoFlopCeiling& p) {
  return {"no FLOP/s ceiling: the matmul failed: " + p.error, "the class falls back to the time in library ops"};
}
WarningWords flops_not_counted(const FlopsNotCounted& p) {
  return {"FLOPs and bytes could not be counted: " + p.error, "the class is decided from the profile alone"};
}
WarningWords capture_unchecked(const CaptureUnchecked& p) {
  return {fmt::format("could not check what torch.compile captures: {}", p.error),
          "the prediction assumes the whole function is captured; run `tct explain`"};
}
WarningWords sweep_points_failed(const SweepPointsFailed& p) {
  return {fmt::format("{} of {} sweep points failed", p.failed, p.total),
          "each failed point says why in expect.sweep.points[].error"};
}
WarningWords resume_left_out(const ResumeLeftOut& p) {
  return {fmt::format("--resume left out {} entries of {} that are not in this run's share", p.dropped, p.file),
          "they were run with another suite file or --shard; their numbers are not in this file"};
}
WarningWords audit_step_failed(const AuditStepFailed& p) {
  return {fmt::format("audit step {} failed: {}", p.step, p.message),
          p.hint.empty() ? "the other steps still ran" : p.hint};
}
WarningWords trace_damaged(const TraceDamaged& p) {
  return {fmt::format("{} damaged line(s), record(s) or payload(s) skipped, the first at {} (see trace.ranks[].read)",
                      p.damaged, p.first_at),
          "the rest of the log was read"};
}
WarningWords mixed_environments(const MixedEnvironments& p) {
  return {fmt::format("the shards ran on {} different torch versions", p.versions),
          "compare entries only across runs of one torch version"};
}
WarningWords as_written(const AsWritten& p) { return {p.message, p.hint}; }

WarningWords warning_words(const WarningKind& k) {
  return std::visit(
      [](const auto& p) -> WarningWords {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, RowFailed>) return row_failed(p);
        else if constexpr (std::is_same_v<T, RecompiledDuringMeasurement>) return recompiled(p);
        else if constexpr (std::is_same_v<T, NothingCompiled>) return nothing_compiled(p);
        else if constexpr (std::is_same_v<T, GraphBreaksInRow>) return graph_breaks(p);
        else if constexpr (std::is_same_v<T, NoSteadyState>) return no_steady_state(p);
        else if constexpr (std::is_same_v<T, Outliers>) return outliers(p);
        else if constexpr (std::is_same_v<T, PrecisionNotReached>) return precision(p);
        else if constexpr (std::is_same_v<T, SpeedupInconclusive>) return inconclusive(p);
        else if constexpr (std::is_same_v<T, SlowerThanEager>) return slower(p);
        else if constexpr (std::is_same_v<T, WarmCompileMissedCache>) return warm_missed(p);
        else if constexpr (std::is_same_v<T, CudagraphsSkipped>) return cudagraphs(p);
        else if constexpr (std::is_same_v<T, BatchedCalls>) return batched(p);
        else if constexpr (std::is_same_v<T, CheckSkipped>) return check_skipped(p);
        else if constexpr (std::is_same_v<T, EagerNondeterministic>) return nondeterministic(p);
        else if constexpr (std::is_same_v<T, OutputMismatch>) return mismatch(p);
        else if constexpr (std::is_same_v<T, Oversubscribed>) return oversubscribed(p);
        else if constexpr (std::is_same_v<T, MachineLoaded>) return loaded(p);
        else if constexpr (std::is_same_v<T, AllocatorMovesResult>) return allocator(p);
        else if constexpr (std::is_same_v<T, LoggedRunUnsupported>) return logged_unsupported(p);
        else if constexpr (std::is_same_v<T, ExplainViewsDisagree>) return views_disagree(p);
        else if constexpr (std::is_same_v<T, SkippedFrames>) return skipped_frames(p);
        else if constexpr (std::is_same_v<T, GraphBreakGateFailed>) return gate_failed(p);
        else if constexpr (std::is_same_v<T, ProfileLoadUnstable>) return profile_unstable(p);
        else if constexpr (std::is_same_v<T, ProfileSlowedDown>) return profile_slowed(p);
        else if constexpr (std::is_same_v<T, ProfileLoadDrift>) return profile_drift(p);
        else if constexpr (std::is_same_v<T, AboveRoofline>) return above_roofline(p);
        else if constexpr (std::is_same_v<T, PredictionModelsDefault>) return models_default(p);
        else if constexpr (std::is_same_v<T, ValidationInconclusive>) return validation_inconclusive(p);
        else if constexpr (std::is_same_v<T, NoFlopCeiling>) return no_flop_ceiling(p);
        else if constexpr (std::is_same_v<T, FlopsNotCounted>) return flops_not_counted(p);
        else if constexpr (std::is_same_v<T, CaptureUnchecked>) return capture_unchecked(p);
        else if constexpr (std::is_same_v<T, SweepPointsFailed>) return sweep_points_failed(p);
        else if constexpr (std::is_same_v<T, ResumeLeftOut>) return resume_left_out(p);
        else if constexpr (std::is_same_v<T, AuditStepFailed>) return audit_step_failed(p);
        else if constexpr (std::is_same_v<T, TraceDamaged>) return trace_damaged(p);
        else if constexpr (std::is_same_v<T, MixedEnvironments>) return mixed_environments(p);
        else return as_written(p);
      },
      k);
}

}  // namespace

std::string code_of(const Warning& w) {
  if (const auto* p = std::get_if<AsWritten>(&w.kind)) return p->code;
  if (std::holds_alternative<MixedEnvironments>(w.kind)) return "mixed_environments";
  return to_string(warning_code(w.kind));
}

std::string message_of(const Warning& w) {
  const std::string message = warning_words(w.kind).message;
  // A warning read back already carries its row in its words.
  if (w.row.empty() || std::holds_alternative<AsWritten>(w.kind)) return message;
  return w.row + ": " + message;
}

std::string hint_of(const Warning& w) { return warning_words(w.kind).hint; }

// The measure a code's warnings share: recompiles counted, the outlier fraction, the
// interval's relative half-width. The other kinds give none, and their first warning leads.
std::optional<double> figure_of(const Warning& w) {
  if (const auto* p = std::get_if<RecompiledDuringMeasurement>(&w.kind)) return p->recompiles;
  if (const auto* p = std::get_if<Outliers>(&w.kind)) return p->fraction;
  if (const auto* p = std::get_if<PrecisionNotReached>(&w.kind)) return p->half_width;
  if (const auto* p = std::get_if<AsWritten>(&w.kind)) return p->figure;
  return std::nullopt;
}

}  // namespace tct::report
