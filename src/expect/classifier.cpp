#include "expect/classifier.hpp"

#include "expect/calibration.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/json_number.hpp"

namespace tct::expect {
namespace {

double clamp01(double x) { return std::isfinite(x) ? std::clamp(x, 0.0, 1.0) : 0.0; }

Reason reason(const std::string& metric, double value, double threshold, const std::string& meaning) {
  return {metric, value, threshold, meaning};
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
  double rest = nonlib - s.fixed;
  // Beyond fixed cost, first the time of eager's own fused kernels (softmax, norms): they move
  // no intermediates, so all of it is arithmetic a compiled kernel still does (a layer_norm and
  // softmax compiled run about as fast as eager's).
  double fused = std::min(rest, clamp01(e.fused_kernel_fraction));
  rest -= fused;
  // Then the other non-library ops' memory traffic at full bandwidth, as a share of the profiled wall.
  auto known = [](double b) { return std::isfinite(b) ? b : 0.0; };
  double traffic = e.bytes - known(e.library_bytes) - known(e.fused_kernel_bytes);
  double mem = (std::isfinite(traffic) && c.peak_bandwidth > 0 && e.profiled_wall_ns > 0)
                   ? traffic / c.peak_bandwidth * 1e9 / e.profiled_wall_ns
                   : 0.0;
  s.memory = std::min(rest, clamp01(mem));
  rest -= s.memory;
  // Of the rest, up to what transcendental ops took: the polynomial each element still needs.
  // Their own traffic is not split out of their time, so this is an upper bound.
  double transcendental =
      std::min(rest, std::max(0.0, clamp01(e.kept_arithmetic_fraction) - clamp01(e.fused_kernel_fraction)));
  s.kept_arithmetic = fused + transcendental;
  s.other = rest - transcendental;
  if (std::isfinite(e.element_ops) && c.peak_flops > 0 && e.profiled_wall_ns > 0)
    s.elementwise_work = e.element_ops / c.peak_flops * 1e9 / e.profiled_wall_ns;
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

SpeedupRange speedup_range(double compiled_fraction, double generated_share, bool no_library) {
  namespace cal = calibration;
  SpeedupRange r;
  if (!(compiled_fraction > 0) || !std::isfinite(compiled_fraction)) return r;
  r.point = 1.0 / compiled_fraction;
  r.generated_share = clamp01(generated_share);
  r.log_sigma = std::hypot(cal::kLogSigmaBase, cal::kLogSigmaGenerated * r.generated_share,
                           no_library ? cal::kLogSigmaNoLibrary : 0.0);
  r.low = r.point * std::exp(cal::kLogBias - cal::kIntervalZ * r.log_sigma);
  r.high = r.point * std::exp(cal::kLogBias + cal::kIntervalZ * r.log_sigma);
  return r;
}

CallFacts call_facts(const Evidence& e, const Ceilings& c) {
  return {e.wall_ns,      c.compiled_call_ns, static_cast<double>(e.library_ops),
          e.ops_per_call, e.outside_tensors,  e.module_calls};
}

SpeedupRange predict_speedup(const TimeShares& s, const CallFacts& f, std::vector<Term>* terms) {
  namespace cal = calibration;
  // Without the cost of a compiled call (this machine could not compile) no point is honest.
  if (!(f.wall_ns > 0) || !(f.compiled_call_ns > 0)) return {};
  auto term = [&](const char* name, double share, double keep) {
    if (terms) terms->push_back({name, share, keep, share * keep});
    return share * keep;
  };
  const double call = f.compiled_call_ns / f.wall_ns;
  // The library ops' part of the ops (the profile's top-level ops; FLOP-counted library ops).
  const double library_part = f.library_ops > 0 && f.ops_per_call > 0 ? clamp01(f.library_ops / f.ops_per_call) : 0.0;
  double outside = term("outside_ops", s.outside * (1 - library_part), cal::kKeepOutside) +
                   term("outside_library_ops", s.outside * library_part, cal::kKeepOutsideLibrary);
  double generated = term("memory_traffic", s.memory, cal::kKeepMemory) +
                     term("other_compute", s.other, cal::kKeepOther) +
                     term("kept_arithmetic", s.kept_arithmetic, cal::kKeepArithmetic) +
                     term("elementwise_work", s.elementwise_work, cal::kElementwiseWork);
  double compiled = outside + generated + term("fixed_cost", s.fixed, cal::kKeepFixed) +
                    term("library", s.library - s.conv, cal::kKeepLibrary) + term("conv", s.conv, cal::kKeepConv) +
                    term("compiled_call", call, cal::kCompiledCallScale) +
                    term("library_calls", f.library_ops * call, cal::kLibraryCallScale);
  // The timed compiled add reads one tensor: each further one is a graph input more.
  if (f.outside_tensors > 1) compiled += term("graph_inputs", (f.outside_tensors - 1) * call, cal::kInputCallScale);
  if (f.module_calls > 0) compiled += term("module_calls", call, cal::kModuleCallScale);
  return speedup_range(compiled, compiled > 0 ? generated / compiled : NAN, !(f.library_ops > 0));
}

std::string class_label(const std::string& cls) {
  if (cls == "overhead_bound") return "overhead bound";
  if (cls == "memory_bound") return "memory bound";
  if (cls == "compute_bound") return "compute bound";
  return "unknown";
}

Verdict classify(const Evidence& e, const Ceilings& ceilings) {
  Verdict v;
  // Fixed costs timed in the profile's own seconds, when they were: the same machine speed as
  // the times they are compared with.
  Ceilings c = ceilings;
  v.compiled_call_source = e.compiled_call_ns > 0 ? "profile" : "ceilings";
  if (e.compiled_call_ns > 0) c.compiled_call_ns = e.compiled_call_ns;
  if (e.op_floor_ns > 0) c.op_floor_ns = e.op_floor_ns;
  v.compiled_call_ns = c.compiled_call_ns;
  v.op_floor_ns = c.op_floor_ns;
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
                                              "{:.2f} (compute bound above it)",
                                              ai, balance)));

