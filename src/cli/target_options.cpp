#include "cli/target_options.hpp"

#include <cctype>

#include <fmt/format.h>

#include "cli/usage.hpp"
#include "errors.hpp"

namespace tct::cli {

using json = nlohmann::json;

void parse_param(const std::string& kv, json& params) {
  auto eq = kv.find('=');
  if (eq == std::string::npos)
    throw usage_error(fmt::format("--param '{}' has no '='", kv), "write --param NAME=VALUE, e.g. --param batch=64");
  std::string key = kv.substr(0, eq);
  std::string value = kv.substr(eq + 1);
  while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
  while (!key.empty() && std::isspace(static_cast<unsigned char>(key.front()))) key.erase(0, 1);
  if (key.empty())
    throw usage_error(fmt::format("--param '{}' has an empty name", kv),
                      "write --param NAME=VALUE, e.g. --param batch=64");
  // A JSON literal when it is one (numbers, true/false/null, quoted strings, lists,
  // objects); anything else (cuda, relu, 3x3) is kept as the string the user typed.
  json parsed = json::parse(value, nullptr, /*allow_exceptions=*/false);
  params[key] = parsed.is_discarded() ? json(value) : parsed;
}

void add_target_options(CLI::App& cmd, TargetOptions& o) {
  cmd.add_option("target", o.target,
                 "FILE.py:NAME, package.module:NAME or builtin:NAME; NAME is a "
                 "factory returning (fn, args) or (fn, args, kwargs)")
      ->required();
  cmd.add_option_function<std::vector<std::string>>(
         "--param",
         [&o](const std::vector<std::string>& kvs) {
           for (const auto& kv : kvs) {
             try {
               parse_param(kv, o.params);
             } catch (const Error& e) { throw ParseUsageError(e); }
           }
         },
         "Factory parameter NAME=VALUE (repeatable); VALUE is read as JSON when it parses (64, 0.5, "
         "true, [1,2]), else as a string")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  cmd.add_option("--device", o.device,
                 "Device to run on (cpu, cuda, cuda:1, mps); given to the factory "
                 "when it takes `device`, else the tool moves module and inputs");
  cmd.add_option("--dtype", o.dtype,
                 "Floating dtype (float32, float16, bfloat16, float64); given to the "
                 "factory when it takes `dtype`, else the tool casts");
  cmd.add_flag("--train", o.train,
               "Time a training step (forward, loss, backward, gradient reset) "
               "instead of inference");
}

}  // namespace tct::cli
