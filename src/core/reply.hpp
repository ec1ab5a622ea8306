#pragma once
// The replies of the agent's ops that more than one command sends (python/tct_agent/ops/
// startup.py's startup.libtorch and startup.package: startup and bench's aoti row; target.py's
// target.load: bench, explain and expect), each declared
// once as bench/reply.hpp declares bench's; python/tct_agent/replies.json lists their fields for
// the agent, and tests/unit/test_replies.cpp holds the two to each other.
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"
#include "core/kept_reply.hpp"

namespace tct::core::reply {

// startup.libtorch: the libtorch the C++ AOTInductor runner links against (core/aoti_runner.hpp).
struct Libtorch {
  std::string version, cmake_prefix_path;
  bool cxx11_abi = false, loader_header = false;
};
constexpr auto json_fields(const Libtorch*) {
  return std::tuple{TCT_FIELDS(Libtorch, version, cmake_prefix_path, cxx11_abi, loader_header)};
}

// startup.package: torch.export and aoti_compile_and_package, timed; the inputs as written
// (aoti_inputs.py's index).
struct Package {
  std::optional<long long> package_bytes;
  double export_ns = NAN, package_ns = NAN;
  nlohmann::json inputs;
};
constexpr auto json_fields(const Package*) {
  return std::tuple{TCT_FIELDS(Package, package_bytes, export_ns, package_ns, inputs)};
}

// One leaf of target.load's inputs: a tensor's shape, dtype, device and requires_grad (a shape
// given: a tensor), or any other value's Python type and short repr.
struct TargetInput {
  std::string path;
  std::optional<std::vector<long long>> shape;
  std::string dtype, device;
  bool requires_grad = false;
  std::string type, value;
};
constexpr auto json_fields(const TargetInput*) {
  return std::tuple{TCT_FIELDS(TargetInput, path, shape, dtype, device, requires_grad, type, value)};
}

// target.load: the loaded target as tct_agent.target.LoadedTarget.describe() tells it; a device
// or dtype not given is "", a module's sizes are none for a function. The --param values are
// the user's, any JSON, handed on whole.
struct TargetLoad {
  std::string spec, name, kind, fn_name, device, dtype, source_file;
  nlohmann::json params;
  bool train = false;
  std::string mode;
  double parameter_count = NAN;
  std::optional<long long> parameter_bytes, trainable_parameter_count, buffer_bytes;
  std::optional<bool> training_mode;
  std::vector<TargetInput> inputs;
  long long inputs_total = 0, input_bytes = 0;
};
constexpr auto json_fields(const TargetLoad*) {
  using T = TargetLoad;
  return std::tuple{TCT_FIELDS(T, spec, name, kind, fn_name, device, dtype, source_file, params, train, mode,
                               parameter_count, parameter_bytes, trainable_parameter_count, buffer_bytes, training_mode,
                               inputs, inputs_total, input_bytes)};
}

}  // namespace tct::core::reply

namespace tct::core {
// The agent's description of the loaded target as a result keeps it (bench, explain, expect):
// null before it loaded, the reply's record kept whole for the document (KeptReply says why),
// its TargetLoad view for the renderers. An older document may hold the spec as a bare string.
using LoadedTarget = KeptReply<reply::TargetLoad>;
}  // namespace tct::core
