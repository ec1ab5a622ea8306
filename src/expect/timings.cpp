#include "expect/timings.hpp"

#include <algorithm>
#include <cmath>

#include "core/json_number.hpp"
#include "stats/summary.hpp"

namespace tct::expect {
namespace {

using json = nlohmann::json;

std::vector<double> timings_at(const json& j, const char* key) {
  std::vector<double> out;
  if (!j.is_object() || !j.contains(key) || !j[key].is_array()) return out;
  for (const auto& v : j[key])
    if (v.is_number()) out.push_back(v.get<double>());
  return out;
}

// A figure the reply carries itself (a cache entry, an older agent), else NaN.
bool carries(const json& j, const char* key) { return j.is_object() && j.contains(key) && j[key].is_number(); }

}  // namespace

double fastest_ns(const std::vector<double>& ns) {
  double out = NAN;
  for (double v : ns)
    if (std::isfinite(v) && !(v >= out)) out = v;
  return out;
}

double op_floor_ns_of_runs(const json& runs, std::size_t skip) {
  std::vector<double> medians;
  if (!runs.is_array()) return NAN;
  for (std::size_t i = skip; i < runs.size(); ++i) {
    std::vector<double> adds;
    if (runs[i].is_array())
      for (const auto& v : runs[i])
        if (v.is_number()) adds.push_back(v.get<double>());
    if (!adds.empty()) medians.push_back(stats::median(adds));
  }
  return fastest_ns(medians);
}

double profile_compiled_call_ns(const json& profile) {
  if (carries(profile, "compiled_call_ns")) return profile["compiled_call_ns"].get<double>();
  return fastest_ns(timings_at(profile, "compiled_call_rounds_ns"));
}

double profile_op_floor_ns(const json& profile) {
  if (carries(profile, "op_floor_ns")) return profile["op_floor_ns"].get<double>();
  return op_floor_ns_of_runs(profile.is_object() ? profile.value("op_floor_adds_ns", json()) : json());
}

double ceiling_bandwidth(const json& m) {
  if (carries(m, "peak_bandwidth_bytes_per_s")) return m["peak_bandwidth_bytes_per_s"].get<double>();
  const double bytes = core::number_or_nan(m, "copied_bytes"), fastest = fastest_ns(timings_at(m, "copy_ns"));
  return fastest > 0 ? 2.0 * bytes / (fastest / 1e9) : NAN;
}

double ceiling_flops(const json& m) {
  if (carries(m, "peak_flops")) return m["peak_flops"].get<double>();
  const double n = core::number_or_nan(m, "matmul_n"), fastest = fastest_ns(timings_at(m, "matmul_ns"));
  return fastest > 0 ? 2.0 * n * n * n / (fastest / 1e9) : NAN;
}

double ceiling_op_floor_ns(const json& m) {
  if (carries(m, "op_floor_ns")) return m["op_floor_ns"].get<double>();
  return op_floor_ns_of_runs(m.is_object() ? m.value("op_floor_rounds_ns", json()) : json(), 1);
}

double ceiling_compiled_call_ns(const json& m) {
  if (carries(m, "compiled_call_ns")) return m["compiled_call_ns"].get<double>();
  return fastest_ns(timings_at(m, "compiled_call_rounds_ns"));
}

}  // namespace tct::expect
