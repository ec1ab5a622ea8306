#include "analysis/expect_evidence.hpp"

#include <stdexcept>

#include "stats/summary.hpp"

namespace tct::analysis {
namespace {

double num(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return NAN;
  return j[key].get<double>();
}

std::vector<double> numbers(const json& j, const char* key) {
  std::vector<double> out;
  if (!j.is_object() || !j.contains(key) || !j[key].is_array()) return out;
  for (const auto& v : j[key]) out.push_back(v.is_number() ? v.get<double>() : NAN);
  return out;
}

json or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

}  // namespace

Ceilings ceilings_from_json(const json& j, const std::string& source) {
  Ceilings c;
  c.peak_flops = num(j, "peak_flops");
  c.peak_bandwidth = num(j, "peak_bandwidth_bytes_per_s");
  c.op_floor_ns = num(j, "op_floor_ns");
  c.source = source;
  return c;
}

json to_json(const Ceilings& c) {
  return {{"peak_flops", or_null(c.peak_flops)},
          {"peak_bandwidth_bytes_per_s", or_null(c.peak_bandwidth)},
          {"op_floor_ns", or_null(c.op_floor_ns)},
          {"balance_flops_per_byte", or_null(c.balance())},
          {"source", c.source}};
}

bool is_library_class(const std::string& c) { return c == "matmul" || c == "conv" || c == "attention"; }

Evidence evidence_from_agent(const json& profile, const json& flops) {
  Evidence e;
  e.device_type = profile.value("device_type", "cpu");
  auto wall = numbers(profile, "wall_samples_ns");
  auto pwall = numbers(profile, "profiled_wall_ns");
  auto in_op = numbers(profile, "in_op_ns");
  auto ops = numbers(profile, "ops_per_call");
  if (wall.empty() && pwall.empty()) throw std::invalid_argument("the profile holds no timed call");
  e.wall_ns = stats::median(wall);
  e.profiled_wall_ns = stats::median(pwall);
  e.in_op_ns = stats::median(in_op);
  e.ops_per_call = stats::median(ops);
  e.op_durations_ns = numbers(profile, "op_durations_ns");
  for (double x : numbers(profile, "op_is_library")) e.op_is_library.push_back(x == 1.0);
  if (e.op_is_library.size() != e.op_durations_ns.size()) e.op_is_library.clear();
  // A typical call: when every profiled call ran the same number of ops (the usual case),
  // the median duration of the op at each position across calls. One preempted op then
  // cannot pass for a slow kernel.
  bool same = !ops.empty() && !e.op_is_library.empty();
  for (double n : ops) same = same && n == ops.front();
  std::size_t per_call = same ? static_cast<std::size_t>(ops.front()) : 0;
  if (same && per_call > 0 && per_call * ops.size() == e.op_durations_ns.size()) {
    for (std::size_t k = 0; k < per_call; ++k) {
      std::vector<double> at;
      for (std::size_t c = 0; c < ops.size(); ++c) at.push_back(e.op_durations_ns[c * per_call + k]);
      e.typical_op_ns.push_back(stats::median(at));
      e.typical_op_is_library.push_back(e.op_is_library[k]);
    }
  } else {
    e.typical_op_ns = e.op_durations_ns;
    e.typical_op_is_library = e.op_is_library;
  }

  const json& by_class = profile.value("in_op_by_class_ns", json::array());
  std::vector<double> in_frac, lib_frac, conv_frac, busy;
  for (std::size_t i = 0; i < pwall.size(); ++i) {
    if (!(pwall[i] > 0)) continue;
    if (i < in_op.size()) in_frac.push_back(std::min(1.0, in_op[i] / pwall[i]));
    if (i < by_class.size() && by_class[i].is_object()) {
      double lib = 0, conv = 0;
      for (const auto& [cls, ns] : by_class[i].items()) {
        if (is_library_class(cls) && ns.is_number()) lib += ns.get<double>();
        if (cls == "conv" && ns.is_number()) conv += ns.get<double>();
      }
      lib_frac.push_back(std::min(1.0, lib / pwall[i]));
      conv_frac.push_back(std::min(1.0, conv / pwall[i]));
    }
  }
  e.in_op_fraction = stats::median(in_frac);
  e.library_fraction = lib_frac.empty() ? 0.0 : stats::median(lib_frac);
  e.conv_fraction = conv_frac.empty() ? 0.0 : std::min(e.library_fraction, stats::median(conv_frac));
  auto busy_ns = numbers(profile, "device_busy_ns");
  for (std::size_t i = 0; i < busy_ns.size() && i < pwall.size(); ++i)
    if (pwall[i] > 0) busy.push_back(std::min(1.0, busy_ns[i] / pwall[i]));
  if (!busy.empty()) e.device_busy_fraction = stats::median(busy);
  auto launches = numbers(profile, "kernel_launches");
  if (!launches.empty()) e.kernel_launches = stats::median(launches);
  for (const auto& op : profile.value("ops", json::array())) {
    if (e.top_ops.size() >= 10) break;
    e.top_ops.push_back({{"name", op.value("name", "")}, {"class", op.value("class", "other")},
                         {"count_per_call", op.value("count_per_call", 0.0)},
                         {"ns_per_call", op.value("ns_per_call", 0.0)}});
  }

  if (flops.is_object()) {
    e.flops = num(flops, "flops_per_call");
    e.bytes = num(flops, "bytes_per_call");
    e.boundary_bytes = num(flops, "boundary_bytes");
    if (flops.contains("error") && flops["error"].is_string()) e.flops_error = flops["error"];
    double lib_bytes = 0;
    for (const auto& op : flops.value("ops", json::array())) {
      std::string cls = op.value("class", "other");
      int count = op.value("count", 0);
      if (is_library_class(cls)) {
        lib_bytes += op.value("bytes", 0.0);
        e.library_ops += count;
      } else if (cls == "pointwise") {
        e.pointwise_ops += count;
      } else if (cls == "reduction") {
        e.reduction_ops += count;
      }
    }
    e.library_bytes = std::isfinite(e.bytes) ? lib_bytes : NAN;
  }
  return e;
}

json profile_json(const Evidence& e) {
  auto s = stats::summarize(e.op_durations_ns);
  json dist = {{"n", s.n},
               {"min_ns", or_null(s.min)},
               {"p50_ns", or_null(s.median)},
               {"p90_ns", or_null(stats::quantile(e.op_durations_ns, 0.90))},
               {"p99_ns", or_null(stats::quantile(e.op_durations_ns, 0.99))},
               {"max_ns", or_null(s.max)},
               {"mean_ns", or_null(s.mean)}};
  json out = {{"ops_per_call", or_null(e.ops_per_call)},
              {"op_time_distribution", dist},
              {"wall_per_call_ns", or_null(e.wall_ns)},
              {"profiled_wall_per_call_ns", or_null(e.profiled_wall_ns)},
              {"in_op_per_call_ns", or_null(e.in_op_ns)},
              {"in_op_fraction", or_null(e.in_op_fraction)},
              {"overhead_fraction", std::isfinite(e.in_op_fraction) ? json(1.0 - e.in_op_fraction) : json(nullptr)},
              {"library_fraction", or_null(e.library_fraction)},
              {"conv_fraction", or_null(e.conv_fraction)},
              {"device_busy_fraction", e.device_busy_fraction ? json(*e.device_busy_fraction) : json(nullptr)},
              {"kernel_launches", e.kernel_launches ? json(*e.kernel_launches) : json(nullptr)},
              {"pointwise_ops_per_call", e.pointwise_ops},
              {"reduction_ops_per_call", e.reduction_ops},
              {"library_ops_per_call", e.library_ops},
              {"top_ops", e.top_ops}};
  return out;
}

}  // namespace tct::analysis
