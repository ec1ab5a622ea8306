#include "expect/json.hpp"

#include "core/json_read.hpp"

#include <algorithm>
#include <climits>

#include "core/json_number.hpp"
#include "explain/json.hpp"
#include "expect/suggestions.hpp"
#include "report/error_record.hpp"

namespace tct::expect {
namespace {

using core::duration_or_nan;
using core::duration_or_null;
using core::number_or_nan;
using core::number_or_null;

// Readers that never throw (core/json_read.hpp).
using namespace core::json_read;

int integer(const json& j, const char* key) {
  const json& v = at(j, key);
  return v.is_number() ? v.get<int>() : 0;
}
std::optional<BoundClass> class_or_none(const json& j, const char* key) {
  const json& v = at(j, key);
  if (!v.is_string()) return std::nullopt;
  return parse_class(v.get<std::string>());
}

// {low, point, high}: the three figures every range in the section has.
json range_json(const SpeedupRange& r) {
  return {{"low", number_or_null(r.low)}, {"point", number_or_null(r.point)}, {"high", number_or_null(r.high)}};
}
SpeedupRange range_of(const json& j) {
  SpeedupRange r;
  r.low = number_or_nan(j, "low");
  r.point = number_or_nan(j, "point");
  r.high = number_or_nan(j, "high");
  return r;
}

json reasons_json(const std::vector<Reason>& reasons) {
  json out = json::array();
  for (const auto& r : reasons)
    out.push_back({{"metric", r.metric},
                   {"value", number_or_null(r.value)},
                   {"threshold", number_or_null(r.threshold)},
                   {"meaning", r.meaning}});
  return out;
}

json measured_json(const MeasuredSpeedup& m) {
  return {{"estimate", number_or_null(m.estimate)}, {"low", number_or_null(m.low)}, {"high", number_or_null(m.high)}};
}

json validation_json(const std::optional<Validation>& v) {
  if (!v) return nullptr;
  return {{"predicted", range_json(v->predicted)},
          {"measured", measured_json(v->measured)},
          {"verdict", v->verdict},
          {"class", v->cls},
          {"compile_worth_it", v->compile_worth_it},
          {"direction_right", v->direction_right},
          {"summary", v->summary}};
}

json prediction_json(const Prediction& p) {
  json out = range_json(p.range);
  if (p.terms) {
    json terms = json::array();
    for (const auto& t : *p.terms)
      terms.push_back({{"term", t.name}, {"share", t.share}, {"keep", t.keep}, {"compiled_share", t.compiled_share}});
    out["terms"] = terms;
  }
  out["compiled_call_ns"] = duration_or_null(p.compiled_call);
  out["op_floor_ns"] = duration_or_null(p.op_floor);
  out["compiled_call_source"] = p.fixed_costs_from_profile ? "profile" : "ceilings";
  const IntervalModel& iv = p.interval;
  out["interval"] = {{"log_bias", iv.log_bias},
                     {"log_sigma", number_or_null(iv.log_sigma)},
                     {"z", iv.z},
                     {"generated_share", number_or_null(iv.generated_share)},
                     {"calibration",
                      {{"fitted_on", iv.fitted_on},
                       {"calibration_cases", iv.calibration_cases},
                       {"validation_cases", iv.validation_cases},
                       {"validation_inside", iv.validation_inside}}}};
  out["shifts"] = p.shifts ? to_json(*p.shifts) : json(nullptr);
  out["assumes"] = std::string(to_string(p.assumes));
  return out;
}

Prediction prediction_of(const json& j, const std::optional<Machine>& machine) {
  Prediction p;
  p.range = range_of(j);
  if (j.is_object() && j.contains("terms")) p.terms = terms_from_json(j["terms"]);
  // Before the fixed costs were recorded, the prediction used the ceilings'.
  const json& fixed = j.is_object() && j.contains("op_floor_ns") ? j : json::object();
  if (fixed.contains("op_floor_ns")) {
    p.compiled_call = duration_or_nan(j, "compiled_call_ns");
    p.op_floor = duration_or_nan(j, "op_floor_ns");
  } else if (machine) {
    p.compiled_call = Nanoseconds(machine->ceilings.compiled_call_ns);
    p.op_floor = Nanoseconds(machine->ceilings.op_floor_ns);
  }
  p.fixed_costs_from_profile = str(j, "compiled_call_source") == "profile";
  const json& iv = at(j, "interval");
  const json& cal = at(iv, "calibration");
  p.interval = {number_or_nan(iv, "log_bias"),
                number_or_nan(iv, "log_sigma"),
                number_or_nan(iv, "z"),
                number_or_nan(iv, "generated_share"),
                str(cal, "fitted_on"),
                integer(cal, "calibration_cases"),
                integer(cal, "validation_cases"),
                integer(cal, "validation_inside")};
  if (const json& shifts = at(j, "shifts"); shifts.is_array()) p.shifts = shifts_from_json(shifts);
  std::string assumes = str(j, "assumes", "captured");
  p.assumes = assumes == "nothing_compiled"    ? Assumes::NothingCompiled
              : assumes == "graph_breaks_stay" ? Assumes::GraphBreaksStay
              : assumes == "eager_part_stays"  ? Assumes::EagerPartStays
                                               : Assumes::Captured;
  return p;
}

json compiled_run_json(const std::optional<CompiledRunSummary>& run) {
  if (!run) return nullptr;
  json skipped = json::array();
  for (const auto& f : run->skipped_frames) skipped.push_back(explain::to_json(f));
  json out = {{"graph_count", run->graph_count},
              {"graph_break_count", run->graph_break_count},
              {"skipped_frames", skipped},
              {"nothing_compiled", run->nothing_compiled},
              {"if_captured", range_json(run->if_captured)}};
  // Written when there is one: a document without code that runs eagerly reads as before the fields.
  if (!run->eager_parts.empty()) out["eager_parts"] = core::to_json(run->eager_parts);
  if (run->graph_share)
    out["compiled_share"] = {{"covered", number_or_null(run->graph_share->covered)},
                             {"pairs", run->graph_share->pairs}};
  if (run->graph_share && std::isfinite(run->graph_share->overhead))  // an older document has none
    out["compiled_share"]["dynamo_overhead"] = run->graph_share->overhead;
  return out;
}

std::optional<CompiledRunSummary> compiled_run_summary_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  CompiledRunSummary run;
  run.graph_count = integer(j, "graph_count");
  run.graph_break_count = integer(j, "graph_break_count");
  for (const auto& f : list(j, "skipped_frames")) run.skipped_frames.push_back(explain::skipped_frame_from_json(f));
  run.nothing_compiled = flag(j, "nothing_compiled");
  run.if_captured = range_of(at(j, "if_captured"));
  run.eager_parts = core::eager_parts_from_json(at(j, "eager_parts"));
  if (const json& s = at(j, "compiled_share"); s.is_object())
    run.graph_share = explain::GraphShare{integer(s, "pairs"), number_or_nan(s, "covered"), NAN, NAN,
                                          number_or_nan(s, "dynamo_overhead")};
  return run;
}

ProfileSummary profile_of(const json& j) {
  ProfileSummary p;
  p.ops_per_call = number_or_nan(j, "ops_per_call");
  const json& d = at(j, "op_time_distribution");
  p.op_count = static_cast<std::size_t>(std::max(0, integer(d, "n")));
  p.op_min = duration_or_nan(d, "min_ns");
  p.op_p50 = duration_or_nan(d, "p50_ns");
  p.op_p90 = duration_or_nan(d, "p90_ns");
  p.op_p99 = duration_or_nan(d, "p99_ns");
  p.op_max = duration_or_nan(d, "max_ns");
  p.op_mean = duration_or_nan(d, "mean_ns");
  p.wall_per_call = duration_or_nan(j, "wall_per_call_ns");
  p.profiled_wall_per_call = duration_or_nan(j, "profiled_wall_per_call_ns");
  p.in_op_per_call = duration_or_nan(j, "in_op_per_call_ns");
  p.lower_envelope = str(j, "estimator") == "lower_envelope";
  p.in_op_fraction = number_or_nan(j, "in_op_fraction");
  p.in_op_fraction_p10 = number_or_nan(j, "in_op_fraction_p10");
  p.in_op_fraction_p90 = number_or_nan(j, "in_op_fraction_p90");
  p.overhead_fraction = number_or_nan(j, "overhead_fraction");
  const json& halves = at(j, "overhead_fraction_halves");
  if (halves.is_array() && halves.size() == 2 && halves[0].is_number() && halves[1].is_number())
    p.overhead_fraction_halves = std::pair(halves[0].get<double>(), halves[1].get<double>());
  p.library_fraction = number_or_nan(j, "library_fraction");
  p.conv_fraction = number_or_nan(j, "conv_fraction");
  p.kept_arithmetic_fraction = number_or_nan(j, "kept_arithmetic_fraction");
  p.fused_kernel_fraction = number_or_nan(j, "fused_kernel_fraction");
  p.device_busy_fraction = number_or_nan(j, "device_busy_fraction");
  p.kernel_launches = number_or_nan(j, "kernel_launches");
  p.pointwise_ops_per_call = integer(j, "pointwise_ops_per_call");
  p.reduction_ops_per_call = integer(j, "reduction_ops_per_call");
  p.library_ops_per_call = integer(j, "library_ops_per_call");
  p.events_truncated = flag(j, "events_truncated");
  for (const auto& op : list(j, "top_ops"))
    p.top_ops.push_back({str(op, "name"), str(op, "class"), number_or_nan(op, "count_per_call"),
                         number_or_nan(op, "ns_per_call"), number_or_nan(op, "self_ns_per_call")});
  return p;
}

json top_ops_json(const std::vector<TopOp>& ops) {
  json out = json::array();
  for (const auto& op : ops)
    out.push_back({{"name", op.name},
                   {"class", op.cls},
                   {"count_per_call", number_or_null(op.count_per_call)},
                   {"ns_per_call", number_or_null(op.ns_per_call)},
                   {"self_ns_per_call", number_or_null(op.self_ns_per_call)}});
  return out;
}

json suggestions_json(const std::vector<Suggestion>& suggestions) {
  json out = json::array();
  for (const auto& s : suggestions) {
    json one = {{"rank", s.rank},
                {"title", s.title},
                {"why", s.why},
                {"how", s.how},
                {"expected_gain", s.expected_gain ? json(*s.expected_gain) : json(nullptr)}};
    if (!s.terms.id.empty()) one["terms"] = core::to_json(s.terms);  // a document from before terms has none
    out.push_back(std::move(one));
  }
  return out;
}

void write_analysis(json& s, const Analysis& a) {
  s["class"] = std::string(to_string(a.cls));
  s["borderline_with"] = a.borderline_with ? json(std::string(to_string(*a.borderline_with))) : json(nullptr);
  s["decided_by"] = reasons_json(a.decided_by);
  s["roofline"] = {{"attainable_flops", number_or_null(a.roofline.attainable_flops)},
                   {"achieved_flops", number_or_null(a.roofline.achieved_flops)},
                   {"fraction", number_or_null(a.roofline.fraction)},
                   {"roofline_time_ns", number_or_null(a.roofline.roofline_time_ns)}};
  const auto& t = a.time_shares;
  s["time_shares"] = {{"outside_ops", t.outside},
                      {"fixed_cost", t.fixed},
                      {"memory_traffic", t.memory},
                      {"other_compute", t.other},
                      {"kept_arithmetic", t.kept_arithmetic},
                      {"library", t.library},
                      {"conv", t.conv}};
  s["predicted_speedup"] = prediction_json(a.predicted);
  s["compiled_run"] = compiled_run_json(a.compiled_run);
  s["profile"] = to_json(a.profile);
  s["flops_per_call"] = number_or_null(a.flops_per_call);
  s["bytes_per_call"] = number_or_null(a.bytes_per_call);
  s["boundary_bytes_per_call"] = number_or_null(a.boundary_bytes_per_call);
  s["fused_kernel_bytes_per_call"] = number_or_null(a.fused_kernel_bytes_per_call);
  s["element_ops_per_call"] = number_or_null(a.element_ops_per_call);
  s["outside_tensors"] = number_or_null(a.outside_tensors);
  s["module_calls"] = number_or_null(a.module_calls);
  s["arithmetic_intensity"] = number_or_null(a.arithmetic_intensity);
  if (!a.flops_error.empty()) s["flops_error"] = a.flops_error;
  s["suggestions"] = suggestions_json(a.suggestions);
}

Analysis analysis_of(const json& s, const std::optional<Machine>& machine) {
  Analysis a;
  a.cls = class_or_none(s, "class").value_or(BoundClass::Unknown);
  a.borderline_with = class_or_none(s, "borderline_with");
  a.decided_by = reasons_from_json(at(s, "decided_by"));
  const json& roof = at(s, "roofline");
  a.roofline.attainable_flops = number_or_nan(roof, "attainable_flops");
  a.roofline.achieved_flops = number_or_nan(roof, "achieved_flops");
  a.roofline.fraction = number_or_nan(roof, "fraction");
  a.roofline.roofline_time_ns = number_or_nan(roof, "roofline_time_ns");
  const json& t = at(s, "time_shares");
  a.time_shares.outside = number_or_nan(t, "outside_ops");
  a.time_shares.fixed = number_or_nan(t, "fixed_cost");
  a.time_shares.memory = number_or_nan(t, "memory_traffic");
  a.time_shares.other = number_or_nan(t, "other_compute");
  a.time_shares.kept_arithmetic = number_or_nan(t, "kept_arithmetic");
  a.time_shares.library = number_or_nan(t, "library");
  a.time_shares.conv = number_or_nan(t, "conv");
  a.predicted = prediction_of(at(s, "predicted_speedup"), machine);
  a.compiled_run = compiled_run_summary_of(at(s, "compiled_run"));
  a.profile = profile_of(at(s, "profile"));
  a.flops_per_call = number_or_nan(s, "flops_per_call");
  a.bytes_per_call = number_or_nan(s, "bytes_per_call");
  a.boundary_bytes_per_call = number_or_nan(s, "boundary_bytes_per_call");
  a.fused_kernel_bytes_per_call = number_or_nan(s, "fused_kernel_bytes_per_call");
  a.element_ops_per_call = number_or_nan(s, "element_ops_per_call");
  a.outside_tensors = number_or_nan(s, "outside_tensors");
  a.module_calls = number_or_nan(s, "module_calls");
  a.arithmetic_intensity = number_or_nan(s, "arithmetic_intensity");
  a.flops_error = str(s, "flops_error");
  a.suggestions = suggestions_from_json(at(s, "suggestions"));
  return a;
}

void write_machine(json& s, const Machine& m) {
  s["ceilings"] = to_json(m.ceilings);
  s["device"] = m.device;
  json cache = {
      {"path", m.cache_path ? json(*m.cache_path) : json(nullptr)}, {"key", m.cache_key}, {"hit", m.cache_hit}};
  if (m.cache_written) cache["written"] = *m.cache_written;
  s["ceilings_cache"] = cache;
  if (!m.measurement.is_null()) s["ceilings_measurement"] = m.measurement;
}

Machine machine_of(const json& s) {
  Machine m;
  const json& c = at(s, "ceilings");
  m.ceilings = ceilings_from_json(c, str(c, "source", "measured"));
  m.device = at(s, "device");
  const json& cache = at(s, "ceilings_cache");
  if (at(cache, "path").is_string()) m.cache_path = str(cache, "path");
  m.cache_key = str(cache, "key");
  m.cache_hit = flag(cache, "hit");
  if (at(cache, "written").is_boolean()) m.cache_written = flag(cache, "written");
  m.measurement = at(s, "ceilings_measurement");
  return m;
}

json point_json(const SweepPoint& p) {
  json out = {{"value", to_json(p.value)}, {"error", p.error ? report::to_json(*p.error) : json(nullptr)}};
  if (const auto& a = p.analysed) {
    out["inputs"] = to_json(a->inputs);
    out["class"] = std::string(to_string(a->cls));
    // Only when set: a point written before points kept theirs reads back byte for byte.
    if (a->borderline_with) out["borderline_with"] = std::string(to_string(*a->borderline_with));
    out["predicted_speedup"] = range_json(a->predicted);
    out["profile"] = {{"wall_per_call_ns", duration_or_null(a->wall_per_call)},
                      {"overhead_fraction", number_or_null(a->overhead_fraction)},
                      {"ops_per_call", number_or_null(a->ops_per_call)}};
    out["arithmetic_intensity"] = number_or_null(a->arithmetic_intensity);
    out["decided_by"] = reasons_json(a->decided_by);
  }
  if (p.benched) {
    out["speedup"] = p.speedup ? measured_json(*p.speedup) : json(nullptr);
    if (p.speedup) out["validation"] = validation_json(p.validation);
  }
  return out;
}

SweepPoint point_of(const json& j) {
  SweepPoint p;
  p.value = sweep_value_from_json(at(j, "value"));
  p.error = report::error_record_from_json(at(j, "error"));
  if (j.is_object() && j.contains("class")) {
    SweepPoint::Analysed a;
    a.inputs = inputs_from_json(at(j, "inputs"));
    a.cls = class_or_none(j, "class").value_or(BoundClass::Unknown);
    a.borderline_with = class_or_none(j, "borderline_with");
    a.predicted = range_of(at(j, "predicted_speedup"));
    const json& prof = at(j, "profile");
    a.wall_per_call = duration_or_nan(prof, "wall_per_call_ns");
    a.overhead_fraction = number_or_nan(prof, "overhead_fraction");
    a.ops_per_call = number_or_nan(prof, "ops_per_call");
    a.arithmetic_intensity = number_or_nan(j, "arithmetic_intensity");
    a.decided_by = reasons_from_json(at(j, "decided_by"));
    p.analysed = std::move(a);
  }
  p.benched = j.is_object() && j.contains("speedup");
  p.speedup = measured_from_json(at(j, "speedup"));
  p.validation = validation_from_json(at(j, "validation"));
  return p;
}

json sweep_json(const std::optional<Sweep>& sweep) {
  if (!sweep) return nullptr;
  json points = json::array();
  for (const auto& p : sweep->points) points.push_back(point_json(p));
  json values = json::array();
  for (const auto& v : sweep->values) values.push_back(to_json(v));
  return {{"param", sweep->param},
          {"values", values},
          {"points", points},
          {"class_changes", to_json(sweep->class_changes)}};
}

std::optional<Sweep> sweep_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  Sweep s;
  s.param = str(j, "param", "?");
  for (const auto& v : list(j, "values")) s.values.push_back(sweep_value_from_json(v));
  for (const auto& p : list(j, "points")) s.points.push_back(point_of(p));
  for (const auto& c : list(j, "class_changes"))
    s.class_changes.push_back({sweep_value_from_json(at(c, "from_value")), sweep_value_from_json(at(c, "to_value")),
                               class_or_none(c, "from_class").value_or(BoundClass::Unknown),
                               class_or_none(c, "to_class").value_or(BoundClass::Unknown)});
  return s;
}

}  // namespace

