#include "bench/verdict.hpp"

#include <cmath>

namespace tct::bench {

SpeedupVerdict decide(double estimate, double low, double high) {
  if (!std::isfinite(estimate)) return SpeedupVerdict::NotMeasured;
  if (!(std::isfinite(low) && std::isfinite(high) && low > 0 && high / low <= kInconclusiveRatio))
    return SpeedupVerdict::Inconclusive;
  if (low > 1) return SpeedupVerdict::Faster;
  if (high < 1) return SpeedupVerdict::Slower;
  return SpeedupVerdict::NoClearDifference;
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
    {SpeedupVerdict::Inconclusive, "inconclusive", "inconclusive (the interval is too wide for a verdict)"},
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

std::string describe_value(const std::string& value) {
  const auto parsed = parse_verdict(value);
  return parsed ? std::string(describe(*parsed)) : value;
}

SpeedupVerdict verdict_of(const nlohmann::json& speedup) {
  if (!speedup.is_object()) return SpeedupVerdict::NotMeasured;
  if (auto it = speedup.find("verdict"); it != speedup.end() && it->is_string())
    if (auto v = parse_verdict(it->get<std::string>())) return *v;
  auto number = [&](const char* k) {
    auto f = speedup.find(k);
    return f != speedup.end() && f->is_number() ? f->get<double>() : NAN;
  };
  // An older document's own "inconclusive" flag wins over the numbers, as it did when written.
  if (speedup.value("inconclusive", false) && std::isfinite(number("estimate"))) return SpeedupVerdict::Inconclusive;
  return decide(number("estimate"), number("low"), number("high"));
}

}  // namespace tct::bench
