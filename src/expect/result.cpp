#include "expect/result.hpp"

#include "errors.hpp"
#include "expect/json.hpp"
#include "stats/summary.hpp"

namespace tct::expect {

std::string_view to_string(BoundClass c) {
  switch (c) {
    case BoundClass::OverheadBound: return "overhead_bound";
    case BoundClass::MemoryBound: return "memory_bound";
    case BoundClass::ComputeBound: return "compute_bound";
    case BoundClass::Unknown: return "unknown";
  }
  return "unknown";
}

BoundClass parse_class(std::string_view s) {
  for (BoundClass c : {BoundClass::OverheadBound, BoundClass::MemoryBound, BoundClass::ComputeBound})
    if (s == to_string(c)) return c;
  return BoundClass::Unknown;
}

std::string label(BoundClass c) { return analysis::class_label(std::string(to_string(c))); }

std::string_view to_string(Assumes a) {
  switch (a) {
    case Assumes::Captured: return "captured";
    case Assumes::GraphBreaksStay: return "graph_breaks_stay";
    case Assumes::NothingCompiled: return "nothing_compiled";
  }
  return "captured";
}

ProfileSummary summarize(const analysis::Evidence& e) {
  ProfileSummary p;
  auto s = stats::summarize(e.op_durations_ns);
  p.ops_per_call = e.ops_per_call;
  p.op_count = s.n;
  p.op_min = Nanoseconds(s.min);
  p.op_p50 = Nanoseconds(s.median);
  p.op_p90 = Nanoseconds(stats::quantile(e.op_durations_ns, 0.90));
  p.op_p99 = Nanoseconds(stats::quantile(e.op_durations_ns, 0.99));
  p.op_max = Nanoseconds(s.max);
  p.op_mean = Nanoseconds(s.mean);
  p.wall_per_call = Nanoseconds(e.wall_ns);
  p.profiled_wall_per_call = Nanoseconds(e.profiled_wall_ns);
  p.in_op_per_call = Nanoseconds(e.in_op_ns);
  p.lower_envelope = e.envelope;
  p.in_op_fraction = e.in_op_fraction;
  p.in_op_fraction_p10 = e.in_op_fraction_p10;
  p.in_op_fraction_p90 = e.in_op_fraction_p90;
  p.overhead_fraction = std::isfinite(e.in_op_fraction) ? 1.0 - e.in_op_fraction : NAN;
  p.overhead_fraction_halves = e.outside_fraction_halves;
  p.library_fraction = e.library_fraction;
  p.conv_fraction = e.conv_fraction;
  p.kept_arithmetic_fraction = e.kept_arithmetic_fraction;
  p.fused_kernel_fraction = e.fused_kernel_fraction;
  p.device_busy_fraction = e.device_busy_fraction.value_or(NAN);
  p.kernel_launches = e.kernel_launches.value_or(NAN);
  p.pointwise_ops_per_call = e.pointwise_ops;
  p.reduction_ops_per_call = e.reduction_ops;
  p.library_ops_per_call = e.library_ops;
  p.events_truncated = e.events_truncated;
  p.top_ops = e.top_ops;
  return p;
}

std::vector<ClassChange> class_changes(const std::vector<SweepPoint>& points) {
  std::vector<ClassChange> out;
  const SweepPoint* prev = nullptr;
  for (const auto& p : points) {
    if (!p.error.is_null() || !p.analysed) continue;
    if (prev && prev->analysed->cls != p.analysed->cls)
      out.push_back({prev->value, p.value, prev->analysed->cls, p.analysed->cls});
    prev = &p;
  }
  return out;
}

std::optional<Validation> validate(const Analysis& a, const json& measured_speedup) {
  std::string borderline = a.borderline_with ? std::string(to_string(*a.borderline_with)) : "";
  return validation_from_json(analysis::validate_prediction(a.predicted.range, std::string(to_string(a.cls)),
                                                            measured_speedup, borderline));
}

int exit_code(const ExpectResult& r, bool validate) {
  if (!validate || !r.validation || r.validation->direction_right) return 0;
  throw check_failed("prediction_wrong",
                     r.validation->summary.empty() ? "the prediction got the direction wrong" : r.validation->summary,
                     "see the validation in the report; the classification may not fit this workload");
}

std::optional<MeasuredAsIs> measured_as_is(const json& bench_section) {
  if (!bench_section.is_object() || !bench_section.contains("rows") || !bench_section["rows"].is_array()) return {};
  for (const auto& row : bench_section["rows"]) {
    if (!row.is_object() || !row.contains("status") || row["status"] != "ok") continue;
    auto speedup = measured_from_json(row.contains("speedup") ? row["speedup"] : json());
    if (!speedup || !std::isfinite(speedup->high)) continue;
    std::string label = row.contains("label") && row["label"].is_string() ? row["label"].get<std::string>() : "";
    return MeasuredAsIs{*speedup, label, speedup->high < analysis::kGainBand};
  }
  return {};
}

}  // namespace tct::expect
