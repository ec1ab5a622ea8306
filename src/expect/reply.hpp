#pragma once
// The replies of the agent's expect.profile, expect.flops, expect.device_info and expect.ceilings
// ops (python/tct_agent/ops/expect.py),
// each declared once as bench/reply.hpp declares bench's: read into its struct where it arrives
// (core::fields::read_as), the evidence (evidence.hpp) made from its members. Their field names
// are python/tct_agent/replies.json's; tests/unit/test_replies.cpp holds the two to each other. A
// missing or mistyped field keeps the member's initializer; NaN stands for a number not given.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/fields.hpp"

namespace tct::expect::reply {

// One profiled call: its wall, the CUDA kernels' [start, end) intervals launched in it, and its
// top-level operators in order (each an index into the profile's op_names) with their ns; a
// call sent without its events (the cap on events) has no op and ns.
struct ProfiledCall {
  double wall_ns = NAN;
  std::optional<std::vector<std::vector<double>>> kernels_ns;
  std::optional<std::vector<long long>> op;
  std::optional<std::vector<double>> ns;
};
constexpr auto json_fields(const ProfiledCall*) {
  using core::fields::field;
  using C = ProfiledCall;
  return std::tuple{field("wall_ns", &C::wall_ns), field("kernels_ns", &C::kernels_ns), field("op", &C::op),
                    field("ns", &C::ns)};
}

// One operator name the profile saw: torch's tags of it, whether it is a view, its self time
// summed over the profiled calls.
struct OpNameFacts {
  std::string name;
  std::vector<std::string> tags;
  bool is_view = false;
  double self_ns_total = 0;
};
constexpr auto json_fields(const OpNameFacts*) {
  using core::fields::field;
  using O = OpNameFacts;
  return std::tuple{field("name", &O::name), field("tags", &O::tags), field("is_view", &O::is_view),
                    field("self_ns_total", &O::self_ns_total)};
}

// expect.profile: the timed calls' walls, the profiled calls, and the fixed costs timed beside
// them (the compiled add's rounds, the profiler's 1-element adds per run). An older agent sent
// the two fixed costs as figures (compiled_call_ns, op_floor_ns): read as is when there.
struct Profile {
  std::string device_type = "cpu";
  long long warmup_calls = 0;
  double seconds = NAN;
  std::vector<double> wall_samples_ns;
  std::vector<double> compiled_call_rounds_ns;
  std::optional<std::string> compiled_call_error;
  std::vector<std::vector<double>> op_floor_adds_ns;
  std::vector<ProfiledCall> calls;
  std::vector<OpNameFacts> op_names;
  bool events_truncated = false;
  std::optional<double> compiled_call_ns, op_floor_ns;
};
constexpr auto json_fields(const Profile*) {
  using core::fields::field;
  using P = Profile;
  return std::tuple{field("device_type", &P::device_type),
                    field("warmup_calls", &P::warmup_calls),
                    field("seconds", &P::seconds),
                    field("wall_samples_ns", &P::wall_samples_ns),
                    field("compiled_call_rounds_ns", &P::compiled_call_rounds_ns),
                    field("compiled_call_error", &P::compiled_call_error),
                    field("op_floor_adds_ns", &P::op_floor_adds_ns),
                    field("calls", &P::calls),
                    field("op_names", &P::op_names),
                    field("events_truncated", &P::events_truncated),
                    field("compiled_call_ns", &P::compiled_call_ns),
                    field("op_floor_ns", &P::op_floor_ns)};
}

// One aten op of the counted call (expect.py's _BytesMode): its calls, the bytes its tensors
// moved, the elements it wrote, its FLOPs (FlopCounterMode's).
struct FlopOp {
  std::string name;
  std::vector<std::string> tags;
  bool is_view = false;
  long long count = 0;
  double bytes = 0, elements = 0, flops = 0;
};
constexpr auto json_fields(const FlopOp*) {
  using core::fields::field;
  using O = FlopOp;
  return std::tuple{field("name", &O::name),   field("tags", &O::tags),   field("is_view", &O::is_view),
                    field("count", &O::count), field("bytes", &O::bytes), field("elements", &O::elements),
                    field("flops", &O::flops)};
}

// expect.flops: one eager call's FLOPs, bytes and module calls; `error` when the target did not
// survive the counting modes (the figures then null).
struct Flops {
  double flops_per_call = NAN;
  std::map<std::string, double> flops_by_op;
  double bytes_per_call = NAN, boundary_bytes = NAN, outside_tensors = NAN, module_calls = NAN;
  std::vector<FlopOp> ops;
  std::optional<std::string> error;
};
constexpr auto json_fields(const Flops*) {
  using core::fields::field;
  using F = Flops;
  return std::tuple{field("flops_per_call", &F::flops_per_call),
                    field("flops_by_op", &F::flops_by_op),
                    field("bytes_per_call", &F::bytes_per_call),
                    field("boundary_bytes", &F::boundary_bytes),
                    field("outside_tensors", &F::outside_tensors),
                    field("module_calls", &F::module_calls),
                    field("ops", &F::ops),
                    field("error", &F::error)};
}

// expect.device_info: what identifies this machine's ceilings (the cache's key); "?" where the
// agent did not say.
struct DeviceInfo {
  std::string device = "?", device_type = "?", device_name = "?", dtype = "?", torch_version = "?";
  long long num_threads = 0;
  std::optional<long long> logical_cores;
};
constexpr auto json_fields(const DeviceInfo*) {
  using core::fields::field;
  using D = DeviceInfo;
  return std::tuple{field("device", &D::device),
                    field("device_type", &D::device_type),
                    field("device_name", &D::device_name),
                    field("dtype", &D::dtype),
                    field("torch_version", &D::torch_version),
                    field("num_threads", &D::num_threads),
                    field("logical_cores", &D::logical_cores)};
}

// expect.ceilings: every timing of the machine's ceilings (the figures are expect/timings.cpp's):
// the profiled 1-element adds per round, the compiled add's rounds, the copies of copied_bytes
// and the n x n matmuls; matmul_error when this dtype has no matmul.
struct CeilingTimings {
  std::string device, dtype;
  std::vector<std::vector<double>> op_floor_rounds_ns;
  std::vector<double> compiled_call_rounds_ns;
  std::optional<std::string> compiled_call_error;
  double python_op_floor_ns = NAN;
  std::optional<long long> copy_bytes;
  double copied_bytes = NAN;
  std::optional<long long> matmul_n;
  long long repeats = 0;
  std::vector<double> copy_ns, matmul_ns;
  std::optional<std::string> matmul_error;
};
constexpr auto json_fields(const CeilingTimings*) {
  using core::fields::field;
  using C = CeilingTimings;
  return std::tuple{field("device", &C::device),
                    field("dtype", &C::dtype),
                    field("op_floor_rounds_ns", &C::op_floor_rounds_ns),
                    field("compiled_call_rounds_ns", &C::compiled_call_rounds_ns),
                    field("compiled_call_error", &C::compiled_call_error),
                    field("python_op_floor_ns", &C::python_op_floor_ns),
                    field("copy_bytes", &C::copy_bytes),
                    field("copied_bytes", &C::copied_bytes),
                    field("matmul_n", &C::matmul_n),
                    field("repeats", &C::repeats),
                    field("copy_ns", &C::copy_ns),
                    field("matmul_ns", &C::matmul_ns),
                    field("matmul_error", &C::matmul_error)};
}

}  // namespace tct::expect::reply
