#include "expect/evidence.hpp"
#include "core/json_number.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "expect/ops.hpp"
#include "expect/timings.hpp"

#include "stats/summary.hpp"

namespace tct::expect {

namespace {

// The figures of a saved document's ceilings or of a cache entry, both tct's own.
struct Figures {
  double peak_flops = NAN, peak_bandwidth_bytes_per_s = NAN, op_floor_ns = NAN, compiled_call_ns = NAN;
};
constexpr auto json_fields(const Figures*) {
  using core::fields::field;
  return std::tuple{field("peak_flops", &Figures::peak_flops),
                    field("peak_bandwidth_bytes_per_s", &Figures::peak_bandwidth_bytes_per_s),
                    field("op_floor_ns", &Figures::op_floor_ns), field("compiled_call_ns", &Figures::compiled_call_ns)};
}

}  // namespace

Ceilings ceilings_from_json(const json& j, const std::string& source) {
  const auto f = core::fields::read_as<Figures>(j);
  return {f.peak_flops, f.peak_bandwidth_bytes_per_s, f.op_floor_ns, f.compiled_call_ns, source};
}

Ceilings ceilings_measured(const reply::CeilingTimings& timings) {
  Ceilings c;
  c.peak_flops = ceiling_flops(timings);
  c.peak_bandwidth = ceiling_bandwidth(timings);
  c.op_floor_ns = ceiling_op_floor_ns(timings);
  c.compiled_call_ns = ceiling_compiled_call_ns(timings);
  c.source = "measured";
  return c;
}

json to_json(const Ceilings& c) {
  return {{"peak_flops", core::number_or_null(c.peak_flops)},
          {"peak_bandwidth_bytes_per_s", core::number_or_null(c.peak_bandwidth)},
          {"op_floor_ns", core::number_or_null(c.op_floor_ns)},
          {"compiled_call_ns", core::number_or_null(c.compiled_call_ns)},
          {"balance_flops_per_byte", core::number_or_null(c.balance())},
          {"source", c.source}};
}

namespace {

// One operator name of the profile: its class and summed figures over the profiled calls.
struct OpName {
  std::string name, cls;
  double self_ns_total = 0, count = 0, total_ns = 0;
  bool kept_arithmetic = false;  // ops.hpp's keeps_arithmetic
  bool fused_kernel = false;     // ops.hpp's is_fused_kernel
};

// Length of the union of [start, end) intervals.
double union_length(std::vector<std::pair<double, double>> iv) {
  std::sort(iv.begin(), iv.end());
  double total = 0, cur_s = 0, cur_e = -INFINITY;
  for (auto [s, e] : iv) {
    if (s > cur_e) {
      if (cur_e > cur_s) total += cur_e - cur_s;
      cur_s = s;
      cur_e = e;
    } else {
      cur_e = std::max(cur_e, e);
    }
  }
  if (cur_e > cur_s) total += cur_e - cur_s;
  return total;
}

// The profile's operator names, classified.
std::vector<OpName> profile_op_names(const reply::Profile& profile) {
  std::vector<OpName> names;
  for (const auto& n : profile.op_names)
    names.push_back({n.name, op_class(n.name, n.tags, n.is_view), n.self_ns_total, 0, 0, keeps_arithmetic(n.name),
                     is_fused_kernel(n.name)});
  return names;
}

// Per profiled call: its wall, then (for calls sent with their events) the time inside the
// top-level operators, by class, and the ops in order. Fractions only where the wall is known.
struct ProfiledCalls {
  std::vector<double> wall, wall_with_events, in_op, ops;
  std::vector<double> in_frac, lib_frac, conv_frac, kept_frac, fused_frac;
  std::vector<double> busy, launches;              // CUDA: per call with kernel intervals
  std::vector<std::vector<std::size_t>> call_ops;  // name index per op, per call with events
  std::size_t with_events = 0;
};

// Reads each call of the profile into `pc` (sums each name's count and time into `names`, each
// op's duration and library flag into `e`).
ProfiledCalls read_profiled_calls(const std::vector<reply::ProfiledCall>& calls, std::vector<OpName>& names,
                                  Evidence& e) {
  ProfiledCalls pc;
  for (const auto& c : calls) {
    const double w = c.wall_ns;
    pc.wall.push_back(w);
    if (c.kernels_ns && w > 0) {
      std::vector<std::pair<double, double>> iv;
      for (const auto& k : *c.kernels_ns)
        if (k.size() == 2 && std::isfinite(k[0]) && std::isfinite(k[1])) iv.push_back({k[0], k[1]});
      pc.busy.push_back(std::min(1.0, union_length(iv) / w));
      pc.launches.push_back(static_cast<double>(iv.size()));
    }
    if (!c.op || !c.ns || c.op->size() != c.ns->size()) continue;
    ++pc.with_events;
    double total = 0, lib = 0, conv = 0, kept = 0, fused = 0;
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < c.op->size(); ++i) {
      const long long at = (*c.op)[i];
      std::size_t k = at >= 0 ? static_cast<std::size_t>(at) : names.size();
      double d = (*c.ns)[i];
      if (k >= names.size() || !std::isfinite(d)) continue;
      OpName& n = names[k];
      n.count += 1;
      n.total_ns += d;
      total += d;
      if (is_library_class(n.cls)) lib += d;
      if (n.cls == "conv") conv += d;
      if (n.kept_arithmetic) kept += d;
      if (n.fused_kernel) fused += d;
      idx.push_back(k);
      e.op_durations_ns.push_back(d);
      e.op_is_library.push_back(is_library_class(n.cls));
    }
    pc.call_ops.push_back(idx);
    pc.wall_with_events.push_back(w);
    pc.ops.push_back(static_cast<double>(idx.size()));
    pc.in_op.push_back(total);
    if (w > 0) {
      pc.in_frac.push_back(std::min(1.0, total / w));
      pc.lib_frac.push_back(std::min(1.0, lib / w));
      pc.conv_frac.push_back(std::min(1.0, conv / w));
      pc.kept_frac.push_back(std::min(1.0, kept / w));
      pc.fused_frac.push_back(std::min(1.0, fused / w));
    }
  }
  return pc;
}

// Every call ran the same ops in the same order (the usual case): a lower envelope. Other
// processes only ever add time, so each op's fastest run and the fastest gap between ops (wall
// minus time in ops, per call) are what the workload itself takes; medians would move with the
// machine's load (GPT-2 on a 2-core machine at load 20: the median share outside ops anywhere
// from 32% to 84% over 5 runs). Sets e.envelope when the envelope could be made.
void take_envelope(const ProfiledCalls& pc, const std::vector<OpName>& names, const std::vector<double>& wall,
                   Evidence& e) {
  const auto& first = pc.call_ops.front();
  std::size_t per_call = first.size();
  double in_op_env = 0, lib_env = 0, conv_env = 0, kept_env = 0, fused_env = 0;
  for (std::size_t k = 0; k < per_call; ++k) {
    double fastest = INFINITY;
    for (std::size_t c = 0; c < pc.call_ops.size(); ++c)
      fastest = std::min(fastest, e.op_durations_ns[c * per_call + k]);
    e.typical_op_ns.push_back(fastest);
    e.typical_op_is_library.push_back(e.op_is_library[k]);
    in_op_env += fastest;
    if (e.op_is_library[k]) lib_env += fastest;
    if (names[first[k]].cls == "conv") conv_env += fastest;
    if (names[first[k]].kept_arithmetic) kept_env += fastest;
    if (names[first[k]].fused_kernel) fused_env += fastest;
  }
  // The fastest gap between ops (wall minus time in ops) of calls [from, to).
  auto fastest_outside = [&](std::size_t from, std::size_t to) {
    double fastest = INFINITY;
    for (std::size_t c = from; c < to; ++c)
      if (pc.wall_with_events[c] > 0) fastest = std::min(fastest, std::max(0.0, pc.wall_with_events[c] - pc.in_op[c]));
    return fastest;
  };
  // The share outside ops of the envelope of calls [from, to), each op at its fastest there.
  auto outside_share = [&](std::size_t from, std::size_t to) {
    double ops_env = 0;
    for (std::size_t k = 0; k < per_call; ++k) {
      double fastest = INFINITY;
      for (std::size_t c = from; c < to; ++c) fastest = std::min(fastest, e.op_durations_ns[c * per_call + k]);
      ops_env += fastest;
    }
    double outside = fastest_outside(from, to);
    return outside / (outside + ops_env);
  };
  double outside_env = fastest_outside(0, pc.call_ops.size());
  if (pc.call_ops.size() >= 4) {
    // The profiled calls run in time order, spread over the profile's seconds.
    std::size_t half = pc.call_ops.size() / 2;
    e.outside_fraction_halves = {outside_share(0, half), outside_share(half, pc.call_ops.size())};
  }
  if (std::isfinite(outside_env) && outside_env + in_op_env > 0) {
    e.envelope = true;
    e.profiled_wall_ns = outside_env + in_op_env;
    e.in_op_ns = in_op_env;
    e.in_op_fraction = in_op_env / e.profiled_wall_ns;
    e.library_fraction = lib_env / e.profiled_wall_ns;
    e.conv_fraction = conv_env / e.profiled_wall_ns;
    e.kept_arithmetic_fraction = kept_env / e.profiled_wall_ns;
    e.fused_kernel_fraction = fused_env / e.profiled_wall_ns;
    e.ops_per_call = static_cast<double>(per_call);
    e.wall_ns = wall.empty() ? e.profiled_wall_ns : *std::min_element(wall.begin(), wall.end());
  }
}

// Calls differ in their ops (data-dependent control flow) or came without events: medians of
// each call's own ratios, so one preempted call cannot skew a ratio.
void take_medians(const ProfiledCalls& pc, const std::vector<double>& wall, Evidence& e) {
  e.wall_ns = stats::median(wall.empty() ? pc.wall : wall);
  e.profiled_wall_ns = stats::median(pc.wall);
  e.in_op_ns = stats::median(pc.in_op);
  e.ops_per_call = stats::median(pc.ops);
  e.in_op_fraction = stats::median(pc.in_frac);
  e.library_fraction = pc.lib_frac.empty() ? 0.0 : stats::median(pc.lib_frac);
  e.conv_fraction = pc.conv_frac.empty() ? 0.0 : std::min(e.library_fraction, stats::median(pc.conv_frac));
  e.kept_arithmetic_fraction = pc.kept_frac.empty() ? 0.0 : stats::median(pc.kept_frac);
  e.fused_kernel_fraction =
      pc.fused_frac.empty() ? 0.0 : std::min(e.kept_arithmetic_fraction, stats::median(pc.fused_frac));
  e.typical_op_ns = e.op_durations_ns;
  e.typical_op_is_library = e.op_is_library;
}

// The heaviest operators per call, at most 10.
std::vector<TopOp> heaviest_ops(const std::vector<OpName>& names, std::size_t with_events, std::size_t calls) {
  std::vector<const OpName*> order;
  for (const auto& n : names) order.push_back(&n);
  std::stable_sort(order.begin(), order.end(),
                   [](const OpName* a, const OpName* b) { return a->total_ns > b->total_ns; });
  double per = with_events > 0 ? static_cast<double>(with_events) : 1.0;
  double all_calls = calls == 0 ? 1.0 : static_cast<double>(calls);
  std::vector<TopOp> out;
  for (const OpName* n : order) {
    if (out.size() >= 10 || n->count == 0) break;
    out.push_back({n->name, n->cls, n->count / per, n->total_ns / per, n->self_ns_total / all_calls});
  }
  return out;
}

// expect.flops' reply: FLOPs, bytes, and per class what fusion can and cannot drop.
void read_flops(const reply::Flops& flops, Evidence& e) {
  e.flops = flops.flops_per_call;
  e.bytes = flops.bytes_per_call;
  e.boundary_bytes = flops.boundary_bytes;
  e.outside_tensors = flops.outside_tensors;
  e.module_calls = flops.module_calls;
  e.flops_error = flops.error.value_or("");
  double lib_bytes = 0, fused_bytes = 0, elements = 0;
  for (const auto& op : flops.ops) {
    const std::string& name = op.name;
    std::string cls = op_class(name, op.tags, op.is_view);
    const auto count = static_cast<int>(op.count);
    if (!is_library_class(cls) && is_fused_kernel(name)) fused_bytes += op.bytes;
    if (is_library_class(cls)) {
      lib_bytes += op.bytes;
      e.library_ops += count;
    } else if (cls == "pointwise") {
      e.pointwise_ops += count;
      if (!keeps_arithmetic(name)) elements += element_op_weight(name) * op.elements;
    } else if (cls == "reduction") {
      e.reduction_ops += count;
    }
  }
  e.library_bytes = std::isfinite(e.bytes) ? lib_bytes : NAN;
  e.fused_kernel_bytes = std::isfinite(e.bytes) ? fused_bytes : NAN;
  e.element_ops = std::isfinite(e.bytes) ? elements : NAN;
}

}  // namespace

