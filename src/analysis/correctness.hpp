// Output correctness: turns the agent's per-leaf difference facts
// (python/tct_agent/compare.py, `difference_facts`) into a verdict with tolerances by dtype.
// Pure functions over JSON values; no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::analysis {

// A leaf passes when  max_abs_diff <= atol + rtol * max_abs_expected  (see correctness.cpp
// for why the scale is the tensor's largest magnitude rather than each element's).
struct Tolerance {
    double rtol = 0.0;
    double atol = 0.0;
};

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

struct Mismatch {
    std::string path;    // e.g. "out['logits']"
    std::string reason;  // one line, e.g. "max abs diff 0.031 > allowed 0.0012 (float32 ...)"
};

struct CorrectnessVerdict {
    bool match = true;
    std::vector<Mismatch> mismatches;
    std::size_t leaves = 0;  // facts looked at
};

// Judges the facts of a compiled-vs-eager comparison. `facts` must be a JSON array
// (throws std::invalid_argument otherwise); a malformed element is a mismatch, never a
// silent pass.
CorrectnessVerdict judge_outputs(const nlohmann::json& facts,
                                 const ToleranceOverride& override_tol = {});

struct NondeterminismCheck {
    bool nondeterministic = false;
    std::vector<Mismatch> differing;  // leaves where eager differs from itself
    double max_abs_diff = 0.0;        // largest difference seen over all numeric leaves
};

// Given the facts of eager-vs-eager (the same inputs run twice), says whether eager
// differs from itself: any leaf whose values differ by more than `atol` (default 0:
// bitwise, NaN equal to NaN), or whose structure, shape, dtype or non-tensor value
// differs. When eager is nondeterministic a compiled-vs-eager mismatch of similar size
// is not the compiler's fault.
NondeterminismCheck eager_self_difference(const nlohmann::json& facts, double atol = 0.0);

}  // namespace tct::analysis
