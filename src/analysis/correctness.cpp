#include "analysis/correctness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tct::analysis {
namespace {

using nlohmann::json;

// ---------------------------------------------------------------------------------------
// Tolerances and why.
//
// Criterion (per leaf): max_abs_diff <= atol + rtol * max_abs_expected.
// The scale is the largest |expected| in the tensor, not each element's own magnitude
// (torch.testing.assert_close / allclose use |expected| per element). Compiled code
// legitimately reorders and fuses floating point work: a reordered sum's rounding error is
// bounded by ~n*eps*sum|terms| (Higham, "Accuracy and Stability of Numerical Algorithms",
// 2nd ed., sec. 4.2), i.e. by the size of the operands, not of a result that cancelled to
// near zero. A per-element relative test therefore flags correct compiled outputs at
// elements close to zero. PyTorch's own compiler accuracy check,
// torch._dynamo.utils.same (default tol=1e-4), hits the same problem and falls back to
// an RMSE comparison against a float64 reference; we have no float64 reference, so we
// scale by the tensor's largest magnitude instead.
//
// Values (rtol, atol):
//   float64   1e-7, 1e-7   torch.testing's float64 defaults
//                          (torch/testing/_comparison.py, _DTYPE_PRECISIONS); float64
//                          reordering error (~n * 1.1e-16) stays far below.
//   float32   1e-3, 1e-5   torch.testing's 1.3e-6 is one ulp-ish: fine for one op, too
//                          strict for a fused whole program. 1e-3 leaves room for
//                          inductor's decompositions (layer norm, softmax, GELU) and
//                          different matmul/conv algorithms (TF32 when the user enabled
//                          it), while a real miscompile (wrong op, wrong index) is far
//                          above it. atol 1e-5 is torch.testing's float32 atol, a floor
//                          for outputs that are all near zero.
//   float16   1e-2, 1e-4   eps(fp16) = 9.8e-4 (torch.testing: rtol 1e-3 = 1 ulp). Eager
//                          rounds every intermediate to fp16 while inductor's fused
//                          kernels keep them in float32: a few ulps over a program.
//   bfloat16  3e-2, 1e-3   eps(bf16) = 7.8e-3 (torch.testing: rtol 1.6e-2 = 2 ulps for one
//                          op); same intermediate-rounding argument, about 4 ulps.
//   float8_e4m3*  0.25, 1e-2 and float8_e5m2*  0.5, 1e-2: 2 ulps of their 3/2-bit
//                          mantissas.
//   complexN  the tolerance of its component float type.
//   Python float scalars: float32's (they usually come from .item() of a float32 tensor).
//   integers, bool: exact.
// Unknown dtype names: float32's.
// ---------------------------------------------------------------------------------------

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string shape_str(const json& shape) {
    if (!shape.is_array()) return "?";
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) out += ", ";
        out += shape[i].is_number_integer() ? std::to_string(shape[i].get<long long>()) : "?";
    }
    return out + "]";
}

std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) {
        if (!out.empty()) out += "; ";
        out += p;
    }
    return out;
}

std::string str_field(const json& fact, const char* key) {
    auto it = fact.find(key);
    return (it != fact.end() && it->is_string()) ? it->get<std::string>() : std::string{};
}

