#include "agent/interpreter.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "errors.hpp"

namespace fs = std::filesystem;

namespace tct::agent {
namespace {

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::optional<std::string> search_path(const std::string& name, const EnvLookup& env) {
  auto path = env("PATH");
  if (!path) return std::nullopt;
  std::stringstream ss(*path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    fs::path candidate = fs::path(dir) / name;
    if (is_executable(candidate)) return candidate.string();
  }
  return std::nullopt;
}

Interpreter checked(std::string path, std::string source, const EnvLookup& env) {
  if (path.find('/') == std::string::npos) {
    auto found = search_path(path, env);
    if (!found)
      throw usage_error(fmt::format("no Python interpreter '{}' on PATH (chosen by {})", path, source),
                        "pass --python /path/to/python or set TCT_PYTHON");
    return {*found, std::move(source)};
  }
  if (!is_executable(path))
    throw usage_error(fmt::format("no Python interpreter at {} (chosen by {})", path, source),
                      "pass --python with the path of an existing python, or set TCT_PYTHON");
  return {fs::absolute(path).lexically_normal().string(), std::move(source)};
}

// The python of the environment (a venv, or a conda env) whose bin/ holds the running binary:
// `pip install torch-compile-tool` puts tct there, next to the python the user installed it for.
std::optional<std::string> python_beside(const std::string& executable_path) {
  fs::path bin_dir = fs::path(executable_path).parent_path();
  std::error_code ec;
  bool is_environment = fs::is_regular_file(bin_dir.parent_path() / "pyvenv.cfg", ec) ||
                        fs::is_directory(bin_dir.parent_path() / "conda-meta", ec);
  if (!is_environment) return std::nullopt;
  for (const char* name : {"python", "python3"}) {
    if (is_executable(bin_dir / name)) return (bin_dir / name).string();
  }
  return std::nullopt;
}

}  // namespace

EnvLookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (!v || !*v) return std::nullopt;
    return std::string(v);
  };
}

Interpreter choose_interpreter(const std::optional<std::string>& flag, const EnvLookup& env,
                               const std::string& executable_path) {
  if (flag) return checked(*flag, "--python", env);
  if (auto v = env("TCT_PYTHON")) return checked(*v, "TCT_PYTHON", env);
  if (auto venv = env("VIRTUAL_ENV")) {
    fs::path p = fs::path(*venv) / "bin" / "python";
    if (is_executable(p)) return {p.string(), "VIRTUAL_ENV"};
  }
  if (auto beside = python_beside(executable_path)) return {*beside, "tct's environment"};
  return checked("python3", "PATH", env);
}

std::string locate_agent_dir(const std::optional<std::string>& flag, const EnvLookup& env,
                             const std::string& executable_path) {
  auto has_agent = [](const fs::path& dir) {
    std::error_code ec;
    return fs::is_regular_file(dir / "tct_agent" / "__main__.py", ec);
  };
  std::optional<std::string> explicit_dir = flag ? flag : env("TCT_AGENT_PATH");
  if (explicit_dir) {
    if (!has_agent(*explicit_dir))
      throw usage_error(fmt::format("no tct_agent package in {}", *explicit_dir),
                        "point --agent-path / TCT_AGENT_PATH at the folder that contains tct_agent/");
    return fs::absolute(*explicit_dir).string();
  }
  fs::path bin_dir = fs::path(executable_path).parent_path();
  for (fs::path candidate : {bin_dir.parent_path() / "share" / "tct" / "python", bin_dir.parent_path() / "python"}) {
    if (has_agent(candidate)) return candidate.lexically_normal().string();
  }
  throw Error(ExitCode::Internal, "install", fmt::format("cannot find tct's Python agent next to {}", executable_path),
              "reinstall tct, or set TCT_AGENT_PATH to the folder that contains tct_agent/");
}

std::string current_executable() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("tct") : p.string();
}

}  // namespace tct::agent
