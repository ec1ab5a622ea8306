// The expect section: its fields are listed once (expect/json_fields.hpp); here are the
// spellings that are not a plain field, and the section's entry points.
#include "expect/json.hpp"

#include <climits>
#include <cmath>

#include "core/json_read.hpp"
#include "explain/json.hpp"
#include "expect/json_fields.hpp"
#include "expect/suggestions.hpp"
#include "report/error_record.hpp"

namespace tct::expect {

using core::fields::read_as;
using core::fields::write;
using core::json_read::at;
const json kLeftOut(json::value_t::discarded);

json sweep_value_json(const SweepValue& v) { return to_json(v); }
json sweep_values_json(const std::vector<SweepValue>& values) {
  json out = json::array();
  for (const auto& v : values) out.push_back(to_json(v));
  return out;
}
std::vector<SweepValue> sweep_values_from(const json& j) {
  std::vector<SweepValue> out;
  if (j.is_array())
    for (const auto& v : j) out.push_back(sweep_value_from_json(v));
  return out;
}

json shift_value_json(const Shift& s) {
  if (!s.value) return kLeftOut;
  return s.count ? json(std::llround(*s.value)) : core::fields::encode(*s.value, {});
}
void shift_value_from(const json& j, Shift& s) {
  if (j.is_discarded()) return;
  s.value = j.is_number() ? j.get<double>() : NAN;
  s.count = j.is_number_integer();
}

json fixed_costs_source_json(const Prediction& p) { return p.fixed_costs_from_profile ? "profile" : "ceilings"; }
void fixed_costs_source_from(const json& j, Prediction& p) { p.fixed_costs_from_profile = j == "profile"; }
json estimator_json(const ProfileSummary& p) { return p.lower_envelope ? "lower_envelope" : "median"; }
void estimator_from(const json& j, ProfileSummary& p) { p.lower_envelope = j == "lower_envelope"; }

json halves_json(const std::optional<std::pair<double, double>>& h) {
  return h ? json::array({h->first, h->second}) : json(nullptr);
}
std::optional<std::pair<double, double>> halves_from(const json& j) {
  if (j.is_array() && j.size() == 2 && j[0].is_number() && j[1].is_number())
    return std::pair(j[0].get<double>(), j[1].get<double>());
  return std::nullopt;
}

json skipped_frames_json(const std::vector<explain::SkippedFrame>& frames) {
  json out = json::array();
  for (const auto& f : frames) out.push_back(explain::to_json(f));
  return out;
}
std::vector<explain::SkippedFrame> skipped_frames_from(const json& j) {
  std::vector<explain::SkippedFrame> out;
  if (j.is_array())
    for (const auto& f : j) out.push_back(explain::skipped_frame_from_json(f));
  return out;
}
json eager_parts_json(const CompiledRunSummary& r) {
  return r.eager_parts.empty() ? kLeftOut : core::to_json(r.eager_parts);
}
void eager_parts_from(const json& j, CompiledRunSummary& r) {
  r.eager_parts = core::eager_parts_from_json(j.is_discarded() ? json() : j);
}
json graph_share_json(const CompiledRunSummary& r) {
  if (!r.graph_share) return kLeftOut;
  json out = {{"covered", core::fields::encode(r.graph_share->covered, {})}, {"pairs", r.graph_share->pairs}};
  if (std::isfinite(r.graph_share->overhead))  // an older document has none
    out["dynamo_overhead"] = r.graph_share->overhead;
  return out;
}
void graph_share_from(const json& j, CompiledRunSummary& r) {
  if (j.is_object())
    r.graph_share = explain::GraphShare{core::json_read::num(j, "pairs"), core::number_or_nan(j, "covered"), NAN, NAN,
                                        core::number_or_nan(j, "dynamo_overhead")};
}

json suggestion_terms_json(const Suggestion& s) { return s.terms.id.empty() ? kLeftOut : core::to_json(s.terms); }
void suggestion_terms_from(const json& j, Suggestion& s) {
  s.terms = core::fix_terms_from_json(j.is_discarded() ? json() : j);
}
json suggestion_title_json(const Suggestion& s) { return s.title; }
void suggestion_title_from(const json& j, Suggestion& s) {
  s.title = j.is_string() ? j.get<std::string>() : "";
  s.compile_as_is = s.title == kCompileAsIsTitle;
}

json error_record_json(const std::optional<report::ErrorRecord>& e) { return e ? report::to_json(*e) : json(nullptr); }

// A point the bench returned has "speedup" (null when it measured none), and with a speedup
// its validation.
json point_speedup_json(const SweepPoint& p) {
  if (!p.benched) return kLeftOut;
  return p.speedup ? write(*p.speedup) : json(nullptr);
}
void point_speedup_from(const json& j, SweepPoint& p) {
  p.benched = !j.is_discarded();
  p.speedup = measured_from_json(j);
}
json point_validation_json(const SweepPoint& p) {
  if (!p.benched || !p.speedup) return kLeftOut;
  return p.validation ? write(*p.validation) : json(nullptr);
}
void point_validation_from(const json& j, SweepPoint& p) { p.validation = validation_from_json(j); }

json ceilings_json(const Machine& m) { return to_json(m.ceilings); }
void ceilings_from(const json& j, Machine& m) {
  const json c = j.is_discarded() ? json() : j;
  m.ceilings = ceilings_from_json(c, core::json_read::str(c, "source", "measured"));
}

json no_class_json(const ExpectResult& r) { return r.analysis ? kLeftOut : json(nullptr); }
void no_class_from(const json& j, ExpectResult& r) {
  if (j.is_null() || j.is_discarded()) r.analysis.reset();
}
json no_prediction_json(const ExpectResult&) { return kLeftOut; }
void fixed_costs_from_machine(const json& j, ExpectResult& r) {
  if (!r.analysis || !r.machine || (j.is_object() && j.contains("op_floor_ns"))) return;
  r.analysis->predicted.compiled_call = Nanoseconds(r.machine->ceilings.compiled_call_ns);
  r.analysis->predicted.op_floor = Nanoseconds(r.machine->ceilings.op_floor_ns);
}

json to_json(const ProfileSummary& p) { return write(p); }
json to_json(const std::vector<ClassChange>& changes) { return core::fields::encode(changes, {}); }
std::vector<Reason> reasons_from_json(const json& decided_by) {
  return read_as<Analysis>({{"decided_by", decided_by}}).decided_by;
}
std::vector<Term> terms_from_json(const json& terms) {
  return read_as<Prediction>({{"terms", terms}}).terms.value_or(std::vector<Term>{});
}
json to_json(const std::vector<Shift>& shifts) { return core::fields::encode(shifts, {}); }
std::vector<Shift> shifts_from_json(const json& shifts) {
  return read_as<Prediction>({{"shifts", shifts}}).shifts.value_or(std::vector<Shift>{});
}
std::vector<Suggestion> suggestions_from_json(const json& suggestions) {
  return read_as<Analysis>({{"suggestions", suggestions}}).suggestions;
}
std::optional<MeasuredSpeedup> measured_from_json(const json& speedup) {
  if (!speedup.is_object()) return std::nullopt;
  return read_as<MeasuredSpeedup>(speedup);
}
std::optional<Validation> validation_from_json(const json& v) {
  if (!v.is_object()) return std::nullopt;
  return read_as<Validation>(v);
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
  using namespace core::json_read;
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

json to_json(const ExpectResult& r) { return write(r); }
ExpectResult from_json(const json& s) { return read_as<ExpectResult>(s); }

}  // namespace tct::expect
