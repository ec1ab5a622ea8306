#pragma once
// The target a runner measures: what `target.load` needs. The CLI fills it from TARGET,
// --param, --device, --dtype and --train (cli/target_options.hpp).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tct::core {

struct TargetOptions {
  std::string target;
  nlohmann::json params = nlohmann::json::object();
  std::optional<std::string> device;
  std::optional<std::string> dtype;
  bool train = false;
};

// The params of the agent's `target.load` op: {target, params, device, dtype, train}.
nlohmann::json to_load_params(const TargetOptions& options);

}  // namespace tct::core
