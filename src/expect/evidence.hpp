#pragma once
// Evidence for `tct expect`: the agent's raw facts (python/tct_agent/ops/expect.py: ops
// expect.profile, expect.flops, expect.ceilings: operator events, names, tags, timings)
// classified (ops.hpp) and aggregated into per-call numbers. Pure: no I/O.
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "expect/reply.hpp"

namespace tct::expect {

using json = nlohmann::json;

// The machine's ceilings for one device and dtype.
struct Ceilings {
  double peak_flops = NAN;          // FLOP/s of a large matrix product in the target's dtype
  double peak_bandwidth = NAN;      // bytes/s of a large copy (bytes read + bytes written)
  double op_floor_ns = NAN;         // profiled duration of a 1-element aten::add: the fixed
                                    // cost every eager op pays (dispatch, allocation, launch)
  double compiled_call_ns = NAN;    // wall time of a compiled 1-element add: the fixed cost
                                    // every compiled call pays (guards, wrapper, one kernel)
  std::string source = "measured";  // measured | cache
  // Arithmetic intensity (FLOP/byte) where the roofline bends: peak_flops / peak_bandwidth.
  double balance() const { return peak_flops / peak_bandwidth; }
};

// The figures as tct writes them (to_json below, a ceilings cache entry) or an older agent's
// expect.ceilings reply carried them ({peak_flops, peak_bandwidth_bytes_per_s, op_floor_ns,
// compiled_call_ns}); missing or null fields are NaN.
Ceilings ceilings_from_json(const json& j, const std::string& source);
// From expect.ceilings' reply: its raw timings, the figures computed in expect/timings.cpp.
Ceilings ceilings_measured(const reply::CeilingTimings& timings);
// {peak_flops, peak_bandwidth_bytes_per_s, op_floor_ns, compiled_call_ns, balance_flops_per_byte, source}
json to_json(const Ceilings& c);

// One of the heaviest operators of a call (heaviest_ops in evidence.cpp: at most 10, by their
// time per call).
struct TopOp {
  std::string name, cls;  // the aten op and its class (ops.hpp)
  double count_per_call = NAN, ns_per_call = NAN, self_ns_per_call = NAN;

  bool operator==(const TopOp&) const = default;
};

struct Evidence {
  std::string device_type = "cpu";
  // Per call. When every profiled call ran the same ops (`envelope`), lower envelopes:
  // the fastest plain call, each op's fastest run, the fastest gap between ops (other
  // processes only add time). Otherwise medians over the calls (each call's own ratio,
  // then the median, so one preempted call cannot skew a ratio of medians).
  bool envelope = false;
  double wall_ns = NAN;           // plain eager call, no profiler
  double profiled_wall_ns = NAN;  // the same under torch.profiler (envelope: gaps + ops)
  double in_op_ns = NAN;          // time inside the top-level operators (profiled)
  double in_op_fraction = NAN;    // in_op / profiled wall
  // Its 10% and 90% quantiles over the profiled calls: far apart when other processes
  // preempt some calls (the share outside ops then measures the load, not the workload).
  double in_op_fraction_p10 = NAN, in_op_fraction_p90 = NAN;
  // Envelope: the share outside ops of the first half of the profiled calls' envelope and of
  // the second half's (the calls spread over the profile's seconds, in time order). Apart
  // when the machine's load moved during the profile.
  std::optional<std::pair<double, double>> outside_fraction_halves;
  double library_fraction = NAN;        // library ops' time / profiled wall
  double conv_fraction = 0;             // the convolutions' part of it
  double kept_arithmetic_fraction = 0;  // ops.hpp's keeps_arithmetic ops' time / profiled wall
  double fused_kernel_fraction = 0;     // the part of it in is_fused_kernel ops (softmax, norms)
  double ops_per_call = NAN;            // top-level operators per call
  std::vector<double> op_durations_ns;  // every top-level operator of the profiled calls
  std::vector<bool> op_is_library;      // parallel to op_durations_ns (empty if unknown)
  // The ops of a typical call: per position, the fastest over the profiled calls (or all
  // listed ops when calls differ in their ops). Parallel flags, as above.
  std::vector<double> typical_op_ns;
  std::vector<bool> typical_op_is_library;
  std::optional<double> device_busy_fraction;  // CUDA: union of kernel time / profiled wall
  std::optional<double> kernel_launches;       // CUDA: kernels per call
  bool events_truncated = false;               // some profiled calls came without their events
  // Ceilings::compiled_call_ns and op_floor_ns timed again beside the profile's calls: a
  // shared machine runs the same Python up to 1.7x slower from one second to the next, and
  // the prediction compares these with the profile's times. NaN when the profile did not
  // time them (the ceilings' are used).
  double compiled_call_ns = NAN;
  double op_floor_ns = NAN;
  // One call under FlopCounterMode + the bytes-counting dispatch mode. NaN if that failed.
  double flops = NAN;          // matmul, conv and attention FLOPs (elementwise count 0)
  double bytes = NAN;          // sum over aten ops of input + output tensor bytes
  double library_bytes = NAN;  // the part of `bytes` moved by library ops
  // The part moved by eager's fused kernels (ops.hpp's is_fused_kernel: softmax,
  // norms): counted with their time as kept arithmetic, not as traffic fusion can drop.
  double fused_kernel_bytes = NAN;
  // Elements written by the other pointwise ops, each weighted by what one costs in a fused
  // kernel against an add (ops.hpp's element_op_weight): the per-element work a fused
  // kernel still does (200 adds and muls on 4096 floats: 0.8 M, ~30 us of a compiled call).
  double element_ops = NAN;
  double boundary_bytes = NAN;  // inputs + parameters + buffers + outputs
  // Tensors the call reads from outside (inputs, parameters, buffers, captured tensors):
  // what a compiled graph takes as inputs, and checks and passes on every call.
  double outside_tensors = NAN;
  // nn.Module forwards one call runs (the target's own included): a compiled graph that calls
  // a module also guards on it and on torch's global module hooks, on every call.
  double module_calls = NAN;
  int pointwise_ops = 0;  // aten ops per call with the pointwise tag
  int reduction_ops = 0;
  int library_ops = 0;
  std::string flops_error;     // why FLOPs/bytes are missing, if they are
  std::vector<TopOp> top_ops;  // heaviest first

  double arithmetic_intensity() const { return flops / bytes; }  // FLOP per byte
};

// expect.profile's and expect.flops' replies (expect/reply.hpp), read where they arrive; the
// profile's fixed costs through expect/timings.cpp; no flops: the figures it gives stay unknown.
// Throws std::invalid_argument when the profile has no timed call.
Evidence evidence_from_agent(const reply::Profile& profile, const std::optional<reply::Flops>& flops);

}  // namespace tct::expect
