#pragma once
// The expect section's JSON fields (core/fields.hpp): each struct of expect/result.hpp listed once.
// What is not a plain field is spelled in expect/json.cpp: a sweep's values of any JSON type, a
// shift's value written as an integer when it counts things, the parts another command's
// reader spells (ceilings, skipped frames, eager parts, a fix's terms, an error record).
#include <string_view>

#include "core/fields.hpp"
#include "expect/json.hpp"
#include "expect/result.hpp"

namespace tct::expect {

inline constexpr std::string_view kBoundClassNames[] = {"overhead_bound", "memory_bound", "compute_bound", "unknown"};
constexpr const auto& names(const BoundClass*) { return kBoundClassNames; }
inline constexpr std::string_view kAssumesNames[] = {"captured", "graph_breaks_stay", "nothing_compiled",
                                                     "eager_part_stays"};
constexpr const auto& names(const Assumes*) { return kAssumesNames; }

// The spellings json.cpp gives (each a writer and its reader).
json sweep_values_json(const std::vector<SweepValue>& values);
std::vector<SweepValue> sweep_values_from(const json& j);
json sweep_value_json(const SweepValue& v);
json shift_value_json(const Shift& s);
void shift_value_from(const json& j, Shift& s);
json fixed_costs_source_json(const Prediction& p);
void fixed_costs_source_from(const json& j, Prediction& p);
json estimator_json(const ProfileSummary& p);
void estimator_from(const json& j, ProfileSummary& p);
json halves_json(const std::optional<std::pair<double, double>>& h);
std::optional<std::pair<double, double>> halves_from(const json& j);
json skipped_frames_json(const std::vector<explain::SkippedFrame>& frames);
std::vector<explain::SkippedFrame> skipped_frames_from(const json& j);
json eager_parts_json(const CompiledRunSummary& r);
void eager_parts_from(const json& j, CompiledRunSummary& r);
json graph_share_json(const CompiledRunSummary& r);
void graph_share_from(const json& j, CompiledRunSummary& r);
json suggestion_terms_json(const Suggestion& s);
void suggestion_terms_from(const json& j, Suggestion& s);
json suggestion_title_json(const Suggestion& s);
void suggestion_title_from(const json& j, Suggestion& s);
json error_record_json(const std::optional<report::ErrorRecord>& e);
json point_speedup_json(const SweepPoint& p);
void point_speedup_from(const json& j, SweepPoint& p);
json point_validation_json(const SweepPoint& p);
void point_validation_from(const json& j, SweepPoint& p);
json ceilings_json(const Machine& m);
void ceilings_from(const json& j, Machine& m);
json no_class_json(const ExpectResult& r);
void no_class_from(const json& j, ExpectResult& r);
json no_prediction_json(const ExpectResult& r);
void fixed_costs_from_machine(const json& j, ExpectResult& r);

using namespace core::fields::declare;

constexpr auto json_fields(const Reason*) { return std::tuple{TCT_FIELDS(Reason, metric, value, threshold, meaning)}; }
constexpr auto json_fields(const Term*) {
  return std::tuple{TCT_FIELDS(Term, share, keep, compiled_share), field("term", &Term::name)};
}
constexpr auto json_fields(const Shift*) {
  return std::tuple{TCT_FIELDS(Shift, factor), custom<Shift>("value", shift_value_json, shift_value_from),
                    TCT_FIELDS(Shift, effect)};
}
constexpr auto json_fields(const TopOp*) {
  return std::tuple{TCT_FIELDS(TopOp, name, count_per_call, ns_per_call, self_ns_per_call),
                    field("class", &TopOp::cls)};
}
constexpr auto json_fields(const SpeedupRange*) {  // the model's spread is not written
  return std::tuple{TCT_FIELDS(SpeedupRange, low, point, high)};
}
constexpr auto json_fields(const MeasuredSpeedup*) {
  return std::tuple{TCT_FIELDS(MeasuredSpeedup, estimate, low, high)};
}
constexpr auto json_fields(const Validation*) {
  using V = Validation;
  return std::tuple{TCT_FIELDS(V, predicted, measured, verdict, compile_worth_it, direction_right, summary),
                    field("class", &V::cls)};
}
constexpr auto json_fields(const IntervalModel*) {
  using I = IntervalModel;
  return std::tuple{
      TCT_FIELDS(I, log_bias, log_sigma, z, generated_share),
      group("calibration", TCT_FIELDS(I, fitted_on, calibration_cases, validation_cases, validation_inside))};
}
constexpr auto json_fields(const Prediction*) {
  using P = Prediction;
  return std::tuple{flat(&P::range), TCT_FIELDS_WITH(P, kAbsent, terms), TCT_FIELDS(P, compiled_call, op_floor),
                    custom<P>("compiled_call_source", fixed_costs_source_json, fixed_costs_source_from),
                    TCT_FIELDS(P, interval, shifts, assumes)};
}
constexpr auto json_fields(const CompiledRunSummary*) {
  using C = CompiledRunSummary;
  return std::tuple{TCT_FIELDS(C, graph_count, graph_break_count),
                    field("skipped_frames", &C::skipped_frames, skipped_frames_json, skipped_frames_from),
                    TCT_FIELDS(C, nothing_compiled, if_captured),
                    // Written when there is one: a document without code that runs eagerly reads as before.
                    custom<C>("eager_parts", eager_parts_json, eager_parts_from),
                    custom<C>("compiled_share", graph_share_json, graph_share_from)};
}
constexpr auto json_fields(const ProfileSummary*) {
  using P = ProfileSummary;
  return std::tuple{TCT_FIELDS(P, ops_per_call),
                    group("op_time_distribution", field("n", &P::op_count), field("min_ns", &P::op_min),
                          field("p50_ns", &P::op_p50), field("p90_ns", &P::op_p90), field("p99_ns", &P::op_p99),
                          field("max_ns", &P::op_max), field("mean_ns", &P::op_mean)),
                    TCT_FIELDS(P, wall_per_call, profiled_wall_per_call, in_op_per_call),
                    custom<P>("estimator", estimator_json, estimator_from),
                    TCT_FIELDS(P, in_op_fraction, in_op_fraction_p10, in_op_fraction_p90, overhead_fraction),
                    field("overhead_fraction_halves", &P::overhead_fraction_halves, halves_json, halves_from),
                    TCT_FIELDS(P, library_fraction, conv_fraction, kept_arithmetic_fraction, fused_kernel_fraction,
                               device_busy_fraction, kernel_launches, pointwise_ops_per_call, reduction_ops_per_call,
                               library_ops_per_call, events_truncated, top_ops)};
}
constexpr auto json_fields(const Suggestion*) {
  using S = Suggestion;
  return std::tuple{TCT_FIELDS(S, rank), custom<S>("title", suggestion_title_json, suggestion_title_from),
                    TCT_FIELDS(S, why, how, expected_gain),
                    // A document from before terms has none.
                    custom<S>("terms", suggestion_terms_json, suggestion_terms_from)};
}
constexpr auto json_fields(const Roofline*) {
  using R = Roofline;
  return std::tuple{TCT_FIELDS(R, attainable_flops, achieved_flops, fraction, roofline_time_ns)};
}
constexpr auto json_fields(const TimeShares*) {
  using T = TimeShares;
  return std::tuple{TCT_FIELDS(T, kept_arithmetic, library, conv), field("outside_ops", &T::outside),
                    field("fixed_cost", &T::fixed), field("memory_traffic", &T::memory),
                    field("other_compute", &T::other)};
}
constexpr auto json_fields(const Analysis*) {  // in the section
  using A = Analysis;
  return std::tuple{TCT_FIELDS(A, borderline_with, decided_by, roofline, time_shares, compiled_run, profile,
                               flops_per_call, bytes_per_call, boundary_bytes_per_call, fused_kernel_bytes_per_call,
                               element_ops_per_call, outside_tensors, module_calls, arithmetic_intensity, suggestions),
                    TCT_FIELDS_WITH(A, kAbsent, flops_error), field("class", &A::cls),
                    field("predicted_speedup", &A::predicted)};
}
constexpr auto json_fields(const Machine*) {  // in the section
  using M = Machine;
  return std::tuple{custom<M>("ceilings", ceilings_json, ceilings_from), TCT_FIELDS(M, device),
                    group("ceilings_cache", field("path", &M::cache_path), field("key", &M::cache_key),
                          field("hit", &M::cache_hit), field("written", &M::cache_written, kAbsent)),
                    field("ceilings_measurement", &M::measurement, kAbsent)};
}
constexpr auto json_fields(const SweepPoint::Analysed*) {  // in the point
  using A = SweepPoint::Analysed;
  return std::tuple{field("inputs", &A::inputs, to_json, inputs_from_json), field("class", &A::cls),
                    // Only when set: a point written before points kept theirs reads back byte for byte.
                    TCT_FIELDS_WITH(A, kAbsent, borderline_with), field("predicted_speedup", &A::predicted),
                    group("profile", TCT_FIELDS(A, wall_per_call, overhead_fraction, ops_per_call)),
                    TCT_FIELDS(A, arithmetic_intensity, decided_by)};
}
constexpr auto json_fields(const SweepPoint*) {
  using P = SweepPoint;
  return std::tuple{field("value", &P::value, sweep_value_json, sweep_value_from_json),
                    field("error", &P::error, error_record_json, report::error_record_from_json), flat(&P::analysed),
                    custom<P>("speedup", point_speedup_json, point_speedup_from),
                    custom<P>("validation", point_validation_json, point_validation_from)};
}
constexpr auto json_fields(const ClassChange*) {
  using C = ClassChange;
  return std::tuple{field("from_value", &C::from_value, sweep_value_json, sweep_value_from_json),
                    field("to_value", &C::to_value, sweep_value_json, sweep_value_from_json),
                    TCT_FIELDS(C, from_class, to_class)};
}
constexpr auto json_fields(const Sweep*) {
  using S = Sweep;
  return std::tuple{TCT_FIELDS(S, param), field("values", &S::values, sweep_values_json, sweep_values_from),
                    TCT_FIELDS(S, points, class_changes)};
}
constexpr auto json_fields(const ExpectResult*) {
  using R = ExpectResult;
  return std::tuple{TCT_FIELDS(R, target, sweep, validation), flat(&R::machine), flat(&R::analysis),
                    // "class" is null until the profile: then there is no analysis.
                    custom<R>("class", no_class_json, no_class_from),
                    // Before the fixed costs were recorded, the prediction used the ceilings'.
                    custom<R>("predicted_speedup", no_prediction_json, fixed_costs_from_machine)};
}

}  // namespace tct::expect
