// The suite section: its fields are listed once (suite/json_fields.hpp); here are the spellings
// that are not a plain field, and the section's entry points.
#include "suite/json.hpp"

#include <cmath>

#include "explain/json.hpp"
#include "suite/json_fields.hpp"

namespace tct::suite {

using json = nlohmann::json;
using core::fields::read_as;
using core::fields::write;

std::string_view to_string(EntryStatus s) { return kStatusNames[static_cast<int>(s)]; }

json speedup_json(const EntryResult& r) { return std::isfinite(r.speedup.estimate) ? write(r.speedup) : json(nullptr); }
// The verdict from the numbers, by the one rule, whatever rule wrote it.
void speedup_from(const json& j, EntryResult& r) {
  if (j.is_object()) core::fields::read(j, r.speedup);
  r.verdict = stats::decide(r.speedup);
}
json verdict_json(const EntryResult& r) { return stats::to_string(r.verdict); }
json geomean_verdict_json(const GeomeanSpeedup& g) { return stats::to_string(g.verdict); }
void geomean_verdict_from(const json&, GeomeanSpeedup& g) { g.verdict = stats::decide(g.interval); }
json confidence_json(const GeomeanSpeedup&) { return 0.95; }
json geomean_method_json(const GeomeanSpeedup&) {
  return "geometric mean over entries that passed, slowdowns included; interval from the entries' "
         "95% intervals combined on the log scale (independent errors)";
}
json explain_json(const std::optional<explain::ExplainResult>& e) { return e ? explain::to_json(*e) : json(nullptr); }
std::optional<explain::ExplainResult> explain_from(const json& j) {
  return j.is_object() ? std::optional(explain::from_json(j)) : std::nullopt;
}
json error_json(const std::optional<report::ErrorRecord>& e) { return e ? report::to_json(*e) : json(nullptr); }
json shard_method_json(const ShardInfo& s) { return s.costs_from.empty() ? "round_robin" : "cost"; }

json to_json(const EntryResult& r) { return write(r); }
EntryResult entry_result_from_json(const json& j) { return read_as<EntryResult>(j); }
json to_json(const SuiteSummary& s) { return write(s); }
SuiteSummary summary_from_json(const json& j) { return read_as<SuiteSummary>(j); }
json to_json(const EntryRecord& r) { return write(r); }
EntryRecord record_from_json(const json& j) { return read_as<EntryRecord>(j); }
json to_json(const SuiteResult& s) { return write(s); }
SuiteResult suite_from_json(const json& j) { return read_as<SuiteResult>(j); }

}  // namespace tct::suite
