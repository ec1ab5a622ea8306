#include "stats/verdict.hpp"

#include <cmath>

#include <fmt/format.h>

namespace tct::stats {

SpeedupVerdict decide(double estimate, double low, double high) {
  if (!std::isfinite(estimate)) return SpeedupVerdict::NotMeasured;
  if (!(std::isfinite(low) && std::isfinite(high) && low > 0)) return SpeedupVerdict::Inconclusive;
  if (low > 1) return SpeedupVerdict::Faster;
  if (high < 1) return SpeedupVerdict::Slower;
  return high / low <= kWideIntervalRatio ? SpeedupVerdict::NoClearDifference : SpeedupVerdict::Inconclusive;
}

namespace {

// Each verdict once: its JSON value and what a reader is told.
struct Words {
  SpeedupVerdict verdict;
  std::string_view json, reader;
};
constexpr Words kWords[] = {
    {SpeedupVerdict::Faster, "faster", "faster than eager"},
    {SpeedupVerdict::Slower, "slower", "slower than eager"},
    {SpeedupVerdict::NoClearDifference, "no_clear_difference", "no clear difference from eager"},
    {SpeedupVerdict::Inconclusive, "inconclusive", "inconclusive (the interval holds 1 and is too wide to tell)"},
    {SpeedupVerdict::NotMeasured, "not_measured", "not measured"},
};

const Words& words_of(SpeedupVerdict v) {
  for (const auto& w : kWords)
    if (w.verdict == v) return w;
  return kWords[4];  // not measured
}

}  // namespace

std::string_view to_string(SpeedupVerdict v) { return words_of(v).json; }

std::optional<SpeedupVerdict> parse_verdict(std::string_view s) {
  for (const auto& w : kWords)
    if (w.json == s) return w.verdict;
  return std::nullopt;
}

std::string_view describe(SpeedupVerdict v) { return words_of(v).reader; }

std::string interval_note(SpeedupVerdict v, const Interval& iv) {
  if (v == SpeedupVerdict::Inconclusive) return "inconclusive: the interval holds 1 and is too wide to tell";
  if (v == SpeedupVerdict::NotMeasured || !(std::isfinite(iv.low) && std::isfinite(iv.high) && iv.low > 0) ||
      iv.high / iv.low <= kWideIntervalRatio)
    return "";
  return fmt::format("(wide interval: ±{:.0f}%)", relative_half_width(iv) * 100);
}

}  // namespace tct::stats
