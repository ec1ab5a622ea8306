#pragma once
// What a runner needs from whoever runs it (the CLI, or a test): a result document to write
// its section into, progress messages, checkpoints (the CLI rewrites its --out files so a
// crash still leaves data) and warnings. The runner never prints, writes files or exits.
#include <string>

#include <nlohmann/json.hpp>

namespace tct::runner {

class Host {
 public:
  virtual ~Host() = default;
  // The result document; a runner writes its own section (e.g. doc["bench"]) and reads the
  // environment others recorded.
  virtual nlohmann::json& document() = 0;
  // One line of progress ("phase: what now"); the host decides whether to show it.
  virtual void progress(const std::string& message) = 0;
  // The document is in a consistent state: persist it.
  virtual void checkpoint() = 0;
  // A runner's result so far, as its section (made by the result's own to_json, the one
  // place its JSON is written): it replaces doc[section], then the document is persisted.
  // A crash after this still leaves what was measured.
  virtual void checkpoint(const std::string& section, nlohmann::json value) {
    document()[section] = std::move(value);
    checkpoint();
  }
  // Adds a warning (report::make_warning's shape) to the document's warnings.
  virtual void warn(const nlohmann::json& warning) = 0;
};

}  // namespace tct::runner
