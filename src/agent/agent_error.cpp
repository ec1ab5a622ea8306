#include <string>

#include <nlohmann/json.hpp>

#include "agent/agent.hpp"
#include "errors.hpp"

namespace tct {

// The one table from the agent's error kinds to exit codes (docs/ARCHITECTURE.md).
static ExitCode exit_code_for_kind(const std::string& kind) {
  if (kind == "bad_target" || kind == "bad_param" || kind == "unsupported") return ExitCode::Usage;
  if (kind == "target_raised" || kind == "compile_failed" || kind == "nondeterministic") return ExitCode::TargetFailed;
  return ExitCode::Internal;
}

bool agent_lost(const Error& e) { return e.kind() == "timeout" || e.kind() == "agent_died" || e.kind() == "protocol"; }

Error error_from_agent(const nlohmann::json& e) {
  std::string kind = e.value("kind", "internal");
  Error err(exit_code_for_kind(kind), kind, e.value("message", "the agent failed without a message"),
            e.value("hint", ""), e.value("traceback", ""));
  err.stage = e.value("stage", "");
  return err;
}

}  // namespace tct