  // What the work itself is bound by, were the fixed costs gone.
  std::string work_class = "unknown";
  if (std::isfinite(ai) && std::isfinite(balance)) work_class = ai >= balance ? "compute_bound" : "memory_bound";
  else if (std::isfinite(e.in_op_fraction)) work_class = s.library >= 0.5 ? "compute_bound" : "memory_bound";
  v.cls = overhead ? "overhead_bound" : work_class;
  // An idle GPU decides on its own; otherwise the fixed-cost fraction did, and near its
  // threshold the machine's load can tip it either way.
  bool idle_device = gpu && e.device_busy_fraction && *e.device_busy_fraction < kDeviceIdleBoundFraction;
  if (!idle_device && work_class != "unknown" && std::abs(fixed_fraction - kOverheadBoundFraction) < kBorderlineBand)
    v.borderline_with = overhead ? work_class : "overhead_bound";

  double wall = e.wall_ns;
  if (gpu && e.device_busy_fraction) {
    // GPU: the compiled call takes the longer of its host cost (one call's fixed cost) and
    // the device time left after fusion (library kernels kept, the rest at memory speed).
    namespace cal = calibration;
    auto term = [&](const char* name, double share, double keep) {
      v.terms.push_back({name, share, keep, share * keep});
      return share * keep;
    };
    double busy = *e.device_busy_fraction;
    double lib_dev = std::min(busy, s.library);
    double dev =
        term("device_library", lib_dev, cal::kKeepLibrary) + term("device_other", busy - lib_dev, cal::kKeepMemory);
    double host = term("compiled_call", c.compiled_call_ns / wall, cal::kCompiledCallScale);
    // Not calibrated on a GPU: the widest interval the calibration gives.
    v.predicted = speedup_range(std::max(dev, host), 1.0, /*no_library=*/true);
  } else {
    v.predicted = predict_speedup(s, call_facts(e, c), &v.terms);
  }

  v.shifts.push_back({"fixed_cost_fraction", fixed_fraction, false,
                      "the larger the share of Python and per-op fixed cost, the larger the gain: fewer, fused "
                      "kernels and no Python between them"});
  v.shifts.push_back({"pointwise_ops_per_call", e.pointwise_ops, true,
                      "each elementwise op fused into its neighbour saves a round trip to memory and a launch"});
  v.shifts.push_back({"library_fraction", s.library, false,
                      "time in matmul/conv/attention is the same vendor kernel compiled or not: it caps the gain "
                      "at 1 / library_fraction"});
  v.shifts.push_back({"wall_per_call_ns", wall, false,
                      "the compiled call's own fixed cost (guards, wrapper) weighs more on short calls"});
  return v;
}

std::optional<report::Warning> load_instability(const Evidence& e) {
  double spread = e.in_op_fraction_p90 - e.in_op_fraction_p10;
  if (!(spread > kUnstableInOpSpread)) return std::nullopt;
  report::kind::ProfileLoadUnstable w{1 - e.in_op_fraction_p90, 1 - e.in_op_fraction_p10, std::nullopt};
  if (e.envelope) w.envelope_outside = 1 - e.in_op_fraction;
  return report::Warning{w, ""};
}

std::optional<report::Warning> slow_machine(const Evidence& e, const Ceilings& c) {
  double ratio = e.compiled_call_ns / c.compiled_call_ns;
  if (!(ratio > kSlowMachineRatio)) return std::nullopt;
  return report::Warning{report::kind::ProfileSlowedDown{ratio}, ""};
}

std::optional<report::Warning> load_drift(const Evidence& e) {
  if (!e.outside_fraction_halves) return std::nullopt;
  auto [first, second] = *e.outside_fraction_halves;
  if (!(std::abs(first - second) > kLoadDriftShare)) return std::nullopt;
  return report::Warning{report::kind::ProfileLoadDrift{first, second}, ""};
}

}  // namespace tct::expect
