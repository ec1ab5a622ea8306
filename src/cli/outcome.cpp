#include "core/json_read.hpp"
#include "cli/outcome.hpp"

#include "compare/compare.hpp"
#include "report/document.hpp"
#include "report/format.hpp"
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
  Sections::each([&]<class S>(std::type_identity<S>) {
    if (const auto& result = o.get<typename S::Result>()) doc[S::key] = S::to_json(*result);
  });
  return doc;
}

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
  // A section is read when the document has one (null: none).
  Sections::each([&]<class S>(std::type_identity<S>) {
    const auto it = doc.find(S::key);
    if (it != doc.end() && !it->is_null()) o.get<typename S::Result>() = S::from_json(*it);
  });
  return o;
}

compare::SavedDocument saved_document(const Outcome& o, const std::string& path) {
  compare::SavedDocument d;
  d.path = path;
  d.command = o.command;
  d.created = o.created;
  d.torch = core::json_read::str(core::json_read::at(o.environment, "torch"), "version");
  const auto& b = o.get<bench::BenchResult>();
  const auto& a = o.get<audit::AuditResult>();
  const auto& e = o.get<explain::ExplainResult>();
  const auto& s = o.get<suite::SuiteResult>();
  if (b) d.target = b->target.view.spec;
  if (a && d.target.empty()) d.target = a->target;
  d.bench = b ? &*b : nullptr;
  d.explain = e ? &*e : nullptr;
  d.suite = s ? &*s : nullptr;
  return d;
}

}  // namespace tct::cli
