// Output correctness: the tolerances the agent applies element by element
// (python/tct_agent/compare.py, `difference_facts`), and the verdict over its per-leaf facts.
// Pure functions over JSON values; no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::bench {

// An element passes when  |compiled - eager| <= atol + rtol * |eager|  (see correctness.cpp
// for the values and why). When it does not, a float64 reference may still accept it:
// |compiled - ref| <= atol + rtol * |ref| + ref_multiplier * max(|eager - ref|, eager's RMS
// error over the leaf), i.e. compiled is not materially less accurate than eager itself.
struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
  double ref_multiplier = 0.0;
};

// How far an element may differ: atol + rtol * magnitude + ref_multiplier * eager_error.
// Against eager, magnitude is |expected| and eager_error 0; against a float64 reference,
// magnitude is |ref| and eager_error max(|expected - ref|, eager's RMS error); against eager's
// own spread, magnitude is max |expected| and eager_error the spread. An element is beyond it
// when its difference is strictly greater. The agent applies the same rule to every element
// (python/tct_agent/compare.py, allowed_difference): tests/vectors/tolerance.json holds the
// cases both are tested on.
double allowed_difference(const Tolerance& tol, double magnitude, double eager_error = 0.0);

// User override (--rtol / --atol). Each part, when set, replaces the dtype default for
// every floating point leaf; integer and bool leaves are always compared exactly.
struct ToleranceOverride {
  std::optional<double> rtol;
  std::optional<double> atol;
};

// Default tolerance for a dtype name as the agent writes it ("float32", "bfloat16",
// "complex64", "int64", "bool", and for Python scalars "float", "int", "bool",
// "complex"). Unknown names get the float32 tolerance.
Tolerance default_tolerance(std::string_view dtype);

// Whether values of this dtype are compared exactly (integers, bool).
bool is_exact_dtype(std::string_view dtype);

// The table sent with bench.check: {dtype: {rtol, atol, ref_multiplier}} for every dtype
// name the agent may write, "default" for the others, overrides applied.
nlohmann::json tolerance_table(const ToleranceOverride& override_tol = {});

struct Mismatch {
  std::string path;    // e.g. "out['logits']"
  std::string reason;  // one line with the worst element and its values
};

// A leaf the agent could not compare (a hook, an opaque object): its path and type.
struct NotCompared {
  std::string path, type;
};

// The verdict on one numeric leaf (tensor or scalar).
struct LeafCheck {
  std::string path, dtype;
  long long numel = 0;
  bool match = false;
  std::string basis;    // the rule it passed by (exact, tolerance, float64_reference, eager_spread); "" failed
  Tolerance tolerance;  // the dtype's, overrides applied
  std::optional<double> fraction_out_of_tolerance;  // of its elements; none when not counted
  // What the agent measured of it, as it gave it (max_abs_diff, max_rel_diff,
  // out_of_tolerance, worst_index, expected_at_worst, actual_at_worst, reference): facts, not
  // a verdict, shown as they came.
  nlohmann::json measured = nlohmann::json::object();
};

struct CorrectnessVerdict {
  bool match = true;
  std::vector<Mismatch> mismatches;
  std::size_t leaves = 0;               // facts looked at
  std::vector<LeafCheck> leaf_results;  // one per numeric leaf
  std::vector<NotCompared> not_compared;
  std::string basis = "tolerance";  // the loosest rule a leaf needed to pass:
                                    // tolerance, float64_reference, eager_spread
};

// A leaf's verdict as the row's correctness.leaf_results holds it: {path, dtype, numel, match,
// basis, rtol, atol, fraction_out_of_tolerance} and the agent's measured facts.
nlohmann::json to_json(const LeafCheck& leaf);

// Judges the facts of a compiled-vs-eager comparison. `facts` must be a JSON array
// (throws std::invalid_argument otherwise); a malformed element is a mismatch, never a
// silent pass. `eager_self` are the eager-vs-eager facts: a leaf where eager differs from
// itself is judged against eager's own spread (max |diff| <= ref_multiplier x eager's
// spread + atol + rtol x max |eager|), the only leaves not judged element by element.
CorrectnessVerdict judge_outputs(const nlohmann::json& facts, const ToleranceOverride& override_tol = {},
                                 const nlohmann::json& eager_self = nlohmann::json::array());

struct NondeterminismCheck {
  bool nondeterministic = false;
  std::vector<Mismatch> differing;  // leaves where eager differs from itself
  double max_abs_diff = 0.0;        // largest difference seen over all numeric leaves
};

// Given the facts of eager-vs-eager (the same inputs and seeds, run twice), says whether
// eager differs from itself: any leaf whose values differ by more than `atol` (default 0:
// bitwise, NaN equal to NaN), or whose structure, shape, dtype or non-tensor value differs.
NondeterminismCheck eager_self_difference(const nlohmann::json& facts, double atol = 0.0);

// The row's `correctness` object from a bench.check reply (see schema/bench.schema.json):
// checked, match, basis, mismatches, differing_parameters, leaves, leaf_results,
// not_compared, nondeterministic, eager_differing, eager_max_self_diff, seeded,
// eager_used_rng, reference, fallback_random, agent_cost_ns.
nlohmann::json correctness_report(const nlohmann::json& reply, const ToleranceOverride& override_tol = {});

// Whether a failed check deserves a second look with inductor's fallback_random: the
// target drew random numbers and compiled differs (inductor's own generator draws other
// numbers than eager's under the same seed).
bool recheck_with_fallback_random(const nlohmann::json& report);

}  // namespace tct::bench
