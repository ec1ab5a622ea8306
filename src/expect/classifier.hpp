#pragma once
// The expectation classifier of `tct expect`: is a workload overhead, memory or compute
// bound, which numbers decided it, where it sits on the roofline, and what gain
// torch.compile can be expected to give. Pure functions over Evidence and Ceilings.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "expect/evidence.hpp"
#include "report/warning.hpp"

namespace tct::expect {

// ---- Thresholds. Each is a rule of thumb, not a law; the comments say where it comes from.

// Overhead bound when at least half of the wall time is fixed cost (Python between ops plus
// what each op pays beyond its memory traffic): then removing it at least doubles the speed,
// more than fusion or a better kernel could (Amdahl: 1 / (1 - 0.5) = 2x). Half is the point
// where fixed cost, not the hardware, is the larger part of the time.
inline constexpr double kOverheadBoundFraction = 0.5;
// Within this many points of kOverheadBoundFraction the class is borderline: the machine's
// load moves the fixed-cost fraction by more (GPT-2, small config: 35% to 47% outside operators
// in runs a minute apart, while another process slowed its calls), so a re-run may give the
// other class, and expect says which.
inline constexpr double kBorderlineBand = 0.05;
// On a GPU, a device busy less than half of the wall time is waiting for the host: the
// same 1/2 argument on the device timeline (PyTorch performance tuning guide, "CPU-bound
// GPU workloads"; the remedy is CUDA graphs / mode="reduce-overhead").
inline constexpr double kDeviceIdleBoundFraction = 0.5;
// A non-library op shorter than this many op floors (a 1-element add, ~1 us on a CPU) is
// "tiny": its time is the fixed cost of dispatch, allocation and launch, not work. 10 floors
// is where the fixed cost falls under ~10% of the op (our own rule; the same order as the
// "ops under 10 us are launch bound" rule of thumb for CUDA kernels).
inline constexpr double kTinyOpFloors = 10.0;
// A speedup counts as a change (gain or loss) beyond this ratio: 5% is the run-to-run noise
// of a short bench on a shared machine (bench's --precision default of 2% half width,
// doubled for the drift between runs).
inline constexpr double kGainBand = 1.05;

// The share of a call spent inside ops, between its 10% and 90% quantile over the profiled
// calls, varies by more than this when other processes preempt some calls. The evidence
// then comes from the fastest calls (the lower envelope, evidence.hpp), which holds
// while a few calls run undisturbed; expect still says the machine was busy, since on a
// busier one no call may be.
inline constexpr double kUnstableInOpSpread = 0.15;
// A warning when it does (its words: report/warning_wording.cpp), else none.
std::optional<report::Warning> load_instability(const Evidence& e);
// The compiled call timed in the profile took this many times the ceilings' figure: the
// whole profile ran on a machine slowed down by other processes (for seconds at a time on a
// shared machine), where Python slows more than kernels do, so the time shares move. 1.3 is
// above the 1.25 that separated slowed-down profiles from the others on the calibration
// machine (bench/calibration/measure.py).
inline constexpr double kSlowMachineRatio = 1.3;
// A warning when it did, else none.
std::optional<report::Warning> slow_machine(const Evidence& e, const Ceilings& c);
// The envelope of the first half of the profiled calls and that of the second half differ
// in their share outside ops by more than this: the machine's load moved during the
// profile (a busy stretch that slows the target but not the compiled 1-element add, so
// slow_machine misses it). The halves of GPT-2's profile differed by up to 4 points in 25
// runs whose class and ranges agreed (bench/calibration/stability.py prints both); the busy
// stretches that flipped its class moved the share by 10 points and more.
inline constexpr double kLoadDriftShare = 0.06;
// A warning when it did, else none.
std::optional<report::Warning> load_drift(const Evidence& e);

// ---- The prediction model (its constants: calibration.hpp, fitted by
// bench/calibration/fit.py on a calibration set and checked on a separate validation set).
// The compiled time per call, as a fraction of the eager wall time W, is
//   sum over the time shares s_i of  s_i * keep_i  +  elementwise_work * element_ops / peak_flops / W
//     + (call_scale + library_call_scale * library_ops + input_call_scale * (inputs - 1)
//        + module_call_scale * [the call runs an nn.Module]) * compiled_call / W
// where keep_i is the fraction of that share torch.compile keeps (Python between ops is
// traced away, per-op fixed costs merge into a few fused kernels, fusion drops the
// intermediates' memory traffic, transcendental math and the work of eager's own fused
// kernels (softmax, norms) remain, library kernels stay); the second is the per-element work of
// the fused kernel that replaces the plain pointwise ops (element_ops: the elements they write,
// weighted by their cost against an add, Evidence::element_ops), hidden in eager behind each
// op's fixed cost; and the last term is the compiled
// call's own fixed cost (guards, the generated wrapper): a compiled 1-element add, timed with
// the ceilings (call_scale near 1 says that cost is what a real call pays). Each matmul, conv
// or attention op adds a part of that cost: the compiled code calls it as an external
// kernel through its Python wrapper. So does each tensor the call reads from outside
// (Evidence::outside_tensors: inputs, parameters, buffers) beyond the one the timed add
// reads: the compiled graph takes it as an input, and its guards check it, on every call.
// A call that runs an nn.Module pays once more: the graph also guards on the module and on
// torch's global module hooks (about half a compiled call on a CPU, mechanisms_check.py).
// The share outside operators is split by the library ops' part of the ops: the Python that
// issues a library op is paid again compiled (the generated wrapper calls the kernel from
// Python), the rest (between elementwise ops, module code) is traced away; each part has its keep.
// The point prediction is 1 / that fraction. The interval is
//   point * exp(bias +- z * sqrt(base^2 + (generated * g)^2 + (no_library * n)^2))
// with g the share of the predicted compiled time in generated kernels (memory traffic,
// other op work, kept arithmetic and elementwise work: what inductor writes, whose speed the evidence
// predicts worst) and n 1 for a function without library ops (all of its compiled time is
// generated code and the guards around it), else 0. bias, base, generated and no_library are fitted to the calibration
// set's leave-one-out log residuals; z makes it a nominal 80% interval.

// One number that decided the class: {metric, value, threshold, meaning}.
struct Reason {
  std::string metric;  // "fixed_cost_fraction", "median_op_ns", ...: the unit is in the name
  double value = NAN;
  double threshold = NAN;
  std::string meaning;
};

// One term of the point prediction's sum: share of the eager time, the fraction of it kept
// compiled, and their product.
struct Term {
  std::string name;
  double share = NAN, keep = NAN, compiled_share = NAN;
};

// A factor that moves the predicted range, its value in this run and which way it moves it.
struct Shift {
  std::string factor;           // "fixed_cost_fraction", "pointwise_ops_per_call", ...: the unit is in the name
  std::optional<double> value;  // none in a document that did not record it; NaN: not measured
  bool count = false;           // a count of things (written as an integer), else a fraction or duration
  std::string effect;
};

// Where a call's wall time goes, as fractions of it (they sum to <= 1; elementwise_work aside).
struct TimeShares {
  double outside = 0;          // outside any operator: Python, framework code between ops
  double fixed = 0;            // fixed cost of non-library ops: all of a tiny op, one op floor of others
  double memory = 0;           // non-library ops' memory traffic at the machine's bandwidth, but eager's
                               // fused kernels' (softmax, norms)
  double kept_arithmetic = 0;  // eager's fused kernels' time beyond fixed cost, and of the rest,
                               // what transcendental ops spent (ops.hpp's keeps_arithmetic)
  double other = 0;            // the rest of non-library op time (other arithmetic, slow kernels)
  double library = 0;          // inside matmul / conv / attention (conv included)
  double conv = 0;             // the convolutions' part of `library`
  // Not a part of the eager call: the other pointwise ops' weighted elements
  // (Evidence::element_ops) at the machine's matmul FLOP rate, as a share of the wall: the
  // per-element work a fused kernel still does, invisible in eager where each op's fixed cost hides it.
  double elementwise_work = 0;
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
  double point = NAN;            // the model's estimate; low and high come from its calibration residuals
  double generated_share = NAN;  // of the predicted compiled time: what widens the interval
  double log_sigma = NAN;        // the interval's standard deviation in log speedup
};

// What the prediction needs of a call beside its time shares. A count left NaN (not counted)
// leaves its term out.
struct CallFacts {
  double wall_ns = NAN;           // eager, per call (Evidence::wall_ns)
  double compiled_call_ns = NAN;  // a compiled 1-element add (Ceilings::compiled_call_ns)
  double library_ops = 0;         // matmul/conv/attention ops per call (Evidence::library_ops)
  double ops_per_call = NAN;      // top-level ops per call (Evidence::ops_per_call)
  double outside_tensors = NAN;   // Evidence::outside_tensors
  double module_calls = NAN;      // Evidence::module_calls
};
CallFacts call_facts(const Evidence& e, const Ceilings& c);

// The CPU prediction from a call's time shares and facts: the model above, with the fitted
// constants; no range (NaN) without the wall time or the compiled call's cost. Appends the
// sum's terms to `terms` when given: bench/calibration
// fits the keeps to those shares, and a unit test holds tct's sum to the fit's predictions
// on the rows it fitted (bench/calibration/fit.json).
SpeedupRange predict_speedup(const TimeShares& s, const CallFacts& f, std::vector<Term>* terms = nullptr);
// The point 1 / compiled_fraction and the interval around it from the calibration residuals,
// wider the larger the generated-kernel share of the compiled time (0 to 1), and wider for
// a function without library ops.
SpeedupRange speedup_range(double compiled_fraction, double generated_share, bool no_library);

struct Verdict {
  std::string cls;  // overhead_bound | memory_bound | compute_bound | unknown
  // The class a re-run may give instead, when the fixed-cost fraction is within kBorderlineBand
  // of the overhead threshold; empty when it is clear of it.
  std::string borderline_with;
  // The fixed costs the shares and the prediction used, and where they come from: "profile"
  // (timed between its calls) or "ceilings" (the cached machine figures).
  double compiled_call_ns = NAN, op_floor_ns = NAN;
  std::string compiled_call_source;
  std::vector<Reason> decided_by;
  TimeShares shares;
  Roofline roof;
  SpeedupRange predicted;
  std::vector<Term> terms;    // the point prediction's sum
  std::vector<Shift> shifts;  // what moves the predicted range
};

Verdict classify(const Evidence& e, const Ceilings& c);

// Human names: "overhead bound", ...
std::string class_label(const std::string& cls);

}  // namespace tct::expect
