#pragma once
// The expectation classifier of `tct expect`: is a workload overhead, memory or compute
// bound, which numbers decided it, where it sits on the roofline, and what gain
// torch.compile can be expected to give. Pure functions over Evidence and Ceilings.
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/expect_evidence.hpp"

namespace tct::analysis {

// ---- Thresholds. Each is a rule of thumb, not a law; the comments say where it comes from.

// Overhead bound when at least half of the wall time is fixed cost (Python between ops plus
// what each op pays beyond its memory traffic): then removing it at least doubles the speed,
// more than fusion or a better kernel could (Amdahl: 1 / (1 - 0.5) = 2x). Half is the point
// where fixed cost, not the hardware, is the larger part of the time.
inline constexpr double kOverheadBoundFraction = 0.5;
// On a GPU, a device busy less than half of the wall time is waiting for the host: the
// same 1/2 argument on the device timeline (PyTorch performance tuning guide, "CPU-bound
// GPU workloads"; the remedy is CUDA graphs / mode="reduce-overhead").
inline constexpr double kDeviceIdleBoundFraction = 0.5;
// Ops whose median duration is under this many op floors (a 1-element add) are "tiny": their
// time is mostly the fixed cost. Informational (reported in decided_by, drives advice).
inline constexpr double kTinyOpFloors = 10.0;
// A direction is "a gain" beyond this ratio: 5% is the run-to-run noise of a short bench on
// a shared machine (see bench's --precision default of 2% half width, doubled).
inline constexpr double kGainBand = 1.05;

// ---- The prediction model. The compiled time per call is estimated as
//   call_cost + W * (outside * k_out + fixed * k_fixed + memory * k_memory + library * k_library)
// with W the eager wall time and the shares of it from time_shares(). Each k is a [low, high]
// fraction of that share torch.compile keeps; our own calibration on the built-in examples
// (bench/bench_expect_table.py), written as ranges because they vary with the workload.
struct Keep {
  double best, worst;  // fraction kept in the best and in the worst case
};
// Python between ops is traced away by dynamo; guard checks and graph breaks remain.
inline constexpr Keep kKeepOutside{0.05, 0.3};
// N ops' fixed costs become a few fused kernels' (inductor fuses pointwise chains).
inline constexpr Keep kKeepFixed{0.05, 0.3};
// Memory traffic of non-library ops: fusion drops the intermediates; at worst none.
inline constexpr Keep kKeepMemory{0.3, 1.0};
// Library kernels (matmul, conv, attention) are the same vendor kernels compiled; epilogue
// fusion or max-autotune can win a little, a different layout can lose a little.
inline constexpr Keep kKeepLibrary{0.9, 1.1};
// The compiled call's own fixed cost (guard evaluation, the generated wrapper, one kernel
// launch), in op floors: measured 10-50 us on a 2-core CPU with an op floor of ~1 us
// (builtin:tiny_ops compiled: 46 us per call).
inline constexpr Keep kCompiledCallFloors{10.0, 50.0};

// Where a call's wall time goes, as fractions of it (they sum to <= 1).
struct TimeShares {
  double outside = 0;   // outside any operator: Python, framework code between ops
  double fixed = 0;     // inside non-library ops beyond their memory traffic
  double memory = 0;    // non-library ops' memory traffic at the machine's bandwidth
  double library = 0;   // inside matmul / conv / attention
};
TimeShares time_shares(const Evidence& e, const Ceilings& c);

struct Roofline {
  double attainable_flops = NAN;  // min(peak FLOP/s, intensity * bandwidth)
  double achieved_flops = NAN;    // FLOPs per call / wall per call
  double fraction = NAN;          // achieved / attainable (> 1: operands stay in cache)
  double roofline_time_ns = NAN;  // max(flops / peak, bytes / bandwidth)
};
Roofline roofline(const Evidence& e, const Ceilings& c);

struct SpeedupRange {
  double low = NAN, high = NAN;
};

struct Verdict {
  std::string cls;  // overhead_bound | memory_bound | compute_bound | unknown
  json decided_by = json::array();  // [{metric, value, threshold, meaning}]
  TimeShares shares;
  Roofline roof;
  SpeedupRange predicted;
  json shifts = json::array();  // [{factor, effect}]: what moves the predicted range
};

Verdict classify(const Evidence& e, const Ceilings& c);

// Human names: "overhead bound", ...
std::string class_label(const std::string& cls);

// {class, decided_by, roofline {...}, predicted_speedup {low, high, shifts}, time_shares {...}}
json verdict_json(const Verdict& v);

// Compares a predicted range with a measured speedup interval {estimate, low, high}:
// {predicted {low, high}, measured {...}, verdict: inside|above|below, direction_right}.
// "Direction" is gain or no gain, split at kGainBand: the prediction's geometric middle
// against the measured estimate. Returns null when the measurement has no estimate.
json validate_prediction(const SpeedupRange& predicted, const json& measured);

}  // namespace tct::analysis
