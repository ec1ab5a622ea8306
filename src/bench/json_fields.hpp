#pragma once
// The bench section's JSON fields (core/fields.hpp): each struct of bench/result.hpp listed once.
// A list's order is the order its fields are read in (a verdict after its interval); the keys are
// written sorted whatever the order, as every section's are. What is not a plain field is spelled in
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

using namespace core::fields::declare;

constexpr auto json_fields(const RowError*) {
  using E = RowError;
  return std::tuple{TCT_FIELDS(E, kind, stage, message, hint), TCT_FIELDS_WITH(E, kAbsent, exit_code)};
}
constexpr auto json_fields(const ProcessSpeedup*) {
  using P = ProcessSpeedup;
  return std::tuple{TCT_FIELDS(P, blocks, speedup, segment_speedups)};
}
constexpr auto json_fields(const Speedup*) {
  using S = Speedup;
  return std::tuple{TCT_FIELDS_WITH(S, kAbsent, confidence, look_confidence, looks, segments, between_segment_sd,
                                    within_sd, method, per_process),
                    flat(&S::interval),
                    // Decided again from the interval by the one rule (a document written under an
                    // older rule loads with the verdict its interval supports).
                    custom<S>("verdict", speedup_verdict_json, speedup_verdict_from),
                    custom<S>("inconclusive", inconclusive_json),  // what documents before "verdict" had
                    TCT_FIELDS_WITH(S, kAbsent, processes)};
}
constexpr auto json_fields(const Latency*) {
  return std::tuple{field("eager", &Latency::eager_ns), field("compiled", &Latency::compiled_ns)};
}
constexpr auto json_fields(const SteadyState*) {
  using S = SteadyState;
  return std::tuple{TCT_FIELDS(S, found, start_index, level, reason, estimate)};
}
constexpr auto json_fields(const CompileSpread*) {
  using S = CompileSpread;
  return std::tuple{TCT_FIELDS(S, median, min, max, samples_ns, n)};
}
constexpr auto json_fields(const CacheCounters*) {
  using C = CacheCounters;
  return std::tuple{TCT_FIELDS(C, hit, fxgraph_cache_hit, fxgraph_cache_miss, autograd_cache_hit, autograd_cache_miss)};
}
constexpr auto json_fields(const Compile::Repeats*) {
  using R = Compile::Repeats;
  return std::tuple{TCT_FIELDS(R, cold, warm, repeats, single_measurement, warm_cache_hit)};
}
constexpr auto json_fields(const Compile*) {
  using C = Compile;
  return std::tuple{TCT_FIELDS(C, first_call, cold, warm, cold_source, breakdown),
                    TCT_FIELDS_WITH(C, kAbsent, warm_breakdown), flat(&C::repeated),
                    TCT_FIELDS_WITH(C, kAbsent, warm_cache, error)};
}
constexpr auto json_fields(const CallRange*) { return std::tuple{TCT_FIELDS(CallRange, estimate, low, high)}; }
constexpr auto json_fields(const BreakEven*) { return std::tuple{TCT_FIELDS(BreakEven, verdict, cold, warm)}; }
constexpr auto json_fields(const MemoryPeak*) {  // {side}_peak_bytes and {side}_method in Memory
  return std::tuple{TCT_FIELDS(MemoryPeak, method), field("peak_bytes", &MemoryPeak::bytes)};
}
constexpr auto json_fields(const Memory::Compiled*) {
  using C = Memory::Compiled;
  return std::tuple{TCT_FIELDS(C, compile_peak_increase_bytes, compiler_kept_bytes),
                    field("compiled_increase_bytes", &C::increase_bytes), flat(&C::peak, "compiled_")};
}
constexpr auto json_fields(const Memory*) {
  return std::tuple{TCT_FIELDS(Memory, kind, eager_increase_bytes), flat(&Memory::eager_peak, "eager_"),
                    flat(&Memory::compiled)};
}
constexpr auto json_fields(const Mismatch*) { return std::tuple{TCT_FIELDS(Mismatch, path, reason)}; }
constexpr auto json_fields(const NotCompared*) { return std::tuple{TCT_FIELDS(NotCompared, path, type)}; }
constexpr auto json_fields(const Tolerance*) {  // the multiplier is not written
  return std::tuple{TCT_FIELDS(Tolerance, rtol, atol)};
}
constexpr auto json_fields(const LeafReference*) {
  using R = LeafReference;
  return std::tuple{TCT_FIELDS(R, eager_max_error, compiled_max_error, eager_rms_error, compiled_rms_error, multiplier,
                               out_of_tolerance, worst_index, reference_at_worst, expected_at_worst, actual_at_worst)};
}
constexpr auto json_fields(const LeafMeasured*) {
  using M = LeafMeasured;
  return std::tuple{TCT_FIELDS(M, max_abs_diff, max_rel_diff, out_of_tolerance, worst_index),
                    field("expected_at_worst", &M::expected_at_worst, element_json, element_from),
                    field("actual_at_worst", &M::actual_at_worst, element_json, element_from),
                    TCT_FIELDS_WITH(M, kAbsent, reference)};
}
constexpr auto json_fields(const LeafCheck*) {
  using L = LeafCheck;
  return std::tuple{TCT_FIELDS(L, path, dtype, numel, match), TCT_FIELDS_WITH(L, kNull, basis), flat(&L::tolerance),
                    TCT_FIELDS(L, fraction_out_of_tolerance), flat(&L::measured)};
}
constexpr auto json_fields(const ReferenceRun*) {
  using R = ReferenceRun;
  return std::tuple{TCT_FIELDS_WITH(R, kAbsent, computed, dtype, reason)};
}
constexpr auto json_fields(const CheckCosts*) {
  using C = CheckCosts;
  return std::tuple{TCT_FIELDS_WITH(C, kAbsent, eager_ns, compiled_ns, compare_ns, reference_ns)};
}
constexpr auto json_fields(const Correctness*) {
  using C = Correctness;
  return std::tuple{
      TCT_FIELDS(C, checked, match, nondeterministic, mismatches),
      TCT_FIELDS_WITH(C, kAbsent, leaves, basis, differing_parameters, leaf_results, not_compared, fallback_random,
                      eager_used_rng, seeded, eager_differing, eager_max_self_diff, reference, check_s),
      field("agent_cost_ns", &C::agent_cost, kAbsent)};  // the figures' own keys end in _ns
}
constexpr auto json_fields(const AllocatorSpeedup*) {
  using S = AllocatorSpeedup;
  return std::tuple{TCT_FIELDS(S, estimate, low, high, confidence)};
}
constexpr auto json_fields(const AllocatorFigures*) {  // in the state's entry; none: no process ran
  using F = AllocatorFigures;
  return std::tuple{TCT_FIELDS(F, detected, eager_ns, compiled_ns, speedup, blocks, sampling_s)};
}
constexpr auto json_fields(const AllocatorStateEntry*) {
  using S = AllocatorStateEntry;
  return std::tuple{TCT_FIELDS(S, state, description, library, reason), flat(&S::figures),
                    custom<S>("status", state_status_json, state_status_from)};
}
constexpr auto json_fields(const DetectedAllocator*) {
  using D = DetectedAllocator;
  return std::tuple{TCT_FIELDS(D, kind, library, settled, ld_preload)};
}
constexpr auto json_fields(const AllocatorComparePlan*) {
  using P = AllocatorComparePlan;
  return std::tuple{TCT_FIELDS(P, enabled, skipped_reason, budget_s, row)};
}
constexpr auto json_fields(const AllocatorComparison*) {
  using A = AllocatorComparison;
  return std::tuple{TCT_FIELDS(A, state, description, library, ld_preload, settled, detected, compare, states, differs,
                               processes_disagree, best_state)};
}
constexpr auto json_fields(const Flag*) { return std::tuple{TCT_FIELDS(Flag, code, applies_to, text)}; }
constexpr auto json_fields(const GraphBreakReason*) { return std::tuple{TCT_FIELDS(GraphBreakReason, reason, count)}; }
constexpr auto json_fields(const WarmupCounters*) {  // in the row
  using W = WarmupCounters;
  return std::tuple{TCT_FIELDS(W, graphs, graph_break_reasons, skip_reasons),
                    field("frames_compiled_in_warmup", &W::frames)};
}
constexpr auto json_fields(const OutlierCount*) {
  using O = OutlierCount;
  return std::tuple{TCT_FIELDS(O, count, fraction, high, low, relative_fallback)};
}
constexpr auto json_fields(const Load*) {
  return std::tuple{TCT_FIELDS(Load, loadavg_1m_max, cpus, involuntary_switches_per_s)};
}
constexpr auto json_fields(const Sampling*) {  // in the row
  using S = Sampling;
  return std::tuple{
      field("calls_per_sample", &S::calls_per_sample, both_sides_json, both_sides_from),
      TCT_FIELDS(S, samples_per_block),
      group("block_warmup_ns", field("eager", &S::block_warmup_eager), field("compiled", &S::block_warmup_compiled)),
      group("outliers", field("eager", &S::outliers_eager), field("compiled", &S::outliers_compiled)),
      TCT_FIELDS(S, load),
      field("sampling_s", &S::seconds),
      field("graph_breaks_during_measurement", &S::graph_breaks)};
}
constexpr auto json_fields(const BenchRow::RawSamples*) {
  using S = BenchRow::RawSamples;
  return std::tuple{custom<S>("calls_per_sample", samples_calls_json, samples_calls_from), field("eager", &S::eager_ns),
                    field("compiled", &S::compiled_ns)};
}
constexpr auto json_fields(const Aoti*) {
  return std::tuple{field("export_ns", &Aoti::export_time), field("package_ns", &Aoti::package_time),
                    custom<Aoti>("package_compile_ns", package_compile_json), TCT_FIELDS(Aoti, package_bytes, load),
                    TCT_FIELDS_WITH(Aoti, kNull, timed_from, runner_note, package_path)};
}
constexpr auto json_fields(const BenchRow*) {
  using R = BenchRow;
  return std::tuple{TCT_FIELDS(R, backend, mode, dynamic, fullgraph, label, status, error, speedup, latency,
                               warmup_curve_ns, steady_state),
                    custom<R>("compile", row_compile_json, row_compile_from),
                    TCT_FIELDS(R, break_even, break_even_calls, break_even_calls_warm, harness_floor,
                               blocks_dropped_for_recompile, correctness),
                    custom<R>("breakdown", row_breakdown_json, row_breakdown_from),
                    TCT_FIELDS(R, memory, recompiles_during_measurement, graph_breaks),
                    flat(&R::warmup_counters),
                    TCT_FIELDS_WITH(R, kAbsent, cudagraph_skips),
                    flat(&R::sampling),
                    TCT_FIELDS(R, blocks, stop_reason, clock_resolution, flags),
                    TCT_FIELDS_WITH(R, kAbsent, samples, aoti)};
}
constexpr auto json_fields(const Settings*) {
  using S = Settings;
  return std::tuple{
      TCT_FIELDS_WITH(S, kAbsent, looks, compile_repeats, allocator, allocator_compare, breakdown),
      TCT_FIELDS(S, notes, backends, modes, dynamic, fullgraph, precision, budget_s, warmup_calls, eager_warmup_calls,
                 min_blocks, check, rtol, atol, compile_time, memory, raw, eager_via, train, params, device, dtype)};
}
constexpr auto json_fields(const Clock*) {
  return std::tuple{TCT_FIELDS(Clock, resolution),
                    TCT_FIELDS_WITH(Clock, kAbsent, implementation, declared_resolution)};
}
constexpr auto json_fields(const MemoryReading*) {
  using M = MemoryReading;
  return std::tuple{TCT_FIELDS(M, kind, peak_bytes, baseline_bytes, increase_bytes, method)};
}
constexpr auto json_fields(const EagerBaseline*) {
  using E = EagerBaseline;
  return std::tuple{TCT_FIELDS(E, warmup_ns, first_call, steady, memory)};
}
constexpr auto json_fields(const TargetProcess*) {  // in the section
  using P = TargetProcess;
  return std::tuple{TCT_FIELDS(P, num_threads, device_type, set_stance_available)};
}
constexpr auto json_fields(const BenchResult*) {
  using B = BenchResult;
  return std::tuple{flat(&B::process),
                    TCT_FIELDS(B, target, clock, eager, rows),
                    TCT_FIELDS_WITH(B, kAbsent, config),
                    field("warnings", &B::warnings, warnings_json, warnings_from),
                    TCT_FIELDS(B, phase),
                    TCT_FIELDS_WITH(B, kAbsent, allocator)};
}

}  // namespace tct::bench
