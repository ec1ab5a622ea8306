#pragma once
// What a command produced, as values: each command's typed result (an audit holds four), the
// warnings, the error that ended the run, and the environment the agent described. The
// renderers read it; the JSON document is made from it (to_document) as the command's output,
// and a saved document reads back into it (from_document), so that `tct report` of a saved
// document renders through the same functions as the live run did.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/registry.hpp"
#include "compare/compare.hpp"
#include "errors.hpp"
#include "report/error_record.hpp"
#include "report/warning.hpp"

namespace tct::cli {

struct Outcome {
  std::string schema, command, tct_version, created;
  std::optional<int> exit_code;              // none until the run ended
  std::optional<report::ErrorRecord> error;  // what ended the run
  std::vector<report::Warning> warnings;
  // The interpreter, its placement, Python and torch as the agent's handshake described them:
  // the agent's record, kept whole (common.schema.json#/$defs/environment); empty before an agent started.
  nlohmann::json environment = nlohmann::json::object();

  // Each section of the registry (cli/registry.hpp), when the run has it: get<bench::BenchResult>().
  Sections::Slots sections;
  template <class Result>
  std::optional<Result>& get() {
    return std::get<std::optional<Result>>(sections);
  }
  template <class Result>
  const std::optional<Result>& get() const {
    return std::get<std::optional<Result>>(sections);
  }
};

// A run of `command` starting now: this version's schema and version, the time, no result yet.
Outcome new_outcome(const std::string& command);
// The error that ended a run, as the document holds it: {kind, message, hint, stage}.
report::ErrorRecord run_error(const Error& error);

// The versioned JSON document (schema/): the header, one section per result, the warnings.
nlohmann::json to_document(const Outcome& outcome);
// A saved document's results; a section this version does not know is left out.
Outcome from_document(const nlohmann::json& doc);
// What `tct compare` reads of a saved document read by from_document (`path` names it in the
// comparison): pointers into `outcome`, which must outlive the value.
compare::SavedDocument saved_document(const Outcome& outcome, const std::string& path);

}  // namespace tct::cli
