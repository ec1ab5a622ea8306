#include "probe/compiler.hpp"

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <fmt/format.h>

#include "agent/child_process.hpp"
#include "errors.hpp"

namespace tct::probe {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct ToolRun {
  bool ran = false;  // started and exited with code 0
  std::string out;
  std::string last_error_line;
};

ToolRun run_tool(const std::vector<std::string>& argv) {
  ToolRun r;
  try {
    agent::ChildProcess child({argv, {}, false});
    std::string line;
    const auto limit = std::chrono::seconds(60);  // a compile of 5 lines; anything longer is stuck
    while (child.read_line(line, limit) == agent::ChildProcess::Read::Line) r.out += line + "\n";
    auto exit = child.finish(std::chrono::seconds(5));
    r.ran = exit.exited && exit.code == 0;
    r.last_error_line = child.last_stderr_line();
  } catch (const Error& e) { r.last_error_line = e.what(); }
  return r;
}

std::string find_on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = (end > start ? dirs.substr(start, end - start) : ".") + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

}  // namespace

std::string inductor_cxx_name(const char* cxx_env) {
  if (cxx_env != nullptr && *cxx_env != '\0') return cxx_env;
#ifdef __APPLE__
  return "clang++";
#else
  return "g++";
#endif
}

json check_cpp_compiler(const std::string& name) {
  json out = {
      {"path", nullptr}, {"version", nullptr}, {"openmp", nullptr}, {"openmp_error", nullptr}, {"error", nullptr}};
  std::string path = find_on_path(name);
  if (path.empty()) {
    out["error"] = fmt::format("compiler '{}' not found on PATH", name);
    return out;
  }
  out["path"] = path;
  ToolRun version = run_tool({path, "--version"});
  if (auto nl = version.out.find('\n'); nl != std::string::npos && nl > 0) out["version"] = version.out.substr(0, nl);
  // OpenMP: inductor's CPU kernels are parallelised with it; without it they run on one core.
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec) / fmt::format("tct-omp-{}", ::getpid());
  fs::create_directories(dir, ec);
  {
    std::ofstream src(dir / "omp.cpp");
    src << "#include <omp.h>\nint main(){int n=0;\n#pragma omp parallel\n{n=omp_get_num_threads();}\nreturn "
           "n>0?0:1;}\n";
  }
  ToolRun omp = run_tool({path, "-fopenmp", (dir / "omp.cpp").string(), "-o", (dir / "omp").string()});
  out["openmp"] = omp.ran;
  if (!omp.ran) out["openmp_error"] = omp.last_error_line.empty() ? "unknown error" : omp.last_error_line;
  fs::remove_all(dir, ec);
  return out;
}

}  // namespace tct::probe
