#include "core/json_read.hpp"
#include "cli/outcome.hpp"

#include "audit/json.hpp"
#include "bench/json.hpp"
#include "compare/compare.hpp"
#include "expect/json.hpp"
#include "explain/json.hpp"
#include "probe/json.hpp"
#include "report/document.hpp"
#include "report/format.hpp"
#include "run/json.hpp"
#include "startup/json.hpp"
#include "suite/json.hpp"
#include "trace/json.hpp"
#include "version.hpp"

namespace tct::cli {

using json = nlohmann::json;

Outcome new_outcome(const std::string& command) {
  Outcome o;
  o.schema = report::kSchema;
  o.command = command;
  o.tct_version = kVersion;
  o.created = report::utc_now_iso8601();
  return o;
}

report::ErrorRecord run_error(const Error& error) {
  report::ErrorRecord e = report::error_record(error);
  e.exit_code.reset();  // the document's own exit_code says it
  return e;
}

json to_document(const Outcome& o) {
  json doc = {{"schema", o.schema},
              {"command", o.command},
              {"tct_version", o.tct_version},
              {"created", o.created},
              {"exit_code", o.exit_code ? json(*o.exit_code) : json(nullptr)},
              {"error", nullptr},
              {"warnings", report::to_json(o.warnings)},
              {"environment", o.environment}};
  if (o.error) doc["error"] = report::to_json(*o.error);
  if (o.audit) doc["audit"] = audit::to_json(*o.audit);
  if (o.probe) doc["probe"] = probe::to_json(*o.probe);
  if (o.bench) doc["bench"] = bench::to_json(*o.bench);
  if (o.explain) doc["explain"] = explain::to_json(*o.explain);
  if (o.diff) doc["diff"] = explain::to_json(*o.diff);
  if (o.expect) doc["expect"] = expect::to_json(*o.expect);
  if (o.suite) doc["suite"] = suite::to_json(*o.suite);
  if (o.compare) doc["compare"] = compare::to_json(*o.compare);
  if (o.trace) doc["trace"] = trace::to_json(*o.trace);
  if (o.run) doc["run"] = run::to_json(*o.run);
  if (o.startup) doc["startup"] = startup::to_json(*o.startup);
  return doc;
}

namespace {

// The section at doc[key] read by `read`, when the document has one (null: none).
template <class Result, class Read>
void read_section(const json& doc, const char* key, std::optional<Result>& into, Read read) {
  const auto it = doc.find(key);
  if (it != doc.end() && !it->is_null()) into = read(*it);
}

}  // namespace

Outcome from_document(const json& doc) {
  Outcome o;
  o.schema = core::json_read::text(doc, "schema");
  o.command = core::json_read::text(doc, "command");
  o.tct_version = core::json_read::text(doc, "tct_version");
  o.created = core::json_read::text(doc, "created");
  if (const json& code = core::json_read::at(doc, "exit_code"); code.is_number_integer()) o.exit_code = code.get<int>();
  o.error = report::error_record_from_json(core::json_read::at(doc, "error"));
  for (const json& w : core::json_read::at(doc, "warnings"))
    if (w.is_object()) o.warnings.push_back(report::warning_from_json(w));
  if (const json& env = core::json_read::at(doc, "environment"); env.is_object()) o.environment = env;
  read_section(doc, "audit", o.audit, audit::from_json);
  read_section(doc, "probe", o.probe, probe::from_json);
  read_section(doc, "bench", o.bench, [](const json& s) { return bench::from_json(s); });
  read_section(doc, "explain", o.explain, explain::from_json);
  read_section(doc, "diff", o.diff, explain::diff_from_json);
  read_section(doc, "expect", o.expect, expect::from_json);
  read_section(doc, "suite", o.suite, suite::suite_from_json);
  read_section(doc, "compare", o.compare, compare::compare_from_json);
  read_section(doc, "trace", o.trace, trace::from_json);
  read_section(doc, "run", o.run, run::from_json);
  read_section(doc, "startup", o.startup, startup::from_json);
  return o;
}

compare::SavedDocument saved_document(const Outcome& o, const std::string& path) {
  compare::SavedDocument d;
  d.path = path;
  d.command = o.command;
  d.created = o.created;
  d.torch = core::json_read::str(core::json_read::at(o.environment, "torch"), "version");
  if (o.bench) d.target = core::json_read::str(o.bench->target, "spec");
  if (o.audit && d.target.empty()) d.target = o.audit->target;
  d.bench = o.bench ? &*o.bench : nullptr;
  d.explain = o.explain ? &*o.explain : nullptr;
  d.suite = o.suite ? &*o.suite : nullptr;
  return d;
}

}  // namespace tct::cli
