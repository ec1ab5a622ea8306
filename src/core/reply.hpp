#pragma once
// The replies of the agent's ops that more than one command sends (python/tct_agent/ops/
// startup.py's startup.libtorch and startup.package: startup and bench's aoti row), each declared
// once as bench/reply.hpp declares bench's; python/tct_agent/replies.json lists their fields for
// the agent, and tests/unit/test_replies.cpp holds the two to each other.
#include <cmath>
#include <optional>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"

namespace tct::core::reply {

// startup.libtorch: the libtorch the C++ AOTInductor runner links against (core/aoti_runner.hpp).
struct Libtorch {
  std::string version, cmake_prefix_path;
  bool cxx11_abi = false, loader_header = false;
};
constexpr auto json_fields(const Libtorch*) {
  using fields::field;
  return std::tuple{field("version", &Libtorch::version), field("cmake_prefix_path", &Libtorch::cmake_prefix_path),
                    field("cxx11_abi", &Libtorch::cxx11_abi), field("loader_header", &Libtorch::loader_header)};
}

// startup.package: torch.export and aoti_compile_and_package, timed; the inputs as written
// (aoti_inputs.py's index).
struct Package {
  std::optional<long long> package_bytes;
  double export_ns = NAN, package_ns = NAN;
  nlohmann::json inputs;
};
constexpr auto json_fields(const Package*) {
  using fields::field;
  return std::tuple{field("package_bytes", &Package::package_bytes), field("export_ns", &Package::export_ns),
                    field("package_ns", &Package::package_ns), field("inputs", &Package::inputs)};
}

}  // namespace tct::core::reply
