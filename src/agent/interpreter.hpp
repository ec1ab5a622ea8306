#pragma once
// Which Python runs the agent, and where the agent's code lives.
#include <functional>
#include <optional>
#include <string>

namespace tct::agent {

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_env();

struct Interpreter {
  std::string path;    // absolute when found on PATH or in a venv
  std::string source;  // "--python", "TCT_PYTHON", "VIRTUAL_ENV", "tct's environment", "PATH"
};

// --python, else TCT_PYTHON, else the active virtual environment, else the python of the
// venv or conda env tct is installed in (executable_path's bin/), else python3 on PATH.
// Throws tct::Error (usage) when the chosen one does not exist.
Interpreter choose_interpreter(const std::optional<std::string>& flag, const EnvLookup& env,
                               const std::string& executable_path);

// --agent-path, else TCT_AGENT_PATH, else <bin>/../share/tct/python (installed), else
// <bin>/../python (the build tree). Never the user's PYTHONPATH. Throws when none holds
// tct_agent/__main__.py.
std::string locate_agent_dir(const std::optional<std::string>& flag, const EnvLookup& env,
                             const std::string& executable_path);

// The absolute path of the running binary (/proc/self/exe), for locate_agent_dir.
std::string current_executable();

}  // namespace tct::agent
