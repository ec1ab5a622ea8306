#pragma once
// What `tct expect` found, as a value: the runner returns it (and hands it on part way), and
// every rendering (terminal, Markdown, HTML, JSON) reads it. The class, the predicted range,
// the compiled run's bound on it and the validation are fields, decided once where the facts
// are (expect/classifier.cpp, compiled.cpp, run.cpp) and never recomputed by a renderer.
// expect/json.cpp is the one place this becomes doc["expect"] (schema/expect.schema.json) and
// is read back from a saved document. Times are nanoseconds, shares fractions of the eager
// call's wall time, speedups eager / compiled: each field's name says which.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/result.hpp"
#include "core/fix_table.hpp"
#include "core/reply.hpp"
#include "core/units.hpp"
#include "expect/classifier.hpp"
#include "expect/evidence.hpp"
#include "explain/result.hpp"
#include "report/error_record.hpp"
#include "report/warning.hpp"

namespace tct::expect {

using json = nlohmann::json;

// What a call's time is bound by (classifier.hpp says how it is decided).
enum class BoundClass { OverheadBound, MemoryBound, ComputeBound, Unknown };
std::string_view to_string(BoundClass c);    // "overhead_bound", ...
BoundClass parse_class(std::string_view s);  // Unknown for anything else
std::string label(BoundClass c);             // "overhead bound", ...

// Where the interval around the point comes from (calibration.hpp, as of the run).
struct IntervalModel {
  double log_bias = NAN, log_sigma = NAN, z = NAN;
  double generated_share = NAN;  // of the predicted compiled time: what widens the interval
  std::string fitted_on;
  int calibration_cases = 0, validation_cases = 0, validation_inside = 0;
};

// What the range assumes of the compiled run (compiled.hpp): the function captured whole,
// its graph breaks staying, nothing compiled (a skipped frame: exactly 1.0x), or part of the
// code running eagerly on every call (the range is for the compiled share, Amdahl).
enum class Assumes { Captured, GraphBreaksStay, NothingCompiled, EagerPartStays };
std::string_view to_string(Assumes a);

struct Prediction {
  SpeedupRange range;  // low, point, high (the compiled run's bound applied)
  // The fixed costs the shares and the prediction used; a document from before they were
  // recorded gives the ceilings' (source "ceilings").
  Nanoseconds compiled_call = kNotMeasured, op_floor = kNotMeasured;
  bool fixed_costs_from_profile = false;  // timed between the profiled calls, else the ceilings'
  // The model term by term: absent in documents from before the calibrated model.
  std::optional<std::vector<Term>> terms;
  IntervalModel interval;
  std::optional<std::vector<Shift>> shifts;  // what moves the range (shown as a table); none in older documents
  Assumes assumes = Assumes::Captured;
};

// doc["expect"]["profile"]: evidence.hpp's Evidence as expect reports it.
struct ProfileSummary {
  double ops_per_call = NAN;
  // Durations of every top-level op of the profiled calls.
  std::size_t op_count = 0;
  Nanoseconds op_min = kNotMeasured, op_p50 = kNotMeasured, op_p90 = kNotMeasured, op_p99 = kNotMeasured,
              op_max = kNotMeasured, op_mean = kNotMeasured;
  Nanoseconds wall_per_call = kNotMeasured, profiled_wall_per_call = kNotMeasured, in_op_per_call = kNotMeasured;
  bool lower_envelope = false;  // the fastest calls' envelope, else medians over the calls
  double in_op_fraction = NAN, in_op_fraction_p10 = NAN, in_op_fraction_p90 = NAN;
  double overhead_fraction = NAN;  // 1 - in_op_fraction
  std::optional<std::pair<double, double>> overhead_fraction_halves;
  double library_fraction = NAN, conv_fraction = NAN, kept_arithmetic_fraction = NAN, fused_kernel_fraction = NAN;
  double device_busy_fraction = NAN, kernel_launches = NAN;  // CUDA only
  int pointwise_ops_per_call = 0, reduction_ops_per_call = 0, library_ops_per_call = 0;
  bool events_truncated = false;
  std::vector<TopOp> top_ops;  // heaviest first, as measured
};
ProfileSummary summarize(const Evidence& e);

// What torch.compile really did with the target (compiled.hpp), and the model's range were
// the function captured whole.
struct CompiledRunSummary {
  int graph_count = 0, graph_break_count = 0;
  std::vector<explain::SkippedFrame> skipped_frames;
  bool nothing_compiled = false;
  SpeedupRange if_captured;
  std::vector<core::EagerPart> eager_parts;        // what runs eagerly on every call
  std::optional<explain::GraphShare> graph_share;  // the compiled share of an eager call, when measured
};

struct Suggestion {
  int rank = 0;
  std::string title, why, how;
  core::FixTerms terms;                 // what it costs and when it is no fix (core/fix_table.cpp)
  std::optional<double> expected_gain;  // none for the fix that must come first
  // "Compile it" as it is: what bench measures, so a measured speedup in the same document
  // (an audit's) answers it (answered_by below).
  bool compile_as_is = false;
};

// The class and the range, and the evidence they rest on (the main target's, after the profile).
struct Analysis {
  BoundClass cls = BoundClass::Unknown;
  std::optional<BoundClass> borderline_with;  // the class a re-run may give instead
  std::vector<Reason> decided_by;
  Roofline roofline;  // fraction NaN when above 1 (a busy machine's ceiling, not printed)
  TimeShares time_shares;
  Prediction predicted;
  // The compiled run: none when it could not be checked (the range then assumes capture).
  std::optional<CompiledRunSummary> compiled_run;
  ProfileSummary profile;
  double flops_per_call = NAN, bytes_per_call = NAN, boundary_bytes_per_call = NAN, fused_kernel_bytes_per_call = NAN,
         element_ops_per_call = NAN;
  double outside_tensors = NAN, module_calls = NAN;  // per call; guarded by a compiled call
  double arithmetic_intensity = NAN;                 // FLOP per byte
  std::string flops_error;                           // why FLOPs/bytes are missing, if they are
  std::vector<Suggestion> suggestions;               // best first
};

// The machine's ceilings as expect used them, and where they came from.
struct Machine {
  Ceilings ceilings;
  // The agent's raw records, kept whole as it wrote them (the document shows them; expect
  // reads a few fields of them where it uses them).
  json device;                            // the agent's expect.device_info
  std::optional<std::string> cache_path;  // none when there is no cache folder
  std::string cache_key;
  bool cache_hit = false;
  std::optional<bool> cache_written;  // after a measurement
  json measurement;                   // the agent's expect.ceilings reply; null when the cache answered
};

// A measured speedup: bench's estimate and its 95% interval.
struct MeasuredSpeedup {
  double estimate = NAN, low = NAN, high = NAN;
};

// The predicted range against a measured speedup (validate(), below).
struct Validation {
  SpeedupRange predicted;
  MeasuredSpeedup measured;
  std::string verdict;           // inside | above | below
  std::string cls;               // the class predicted
  std::string compile_worth_it;  // yes | no | unclear
  bool direction_right = true;
  std::string summary;  // all of it in one line
};

// One value of a --sweep: the JSON literal it was typed as (null, true, 8, 0.5), else the text
// as typed.
using SweepValue = std::variant<std::nullptr_t, bool, long long, double, std::string>;
// The value as a reader sees it: a string as it is, anything else as its JSON literal.
std::string to_text(const SweepValue& value);

// One leaf of the target's inputs as target.load describes it (python/tct_agent/target.py):
// a tensor's shape, dtype, device and requires_grad, or any other value's Python type and
// short repr.
struct InputLeaf {
  std::string path;  // args[0], kwargs['x'], ...
  struct Tensor {
    std::vector<long long> shape;
    std::string dtype, device;
    bool requires_grad = false;