json to_json(const ProfileSummary& p) {
  return {{"ops_per_call", number_or_null(p.ops_per_call)},
          {"op_time_distribution",
           {{"n", p.op_count},
            {"min_ns", duration_or_null(p.op_min)},
            {"p50_ns", duration_or_null(p.op_p50)},
            {"p90_ns", duration_or_null(p.op_p90)},
            {"p99_ns", duration_or_null(p.op_p99)},
            {"max_ns", duration_or_null(p.op_max)},
            {"mean_ns", duration_or_null(p.op_mean)}}},
          {"wall_per_call_ns", duration_or_null(p.wall_per_call)},
          {"profiled_wall_per_call_ns", duration_or_null(p.profiled_wall_per_call)},
          {"in_op_per_call_ns", duration_or_null(p.in_op_per_call)},
          {"estimator", p.lower_envelope ? "lower_envelope" : "median"},
          {"in_op_fraction", number_or_null(p.in_op_fraction)},
          {"in_op_fraction_p10", number_or_null(p.in_op_fraction_p10)},
          {"in_op_fraction_p90", number_or_null(p.in_op_fraction_p90)},
          {"overhead_fraction", number_or_null(p.overhead_fraction)},
          {"overhead_fraction_halves", p.overhead_fraction_halves ? json::array({p.overhead_fraction_halves->first,
                                                                                 p.overhead_fraction_halves->second})
                                                                  : json(nullptr)},
          {"library_fraction", number_or_null(p.library_fraction)},
          {"conv_fraction", number_or_null(p.conv_fraction)},
          {"kept_arithmetic_fraction", number_or_null(p.kept_arithmetic_fraction)},
          {"fused_kernel_fraction", number_or_null(p.fused_kernel_fraction)},
          {"device_busy_fraction", number_or_null(p.device_busy_fraction)},
          {"kernel_launches", number_or_null(p.kernel_launches)},
          {"pointwise_ops_per_call", p.pointwise_ops_per_call},
          {"reduction_ops_per_call", p.reduction_ops_per_call},
          {"library_ops_per_call", p.library_ops_per_call},
          {"events_truncated", p.events_truncated},
          {"top_ops", top_ops_json(p.top_ops)}};
}