std::optional<double> num_field(const json& fact, const char* key) {
    auto it = fact.find(key);
    if (it == fact.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

long long count_field(const json& fact, const char* key) {
    auto it = fact.find(key);
    return (it != fact.end() && it->is_number()) ? it->get<long long>() : 0;
}

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

// Checks shared by the verdict and the nondeterminism test: everything but the numeric
// tolerance. Returns the reasons found.
std::vector<std::string> structural_reasons(const json& fact) {
    std::vector<std::string> reasons;
    if (fact.contains("shape_expected") && fact.contains("shape_actual") &&
        fact["shape_expected"] != fact["shape_actual"]) {
        reasons.push_back("shape " + shape_str(fact["shape_actual"]) + ", expected " +
                          shape_str(fact["shape_expected"]));
    }
    const auto dte = str_field(fact, "dtype_expected");
    const auto dta = str_field(fact, "dtype_actual");
    if (dte != dta) reasons.push_back("dtype " + dta + ", expected " + dte);
    if (auto err = str_field(fact, "error"); !err.empty())
        reasons.push_back("could not compare: " + err);
    const long long nan_e = count_field(fact, "nan_expected");
    const long long nan_a = count_field(fact, "nan_actual");
    long long nan_mis = count_field(fact, "nan_mismatch");
    if (!fact.contains("nan_mismatch") && nan_e != nan_a) nan_mis = std::llabs(nan_a - nan_e);
    if (nan_mis > 0) {
        if (nan_e == 0)
            reasons.push_back(std::to_string(nan_a) + " NaN where expected has none");
        else
            reasons.push_back(std::to_string(nan_mis) + " NaN position(s) differ (" +
                              std::to_string(nan_a) + " NaN, expected " +
                              std::to_string(nan_e) + ")");
    }
    if (long long inf = count_field(fact, "inf_mismatch"); inf > 0)
        reasons.push_back(std::to_string(inf) + " inf value(s) differ");
    return reasons;
}

bool shapes_differ(const json& fact) {
    return fact.contains("shape_expected") && fact.contains("shape_actual") &&
           fact["shape_expected"] != fact["shape_actual"];
}

std::string worst_suffix(const json& fact) {
    auto idx = fact.find("worst_index");
    auto e = fact.find("expected_at_worst");
    auto a = fact.find("actual_at_worst");
    if (idx == fact.end() || e == fact.end() || a == fact.end() || !e->is_number() ||
        !a->is_number())
        return {};
    std::string at = idx->is_array() && !idx->empty() ? " at " + shape_str(*idx) : "";
    return at + " (expected " + num(e->get<double>()) + ", got " + num(a->get<double>()) + ")";
}

// One fact -> the reasons it fails (empty: it passes).
std::vector<std::string> judge_fact(const json& fact, const ToleranceOverride& over) {
    if (!fact.is_object()) return {"malformed fact: not an object"};
    const auto kind = str_field(fact, "kind");
    if (kind == "structure") {
        auto d = str_field(fact, "description");
        return {"structure differs: " + (d.empty() ? std::string("different containers") : d)};
    }
    if (kind == "other") {
        auto it = fact.find("equal");
        if (it == fact.end() || !it->is_boolean()) return {"malformed fact: no 'equal'"};
        if (it->get<bool>()) return {};
        return {"value " + str_field(fact, "repr_actual") + ", expected " +
                str_field(fact, "repr_expected")};
    }
    if (kind != "tensor" && kind != "scalar")
        return {"malformed fact: unknown kind '" + kind + "'"};

    std::vector<std::string> reasons = structural_reasons(fact);
    if (shapes_differ(fact) || fact.contains("error")) return reasons;

    const auto dtype = str_field(fact, "dtype_expected");
    const auto diff = num_field(fact, "max_abs_diff");
    if (!diff) {
        // null diff with no NaN/inf explanation is malformed; with one, the NaN/inf reason
        // already says it.
        if (reasons.empty()) reasons.push_back("malformed fact: no max_abs_diff");
        return reasons;
    }
    if (is_exact_dtype(dtype)) {
        if (*diff > 0.0)
            reasons.push_back("values differ (max abs diff " + num(*diff) + ", " + dtype +
                              " must match exactly)" + worst_suffix(fact));
        return reasons;
    }
    Tolerance tol = default_tolerance(dtype);
    if (over.rtol) tol.rtol = *over.rtol;
    if (over.atol) tol.atol = *over.atol;
    const double scale = num_field(fact, "max_abs_expected").value_or(0.0);
    const double allowed = tol.atol + tol.rtol * scale;
    if (*diff > allowed) {
        std::string why = "max abs diff " + num(*diff) + " > allowed " + num(allowed) + " (" +
                          dtype + ": atol " + num(tol.atol) + " + rtol " + num(tol.rtol) +
                          " x max |expected| " + num(scale) + ")" + worst_suffix(fact);
        reasons.push_back(why);
    }
    return reasons;
}

}  // namespace

bool is_exact_dtype(std::string_view dtype) {
    if (dtype == "bool" || dtype == "int") return true;
    return starts_with(dtype, "int") || starts_with(dtype, "uint");
}

Tolerance default_tolerance(std::string_view dtype) {
    if (is_exact_dtype(dtype)) return {0.0, 0.0};
    if (dtype == "float64" || dtype == "complex128" || dtype == "double") return {1e-7, 1e-7};
    if (dtype == "float16" || dtype == "complex32" || dtype == "half") return {1e-2, 1e-4};
    if (dtype == "bfloat16") return {3e-2, 1e-3};
    if (starts_with(dtype, "float8_e4m3")) return {0.25, 1e-2};
    if (starts_with(dtype, "float8_e5m2")) return {0.5, 1e-2};
    // float32, complex64, Python "float"/"complex", unknown names.
    return {1e-3, 1e-5};
}

CorrectnessVerdict judge_outputs(const json& facts, const ToleranceOverride& override_tol) {
    if (!facts.is_array())
        throw std::invalid_argument("correctness facts must be a JSON array");
    CorrectnessVerdict verdict;
    for (const auto& fact : facts) {
        ++verdict.leaves;
        auto reasons = judge_fact(fact, override_tol);
        if (reasons.empty()) continue;
        verdict.match = false;
        std::string path = fact.is_object() ? str_field(fact, "path") : std::string{};
        verdict.mismatches.push_back({path.empty() ? "?" : path, join(reasons)});
    }
    return verdict;
}

NondeterminismCheck eager_self_difference(const json& facts, double atol) {
    if (!facts.is_array())
        throw std::invalid_argument("correctness facts must be a JSON array");
    NondeterminismCheck check;
    for (const auto& fact : facts) {
        std::vector<std::string> reasons;
        const auto kind = fact.is_object() ? str_field(fact, "kind") : std::string{};
        if (kind == "tensor" || kind == "scalar") {
            reasons = structural_reasons(fact);
            if (auto d = num_field(fact, "max_abs_diff")) {
                check.max_abs_diff = std::max(check.max_abs_diff, *d);
                if (*d > atol)
                    reasons.push_back("eager differs from itself by up to " + num(*d) +
                                      worst_suffix(fact));
            }
        } else {
            // structure / other / malformed: the same rule as the verdict (exact).
            reasons = judge_fact(fact, {});
        }
        if (reasons.empty()) continue;
        check.nondeterministic = true;
        std::string path = fact.is_object() ? str_field(fact, "path") : std::string{};
        check.differing.push_back({path.empty() ? "?" : path, join(reasons)});
    }
    return check;
}

}  // namespace tct::analysis
