#include "analysis/expect_classifier.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tct::analysis {
namespace {

json or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

double clamp01(double x) { return std::isfinite(x) ? std::clamp(x, 0.0, 1.0) : 0.0; }

json reason(const std::string& metric, double value, json threshold, const std::string& meaning) {
  return {{"metric", metric}, {"value", or_null(value)}, {"threshold", std::move(threshold)},
          {"meaning", meaning}};
}

}  // namespace

TimeShares time_shares(const Evidence& e, const Ceilings& c) {
  TimeShares s;
  double in_op = clamp01(e.in_op_fraction);
  s.outside = 1.0 - in_op;
  s.library = std::min(clamp01(e.library_fraction), in_op);
  s.conv = std::min(clamp01(e.conv_fraction), s.library);
  double nonlib = in_op - s.library;
  // Fixed cost: all of a tiny non-library op, one op floor of a longer one; measured on the
  // listed ops and applied as a share of non-library time (the list may be capped).
  double floor_ns = c.op_floor_ns > 0 ? c.op_floor_ns : 0.0;
  double listed = 0, fixed_ns = 0;
  for (std::size_t i = 0; i < e.typical_op_ns.size(); ++i) {
    if (!e.typical_op_is_library.empty() && e.typical_op_is_library[i]) continue;
    double d = e.typical_op_ns[i];
    if (!std::isfinite(d) || d < 0) continue;
    listed += d;
    fixed_ns += d < kTinyOpFloors * floor_ns ? d : floor_ns;
  }
  s.fixed = listed > 0 ? nonlib * std::min(1.0, fixed_ns / listed) : 0.0;
  // Non-library memory traffic at full bandwidth, as a share of the profiled wall.
  double nonlib_bytes = e.bytes - (std::isfinite(e.library_bytes) ? e.library_bytes : 0.0);
  double mem = (std::isfinite(nonlib_bytes) && c.peak_bandwidth > 0 && e.profiled_wall_ns > 0)
                   ? nonlib_bytes / c.peak_bandwidth * 1e9 / e.profiled_wall_ns
                   : 0.0;
  s.memory = std::min(nonlib - s.fixed, clamp01(mem));
  s.other = std::max(0.0, nonlib - s.fixed - s.memory);
  return s;
}

Roofline roofline(const Evidence& e, const Ceilings& c) {
  Roofline r;
  double ai = e.arithmetic_intensity();
  if (std::isfinite(ai) && c.peak_flops > 0 && c.peak_bandwidth > 0)
    r.attainable_flops = std::min(c.peak_flops, ai * c.peak_bandwidth);
  if (std::isfinite(e.flops) && e.wall_ns > 0) r.achieved_flops = e.flops / (e.wall_ns * 1e-9);
  if (r.attainable_flops > 0) r.fraction = r.achieved_flops / r.attainable_flops;
  if (c.peak_flops > 0 && c.peak_bandwidth > 0 && std::isfinite(e.flops) && std::isfinite(e.bytes))
    r.roofline_time_ns = std::max(e.flops / c.peak_flops, e.bytes / c.peak_bandwidth) * 1e9;
  return r;
}

std::string class_label(const std::string& cls) {
  if (cls == "overhead_bound") return "overhead bound";
  if (cls == "memory_bound") return "memory bound";
  if (cls == "compute_bound") return "compute bound";
  return "unknown";
}