json to_json(const std::vector<ClassChange>& changes) {
  json out = json::array();
  for (const auto& c : changes)
    out.push_back({{"from_value", to_json(c.from_value)},
                   {"to_value", to_json(c.to_value)},
                   {"from_class", std::string(to_string(c.from_class))},
                   {"to_class", std::string(to_string(c.to_class))}});
  return out;
}

std::vector<Reason> reasons_from_json(const json& decided_by) {
  std::vector<Reason> out;
  if (!decided_by.is_array()) return out;
  for (const auto& r : decided_by)
    out.push_back({str(r, "metric"), number_or_nan(r, "value"), number_or_nan(r, "threshold"), str(r, "meaning")});
  return out;
}

json to_json(const std::vector<Shift>& shifts) {
  json out = json::array();
  for (const auto& s : shifts) {
    json one = {{"factor", s.factor}, {"effect", s.effect}};
    if (s.value) one["value"] = s.count ? json(std::llround(*s.value)) : number_or_null(*s.value);
    out.push_back(std::move(one));
  }
  return out;
}

std::vector<Shift> shifts_from_json(const json& shifts) {
  std::vector<Shift> out;
  if (!shifts.is_array()) return out;
  for (const auto& s : shifts) {
    Shift one{str(s, "factor"), std::nullopt, false, str(s, "effect")};
    if (const json& value = at(s, "value"); s.is_object() && s.contains("value")) {
      one.value = number_or_nan(s, "value");
      one.count = value.is_number_integer();
    }
    out.push_back(std::move(one));
  }
  return out;
}

