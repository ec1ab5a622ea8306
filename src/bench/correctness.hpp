// Output correctness: the tolerances the agent applies element by element
// (python/tct_agent/compare.py, `difference_facts`), and the verdict over its per-leaf facts.
// Pure functions from the agent's JSON facts to typed values (the row's Correctness); no I/O.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/reply.hpp"

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

// One element's value as the agent gives it: a real number, or a complex one (im set). NaN:
// not finite (the agent writes such a value as null).
struct ElementValue {
  double re = NAN;
  std::optional<double> im;
};

// A leaf's compiled and eager values against the float64 reference (compare.py's
// _reference_facts): their largest and RMS errors, the multiplier of eager's error allowed,
// how many elements are beyond that, and the worst of them. NaN: not finite.
struct LeafReference {
  double eager_max_error = NAN, compiled_max_error = NAN;
  double eager_rms_error = NAN, compiled_rms_error = NAN;
  double multiplier = NAN;
  std::optional<long long> out_of_tolerance;
  std::optional<std::vector<long long>> worst_index;
  double reference_at_worst = NAN, expected_at_worst = NAN, actual_at_worst = NAN;
};

// What the agent measured of a numeric leaf, as it gave it: facts, not a verdict, shown as
// they came. NaN or none: the agent gave none (a shape mismatch, a leaf it could not compare).
struct LeafMeasured {
  double max_abs_diff = NAN, max_rel_diff = NAN;
  std::optional<long long> out_of_tolerance;          // elements beyond the tolerance
  std::optional<std::vector<long long>> worst_index;  // [] for a 0-d tensor
  std::optional<ElementValue> expected_at_worst, actual_at_worst;
  std::optional<LeafReference> reference;  // when a float64 reference was run for the leaf
};

// The verdict on one numeric leaf (tensor or scalar), as the row's correctness.leaf_results
// holds it.
struct LeafCheck {
  std::string path, dtype;
  long long numel = 0;
  bool match = false;
  std::string basis;    // the rule it was judged by (exact, tolerance, float64_reference, eager_spread); "" none
  Tolerance tolerance;  // the dtype's, overrides applied (the document keeps rtol and atol)
  std::optional<double> fraction_out_of_tolerance;  // of its elements; none when not counted
  LeafMeasured measured;
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

// Judges the facts of a compiled-vs-eager comparison. `facts` must be a JSON array
// (throws std::invalid_argument otherwise); a malformed element is a mismatch, never a
// silent pass. `eager_self` are the eager-vs-eager facts: a leaf where eager differs from
// itself is judged against eager's own spread (max |diff| <= ref_multiplier x eager's
// spread + atol + rtol x max |eager|), the only leaves not judged element by element.
CorrectnessVerdict judge_outputs(const nlohmann::json& facts, const ToleranceOverride& override_tol = {},
                                 const nlohmann::json& eager_self = nlohmann::json::array());
CorrectnessVerdict judge_outputs(const reply::LeafFacts& facts, const ToleranceOverride& override_tol,
                                 const reply::LeafFacts& eager_self);

struct NondeterminismCheck {
  bool nondeterministic = false;
  std::vector<Mismatch> differing;  // leaves where eager differs from itself
  double max_abs_diff = 0.0;        // largest difference seen over all numeric leaves
};

// Given the facts of eager-vs-eager (the same inputs and seeds, run twice), says whether
// eager differs from itself: any leaf whose values differ by more than `atol` (default 0:
// bitwise, NaN equal to NaN), or whose structure, shape, dtype or non-tensor value differs.
NondeterminismCheck eager_self_difference(const nlohmann::json& facts, double atol = 0.0);
NondeterminismCheck eager_self_difference(const reply::LeafFacts& facts, double atol = 0.0);

// The float64 reference run of a check, as the agent reports it: whether it ran, in which
// dtype, and why not.
struct ReferenceRun {
  std::optional<bool> computed;
  std::optional<std::string> dtype;
  std::optional<std::string> reason;
};

// What a check cost the agent, in ns, by part; none: the part did not run (the reference
// runs only when some element is beyond its tolerance).
struct CheckCosts {
  std::optional<long long> eager_ns, compiled_ns, compare_ns, reference_ns;
};

// Compiled outputs against eager's: the row's correctness (bench/json.cpp writes it as
// row["correctness"], schema/bench.schema.json). Fields a document may lack are optional.
struct Correctness {
  bool checked = false;
  std::optional<bool> match;  // none: inconclusive (or not checked)
  std::optional<bool> nondeterministic;
  std::optional<int> leaves;
  std::optional<std::string> basis;  // the loosest rule a leaf needed
  std::vector<Mismatch> mismatches;  // the leaves that differ, worst element first
  std::optional<std::vector<std::string>> differing_parameters;
  std::optional<std::vector<LeafCheck>> leaf_results;
  std::optional<std::vector<NotCompared>> not_compared;  // none: not checked
  std::optional<bool> fallback_random;                   // random ops via inductor's fallback_random
  std::optional<bool> eager_used_rng;                    // the target drew random numbers, seeded alike
  std::optional<bool> seeded;                            // the agent seeded both sides alike
  // Eager against itself under the same seeds: the leaves where it differed, and by how much
  // at most (only when it differed).
  std::optional<std::vector<Mismatch>> eager_differing;
  std::optional<double> eager_max_self_diff;
  std::optional<ReferenceRun> reference;
  std::optional<CheckCosts> agent_cost;  // the document's agent_cost_ns
  std::optional<double> check_s;         // the whole check as tct timed it, the recheck included

  // Leaves that passed only within eager's own error against a float64 reference.
  int leaves_via_reference() const;
};

// Readers of the agent's records, which a document keeps under the same names (bench/json.cpp
// reads them back through these): a leaf's measured facts, the reference run, the costs.
LeafMeasured leaf_measured_from_json(const nlohmann::json& fact);
ReferenceRun reference_run_from_json(const nlohmann::json& reference);
CheckCosts check_costs_from_json(const nlohmann::json& cost_ns);

// The row's correctness from a bench.check reply (see schema/bench.schema.json): checked,
// match, basis, mismatches, differing_parameters, leaves, leaf_results, not_compared,
// nondeterministic, eager_differing, eager_max_self_diff, seeded, eager_used_rng, reference,
// fallback_random, agent_cost_ns. check_s is the caller's to set.
Correctness correctness_report(const reply::Check& reply, const ToleranceOverride& override_tol = {});

// Whether a failed check deserves a second look with inductor's fallback_random: the
// target drew random numbers and compiled differs (inductor's own generator draws other
// numbers than eager's under the same seed).
bool recheck_with_fallback_random(const Correctness& report);

}  // namespace tct::bench
