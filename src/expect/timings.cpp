#include "expect/timings.hpp"

#include <algorithm>
#include <cmath>

#include "stats/summary.hpp"

namespace tct::expect {
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

double ceiling_bandwidth(const reply::CeilingTimings& m) {
  const double fastest = fastest_ns(m.copy_ns);
  return fastest > 0 ? 2.0 * m.copied_bytes / (fastest / 1e9) : NAN;
}

double ceiling_flops(const reply::CeilingTimings& m) {
  const double n = m.matmul_n ? static_cast<double>(*m.matmul_n) : NAN, fastest = fastest_ns(m.matmul_ns);
  return fastest > 0 ? 2.0 * n * n * n / (fastest / 1e9) : NAN;
}

double ceiling_op_floor_ns(const reply::CeilingTimings& m) { return op_floor_ns_of_runs(m.op_floor_rounds_ns, 1); }

double ceiling_compiled_call_ns(const reply::CeilingTimings& m) { return fastest_ns(m.compiled_call_rounds_ns); }

}  // namespace tct::expect