std::vector<Term> terms_from_json(const json& terms) {
  std::vector<Term> out;
  if (!terms.is_array()) return out;
  for (const auto& t : terms)
    out.push_back(
        {str(t, "term", "?"), number_or_nan(t, "share"), number_or_nan(t, "keep"), number_or_nan(t, "compiled_share")});
  return out;
}

std::vector<Suggestion> suggestions_from_json(const json& suggestions) {
  std::vector<Suggestion> out;
  if (!suggestions.is_array()) return out;
  for (const auto& s : suggestions) {
    const json& gain = at(s, "expected_gain");
    const std::string title = str(s, "title");
    out.push_back({integer(s, "rank"), title, str(s, "why"), str(s, "how"), core::fix_terms_from_json(at(s, "terms")),
                   gain.is_number() ? std::optional<double>(gain.get<double>()) : std::nullopt,
                   title == kCompileAsIsTitle});
  }
  return out;
}

std::optional<MeasuredSpeedup> measured_from_json(const json& speedup) {
  if (!speedup.is_object()) return std::nullopt;
  return MeasuredSpeedup{number_or_nan(speedup, "estimate"), number_or_nan(speedup, "low"),
                         number_or_nan(speedup, "high")};
}

std::optional<Validation> validation_from_json(const json& v) {
  if (!v.is_object()) return std::nullopt;
  Validation out;
  out.predicted = range_of(at(v, "predicted"));
  out.measured = measured_from_json(at(v, "measured")).value_or(MeasuredSpeedup{});
  out.verdict = str(v, "verdict");
  out.cls = str(v, "class");
  out.compile_worth_it = str(v, "compile_worth_it");
  out.direction_right = flag(v, "direction_right", true);
  out.summary = str(v, "summary");
  return out;
}

