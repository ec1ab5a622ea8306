// The job section: its fields are listed once (job/json_fields.hpp); here are the spellings
// that are not a plain field, and the section's entry points.
#include "job/json.hpp"

#include "core/json_number.hpp"
#include "job/json_fields.hpp"

namespace tct::job {

using json = nlohmann::json;
using core::number_or_nan;
using core::number_or_null;

json ns_interval_json(const stats::Interval& iv) {
  return {{"mean_ns", number_or_null(iv.estimate)},
          {"low_ns", number_or_null(iv.low)},
          {"high_ns", number_or_null(iv.high)}};
}
stats::Interval ns_interval_from(const json& j) {
  return {number_or_nan(j, "mean_ns"), number_or_nan(j, "low_ns"), number_or_nan(j, "high_ns")};
}
json ns_horizon_json(const std::optional<stats::Interval>& iv) { return iv ? ns_interval_json(*iv) : json(nullptr); }
std::optional<stats::Interval> ns_horizon_from(const json& j) {
  return j.is_object() ? std::optional(ns_interval_from(j)) : std::nullopt;
}

json curve_json(const std::vector<std::pair<double, double>>& curve) {
  json out = json::array();
  for (const auto& [calls, ns] : curve) out.push_back({calls, ns});
  return out;
}
std::vector<std::pair<double, double>> curve_from(const json& j) {
  std::vector<std::pair<double, double>> out;
  if (j.is_array())
    for (const auto& p : j)
      if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
        out.emplace_back(p[0].get<double>(), p[1].get<double>());
  return out;
}

json ok_json(const RunFigures& f) { return f.ok(); }
json label_json(const ModeSpec& s) { return s.label(); }
json eligible_json(const ModeResult& m) { return m.eligible(); }
json verdict_json(const Comparison& c) { return stats::to_string(c.verdict); }
void verdict_from(const json&, Comparison& c) { c.verdict = stats::decide(c.ratio); }
json clear_json(const Decision& d) { return d.clear(); }
json fix_verdict_json(const ShapeFixResult& x) { return stats::to_string(x.verdict); }
void fix_verdict_from(const json&, ShapeFixResult& x) { x.verdict = stats::decide(x.speedup); }

json to_json(const JobResult& r) { return core::fields::write(r); }
JobResult from_json(const json& j) { return core::fields::read_as<JobResult>(j); }

}  // namespace tct::job
