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

std::string_view to_string(SpeedupVerdict v) {
  switch (v) {
    case SpeedupVerdict::Faster: return "faster";
    case SpeedupVerdict::Slower: return "slower";
    case SpeedupVerdict::NoClearDifference: return "no_clear_difference";
    case SpeedupVerdict::Inconclusive: return "inconclusive";
    case SpeedupVerdict::NotMeasured: return "not_measured";
  }
  return "not_measured";
}

std::optional<SpeedupVerdict> parse_verdict(std::string_view s) {
  for (auto v : {SpeedupVerdict::Faster, SpeedupVerdict::Slower, SpeedupVerdict::NoClearDifference,
                 SpeedupVerdict::Inconclusive, SpeedupVerdict::NotMeasured})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

std::string_view describe(SpeedupVerdict v) {
  switch (v) {
    case SpeedupVerdict::Faster: return "faster than eager";
    case SpeedupVerdict::Slower: return "slower than eager";
    case SpeedupVerdict::NoClearDifference: return "no clear difference from eager";
    case SpeedupVerdict::Inconclusive: return "inconclusive (the interval is too wide for a verdict)";
    case SpeedupVerdict::NotMeasured: return "not measured";
  }
  return "not measured";
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
