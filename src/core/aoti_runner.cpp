#include "core/aoti_runner.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <fmt/format.h>
#include <unistd.h>

#include "agent/child_process.hpp"
#include "core/json_read.hpp"
#include "errors.hpp"

namespace tct::core {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Runs a build step; "" when it exited 0, else its last stderr line (or how it ended).
std::string run_step(const std::vector<std::string>& argv) {
  try {
    agent::ChildProcess child({argv, {}, false});
    std::string line;
    while (child.read_line(line, std::chrono::minutes(20)) == agent::ChildProcess::Read::Line) {}
    const agent::ExitInfo exit = child.finish(std::chrono::seconds(5));
    if (exit.exited && exit.code == 0) return "";
    const std::string last = child.last_stderr_line();
    return last.empty() ? exit.describe() : last;
  } catch (const Error& e) { return e.what(); }
}

bool on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const fs::path candidate = fs::path(end > start ? dirs.substr(start, end - start) : ".") / name;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// FNV-1a of the runner's sources: a build of older sources (another protocol) is not reused.
std::string sources_tag(const fs::path& source) {
  uint64_t h = 1469598103934665603ull;
  for (const char* name : {"main.cpp", "CMakeLists.txt"}) {
    std::ifstream in(source / name, std::ios::binary);
    for (char c; in.get(c);) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  return fmt::format("{:08x}", h & 0xffffffffu);
}

}  // namespace

std::string runner_source_beside(const std::string& agent_dir) {
  return (fs::path(agent_dir).parent_path() / "tools" / "aoti_runner").string();
}

std::string default_cache_root(const char* xdg_cache_home, const char* home) {
  if (xdg_cache_home && *xdg_cache_home) return (fs::path(xdg_cache_home) / "tct").string();
  if (home && *home) return (fs::path(home) / ".cache" / "tct").string();
  return "";
}

std::string runner_folder(const reply::Libtorch& libtorch, const std::string& cache_root) {
  std::string version = libtorch.version;
  for (char& c : version)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';
  // The libtorch path too: two venvs with one torch version are two builds to link against
  // (FNV-1a: the same name from every build of tct).
  uint64_t where = 1469598103934665603ull;
  for (unsigned char c : libtorch.cmake_prefix_path) where = (where ^ c) * 1099511628211ull;
  return (fs::path(cache_root) / "aoti-runner" /
          fmt::format("torch-{}-abi{}-{:08x}", version, libtorch.cxx11_abi ? 1 : 0, where & 0xffffffffu))
      .string();
}

RunnerBuild ensure_aoti_runner(const reply::Libtorch& libtorch, const std::string& source,
                               const std::string& cache_root, const std::function<void(const std::string&)>& progress) {
  RunnerBuild out;
  if (cache_root.empty()) {
    out.skipped = "no cache folder for the C++ runner ($XDG_CACHE_HOME and $HOME are unset)";
    return out;
  }
  const fs::path folder = runner_folder(libtorch, cache_root);
  // One build folder per version of the runner's sources.
  const fs::path build = folder / ("build-" + sources_tag(source));
  const fs::path exe = build / "tct-aoti";
  if (::access(exe.c_str(), X_OK) == 0) {
    out.path = exe.string();
    return out;
  }
  const std::string& prefix = libtorch.cmake_prefix_path;
  if (!libtorch.loader_header) {
    out.skipped =
        "this torch ships no C++ AOTInductor loader header (torch/csrc/inductor/aoti_package/model_package_loader.h)";
  } else if (prefix.empty() || !fs::exists(fs::path(prefix) / "Torch" / "TorchConfig.cmake")) {
    out.skipped = "this torch ships no CMake config (torch.utils.cmake_prefix_path has no Torch/TorchConfig.cmake)";
  } else if (!fs::exists(fs::path(source) / "CMakeLists.txt")) {
    out.skipped = fmt::format("the C++ runner's sources are missing ({}): reinstall tct", source);
  } else if (!on_path("cmake")) {
    out.skipped = "cmake is not installed (apt-get install cmake, or pip install cmake)";
  } else if (!on_path(std::getenv("CXX") && *std::getenv("CXX") ? std::getenv("CXX") : "c++")) {
    out.skipped = "no C++ compiler on PATH (install g++ or set CXX)";
  }
  if (!out.skipped.empty()) return out;
  if (progress) progress("building the C++ AOTInductor runner against this torch's libtorch (once)");
  fs::create_directories(build);
  std::string err = run_step(
      {"cmake", "-S", source, "-B", build.string(), "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + prefix});
  if (err.empty()) err = run_step({"cmake", "--build", build.string()});
  if (!err.empty() || ::access(exe.c_str(), X_OK) != 0) {
    out.skipped = "the C++ runner did not build against this libtorch: " + (err.empty() ? "no executable" : err);
    return out;
  }
  out.path = exe.string();
  out.built_now = true;
  return out;
}

}  // namespace tct::core
