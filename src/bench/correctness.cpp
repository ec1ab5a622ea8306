#include "bench/correctness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace tct::bench {
namespace {

using nlohmann::json;

// ---------------------------------------------------------------------------------------
// Tolerances and why.
//
// Criterion, element by element: |compiled - eager| <= atol + rtol * |eager|, the rule of
// torch.allclose / torch.testing.assert_close. A scale taken from the tensor's largest
// magnitude would let an error of 1e-3 in an element of size 1 pass beside elements of
// size 1e6; per element it cannot hide.
//
// Compiled code legitimately reorders and fuses floating point work: a reordered sum's
// rounding error is bounded by ~n*eps*sum|terms| (Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., sec. 4.2), i.e. by the size of the operands, not of a
// result that cancelled to near zero. Such elements fail a per-element test although
// compiled is as accurate as eager. PyTorch's own compiler accuracy check,
// torch._dynamo.utils.same, settles them with a float64 reference (fp64_ref): compiled
// passes when its RMS error against float64 is at most 2x eager's (3x in half precision).
// We apply that idea element by element, so it cannot hide a small element either:
//   |compiled - ref| <= atol + rtol*|ref| + multiplier * max(|eager - ref|, eager RMS error)
// (eager's RMS error over the leaf is the floor of eager's own noise, so an element where
// eager happens to round exactly does not demand more of compiled than eager delivers).
//
// Values (rtol, atol, multiplier):
//   float64   1e-7, 1e-7, 2   torch.testing's float64 defaults
//                             (torch/testing/_comparison.py, _DTYPE_PRECISIONS).
//   float32   1e-4, 1e-5, 2   torch._dynamo.utils.same's default tol (1e-4, used as rtol
//                             and atol by torch's benchmark accuracy checks); atol 1e-5
//                             is torch.testing's float32 atol. Looser than torch.testing's
//                             1.3e-6 because a fused program reorders many ops, not one;
//                             what 1e-4 rejects and float64 shows to be as accurate as
//                             eager passes through the reference rule.
//   float16   1e-2, 1e-4, 3   eps(fp16) = 9.8e-4 (torch.testing: rtol 1e-3 = 1 ulp). Eager
//                             rounds every intermediate to fp16 while inductor's fused
//                             kernels keep them in float32: a few ulps over a program.
//   bfloat16  3e-2, 1e-3, 3   eps(bf16) = 7.8e-3 (torch.testing: rtol 1.6e-2 = 2 ulps for
//                             one op); same intermediate-rounding argument, about 4 ulps.
//   float8_e4m3*  0.25, 1e-2, 3 and float8_e5m2*  0.5, 1e-2, 3: 2 ulps of their 3/2-bit
//                             mantissas.
//   complexN  the tolerance of its component float type.
//   Python float scalars: float32's (they usually come from .item() of a float32 tensor).
//   integers, bool: exact.
// Unknown dtype names: float32's. Multipliers 2 and 3 are torch._dynamo.utils.same's.
// ---------------------------------------------------------------------------------------

// "%.3g": a difference or a tolerance in three significant digits.
std::string g3(double v) {
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

using reply::LeafFact;
using reply::LeafFacts;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Checks shared by the verdict and the nondeterminism test: everything but the numeric
// tolerance. Returns the reasons found.
std::vector<std::string> structural_reasons(const LeafFact& fact) {
  std::vector<std::string> reasons;
  if (fact.shape_expected && fact.shape_actual && *fact.shape_expected != *fact.shape_actual) {
    reasons.push_back("shape " + shape_str(*fact.shape_actual) + ", expected " + shape_str(*fact.shape_expected));
  }
  const auto& dte = fact.dtype_expected;
  const auto& dta = fact.dtype_actual;
  if (dte != dta) reasons.push_back("dtype " + dta + ", expected " + dte);
  if (fact.error && !fact.error->empty()) reasons.push_back("could not compare: " + *fact.error);
  const long long nan_e = fact.nan_expected;
  const long long nan_a = fact.nan_actual;
  long long nan_mis = fact.nan_mismatch.value_or(0);
  if (!fact.nan_mismatch && nan_e != nan_a) nan_mis = std::llabs(nan_a - nan_e);
  if (nan_mis > 0) {
    if (nan_e == 0) reasons.push_back(std::to_string(nan_a) + " NaN where expected has none");
    else
      reasons.push_back(std::to_string(nan_mis) + " NaN position(s) differ (" + std::to_string(nan_a) +
                        " NaN, expected " + std::to_string(nan_e) + ")");
  }
  if (long long inf = fact.inf_mismatch; inf > 0) reasons.push_back(std::to_string(inf) + " inf value(s) differ");
  return reasons;
}

bool shapes_differ(const LeafFact& fact) {
  return fact.shape_expected && fact.shape_actual && *fact.shape_expected != *fact.shape_actual;
}

// Values at the worst element: 7 significant digits (float32's), so that 2 and 2.001 read
// as different numbers.
std::string value_str(const json& v) {
  auto one = [](double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", x);
    return std::string(buf);
  };
  if (v.is_number()) return one(v.get<double>());
  if (v.is_array() && v.size() == 2 && v[0].is_number() && v[1].is_number())
    return one(v[0].get<double>()) + (v[1].get<double>() < 0 ? "" : "+") + one(v[1].get<double>()) + "j";
  return "?";
}

// "at [1]: expected 2, got 2.001" (the element first: it is what a reader looks for).
std::string worst_prefix(const LeafFact& fact) {
  const auto& idx = fact.worst_index;
  const auto& e = fact.expected_at_worst;
  const auto& a = fact.actual_at_worst;
  if (!idx || !e || !a) return {};
  std::string at = idx->is_array() && !idx->empty() ? "at " + shape_str(*idx) + ": " : "";
  return at + "expected " + value_str(*e) + ", got " + value_str(*a) + "; ";
}

std::string worst_suffix(const LeafFact& fact) {
  const auto& idx = fact.worst_index;
  const auto& e = fact.expected_at_worst;
  const auto& a = fact.actual_at_worst;
  if (!idx || !e || !a) return {};
  std::string at = idx->is_array() && !idx->empty() ? " at " + shape_str(*idx) : "";
  return at + " (expected " + value_str(*e) + ", got " + value_str(*a) + ")";
}

Tolerance tolerance_for(const std::string& dtype, const ToleranceOverride& over) {
  Tolerance tol = default_tolerance(dtype);
  if (is_exact_dtype(dtype)) return tol;
  if (over.rtol) tol.rtol = *over.rtol;
  if (over.atol) tol.atol = *over.atol;
  return tol;
}

std::string percent(long long part, long long whole) {
  if (whole <= 0) return "?";
  char buf[32];
  const double p = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  std::snprintf(buf, sizeof buf, p < 0.1 ? "%.2g%%" : "%.1f%%", p);
  return buf;
}

// Which rule a numeric leaf passed by, or the reasons it failed.
struct LeafJudgement {
  std::vector<std::string> reasons;
  std::string basis;  // exact, tolerance, float64_reference, eager_spread
};

LeafJudgement judge_numeric(const LeafFact& fact, const ToleranceOverride& over, std::optional<double> eager_spread) {
  LeafJudgement j;
  j.reasons = structural_reasons(fact);
  if (shapes_differ(fact) || fact.error) return j;
  const auto& dtype = fact.dtype_expected;
  const auto diff = fact.max_abs_diff;
  if (!diff) {
    // null diff with no NaN/inf explanation is malformed; with one, the NaN/inf reason
    // already says it.
    if (j.reasons.empty()) j.reasons.push_back("malformed fact: no max_abs_diff");
    return j;
  }
  if (is_exact_dtype(dtype)) {
    j.basis = "exact";
    if (*diff > 0.0)
      j.reasons.push_back("values differ (max abs diff " + g3(*diff) + ", " + dtype + " must match exactly)" +
                          worst_suffix(fact));
    return j;
  }
  const Tolerance tol = tolerance_for(dtype, over);
  if (eager_spread) {
    // Eager moves under identical seeds: compiled is held to eager's own spread.
    j.basis = "eager_spread";
    const double scale = fact.max_abs_expected.value_or(0.0);
    const double allowed = allowed_difference(tol, scale, *eager_spread);
    if (*diff > allowed)
      j.reasons.push_back("max abs diff " + g3(*diff) + " > " + g3(allowed) + " allowed by " + "eager's own spread " +
                          g3(*eager_spread) + " (x" + g3(tol.ref_multiplier) + ") + atol + rtol x max |expected|" +
                          worst_suffix(fact));
    return j;
  }
  auto out = fact.out_of_tolerance;
  if (!out) {
    j.reasons.push_back("malformed fact: no out_of_tolerance");
    return j;
  }
  j.basis = "tolerance";
  if (*out <= 0) return j;
  const long long n_out = static_cast<long long>(*out);
  const long long numel = fact.numel;
  std::string why = worst_prefix(fact) + std::to_string(n_out) + " of " + std::to_string(numel) + " elements (" +
                    percent(n_out, numel) + ") beyond atol " + g3(tol.atol) + " + rtol " + g3(tol.rtol) +
                    " x |expected| (" + dtype + ")";
  if (const auto& ref = fact.reference) {
    auto ref_out = ref->out_of_tolerance;
    if (ref_out && *ref_out <= 0) {
      j.basis = "float64_reference";
      return j;
    }
    why += "; against float64 compiled errs by up to " + g3(ref->compiled_max_error.value_or(NAN)) + ", eager by " +
           g3(ref->eager_max_error.value_or(NAN));
  }
  j.reasons.push_back(why);
  return j;
}

// One fact -> the reasons it fails (empty: it passes).
std::vector<std::string> judge_fact(const LeafFact& fact, const ToleranceOverride& over) {
  if (!fact.object) return {"malformed fact: not an object"};
  const auto& kind = fact.kind;
  if (kind == "structure") {
    const auto& d = fact.description;
    return {"structure differs: " + (d.empty() ? std::string("different containers") : d)};
  }
  if (kind == "not_compared") return {};
  if (kind == "other") {
    if (!fact.equal.is_boolean()) return {"malformed fact: no 'equal'"};
    if (fact.equal.get<bool>()) return {};
    return {"value " + fact.repr_actual + ", expected " + fact.repr_expected};
  }
  if (kind != "tensor" && kind != "scalar") return {"malformed fact: unknown kind '" + kind + "'"};
  return judge_numeric(fact, over, std::nullopt).reasons;
}

LeafMeasured measured_of(const LeafFact& fact);

LeafCheck leaf_check(const LeafFact& fact, const LeafJudgement& j, const ToleranceOverride& over) {
  LeafCheck leaf;
  leaf.path = fact.path;
  leaf.dtype = fact.dtype_expected;
  leaf.tolerance = tolerance_for(leaf.dtype, over);
  leaf.numel = fact.numel;
  leaf.match = j.reasons.empty();
  leaf.basis = j.basis;
  if (auto o = fact.out_of_tolerance; o && leaf.numel > 0)
    leaf.fraction_out_of_tolerance = *o / static_cast<double>(leaf.numel);
  leaf.measured = measured_of(fact);
  return leaf;
}

std::map<std::string, double> spreads(const LeafFacts& eager_self) {
  std::map<std::string, double> out;
  for (const auto& f : eager_self) {
    if (!f.object) continue;
    if (auto d = f.max_abs_diff; d && *d > 0.0) out[f.path] = *d;
  }
  return out;
}

// `grad['fc.weight']` -> fc.weight (the parameter a training leaf belongs to).
std::optional<std::string> parameter_of(const std::string& path) {
  for (std::string_view prefix : {"grad['", "param_after_step['"}) {
    if (!starts_with(path, prefix)) continue;
    auto end = path.find("']", prefix.size());
    if (end != std::string::npos) return path.substr(prefix.size(), end - prefix.size());
  }
  return std::nullopt;
}

int basis_rank(const std::string& b) {
  if (b == "eager_spread") return 2;
  if (b == "float64_reference") return 1;
  return 0;
}

}  // namespace

bool is_exact_dtype(std::string_view dtype) {
  if (dtype == "bool" || dtype == "int") return true;
  return starts_with(dtype, "int") || starts_with(dtype, "uint");
}

double allowed_difference(const Tolerance& tol, double magnitude, double eager_error) {
  return tol.atol + tol.rtol * magnitude + tol.ref_multiplier * eager_error;
}

Tolerance default_tolerance(std::string_view dtype) {
  if (is_exact_dtype(dtype)) return {0.0, 0.0, 0.0};
  if (dtype == "float64" || dtype == "complex128" || dtype == "double") return {1e-7, 1e-7, 2.0};
  if (dtype == "float16" || dtype == "complex32" || dtype == "half") return {1e-2, 1e-4, 3.0};
  if (dtype == "bfloat16") return {3e-2, 1e-3, 3.0};
  if (starts_with(dtype, "float8_e4m3")) return {0.25, 1e-2, 3.0};
  if (starts_with(dtype, "float8_e5m2")) return {0.5, 1e-2, 3.0};
  // float32, complex64, Python "float"/"complex", unknown names.
  return {1e-4, 1e-5, 2.0};
}

json tolerance_table(const ToleranceOverride& over) {
  static const char* const names[] = {"float64",
                                      "float32",
                                      "float16",
                                      "bfloat16",
                                      "complex128",
                                      "complex64",
                                      "complex32",
                                      "float8_e4m3fn",
                                      "float8_e4m3fnuz",
                                      "float8_e5m2",
                                      "float8_e5m2fnuz",
                                      "float",
                                      "complex",
                                      "bool",
                                      "int",
                                      "int8",
                                      "int16",
                                      "int32",
                                      "int64",
                                      "uint8",
                                      "uint16",
                                      "uint32",
                                      "uint64"};
  json table = json::object();
  auto entry = [&](std::string_view dtype) {
    Tolerance t = tolerance_for(std::string(dtype), over);
    return json{{"rtol", t.rtol}, {"atol", t.atol}, {"ref_multiplier", t.ref_multiplier}};
  };
  for (const char* n : names) table[n] = entry(n);
  table["default"] = entry("float32");
  return table;
}

// The facts of a JSON array (a test's, a vector's): the agent's own arrive as reply::Check.
LeafFacts facts_of(const json& facts) {
  auto out = reply::leaf_facts_from(facts);
  if (!out) throw std::invalid_argument("correctness facts must be a JSON array");
  return *out;
}

CorrectnessVerdict judge_outputs(const json& facts, const ToleranceOverride& override_tol, const json& eager_self) {
  return judge_outputs(facts_of(facts), override_tol, eager_self.is_array() ? facts_of(eager_self) : LeafFacts{});
}

CorrectnessVerdict judge_outputs(const LeafFacts& facts, const ToleranceOverride& override_tol,
                                 const LeafFacts& eager_self) {
  const auto spread = spreads(eager_self);
  CorrectnessVerdict verdict;
  for (const auto& fact : facts) {
    ++verdict.leaves;
    std::string path = fact.object ? fact.path : std::string{};
    const auto kind = fact.object ? fact.kind : std::string{};
    std::vector<std::string> reasons;
    if (kind == "tensor" || kind == "scalar") {
      auto s = spread.find(path);
      auto j = judge_numeric(fact, override_tol, s == spread.end() ? std::nullopt : std::optional<double>(s->second));
      reasons = j.reasons;
      verdict.leaf_results.push_back(leaf_check(fact, j, override_tol));
      if (reasons.empty() && basis_rank(j.basis) > basis_rank(verdict.basis)) verdict.basis = j.basis;
    } else {
      reasons = judge_fact(fact, override_tol);
      if (kind == "not_compared") verdict.not_compared.push_back({path, fact.type});
    }
    if (reasons.empty()) continue;
    verdict.match = false;
    verdict.mismatches.push_back({path.empty() ? "?" : path, join(reasons)});
  }
  return verdict;
}

NondeterminismCheck eager_self_difference(const json& facts, double atol) {
  return eager_self_difference(facts_of(facts), atol);
}

NondeterminismCheck eager_self_difference(const LeafFacts& facts, double atol) {
  NondeterminismCheck check;
  for (const auto& fact : facts) {
    std::vector<std::string> reasons;
    const auto kind = fact.object ? fact.kind : std::string{};
    if (kind == "tensor" || kind == "scalar") {
      reasons = structural_reasons(fact);
      if (auto d = fact.max_abs_diff) {
        check.max_abs_diff = std::max(check.max_abs_diff, *d);
        if (*d > atol) reasons.push_back("eager differs from itself by up to " + g3(*d) + worst_suffix(fact));
      }
    } else {
      // structure / other / not compared / malformed: the same rule as the verdict.
      reasons = judge_fact(fact, {});
    }
    if (reasons.empty()) continue;
    check.nondeterministic = true;
    std::string path = fact.object ? fact.path : std::string{};
    check.differing.push_back({path.empty() ? "?" : path, join(reasons)});
  }
  return check;
}

namespace {

// The agent's indices: integers, as compare.py's _index writes them.
std::optional<std::vector<long long>> agent_index(const json& v) {
  if (!v.is_array()) return std::nullopt;
  std::vector<long long> out;
  for (const auto& i : v)
    if (i.is_number()) out.push_back(i.get<long long>());
  return out;
}

std::optional<ElementValue> agent_element(const json& v) {
  auto part = [](const json& x) { return x.is_number() ? x.get<double>() : NAN; };
  if (v.is_array() && v.size() == 2) return ElementValue{part(v[0]), part(v[1])};
  if (v.is_number()) return ElementValue{v.get<double>(), std::nullopt};
  return std::nullopt;
}

}  // namespace

namespace {

LeafMeasured measured_of(const LeafFact& fact) {
  LeafMeasured m;
  if (!fact.object) return m;
  m.max_abs_diff = fact.max_abs_diff.value_or(NAN);
  m.max_rel_diff = fact.max_rel_diff.value_or(NAN);
  if (fact.out_of_tolerance) m.out_of_tolerance = static_cast<long long>(*fact.out_of_tolerance);
  if (fact.worst_index) m.worst_index = agent_index(*fact.worst_index);
  if (fact.expected_at_worst) m.expected_at_worst = agent_element(*fact.expected_at_worst);
  if (fact.actual_at_worst) m.actual_at_worst = agent_element(*fact.actual_at_worst);
  if (const auto& r = fact.reference) {
    LeafReference ref;
    ref.eager_max_error = r->eager_max_error.value_or(NAN);
    ref.compiled_max_error = r->compiled_max_error.value_or(NAN);
    ref.eager_rms_error = r->eager_rms_error.value_or(NAN);
    ref.compiled_rms_error = r->compiled_rms_error.value_or(NAN);
    ref.multiplier = r->multiplier.value_or(NAN);
    if (r->out_of_tolerance) ref.out_of_tolerance = static_cast<long long>(*r->out_of_tolerance);
    if (r->worst_index) ref.worst_index = agent_index(*r->worst_index);
    ref.reference_at_worst = r->reference_at_worst.value_or(NAN);
    ref.expected_at_worst = r->expected_at_worst.value_or(NAN);
    ref.actual_at_worst = r->actual_at_worst.value_or(NAN);
    m.reference = ref;
  }
  return m;
}

}  // namespace

Correctness correctness_report(const reply::Check& reply, const ToleranceOverride& override_tol) {
  if (!reply.eager_vs_eager || !reply.compiled_vs_eager)
    throw std::invalid_argument("correctness facts must be a JSON array");
  const LeafFacts& self_facts = *reply.eager_vs_eager;
  const LeafFacts& facts = *reply.compiled_vs_eager;
  auto self = eager_self_difference(self_facts);
  auto verdict = judge_outputs(facts, override_tol, self.nondeterministic ? self_facts : LeafFacts{});
  Correctness out;
  out.checked = true;
  out.match = verdict.match;
  out.basis = verdict.basis;
  out.leaves = static_cast<int>(verdict.leaves);
  out.leaf_results = std::move(verdict.leaf_results);
  out.not_compared = std::move(verdict.not_compared);
  out.nondeterministic = self.nondeterministic;
  out.eager_differing.emplace();
  out.differing_parameters.emplace();
  out.seeded = reply.seed.has_value();
  out.eager_used_rng = reply.eager_used_rng;
  out.reference = {reply.reference.computed, reply.reference.dtype, reply.reference.reason};
  out.fallback_random = reply.fallback_random;
  const reply::Costs& cost = reply.cost_ns;
  out.agent_cost = {cost.eager_ns, cost.compiled_ns, cost.compare_ns, cost.reference_ns};
  out.mismatches = verdict.mismatches;
  for (const auto& m : verdict.mismatches) {
    if (auto p = parameter_of(m.path)) {
      auto& names = *out.differing_parameters;
      if (std::find(names.begin(), names.end(), *p) == names.end()) names.push_back(*p);
    }
  }
  if (self.nondeterministic) {
    out.eager_max_self_diff = self.max_abs_diff;
    out.eager_differing = self.differing;
    // A structural or non-numeric self-difference leaves no spread to judge by.
    bool numeric_only = true;
    for (const auto& f : self_facts)
      if (f.object && f.kind != "tensor" && f.kind != "scalar" && !judge_fact(f, {}).empty()) numeric_only = false;
    if (!numeric_only && !verdict.match) out.match = std::nullopt;
  }
  return out;
}

bool recheck_with_fallback_random(const Correctness& report) {
  return report.match == false && report.eager_used_rng.value_or(false) && !report.fallback_random.value_or(false);
}

}  // namespace tct::bench
