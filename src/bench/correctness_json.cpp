// The correctness parts of a saved document's rows (bench/json.cpp reads them through these):
// a leaf's measured facts, the reference run, the agent's costs, under the names the agent
// gave them. The agent's own reply is read as bench/reply.hpp's Check, where it arrives.
#include "bench/correctness.hpp"

#include <cmath>

#include "core/json_number.hpp"
#include "core/json_read.hpp"

namespace tct::bench {
namespace {

using nlohmann::json;

std::optional<std::vector<long long>> doc_index(const json& v) {
  if (!v.is_array()) return std::nullopt;
  std::vector<long long> out;
  for (const auto& i : v)
    if (i.is_number()) out.push_back(i.get<long long>());
  return out;
}

std::optional<ElementValue> doc_element(const json& v) {
  auto part = [](const json& x) { return x.is_number() ? x.get<double>() : NAN; };
  if (v.is_array() && v.size() == 2) return ElementValue{part(v[0]), part(v[1])};
  if (v.is_number()) return ElementValue{v.get<double>(), std::nullopt};
  return std::nullopt;
}

}  // namespace

LeafMeasured leaf_measured_from_json(const json& fact) {
  LeafMeasured m;
  if (!fact.is_object()) return m;
  m.max_abs_diff = core::number_or_nan(fact, "max_abs_diff");
  m.max_rel_diff = core::number_or_nan(fact, "max_rel_diff");
  m.out_of_tolerance = core::json_read::opt_num<long long>(fact, "out_of_tolerance");
  if (auto it = fact.find("worst_index"); it != fact.end()) m.worst_index = doc_index(*it);
  if (auto it = fact.find("expected_at_worst"); it != fact.end()) m.expected_at_worst = doc_element(*it);
  if (auto it = fact.find("actual_at_worst"); it != fact.end()) m.actual_at_worst = doc_element(*it);
  if (auto it = fact.find("reference"); it != fact.end() && it->is_object()) {
    const json& r = *it;
    LeafReference ref;
    ref.eager_max_error = core::number_or_nan(r, "eager_max_error");
    ref.compiled_max_error = core::number_or_nan(r, "compiled_max_error");
    ref.eager_rms_error = core::number_or_nan(r, "eager_rms_error");
    ref.compiled_rms_error = core::number_or_nan(r, "compiled_rms_error");
    ref.multiplier = core::number_or_nan(r, "multiplier");
    ref.out_of_tolerance = core::json_read::opt_num<long long>(r, "out_of_tolerance");
    if (auto wi = r.find("worst_index"); wi != r.end()) ref.worst_index = doc_index(*wi);
    ref.reference_at_worst = core::number_or_nan(r, "reference_at_worst");
    ref.expected_at_worst = core::number_or_nan(r, "expected_at_worst");
    ref.actual_at_worst = core::number_or_nan(r, "actual_at_worst");
    m.reference = ref;
  }
  return m;
}

ReferenceRun reference_run_from_json(const json& reference) {
  if (!reference.is_object()) return {};
  return {core::json_read::opt_bool(reference, "computed"), core::json_read::opt_str(reference, "dtype"),
          core::json_read::opt_str(reference, "reason")};
}

CheckCosts check_costs_from_json(const json& cost_ns) {
  if (!cost_ns.is_object()) return {};
  return {core::json_read::opt_num<long long>(cost_ns, "eager_ns"),
          core::json_read::opt_num<long long>(cost_ns, "compiled_ns"),
          core::json_read::opt_num<long long>(cost_ns, "compare_ns"),
          core::json_read::opt_num<long long>(cost_ns, "reference_ns")};
}

}  // namespace tct::bench
