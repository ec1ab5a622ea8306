// The words every rendering of tct job shares: totals, comparisons, the decision.
#include <cmath>

#include <fmt/format.h>

#include "job/render.hpp"
#include "report/format.hpp"

namespace tct::job {

using report::format_duration_ns;

namespace {}  // namespace

std::string total_text(const stats::Interval& ns) {
  if (!std::isfinite(ns.estimate)) return "n/a";
  if (!std::isfinite(ns.low) || !std::isfinite(ns.high))
    return fmt::format("{} (one run)", format_duration_ns(ns.estimate));
  return fmt::format("{} [{}, {}]", format_duration_ns(ns.estimate), format_duration_ns(std::max(0.0, ns.low)),
                     format_duration_ns(ns.high));
}

std::string comparison_text(const Comparison& c) {
  const auto& iv = c.ratio;
  if (!std::isfinite(iv.estimate)) return "n/a";
  if (!std::isfinite(iv.low) || !std::isfinite(iv.high))
    return fmt::format("{:.2f}x as long (one round: no interval to decide by)", iv.estimate);
  const std::string ratio = fmt::format("{:.2f}x as long [{:.2f}, {:.2f}]", iv.estimate, iv.low, iv.high);
  switch (c.verdict) {
    case stats::SpeedupVerdict::Faster: return ratio + ": slower";
    case stats::SpeedupVerdict::Slower: return ratio + ": faster (below 1)";
    case stats::SpeedupVerdict::NoClearDifference: return ratio + ": no clear difference";
    case stats::SpeedupVerdict::Inconclusive: return ratio + ": too close to call (the interval holds 1 and is wide)";
    case stats::SpeedupVerdict::NotMeasured: return ratio;
  }
  return ratio;
}

std::string decision_text(const JobResult& r, const Decision& d, bool horizon) {
  if (d.best.empty()) return "no mode ran every round with eager's output";
  const ModeResult* best = r.find(d.best);
  auto figure = [&](const ModeResult& m) { return horizon ? m.at_horizon.value_or(stats::Interval{}) : m.total; };
  std::string out = fmt::format("{}: {}", d.best, total_text(figure(*best)));
  // The runner-up (the lowest total of the others) and how it compares.
  const ModeResult* next = nullptr;
  for (const auto& c : d.others) {
    const ModeResult* m = r.find(c.mode);
    if (m && std::isfinite(figure(*m).estimate) && (next == nullptr || figure(*m).estimate < figure(*next).estimate))
      next = m;
  }
  if (next) {
    out += fmt::format("; next, {}: {}", next->spec.label(), total_text(figure(*next)));
    if (const Comparison* c = d.find(next->spec.label())) out += ", " + comparison_text(*c);
  }
  return out;
}

std::string horizon_text(const JobResult& r) {
  if (!r.horizon_calls) return "";
  return fmt::format("{:.0f} calls of {}", *r.horizon_calls,
                     r.anchor_name.empty() ? "its busiest site" : r.anchor_name);
}

std::string answer(const JobResult& r) {
  if (r.at_horizon && !r.at_horizon->best.empty())
    return fmt::format("for {}, {}", horizon_text(r), decision_text(r, *r.at_horizon, true));
  return fmt::format("as the job ran, {}", decision_text(r, r.as_run, false));
}

}  // namespace tct::job
