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

using core::fields::custom;
using core::fields::field;
using core::fields::flat;
using core::fields::group;
inline constexpr auto kAbsent = core::fields::Empty::Absent;

constexpr auto json_fields(const Reason*) {
  return std::tuple{field("metric", &Reason::metric), field("value", &Reason::value),
                    field("threshold", &Reason::threshold), field("meaning", &Reason::meaning)};
}
constexpr auto json_fields(const Term*) {
  return std::tuple{field("term", &Term::name), field("share", &Term::share), field("keep", &Term::keep),
                    field("compiled_share", &Term::compiled_share)};
}
constexpr auto json_fields(const Shift*) {
  return std::tuple{field("factor", &Shift::factor), custom<Shift>("value", shift_value_json, shift_value_from),
                    field("effect", &Shift::effect)};
}
constexpr auto json_fields(const TopOp*) {
  return std::tuple{field("name", &TopOp::name), field("class", &TopOp::cls),
                    field("count_per_call", &TopOp::count_per_call), field("ns_per_call", &TopOp::ns_per_call),
                    field("self_ns_per_call", &TopOp::self_ns_per_call)};
}
constexpr auto json_fields(const SpeedupRange*) {  // the model's spread is not written
  return std::tuple{field("low", &SpeedupRange::low), field("point", &SpeedupRange::point),
                    field("high", &SpeedupRange::high)};
}
constexpr auto json_fields(const MeasuredSpeedup*) {
  return std::tuple{field("estimate", &MeasuredSpeedup::estimate), field("low", &MeasuredSpeedup::low),
                    field("high", &MeasuredSpeedup::high)};
}
constexpr auto json_fields(const Validation*) {
  using V = Validation;
  return std::tuple{field("predicted", &V::predicted),
                    field("measured", &V::measured),
                    field("verdict", &V::verdict),
                    field("class", &V::cls),
                    field("compile_worth_it", &V::compile_worth_it),
                    field("direction_right", &V::direction_right),
                    field("summary", &V::summary)};
}
constexpr auto json_fields(const IntervalModel*) {
  using I = IntervalModel;
  return std::tuple{
      field("log_bias", &I::log_bias), field("log_sigma", &I::log_sigma), field("z", &I::z),
      field("generated_share", &I::generated_share),
      group("calibration", field("fitted_on", &I::fitted_on), field("calibration_cases", &I::calibration_cases),
            field("validation_cases", &I::validation_cases), field("validation_inside", &I::validation_inside))};
}
constexpr auto json_fields(const Prediction*) {
  using P = Prediction;
  return std::tuple{flat(&P::range),
                    field("terms", &P::terms, kAbsent),
                    field("compiled_call_ns", &P::compiled_call),
                    field("op_floor_ns", &P::op_floor),
                    custom<P>("compiled_call_source", fixed_costs_source_json, fixed_costs_source_from),
                    field("interval", &P::interval),
                    field("shifts", &P::shifts),
                    field("assumes", &P::assumes)};
}
constexpr auto json_fields(const CompiledRunSummary*) {
  using C = CompiledRunSummary;
  return std::tuple{field("graph_count", &C::graph_count), field("graph_break_count", &C::graph_break_count),
                    field("skipped_frames", &C::skipped_frames, skipped_frames_json, skipped_frames_from),
                    field("nothing_compiled", &C::nothing_compiled), field("if_captured", &C::if_captured),
                    // Written when there is one: a document without code that runs eagerly reads as before.
                    custom<C>("eager_parts", eager_parts_json, eager_parts_from),
                    custom<C>("compiled_share", graph_share_json, graph_share_from)};
}
constexpr auto json_fields(const ProfileSummary*) {
  using P = ProfileSummary;
  return std::tuple{field("ops_per_call", &P::ops_per_call),
                    group("op_time_distribution", field("n", &P::op_count), field("min_ns", &P::op_min),
                          field("p50_ns", &P::op_p50), field("p90_ns", &P::op_p90), field("p99_ns", &P::op_p99),
                          field("max_ns", &P::op_max), field("mean_ns", &P::op_mean)),
                    field("wall_per_call_ns", &P::wall_per_call),
                    field("profiled_wall_per_call_ns", &P::profiled_wall_per_call),
                    field("in_op_per_call_ns", &P::in_op_per_call),
                    custom<P>("estimator", estimator_json, estimator_from),
                    field("in_op_fraction", &P::in_op_fraction),
                    field("in_op_fraction_p10", &P::in_op_fraction_p10),
                    field("in_op_fraction_p90", &P::in_op_fraction_p90),
                    field("overhead_fraction", &P::overhead_fraction),
                    field("overhead_fraction_halves", &P::overhead_fraction_halves, halves_json, halves_from),
                    field("library_fraction", &P::library_fraction),
                    field("conv_fraction", &P::conv_fraction),
                    field("kept_arithmetic_fraction", &P::kept_arithmetic_fraction),
                    field("fused_kernel_fraction", &P::fused_kernel_fraction),
                    field("device_busy_fraction", &P::device_busy_fraction),
                    field("kernel_launches", &P::kernel_launches),
                    field("pointwise_ops_per_call", &P::pointwise_ops_per_call),
                    field("reduction_ops_per_call", &P::reduction_ops_per_call),
                    field("library_ops_per_call", &P::library_ops_per_call),
                    field("events_truncated", &P::events_truncated),
                    field("top_ops", &P::top_ops)};
}
constexpr auto json_fields(const Suggestion*) {
  using S = Suggestion;
  return std::tuple{field("rank", &S::rank), custom<S>("title", suggestion_title_json, suggestion_title_from),
                    field("why", &S::why), field("how", &S::how), field("expected_gain", &S::expected_gain),
                    // A document from before terms has none.
                    custom<S>("terms", suggestion_terms_json, suggestion_terms_from)};
}
constexpr auto json_fields(const Roofline*) {
  using R = Roofline;
  return std::tuple{field("attainable_flops", &R::attainable_flops), field("achieved_flops", &R::achieved_flops),
                    field("fraction", &R::fraction), field("roofline_time_ns", &R::roofline_time_ns)};
}
constexpr auto json_fields(const TimeShares*) {
  using T = TimeShares;
  return std::tuple{field("outside_ops", &T::outside),
                    field("fixed_cost", &T::fixed),
                    field("memory_traffic", &T::memory),
                    field("other_compute", &T::other),
                    field("kept_arithmetic", &T::kept_arithmetic),
                    field("library", &T::library),
                    field("conv", &T::conv)};
}
constexpr auto json_fields(const Analysis*) {  // in the section
  using A = Analysis;
  return std::tuple{field("class", &A::cls),
                    field("borderline_with", &A::borderline_with),
                    field("decided_by", &A::decided_by),
                    field("roofline", &A::roofline),
                    field("time_shares", &A::time_shares),
                    field("predicted_speedup", &A::predicted),
                    field("compiled_run", &A::compiled_run),
                    field("profile", &A::profile),
                    field("flops_per_call", &A::flops_per_call),
                    field("bytes_per_call", &A::bytes_per_call),
                    field("boundary_bytes_per_call", &A::boundary_bytes_per_call),
                    field("fused_kernel_bytes_per_call", &A::fused_kernel_bytes_per_call),
                    field("element_ops_per_call", &A::element_ops_per_call),
                    field("outside_tensors", &A::outside_tensors),
                    field("module_calls", &A::module_calls),
                    field("arithmetic_intensity", &A::arithmetic_intensity),
                    field("flops_error", &A::flops_error, kAbsent),
                    field("suggestions", &A::suggestions)};
}
constexpr auto json_fields(const Machine*) {  // in the section
  using M = Machine;
  return std::tuple{custom<M>("ceilings", ceilings_json, ceilings_from), field("device", &M::device),
                    group("ceilings_cache", field("path", &M::cache_path), field("key", &M::cache_key),
                          field("hit", &M::cache_hit), field("written", &M::cache_written, kAbsent)),
                    field("ceilings_measurement", &M::measurement, kAbsent)};
}
constexpr auto json_fields(const SweepPoint::Analysed*) {  // in the point
  using A = SweepPoint::Analysed;
  return std::tuple{field("inputs", &A::inputs, to_json, inputs_from_json), field("class", &A::cls),
                    // Only when set: a point written before points kept theirs reads back byte for byte.
                    field("borderline_with", &A::borderline_with, kAbsent), field("predicted_speedup", &A::predicted),
                    group("profile", field("wall_per_call_ns", &A::wall_per_call),
                          field("overhead_fraction", &A::overhead_fraction), field("ops_per_call", &A::ops_per_call)),
                    field("arithmetic_intensity", &A::arithmetic_intensity), field("decided_by", &A::decided_by)};
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
                    field("from_class", &C::from_class), field("to_class", &C::to_class)};
}
constexpr auto json_fields(const Sweep*) {
  using S = Sweep;
  return std::tuple{field("param", &S::param), field("values", &S::values, sweep_values_json, sweep_values_from),
                    field("points", &S::points), field("class_changes", &S::class_changes)};
}
constexpr auto json_fields(const ExpectResult*) {
  using R = ExpectResult;
  return std::tuple{field("target", &R::target), field("sweep", &R::sweep), field("validation", &R::validation),
                    flat(&R::machine), flat(&R::analysis),
                    // "class" is null until the profile: then there is no analysis.
                    custom<R>("class", no_class_json, no_class_from),
                    // Before the fixed costs were recorded, the prediction used the ceilings'.
                    custom<R>("predicted_speedup", no_prediction_json, fixed_costs_from_machine)};
}

}  // namespace tct::expect
