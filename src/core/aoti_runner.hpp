#pragma once
// tct-aoti (tools/aoti_runner), built on first use against the target interpreter's own
// libtorch and kept in a cache folder per torch build and C++ ABI, so a second run starts
// at once. Everything it needs is checked first; what is missing is the one-line reason the
// runner is not used (startup's aoti-cpp mode is skipped; bench's aoti row is timed from Python).
// Shared by `tct startup` and `tct bench --backend aoti`.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/reply.hpp"

namespace tct::core {

struct RunnerBuild {
  std::string path;     // the executable; "" when skipped
  std::string skipped;  // why it is not there
  bool built_now = false;
};

// `libtorch`: the agent's facts ({version, cmake_prefix_path, cxx11_abi, loader_header,
// include_dir}); `source`: the folder holding tools/aoti_runner's CMakeLists.txt; `cache_root`:
// $XDG_CACHE_HOME/tct (or ~/.cache/tct). `progress` is told before a build starts.
RunnerBuild ensure_aoti_runner(const reply::Libtorch& libtorch, const std::string& source,
                               const std::string& cache_root, const std::function<void(const std::string&)>& progress);

// The folder a runner for these facts is kept in (a name per torch version, ABI and libtorch path).
std::string runner_folder(const reply::Libtorch& libtorch, const std::string& cache_root);

// Where tools/aoti_runner's sources are, beside the agent's folder (python/ in a checkout,
// <prefix>/share/tct/ installed).
std::string runner_source_beside(const std::string& agent_dir);

// $XDG_CACHE_HOME/tct, else $HOME/.cache/tct ("" when neither is set).
std::string default_cache_root(const char* xdg_cache_home, const char* home);

}  // namespace tct::core