Evidence evidence_from_agent(const reply::Profile& profile, const std::optional<reply::Flops>& flops) {
  Evidence e;
  e.device_type = profile.device_type;
  e.events_truncated = profile.events_truncated;
  e.compiled_call_ns = profile_compiled_call_ns(profile);
  e.op_floor_ns = profile_op_floor_ns(profile);
  std::vector<OpName> names = profile_op_names(profile);
  const std::vector<double>& wall = profile.wall_samples_ns;
  const auto& calls = profile.calls;
  if (wall.empty() && calls.empty()) throw std::invalid_argument("the profile holds no timed call");

  const ProfiledCalls pc = read_profiled_calls(calls, names, e);
  e.in_op_fraction_p10 = stats::quantile(pc.in_frac, 0.10);
  e.in_op_fraction_p90 = stats::quantile(pc.in_frac, 0.90);
  if (!pc.busy.empty()) e.device_busy_fraction = stats::median(pc.busy);
  if (!pc.launches.empty()) e.kernel_launches = stats::median(pc.launches);

  bool same = !pc.call_ops.empty() && !pc.call_ops.front().empty();
  for (const auto& c : pc.call_ops) same = same && c == pc.call_ops.front();
  if (same) take_envelope(pc, names, wall, e);
  if (!e.envelope) take_medians(pc, wall, e);
  e.top_ops = heaviest_ops(names, pc.with_events, calls.size());
  if (flops) read_flops(*flops, e);
  return e;
}

}  // namespace tct::expect
