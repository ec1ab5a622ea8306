#pragma once
// One error type for everything that ends a command early. It carries the exit code the
// user will see, a one-line message, a hint that says what to do, and details (a Python
// traceback, the agent's stderr tail) shown only with --verbose.
#include <stdexcept>
#include <string>

namespace tct {

// Documented in README.md and docs/ARCHITECTURE.md.
enum class ExitCode : int {
  Ok = 0,
  CheckFailed = 1,    // the check asked for failed: not usable, mismatch, gate crossed
  Usage = 2,          // bad usage or bad input
  TargetFailed = 3,   // the target raised, crashed, timed out or failed to compile
  Internal = 4,       // a bug in tct or its agent
  Interrupted = 130,  // Ctrl-C / SIGTERM (128 + SIGINT, as shells report it)
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, std::string kind, std::string message, std::string hint = {}, std::string detail = {})
      : std::runtime_error(message),
        code_(code),
        kind_(std::move(kind)),
        hint_(std::move(hint)),
        detail_(std::move(detail)) {}

  ExitCode code() const { return code_; }
  const std::string& kind() const { return kind_; }
  const std::string& hint() const { return hint_; }
  const std::string& detail() const { return detail_; }
  // The stage of a failure inside the target (import, factory, compile, first call...).
  std::string stage;

 private:
  ExitCode code_;
  std::string kind_;
  std::string hint_;
  std::string detail_;
};

inline Error usage_error(std::string message, std::string hint = {}) {
  return Error(ExitCode::Usage, "usage", std::move(message), std::move(hint));
}

// Exit 1: the check the user asked for failed (not usable, outputs differ, gate crossed).
// Thrown like any error, so that it prints its line first and lands in the document.
inline Error check_failed(std::string kind, std::string message, std::string hint = {}) {
  return Error(ExitCode::CheckFailed, std::move(kind), std::move(message), std::move(hint));
}

}  // namespace tct
