// The run section: its fields are listed once (run/json_fields.hpp); here are the spellings
// that are not a plain field, and the section's entry points.
#include "run/json.hpp"

#include <cmath>

#include "bench/breakdown_json.hpp"
#include "run/json_fields.hpp"

namespace tct::run {

using json = nlohmann::json;
using core::fields::kLeftOut;
using core::fields::read_as;
using core::fields::write;

// A fix's terms beside it; none in a document from before they were written (it reads back so).
json terms_json(const core::FixTerms& t) { return t.id.empty() ? kLeftOut : core::to_json(t); }
json line_or_null(const int& line) { return line > 0 ? json(line) : json(nullptr); }
int line_from(const json& j) { return j.is_number() ? j.get<int>() : 0; }
json whole_ns_map_json(const std::map<std::string, Ns>& phases) {
  json out = json::object();
  for (const auto& [k, v] : phases) out[k] = core::fields::whole_ns_json(v);
  return out;
}
std::map<std::string, Ns> whole_ns_map_from(const json& j) {
  std::map<std::string, Ns> out;
  if (j.is_object())
    for (const auto& [k, v] : j.items()) out[k] = core::fields::ns_from(v);
  return out;
}
json texts_json(const std::vector<std::string>& texts) { return texts; }
std::vector<std::string> texts_from(const json& j) {
  std::vector<std::string> out;
  if (j.is_array())
    for (const auto& v : j) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}
json ceiling_json(const std::optional<double>& calls) { return calls ? json(std::ceil(*calls)) : json(nullptr); }
std::optional<double> calls_from(const json& j) {
  return j.is_number() ? std::optional(j.get<double>()) : std::nullopt;
}
json eager_parts_json(const std::vector<core::EagerPart>& parts) {
  return parts.empty() ? kLeftOut : core::to_json(parts);  // none: a site reads as before the field
}
std::vector<core::EagerPart> eager_parts_from(const json& j) { return core::eager_parts_from_json(j); }

json call_breakdown_json(const bench::CallBreakdown& b) { return bench::to_json(b); }
bench::CallBreakdown call_breakdown_from(const json& j) { return bench::breakdown_from_json(j); }

// Documents before "cause" had only recompile limits.
json cause_json(const Fallback& f) { return f.cause; }
void cause_from(const json& j, Fallback& f) { f.cause = j.is_string() ? j.get<std::string>() : "recompile_limit"; }
json group_terms_json(const RecompileGroup& g) { return terms_json(g.fix_terms); }
void group_terms_from(const json& j, RecompileGroup& g) {
  g.fix_terms = core::fix_terms_from_json(j.is_discarded() ? json() : j);
  if (g.fix_terms.cost.empty()) g.fix_terms.cost = g.cost;  // a document from before fix_terms
}
// The verdicts are decided again from the interval, by the one rule.
json eager_verdict_json(const EagerComparison& e) { return stats::to_string(e.verdict); }
void eager_verdict_from(const json&, EagerComparison& e) { e.verdict = stats::decide(e.speedup); }
json trial_verdict_json(const FixTrial& t) { return stats::to_string(t.verdict); }
void trial_verdict_from(const json&, FixTrial& t) { t.verdict = stats::decide(t.speedup); }
json eager_calls_json(const SiteResult& s) { return s.eager_known ? json(s.eager_calls) : json(nullptr); }
void eager_calls_from(const json& j, SiteResult& s) {
  s.eager_known = j.is_number();
  if (s.eager_known) s.eager_calls = j.get<size_t>();
}
// Documents before the list: one "fallback", the site's own frame, its cause in "limit".
void old_fallback_from(const json& j, SiteResult& s) {
  if (!j.is_object() || !s.fallbacks.empty()) return;
  Fallback f = read_as<Fallback>(j);
  cause_from(j.contains("limit") ? j["limit"] : kLeftOut, f);
  f.frame.role = "site";
  f.frame.function = s.code_name;
  s.fallbacks.push_back(std::move(f));
}
json complete_json(const ProcessResult& p) { return p.complete(); }
void complete_from(const json& j, ProcessResult& p) {
  if (j.is_boolean()) p.final = j.get<bool>();  // what "records_final" was before it
}
json compare_eager_json(const RunResult& r) {
  if (!r.compared) return nullptr;
  return {{"runs_each", r.repeat}, {"stance", r.stance}, {"eager_exit_statuses", r.eager_exit_statuses}};
}
void compare_eager_from(const json& j, RunResult& r) {
  if (!(r.compared = j.is_object())) return;
  core::fields::decode(j.value("runs_each", json(1)), r.repeat);
  core::fields::decode(j.value("stance", json("")), r.stance);
  core::fields::decode(j.value("eager_exit_statuses", json::array()), r.eager_exit_statuses);
}
json try_fixes_json(const RunResult& r) {
  return r.try_fixes ? json{{"runs", core::fields::encode(r.fix_runs, core::fields::Empty::Keep)}} : json(nullptr);
}
void try_fixes_from(const json& j, RunResult& r) {
  if ((r.try_fixes = j.is_object())) core::fields::decode(j.value("runs", json::array()), r.fix_runs);
}

json to_json(const RunResult& r) { return write(r); }
RunResult from_json(const json& section) { return read_as<RunResult>(section); }

}  // namespace tct::run