Verdict classify(const Evidence& e, const Ceilings& c) {
  Verdict v;
  v.shares = time_shares(e, c);
  v.roof = roofline(e, c);
  const auto& s = v.shares;
  double fixed_fraction = s.outside + s.fixed;
  double median_op = NAN;
  if (!e.op_durations_ns.empty()) {
    std::vector<double> d = e.op_durations_ns;
    std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
    median_op = d[d.size() / 2];
  }
  bool gpu = e.device_type == "cuda";

  v.decided_by.push_back(reason("fixed_cost_fraction", fixed_fraction, kOverheadBoundFraction,
                                fmt::format("{:.0f}% of a call is Python between ops and per-op fixed cost "
                                            "(overhead bound at >= {:.0f}%)",
                                            100 * fixed_fraction, 100 * kOverheadBoundFraction)));
  bool overhead = fixed_fraction >= kOverheadBoundFraction;
  if (gpu && e.device_busy_fraction) {
    v.decided_by.push_back(reason("device_busy_fraction", *e.device_busy_fraction, kDeviceIdleBoundFraction,
                                  fmt::format("the GPU is busy {:.0f}% of the wall time (host bound under {:.0f}%)",
                                              100 * *e.device_busy_fraction, 100 * kDeviceIdleBoundFraction)));
    overhead = overhead || *e.device_busy_fraction < kDeviceIdleBoundFraction;
  }
  if (std::isfinite(median_op) && c.op_floor_ns > 0)
    v.decided_by.push_back(reason("median_op_ns", median_op, kTinyOpFloors * c.op_floor_ns,
                                  fmt::format("the median op takes {:.1f} op floors ({:.0f} ns each); "
                                              "under {:.0f} the op is mostly fixed cost",
                                              median_op / c.op_floor_ns, c.op_floor_ns, kTinyOpFloors)));
  double ai = e.arithmetic_intensity();
  double balance = c.balance();
  if (std::isfinite(ai) && std::isfinite(balance))
    v.decided_by.push_back(reason("arithmetic_intensity", ai, balance,
                                  fmt::format("{:.2f} FLOP per byte moved against the machine balance of "
                                              "{:.2f} (compute bound above it)", ai, balance)));

  if (overhead) v.cls = "overhead_bound";
  else if (std::isfinite(ai) && std::isfinite(balance)) v.cls = ai >= balance ? "compute_bound" : "memory_bound";
  else if (std::isfinite(e.in_op_fraction)) v.cls = s.library >= 0.5 ? "compute_bound" : "memory_bound";
  else v.cls = "unknown";

  // The prediction (see the Keep constants in the header).
  double wall = e.wall_ns;
  auto compiled_share = [&](bool best) {
    auto k = [best](Keep keep) { return best ? keep.best : keep.worst; };
    return s.outside * k(kKeepOutside) + s.fixed * k(kKeepFixed) + s.memory * k(kKeepMemory) +
           s.other * k(kKeepOther) + (s.library - s.conv) * k(kKeepLibrary) + s.conv * k(kKeepConv);
  };
  double floor_ns = c.op_floor_ns > 0 ? c.op_floor_ns : 1000.0;
  if (gpu && e.device_busy_fraction) {
    // GPU: the compiled call is bound by the larger of its host cost and the device time
    // left after fusion; with CUDA graphs (reduce-overhead) the host cost is one launch.
    double busy = *e.device_busy_fraction;
    double lib_dev = std::min(busy, s.library);
    double other_dev = busy - lib_dev;
    auto t = [&](bool best) {
      double dev = lib_dev * (best ? kKeepLibrary.best : kKeepLibrary.worst) +
                   other_dev * (best ? kKeepMemory.best : kKeepOther.worst);
      double host = (best ? kCompiledCallFloors.best : kCompiledCallFloors.worst) * floor_ns / wall;
      return std::max(dev, host) + (best ? 0.0 : std::min(dev, host) * 0.5);
    };
    v.predicted = {1.0 / t(false), 1.0 / t(true)};
  } else if (wall > 0) {
    double worst = compiled_share(false) + kCompiledCallFloors.worst * floor_ns / wall;
    double best = compiled_share(true) + kCompiledCallFloors.best * floor_ns / wall;
    v.predicted = {1.0 / worst, 1.0 / best};
  }

  v.shifts.push_back({{"factor", "fixed_cost_fraction"}, {"value", fixed_fraction},
                      {"effect", "the larger the share of Python and per-op fixed cost, the larger the gain: "
                                 "fewer, fused kernels and no Python between them"}});
  v.shifts.push_back({{"factor", "pointwise_ops_per_call"}, {"value", e.pointwise_ops},
                      {"effect", "each elementwise op fused into its neighbour saves a round trip to memory "
                                 "and a launch"}});
  v.shifts.push_back({{"factor", "library_fraction"}, {"value", s.library},
                      {"effect", "time in matmul/conv/attention is the same vendor kernel compiled or not: "
                                 "it caps the gain at 1 / library_fraction"}});
  v.shifts.push_back({{"factor", "wall_per_call_ns"}, {"value", or_null(wall)},
                      {"effect", "the compiled call's own fixed cost (guards, wrapper) weighs more on short calls"}});
  return v;
}

json verdict_json(const Verdict& v) {
  return {{"class", v.cls},
          {"decided_by", v.decided_by},
          {"roofline", {{"attainable_flops", or_null(v.roof.attainable_flops)},
                        {"achieved_flops", or_null(v.roof.achieved_flops)},
                        {"fraction", or_null(v.roof.fraction)},
                        {"roofline_time_ns", or_null(v.roof.roofline_time_ns)}}},
          {"time_shares", {{"outside_ops", v.shares.outside}, {"fixed_cost", v.shares.fixed},
                           {"memory_traffic", v.shares.memory}, {"other_compute", v.shares.other},
                           {"library", v.shares.library}, {"conv", v.shares.conv}}},
          {"predicted_speedup", {{"low", or_null(v.predicted.low)}, {"high", or_null(v.predicted.high)},
                                 {"shifts", v.shifts}}}};
}

json validate_prediction(const SpeedupRange& predicted, const json& measured) {
  if (!measured.is_object() || !measured.contains("estimate") || !measured["estimate"].is_number()) return nullptr;
  if (measured.value("inconclusive", false)) return nullptr;  // too wide to judge anything by
  double est = measured["estimate"].get<double>();
  std::string where = est < predicted.low ? "below" : est > predicted.high ? "above" : "inside";
  auto direction = [](double lo, double hi) -> std::string {
    if (lo > kGainBand) return "gain";
    if (hi < 1.0 / kGainBand) return "loss";
    return "neutral";
  };
  std::string pd = direction(predicted.low, predicted.high);
  double mlo = measured.value("low", json()).is_number() ? measured["low"].get<double>() : est;
  double mhi = measured.value("high", json()).is_number() ? measured["high"].get<double>() : est;
  std::string md = direction(mlo, mhi);
  bool right = pd == md || (pd == "neutral" && where == "inside");
  auto field = [&](const char* k) { return measured.contains(k) ? measured[k] : json(nullptr); };
  return {{"predicted", {{"low", or_null(predicted.low)}, {"high", or_null(predicted.high)}}},
          {"measured", {{"estimate", est}, {"low", field("low")}, {"high", field("high")}}},
          {"verdict", where},
          {"predicted_direction", pd},
          {"measured_direction", md},
          {"direction_right", right}};
}

}  // namespace tct::analysis
