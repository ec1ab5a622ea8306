#pragma once
// The bench section's JSON fields (core/fields.hpp): each struct of bench/result.hpp listed once,
// in the order schema/bench.schema.json gives them. What is not a plain field is spelled in
// bench/json.cpp: the aoti row's whole-ns timers, an element that may be complex, the verdicts
// decided again on reading.
#include <string_view>

#include "bench/result.hpp"
#include "core/fields.hpp"
#include "report/warning.hpp"
#include "stats/fields.hpp"

namespace tct::bench {

inline constexpr std::string_view kRowStatusNames[] = {"pending", "running", "ok", "failed"};  // RowStatus's order
constexpr const auto& names(const RowStatus*) { return kRowStatusNames; }
inline constexpr std::string_view kBreakEvenNames[] = {"breaks_even", "no_reliable_gain", "inconclusive"};
constexpr const auto& names(const BreakEvenVerdict*) { return kBreakEvenNames; }

// The spellings json.cpp gives (each a writer and its reader).
nlohmann::json both_sides_json(const int& calls);  // {"eager": n, "compiled": n}
int both_sides_from(const nlohmann::json& j);      // the larger
nlohmann::json element_json(const std::optional<ElementValue>& v);
std::optional<ElementValue> element_from(const nlohmann::json& j);
nlohmann::json speedup_verdict_json(const Speedup& s);
void speedup_verdict_from(const nlohmann::json&, Speedup& s);
nlohmann::json inconclusive_json(const Speedup& s);
nlohmann::json row_compile_json(const BenchRow& r);
void row_compile_from(const nlohmann::json& j, BenchRow& r);
nlohmann::json row_breakdown_json(const BenchRow& r);
void row_breakdown_from(const nlohmann::json& j, BenchRow& r);
nlohmann::json samples_calls_json(const BenchRow::RawSamples& s);
void samples_calls_from(const nlohmann::json& j, BenchRow::RawSamples& s);
nlohmann::json package_compile_json(const Aoti& a);
nlohmann::json state_status_json(const AllocatorStateEntry& s);
void state_status_from(const nlohmann::json& j, AllocatorStateEntry& s);
nlohmann::json warnings_json(const std::vector<report::Warning>& ws);
std::vector<report::Warning> warnings_from(const nlohmann::json& j);

using core::fields::custom;
using core::fields::field;
using core::fields::flat;
using core::fields::group;
inline constexpr auto kAbsent = core::fields::Empty::Absent;
inline constexpr auto kNull = core::fields::Empty::Null;

constexpr auto json_fields(const RowError*) {
  using E = RowError;
  return std::tuple{field("kind", &E::kind), field("stage", &E::stage), field("message", &E::message),
                    field("hint", &E::hint), field("exit_code", &E::exit_code, kAbsent)};
}
constexpr auto json_fields(const ProcessSpeedup*) {
  using P = ProcessSpeedup;
  return std::tuple{field("blocks", &P::blocks), field("speedup", &P::speedup),
                    field("segment_speedups", &P::segment_speedups)};
}
constexpr auto json_fields(const Speedup*) {
  using S = Speedup;
  return std::tuple{
      field("confidence", &S::confidence, kAbsent), field("look_confidence", &S::look_confidence, kAbsent),
      field("looks", &S::looks, kAbsent), field("segments", &S::segments, kAbsent),
      field("between_segment_sd", &S::between_segment_sd, kAbsent), field("within_sd", &S::within_sd, kAbsent),
      field("method", &S::method, kAbsent), field("per_process", &S::per_process, kAbsent), flat(&S::interval),
      // Decided again from the interval by the one rule (a document written under an
      // older rule loads with the verdict its interval supports).
      custom<S>("verdict", speedup_verdict_json, speedup_verdict_from),
      custom<S>("inconclusive", inconclusive_json),  // what documents before "verdict" had
      field("processes", &S::processes, kAbsent)};
}
constexpr auto json_fields(const Latency*) {
  return std::tuple{field("eager", &Latency::eager_ns), field("compiled", &Latency::compiled_ns)};
}
constexpr auto json_fields(const SteadyState*) {
  using S = SteadyState;
  return std::tuple{field("found", &S::found), field("start_index", &S::start_index), field("level_ns", &S::level),
                    field("reason", &S::reason), field("estimate_ns", &S::estimate)};
}
constexpr auto json_fields(const CompileSpread*) {
  using S = CompileSpread;
  return std::tuple{field("median_ns", &S::median), field("min_ns", &S::min), field("max_ns", &S::max),
                    field("samples_ns", &S::samples_ns), field("n", &S::n)};
}
constexpr auto json_fields(const CacheCounters*) {
  using C = CacheCounters;
  return std::tuple{field("hit", &C::hit), field("fxgraph_cache_hit", &C::fxgraph_cache_hit),
                    field("fxgraph_cache_miss", &C::fxgraph_cache_miss),
                    field("autograd_cache_hit", &C::autograd_cache_hit),
                    field("autograd_cache_miss", &C::autograd_cache_miss)};
}
constexpr auto json_fields(const Compile::Repeats*) {
  using R = Compile::Repeats;
  return std::tuple{field("cold", &R::cold), field("warm", &R::warm), field("repeats", &R::repeats),
                    field("single_measurement", &R::single_measurement), field("warm_cache_hit", &R::warm_cache_hit)};
}
constexpr auto json_fields(const Compile*) {
  using C = Compile;
  return std::tuple{field("first_call_ns", &C::first_call),
                    field("cold_ns", &C::cold),
                    field("warm_ns", &C::warm),
                    field("cold_source", &C::cold_source),
                    field("breakdown", &C::breakdown),
                    field("warm_breakdown", &C::warm_breakdown, kAbsent),
                    flat(&C::repeated),
                    field("warm_cache", &C::warm_cache, kAbsent),
                    field("error", &C::error, kAbsent)};
}
constexpr auto json_fields(const CallRange*) {
  return std::tuple{field("estimate", &CallRange::estimate), field("low", &CallRange::low),
                    field("high", &CallRange::high)};
}
constexpr auto json_fields(const BreakEven*) {
  return std::tuple{field("verdict", &BreakEven::verdict), field("cold", &BreakEven::cold),
                    field("warm", &BreakEven::warm)};
}
constexpr auto json_fields(const MemoryPeak*) {  // {side}_peak_bytes and {side}_method in Memory
  return std::tuple{field("peak_bytes", &MemoryPeak::bytes), field("method", &MemoryPeak::method)};
}
constexpr auto json_fields(const Memory::Compiled*) {
  using C = Memory::Compiled;
  return std::tuple{field("compiled_increase_bytes", &C::increase_bytes),
                    field("compile_peak_increase_bytes", &C::compile_peak_increase_bytes),
                    field("compiler_kept_bytes", &C::compiler_kept_bytes), flat(&C::peak, "compiled_")};
}
constexpr auto json_fields(const Memory*) {
  return std::tuple{field("kind", &Memory::kind), field("eager_increase_bytes", &Memory::eager_increase_bytes),
                    flat(&Memory::eager_peak, "eager_"), flat(&Memory::compiled)};
}
constexpr auto json_fields(const Mismatch*) {
  return std::tuple{field("path", &Mismatch::path), field("reason", &Mismatch::reason)};
}
constexpr auto json_fields(const NotCompared*) {
  return std::tuple{field("path", &NotCompared::path), field("type", &NotCompared::type)};
}
constexpr auto json_fields(const Tolerance*) {  // the multiplier is not written
  return std::tuple{field("rtol", &Tolerance::rtol), field("atol", &Tolerance::atol)};
}
constexpr auto json_fields(const LeafReference*) {
  using R = LeafReference;
  return std::tuple{field("eager_max_error", &R::eager_max_error),
                    field("compiled_max_error", &R::compiled_max_error),
                    field("eager_rms_error", &R::eager_rms_error),
                    field("compiled_rms_error", &R::compiled_rms_error),
                    field("multiplier", &R::multiplier),
                    field("out_of_tolerance", &R::out_of_tolerance),
                    field("worst_index", &R::worst_index),
                    field("reference_at_worst", &R::reference_at_worst),
                    field("expected_at_worst", &R::expected_at_worst),
                    field("actual_at_worst", &R::actual_at_worst)};
}
constexpr auto json_fields(const LeafMeasured*) {
  using M = LeafMeasured;
  return std::tuple{field("max_abs_diff", &M::max_abs_diff),
                    field("max_rel_diff", &M::max_rel_diff),
                    field("out_of_tolerance", &M::out_of_tolerance),
                    field("worst_index", &M::worst_index),
                    field("expected_at_worst", &M::expected_at_worst, element_json, element_from),
                    field("actual_at_worst", &M::actual_at_worst, element_json, element_from),
                    field("reference", &M::reference, kAbsent)};
}
constexpr auto json_fields(const LeafCheck*) {
  using L = LeafCheck;
  return std::tuple{field("path", &L::path),
                    field("dtype", &L::dtype),
                    field("numel", &L::numel),
                    field("match", &L::match),
                    field("basis", &L::basis, kNull),
                    flat(&L::tolerance),
                    field("fraction_out_of_tolerance", &L::fraction_out_of_tolerance),
                    flat(&L::measured)};
}
constexpr auto json_fields(const ReferenceRun*) {
  using R = ReferenceRun;
  return std::tuple{field("computed", &R::computed, kAbsent), field("dtype", &R::dtype, kAbsent),
                    field("reason", &R::reason, kAbsent)};
}
constexpr auto json_fields(const CheckCosts*) {
  using C = CheckCosts;
  return std::tuple{field("eager_ns", &C::eager_ns, kAbsent), field("compiled_ns", &C::compiled_ns, kAbsent),
                    field("compare_ns", &C::compare_ns, kAbsent), field("reference_ns", &C::reference_ns, kAbsent)};
}
constexpr auto json_fields(const Correctness*) {
  using C = Correctness;
  return std::tuple{field("checked", &C::checked),
                    field("match", &C::match),
                    field("nondeterministic", &C::nondeterministic),
                    field("mismatches", &C::mismatches),
                    field("leaves", &C::leaves, kAbsent),
                    field("basis", &C::basis, kAbsent),
                    field("differing_parameters", &C::differing_parameters, kAbsent),
                    field("leaf_results", &C::leaf_results, kAbsent),
                    field("not_compared", &C::not_compared, kAbsent),
                    field("fallback_random", &C::fallback_random, kAbsent),
                    field("eager_used_rng", &C::eager_used_rng, kAbsent),
                    field("seeded", &C::seeded, kAbsent),
                    field("eager_differing", &C::eager_differing, kAbsent),
                    field("eager_max_self_diff", &C::eager_max_self_diff, kAbsent),
                    field("reference", &C::reference, kAbsent),
                    field("agent_cost_ns", &C::agent_cost, kAbsent),
                    field("check_s", &C::check_s, kAbsent)};
}
constexpr auto json_fields(const AllocatorSpeedup*) {
  using S = AllocatorSpeedup;
  return std::tuple{field("estimate", &S::estimate), field("low", &S::low), field("high", &S::high),
                    field("confidence", &S::confidence)};
}
constexpr auto json_fields(const AllocatorFigures*) {  // in the state's entry; none: no process ran
  using F = AllocatorFigures;
  return std::tuple{field("detected", &F::detected),       field("eager_ns", &F::eager_ns),
                    field("compiled_ns", &F::compiled_ns), field("speedup", &F::speedup),
                    field("blocks", &F::blocks),           field("sampling_s", &F::sampling_s)};
}
constexpr auto json_fields(const AllocatorStateEntry*) {
  using S = AllocatorStateEntry;
  return std::tuple{field("state", &S::state),
                    field("description", &S::description),
                    field("library", &S::library),
                    field("reason", &S::reason),
                    flat(&S::figures),
                    custom<S>("status", state_status_json, state_status_from)};
}
constexpr auto json_fields(const DetectedAllocator*) {
  using D = DetectedAllocator;
  return std::tuple{field("kind", &D::kind), field("library", &D::library), field("settled", &D::settled),
                    field("ld_preload", &D::ld_preload)};
}
constexpr auto json_fields(const AllocatorComparePlan*) {
  using P = AllocatorComparePlan;
  return std::tuple{field("enabled", &P::enabled), field("skipped_reason", &P::skipped_reason),
                    field("budget_s", &P::budget_s), field("row", &P::row)};
}
constexpr auto json_fields(const AllocatorComparison*) {
  using A = AllocatorComparison;
  return std::tuple{field("state", &A::state),          field("description", &A::description),
                    field("library", &A::library),      field("ld_preload", &A::ld_preload),
                    field("settled", &A::settled),      field("detected", &A::detected),
                    field("compare", &A::compare),      field("states", &A::states),
                    field("differs", &A::differs),      field("processes_disagree", &A::processes_disagree),
                    field("best_state", &A::best_state)};
}
constexpr auto json_fields(const Flag*) {
  return std::tuple{field("code", &Flag::code), field("applies_to", &Flag::applies_to), field("text", &Flag::text)};
}
constexpr auto json_fields(const GraphBreakReason*) {
  return std::tuple{field("reason", &GraphBreakReason::reason), field("count", &GraphBreakReason::count)};
}
constexpr auto json_fields(const WarmupCounters*) {  // in the row
  using W = WarmupCounters;
  return std::tuple{field("graphs", &W::graphs), field("frames_compiled_in_warmup", &W::frames),
                    field("graph_break_reasons", &W::graph_break_reasons), field("skip_reasons", &W::skip_reasons)};
}
constexpr auto json_fields(const OutlierCount*) {
  using O = OutlierCount;
  return std::tuple{field("count", &O::count), field("fraction", &O::fraction), field("high", &O::high),
                    field("low", &O::low), field("relative_fallback", &O::relative_fallback)};
}
constexpr auto json_fields(const Load*) {
  return std::tuple{field("loadavg_1m_max", &Load::loadavg_1m_max), field("cpus", &Load::cpus),
                    field("involuntary_switches_per_s", &Load::involuntary_switches_per_s)};
}
constexpr auto json_fields(const Sampling*) {  // in the row
  using S = Sampling;
  return std::tuple{
      field("calls_per_sample", &S::calls_per_sample, both_sides_json, both_sides_from),
      field("samples_per_block", &S::samples_per_block),
      group("block_warmup_ns", field("eager", &S::block_warmup_eager), field("compiled", &S::block_warmup_compiled)),
      group("outliers", field("eager", &S::outliers_eager), field("compiled", &S::outliers_compiled)),
      field("sampling_s", &S::seconds),
      field("graph_breaks_during_measurement", &S::graph_breaks),
      field("load", &S::load)};
}
constexpr auto json_fields(const BenchRow::RawSamples*) {
  using S = BenchRow::RawSamples;
  return std::tuple{custom<S>("calls_per_sample", samples_calls_json, samples_calls_from), field("eager", &S::eager_ns),
                    field("compiled", &S::compiled_ns)};
}
constexpr auto json_fields(const Aoti*) {
  return std::tuple{field("export_ns", &Aoti::export_time),
                    field("package_ns", &Aoti::package_time),
                    custom<Aoti>("package_compile_ns", package_compile_json),
                    field("package_bytes", &Aoti::package_bytes),
                    field("load_ns", &Aoti::load),
                    field("timed_from", &Aoti::timed_from, kNull),
                    field("runner_note", &Aoti::runner_note, kNull),
                    field("package_path", &Aoti::package_path, kNull)};
}
constexpr auto json_fields(const BenchRow*) {
  using R = BenchRow;
  return std::tuple{field("backend", &R::backend),
                    field("mode", &R::mode),
                    field("dynamic", &R::dynamic),
                    field("fullgraph", &R::fullgraph),
                    field("label", &R::label),
                    field("status", &R::status),
                    field("error", &R::error),
                    field("speedup", &R::speedup),
                    field("latency", &R::latency),
                    field("warmup_curve_ns", &R::warmup_curve_ns),
                    field("steady_state", &R::steady_state),
                    custom<R>("compile", row_compile_json, row_compile_from),
                    field("break_even", &R::break_even),
                    field("break_even_calls", &R::break_even_calls),
                    field("break_even_calls_warm", &R::break_even_calls_warm),
                    field("harness_floor_ns", &R::harness_floor),
                    field("blocks_dropped_for_recompile", &R::blocks_dropped_for_recompile),
                    field("correctness", &R::correctness),
                    custom<R>("breakdown", row_breakdown_json, row_breakdown_from),
                    field("memory", &R::memory),
                    field("recompiles_during_measurement", &R::recompiles_during_measurement),
                    field("graph_breaks", &R::graph_breaks),
                    flat(&R::warmup_counters),
                    field("cudagraph_skips", &R::cudagraph_skips, kAbsent),
                    flat(&R::sampling),
                    field("blocks", &R::blocks),
                    field("stop_reason", &R::stop_reason),
                    field("clock_resolution_ns", &R::clock_resolution),
                    field("flags", &R::flags),
                    field("samples", &R::samples, kAbsent),
                    field("aoti", &R::aoti, kAbsent)};
}
constexpr auto json_fields(const Settings*) {
  using S = Settings;
  return std::tuple{field("looks", &S::looks, kAbsent),
                    field("notes", &S::notes),
                    field("backends", &S::backends),
                    field("modes", &S::modes),
                    field("dynamic", &S::dynamic),
                    field("fullgraph", &S::fullgraph),
                    field("precision", &S::precision),
                    field("budget_s", &S::budget_s),
                    field("warmup_calls", &S::warmup_calls),
                    field("eager_warmup_calls", &S::eager_warmup_calls),
                    field("min_blocks", &S::min_blocks),
                    field("check", &S::check),
                    field("compile_repeats", &S::compile_repeats, kAbsent),
                    field("rtol", &S::rtol),
                    field("atol", &S::atol),
                    field("compile_time", &S::compile_time),
                    field("memory", &S::memory),
                    field("raw", &S::raw),
                    field("eager_via", &S::eager_via),
                    field("allocator", &S::allocator, kAbsent),
                    field("allocator_compare", &S::allocator_compare, kAbsent),
                    field("breakdown", &S::breakdown, kAbsent),
                    field("train", &S::train),
                    field("params", &S::params),
                    field("device", &S::device),
                    field("dtype", &S::dtype)};
}
constexpr auto json_fields(const Clock*) {
  return std::tuple{field("resolution_ns", &Clock::resolution),
                    field("implementation", &Clock::implementation, kAbsent),
                    field("declared_resolution_ns", &Clock::declared_resolution, kAbsent)};
}
constexpr auto json_fields(const MemoryReading*) {
  using M = MemoryReading;
  return std::tuple{field("kind", &M::kind), field("peak_bytes", &M::peak_bytes),
                    field("baseline_bytes", &M::baseline_bytes), field("increase_bytes", &M::increase_bytes),
                    field("method", &M::method)};
}
constexpr auto json_fields(const EagerBaseline*) {
  using E = EagerBaseline;
  return std::tuple{field("warmup_ns", &E::warmup_ns), field("first_call_ns", &E::first_call),
                    field("steady_ns", &E::steady), field("memory", &E::memory)};
}
constexpr auto json_fields(const TargetProcess*) {  // in the section
  using P = TargetProcess;
  return std::tuple{field("num_threads", &P::num_threads), field("device_type", &P::device_type),
                    field("set_stance_available", &P::set_stance_available)};
}
constexpr auto json_fields(const BenchResult*) {
  using B = BenchResult;
  return std::tuple{flat(&B::process),
                    field("target", &B::target),
                    field("config", &B::config, kAbsent),
                    field("clock", &B::clock),
                    field("eager", &B::eager),
                    field("rows", &B::rows),
                    field("warnings", &B::warnings, warnings_json, warnings_from),
                    field("phase", &B::phase),
                    field("allocator", &B::allocator, kAbsent)};
}

}  // namespace tct::bench
