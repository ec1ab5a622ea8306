#pragma once
// The agent's handshake (python/tct_agent/__main__.py's hello()), read once where it arrives
// (agent.cpp): the python and torch objects kept as the agent sent them, for the document's
// environment record (cli/context.cpp) and the probe section, beside the fields tct reads.
#include <optional>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"
#include "core/kept_reply.hpp"

namespace tct::agent {

// The handshake's "python": the interpreter the agent runs in.
struct PythonFacts {
  std::string version, executable, implementation;
};
constexpr auto json_fields(const PythonFacts*) {
  using core::fields::field;
  using P = PythonFacts;
  return std::tuple{field("version", &P::version), field("executable", &P::executable),
                    field("implementation", &P::implementation)};
}

struct Hello {
  int protocol = 0;
  std::string agent_version;
  core::KeptReply<PythonFacts> python;
  nlohmann::json torch;                      // {version} or null when torch is not installed
  std::optional<std::string> torch_version;  // torch's "version"; none when torch is not installed
  std::string torch_error;
};

}  // namespace tct::agent
