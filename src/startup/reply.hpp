#pragma once
// The replies of the agent's startup.* ops that only `tct startup` sends
// (python/tct_agent/ops/startup.py), each declared once as bench/reply.hpp declares bench's
// (startup.libtorch and startup.package, which bench's aoti row sends too: core/reply.hpp).
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"

namespace tct::startup::reply {

// startup.compare: the C++ runner's outputs against eager's, as the agent compared them.
struct Compare {
  bool count_equal = false, shape_equal = false;
  double max_abs_diff = NAN, max_abs_expected = NAN;
};
constexpr auto json_fields(const Compare*) {
  using core::fields::field;
  return std::tuple{field("count_equal", &Compare::count_equal), field("shape_equal", &Compare::shape_equal),
                    field("max_abs_diff", &Compare::max_abs_diff),
                    field("max_abs_expected", &Compare::max_abs_expected)};
}

// startup.first_output (and the C++ runner's first line, tools/aoti_runner/main.cpp, which has
// marks_ns and steady_ns): CLOCK_MONOTONIC marks by name (NaN: null), the steady calls after
// the first output, torch's cache counters (the section's torch_counters: startup/json.hpp reads
// them) and the cache artifacts a cold start saved.
struct SavedArtifacts {
  std::string path;
  double bytes = 0;
  nlohmann::json artifacts;
};
constexpr auto json_fields(const SavedArtifacts*) {
  using core::fields::field;
  return std::tuple{field("path", &SavedArtifacts::path), field("bytes", &SavedArtifacts::bytes),
                    field("artifacts", &SavedArtifacts::artifacts)};
}
using Marks = std::map<std::string, double>;
nlohmann::json marks_json(const Marks& m);
Marks marks_from(const nlohmann::json& j);
struct FirstOutput {
  std::string torch_version;
  std::optional<SavedArtifacts> saved_artifacts;
  Marks marks_ns;
  std::vector<double> steady_ns;
  nlohmann::json counters;
};
constexpr auto json_fields(const FirstOutput*) {
  using core::fields::field;
  return std::tuple{field("torch_version", &FirstOutput::torch_version),
                    field("saved_artifacts", &FirstOutput::saved_artifacts),
                    field("marks_ns", &FirstOutput::marks_ns, marks_json, marks_from),
                    field("steady_ns", &FirstOutput::steady_ns), field("counters", &FirstOutput::counters)};
}

}  // namespace tct::startup::reply
