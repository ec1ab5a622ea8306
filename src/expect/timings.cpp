#include "expect/timings.hpp"

#include <algorithm>
#include <cmath>

#include "core/fields.hpp"
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

double op_floor_ns_of_runs(const std::vector<std::vector<double>>& runs, std::size_t skip) {
  std::vector<double> medians;
  for (std::size_t i = skip; i < runs.size(); ++i) {
    std::vector<double> adds;
    for (double v : runs[i])
      if (std::isfinite(v)) adds.push_back(v);
    if (!adds.empty()) medians.push_back(stats::median(adds));
  }
  return fastest_ns(medians);
}

double profile_compiled_call_ns(const reply::Profile& profile) {
  if (profile.compiled_call_ns && std::isfinite(*profile.compiled_call_ns)) return *profile.compiled_call_ns;
  return fastest_ns(profile.compiled_call_rounds_ns);
}

double profile_op_floor_ns(const reply::Profile& profile) {
  if (profile.op_floor_ns && std::isfinite(*profile.op_floor_ns)) return *profile.op_floor_ns;
  return op_floor_ns_of_runs(profile.op_floor_adds_ns);
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
  std::vector<std::vector<double>> runs;
  if (m.is_object()) core::fields::decode(m.value("op_floor_rounds_ns", json()), runs);
  return op_floor_ns_of_runs(runs, 1);
}

double ceiling_compiled_call_ns(const json& m) {
  if (carries(m, "compiled_call_ns")) return m["compiled_call_ns"].get<double>();
  return fastest_ns(timings_at(m, "compiled_call_rounds_ns"));
}

}  // namespace tct::expect
