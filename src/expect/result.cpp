#include "expect/result.hpp"

#include <cmath>

#include <fmt/format.h>

#include "errors.hpp"
#include "expect/json.hpp"
#include "stats/summary.hpp"
#include "stats/verdict.hpp"

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

std::string label(BoundClass c) { return class_label(std::string(to_string(c))); }

std::string to_text(const SweepValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return *s;
  return to_json(value).dump();
}

std::string_view to_string(Assumes a) {
  switch (a) {
    case Assumes::Captured: return "captured";
    case Assumes::GraphBreaksStay: return "graph_breaks_stay";
    case Assumes::NothingCompiled: return "nothing_compiled";
    case Assumes::EagerPartStays: return "eager_part_stays";
  }
  return "captured";
}

ProfileSummary summarize(const Evidence& e) {
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
    if (p.error || !p.analysed) continue;
    if (prev && prev->analysed->cls != p.analysed->cls)
      out.push_back({prev->value, p.value, prev->analysed->cls, p.analysed->cls});
    prev = &p;
  }
  return out;
}

std::optional<Validation> validate(const SpeedupRange& predicted, const std::string& cls,
                                   const MeasuredSpeedup& measured, const std::string& borderline_with) {
  const double est = measured.estimate;
  if (!std::isfinite(est)) return std::nullopt;
  if (!std::isfinite(predicted.low) || !std::isfinite(predicted.high)) return std::nullopt;  // nothing predicted
  const bool has_low = std::isfinite(measured.low), has_high = std::isfinite(measured.high);
  const double mlo = has_low ? measured.low : est, mhi = has_high ? measured.high : est;
  Validation v;
  v.predicted = predicted;
  v.measured = measured;
  v.cls = cls;
  v.verdict = est < predicted.low ? "below" : est > predicted.high ? "above" : "inside";
  v.compile_worth_it = mlo > kGainBand ? "yes" : mhi <= 1.0 ? "no" : "unclear";
  // Wrong direction: outside the range, and the range and the whole measured interval on
  // opposite sides of a clear gain.
  const bool predicted_gain = predicted.low > kGainBand, predicted_no_gain = predicted.high <= kGainBand;
  v.direction_right =
      !(v.verdict != "inside" && ((predicted_gain && mhi <= kGainBand) || (predicted_no_gain && mlo > kGainBand)));
  const std::string measured_text =
      has_low ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", est, mlo, mhi) : fmt::format("{:.2f}x", est);
  const std::string worth_text = v.compile_worth_it == "yes"  ? "torch.compile is worth it here"
                                 : v.compile_worth_it == "no" ? "torch.compile is not worth it here (no gain)"
                                 // bench's verdict says faster; whether that pays for a compile is what is unclear
                                 : mlo > 1.0 ? fmt::format(
                                                   "faster, but the gain may be under {:.0f}%: too small to "
                                                   "call it worth a compile",
                                                   (kGainBand - 1.0) * 100)
                                             // the interval holds 1: bench's verdict, by the one rule
                                             : std::string(stats::describe(stats::decide(est, mlo, mhi)));
  const std::string class_text = borderline_with.empty()
                                     ? class_label(cls)
                                     : class_label(cls) + ", borderline with " + class_label(borderline_with);
  v.summary = fmt::format("measured {} is {} the predicted {:.2f}x-{:.2f}x ({}){}: {}", measured_text, v.verdict,
                          predicted.low, predicted.high, class_text,
                          v.direction_right ? "" : ", the prediction got the direction wrong", worth_text);
  return v;
}

std::optional<Validation> validate(const SpeedupRange& predicted, BoundClass cls,
                                   std::optional<BoundClass> borderline_with, const tct::bench::Speedup& measured) {
  if (measured.verdict == tct::stats::SpeedupVerdict::Inconclusive)
    return std::nullopt;  // too wide to judge anything by
  const stats::Interval& iv = measured.interval;
  return validate(predicted, std::string(to_string(cls)), MeasuredSpeedup{iv.estimate, iv.low, iv.high},
                  borderline_with ? std::string(to_string(*borderline_with)) : "");
}

std::optional<Validation> validate(const Analysis& a, const tct::bench::Speedup& measured) {
  return validate(a.predicted.range, a.cls, a.borderline_with, measured);
}

int exit_code(const ExpectResult& r, bool validate) {
  if (!validate || !r.validation || r.validation->direction_right) return 0;
  throw check_failed("prediction_wrong",
                     r.validation->summary.empty() ? "the prediction got the direction wrong" : r.validation->summary,
                     "see the validation in the report; the classification may not fit this workload");
}

std::optional<MeasuredAsIs> measured_as_is(const bench::BenchResult* bench) {
  if (!bench) return {};
  for (const auto& row : bench->rows) {
    if (!row.ok() || !row.speedup) continue;
    const stats::Interval& iv = row.speedup->interval;
    if (!std::isfinite(iv.high)) continue;
    return MeasuredAsIs{{iv.estimate, iv.low, iv.high}, row.label, iv.high < kGainBand};
  }
  return {};
}

bool answered_by(const Suggestion& s, const std::optional<MeasuredAsIs>& as_is) {
  return s.compile_as_is && as_is && as_is->no_real_gain;
}

}  // namespace tct::expect
