#pragma once
// Flags that name a target and its parameters, shared by bench, explain, expect and audit:
//   TARGET (positional)  FILE.py:NAME | package.module:NAME | builtin:NAME
//   --param key=value    repeatable; the value is a JSON literal when it parses as one
//                        (64, 1e-3, true, null, "x", [1,2], {"a":1}), else the raw string
//   --device, --dtype    passed to the factory when it accepts them, else applied by the agent
//   --train              time a training step (forward, backward, gradient reset)
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/target_options.hpp"

namespace tct::cli {

// The struct lives with the runners that consume it; --param fills `params`.
using core::TargetOptions;
using core::to_load_params;

// Adds the positional TARGET and --param/--device/--dtype/--train to `cmd`. --param values
// are parsed while CLI11 parses (a malformed one is a usage error, exit 2).
void add_target_options(CLI::App& cmd, TargetOptions& options);

// One `key=value` into `params`; throws tct::Error (usage) for a missing '=' or empty key.
// A repeated key keeps the last value.
void parse_param(const std::string& key_value, nlohmann::json& params);

}  // namespace tct::cli