    bool operator==(const Tensor&) const = default;
  };
  std::optional<Tensor> tensor;  // none: not a tensor (type and value below)
  std::string type, value;

  bool operator==(const InputLeaf&) const = default;
};

// One value of a --sweep.
struct SweepPoint {
  SweepValue value;
  // Why the point failed: none when it did not. Its fields as the failure wrote them
  // (report/error_record.hpp).
  std::optional<report::ErrorRecord> error;
  // What the profile found at this value; none when the point failed before it or its bench threw.
  struct Analysed {
    std::vector<InputLeaf> inputs;  // target.load's input description
    BoundClass cls = BoundClass::Unknown;
    std::optional<BoundClass> borderline_with;  // the class a re-run at this value may give instead
    SpeedupRange predicted;
    Nanoseconds wall_per_call = kNotMeasured;
    double overhead_fraction = NAN, ops_per_call = NAN;
    double arithmetic_intensity = NAN;
    std::vector<Reason> decided_by;
  };
  std::optional<Analysed> analysed;
  bool benched = false;                    // the bench returned (speedup and validation below are its)
  std::optional<MeasuredSpeedup> speedup;  // none when the bench measured none
  std::optional<Validation> validation;    // with a speedup: none when nothing could be judged
};

struct ClassChange {
  SweepValue from_value, to_value;
  BoundClass from_class = BoundClass::Unknown, to_class = BoundClass::Unknown;
};

struct Sweep {
  std::string param;
  std::vector<SweepValue> values;
  std::vector<SweepPoint> points;
  std::vector<ClassChange> class_changes;  // between consecutive successful points
};

// Where the class changes between consecutive points that have one.
std::vector<ClassChange> class_changes(const std::vector<SweepPoint>& points);

struct ExpectResult {
  // The agent's description of the loaded target (target.load's reply): null until loaded.
  core::LoadedTarget target;
  std::optional<Machine> machine;    // after the ceilings phase
  std::optional<Analysis> analysis;  // after the profile (the class is null until then)
  std::optional<Sweep> sweep;
  std::optional<Validation> validation;
  // What the run warns about so far (a sweep point's bench warnings named by the point), for
  // the document's list: not part of the section.
  std::vector<report::Warning> warnings;
};

// A predicted range against a measured speedup {estimate, low, high} (NaN bounds: the
// estimate alone): inside|above|below, whether compile is worth it (yes when all of the
// measured interval is above kGainBand, no when all of it is at or below 1, else unclear),
// whether the prediction got the direction wrong (the estimate outside the range, and the
// range on the other side of "no clear change", kGainBand, from the whole measured interval),
// and all of it in one line. None when there is no estimate or no predicted range.
std::optional<Validation> validate(const SpeedupRange& predicted, const std::string& cls,
                                   const MeasuredSpeedup& measured, const std::string& borderline_with = "");
// Against bench's measured speedup: none also when bench's verdict is inconclusive (no
// verdict is built on it).
std::optional<Validation> validate(const SpeedupRange& predicted, BoundClass cls,
                                   std::optional<BoundClass> borderline_with, const tct::bench::Speedup& measured);
std::optional<Validation> validate(const Analysis& a, const tct::bench::Speedup& measured);

// `tct expect`'s exit status for a finished result with --validate: throws the check failure
// (exit 1) when the predicted direction was wrong, else 0.
int exit_code(const ExpectResult& r, bool validate);

// Compiling as it is, measured in the same run (an audit's bench; none: not measured): its first row that
// measured a speedup, and whether that is no real gain (the whole interval below kGainBand,
// the line expect's prediction and validation draw too; not bench's speedup verdict:
// 1.02x [1.01, 1.03] is faster than eager, and still no gain worth a compile).
struct MeasuredAsIs {
  MeasuredSpeedup speedup;
  std::string label;  // the bench row's
  bool no_real_gain = false;
};
std::optional<MeasuredAsIs> measured_as_is(const bench::BenchResult* bench);
// The suggestion is answered already: it is to compile as it is, and compiling as it is was
// measured at no real gain. Renderers given the measurement print its note instead.
bool answered_by(const Suggestion& s, const std::optional<MeasuredAsIs>& as_is);

}  // namespace tct::expect
