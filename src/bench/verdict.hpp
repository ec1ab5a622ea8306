#pragma once
// The speedup's verdict, decided once, where the interval is made (bench/phases.cpp),
// and stored in the row's speedup object ("verdict"). Every report, the suite summary, the
// break-even and the warnings read it from there: none decides again.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tct::bench {

enum class SpeedupVerdict {
  Faster,             // the whole interval is above 1
  Slower,             // the whole interval is below 1
  NoClearDifference,  // a narrow interval that holds 1: compile gains nothing reliable
  Inconclusive,       // the interval is too wide (or undefined) to say anything
  NotMeasured,        // no estimate at all (the row failed before timing)
};

// An interval wider than this (high / low) supports no verdict: the speedup is reported as
// inconclusive, with no break-even or expectation check built on it. 1.5 is about +-20%.
inline constexpr double kInconclusiveRatio = 1.5;

SpeedupVerdict decide(double estimate, double low, double high);

// "faster", "slower", "no_clear_difference", "inconclusive", "not_measured": the JSON values.
std::string_view to_string(SpeedupVerdict v);
std::optional<SpeedupVerdict> parse_verdict(std::string_view s);

// What a reader is told: "faster than eager", "inconclusive (the interval is too wide for a verdict)".
std::string_view describe(SpeedupVerdict v);
// describe() of a document's verdict value; a value this version does not know (an older
// document's) is printed as it was written.
std::string describe_value(const std::string& value);

// The verdict a document's speedup object holds. Documents written before the field existed
// (same schema, older tct) get it decided from their numbers by decide(), the one rule.
SpeedupVerdict verdict_of(const nlohmann::json& speedup);

}  // namespace tct::bench