json to_json(const SweepValue& value) {
  return std::visit([](const auto& v) { return json(v); }, value);
}

SweepValue sweep_value_from_json(const json& v) {
  if (v.is_boolean()) return v.get<bool>();
  // An integer past long long's range (only unsigned ones parse so) stays a number, as a double.
  if (v.is_number_integer() && (!v.is_number_unsigned() || v.get<unsigned long long>() <= LLONG_MAX))
    return v.get<long long>();
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return nullptr;
  return v.dump();
}

json to_json(const std::vector<InputLeaf>& inputs) {
  json out = json::array();
  for (const auto& in : inputs) {
    if (in.tensor)
      out.push_back({{"path", in.path},
                     {"shape", in.tensor->shape},
                     {"dtype", in.tensor->dtype},
                     {"device", in.tensor->device},
                     {"requires_grad", in.tensor->requires_grad}});
    else out.push_back({{"path", in.path}, {"type", in.type}, {"value", in.value}});
  }
  return out;
}

std::vector<InputLeaf> inputs_from_json(const json& inputs) {
  std::vector<InputLeaf> out;
  if (!inputs.is_array()) return out;
  for (const auto& in : inputs) {
    InputLeaf leaf;
    leaf.path = str(in, "path");
    if (has(in, "shape")) {
      InputLeaf::Tensor t;
      for (const auto& d : list(in, "shape"))
        if (d.is_number_integer()) t.shape.push_back(d.get<long long>());
      t.dtype = str(in, "dtype");
      t.device = str(in, "device");
      t.requires_grad = flag(in, "requires_grad");
      leaf.tensor = std::move(t);
    } else {
      leaf.type = str(in, "type");
      leaf.value = str(in, "value");
    }
    out.push_back(std::move(leaf));
  }
  return out;
}

json to_json(const ExpectResult& r) {
  json s = {{"target", r.target},
            {"sweep", sweep_json(r.sweep)},
            {"validation", validation_json(r.validation)},
            {"class", nullptr}};
  if (r.machine) write_machine(s, *r.machine);
  if (r.analysis) write_analysis(s, *r.analysis);
  return s;
}

ExpectResult from_json(const json& s) {
  ExpectResult r;
  r.target = at(s, "target");
  if (at(s, "ceilings").is_object()) r.machine = machine_of(s);
  if (!at(s, "class").is_null()) r.analysis = analysis_of(s, r.machine);
  r.sweep = sweep_of(at(s, "sweep"));
  r.validation = validation_from_json(at(s, "validation"));
  return r;
}

}  // namespace tct::expect
