#pragma once
// What a runner needs from whoever runs it (the CLI, or a test): a place for its result
// section and warnings, progress messages and checkpoints (the CLI rewrites its --out files so
// a crash still leaves data). The runner never prints, writes files or exits, and never sees
// the document itself: it hands over values (a result's section as its to_json made it) and
// reads only the environment the CLI recorded.
#include <string>

#include <nlohmann/json.hpp>

namespace tct::core {

class Host {
 public:
  virtual ~Host() = default;
  // What the CLI recorded of the environment when it started an agent (interpreter, torch):
  // read only.
  virtual const nlohmann::json& environment() const = 0;
  // A runner's result so far, as its section: it replaces doc[section], and is persisted at
  // the next checkpoint (or the final write).
  virtual void record(const std::string& section, nlohmann::json value) = 0;
  // The document is in a consistent state: persist it.
  virtual void checkpoint() = 0;
  // record(), then persist: a crash after this still leaves what was measured.
  void checkpoint(const std::string& section, nlohmann::json value) {
    record(section, std::move(value));
    checkpoint();
  }
  // One line of progress ("phase: what now"); the host decides whether to show it.
  virtual void progress(const std::string& message) = 0;
  // Adds a warning (report::make_warning's shape) to the document's warnings; an identical
  // one is said once.
  virtual void warn(const nlohmann::json& warning) = 0;
  // The warnings a runner that decides its list afresh as it goes (bench, after each phase)
  // has found so far: they replace what `source` gave before, after the warnings that were
  // there before its first list.
  virtual void replace_warnings(const std::string& source, const nlohmann::json& warnings) = 0;
};

}  // namespace tct::core
