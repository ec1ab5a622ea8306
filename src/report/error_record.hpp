#pragma once
// An error as a document keeps it where the run went on past it (a suite entry that failed, a
// sweep point that failed): {kind, message, hint, stage, exit_code}. The writers give different
// fields (a sweep point's tct::Error writes a null stage when it has none, a suite entry's
// leaves it out, bench's row error always writes one, a bench that measured no speedup writes
// kind and message alone), so a field that was not written stays unwritten and a saved error
// reads back byte for byte.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "errors.hpp"

namespace tct::report {

struct ErrorRecord {
  std::string kind, message;
  std::optional<std::string> hint;   // none: not written
  std::optional<std::string> stage;  // none: not written, or null (below)
  bool null_stage = false;           // "stage": null was written; only without a stage
  std::optional<int> exit_code;      // the exit code the failure would have given alone; none: not written

  bool operator==(const ErrorRecord&) const = default;
};

// {kind, message, hint, stage (when it has one), exit_code}: a tct::Error as the record of a
// failure the run went on past.
ErrorRecord error_record(const Error& error);

nlohmann::json to_json(const ErrorRecord& error);
// None for anything but an object; never throws on a missing or mistyped field.
std::optional<ErrorRecord> error_record_from_json(const nlohmann::json& error);

}  // namespace tct::report
