#pragma once
// The speedup verdict: one rule for every command (bench, run, suite, compare), beside the
// Interval it reads. It follows the interval, not its width: faster when the whole interval
// lies above 1, slower when below, however wide; when it holds 1, no clear difference if it is
// narrow and inconclusive if it is wide. Width is a precision note next to the number.
#include <optional>
#include <string>
#include <string_view>

#include "stats/bootstrap.hpp"

namespace tct::stats {

enum class SpeedupVerdict {
  Faster,             // the whole interval is above 1
  Slower,             // the whole interval is below 1
  NoClearDifference,  // a narrow interval that holds 1: compile gains nothing reliable
  Inconclusive,       // a wide interval that holds 1 (or no interval): it cannot tell
  NotMeasured,        // no estimate at all (the row failed before timing)
};

// An interval that holds 1 and is wider than this (high / low) cannot tell "no clear
// difference" from a gain or a loss. 1.5 is about +-20%.
inline constexpr double kWideIntervalRatio = 1.5;

SpeedupVerdict decide(double estimate, double low, double high);
inline SpeedupVerdict decide(const Interval& iv) { return decide(iv.estimate, iv.low, iv.high); }

// "faster", "slower", "no_clear_difference", "inconclusive", "not_measured": the JSON values.
std::string_view to_string(SpeedupVerdict v);
std::optional<SpeedupVerdict> parse_verdict(std::string_view s);

// What a reader is told: "faster than eager", "inconclusive (the interval holds 1 and is too
// wide to tell)".
std::string_view describe(SpeedupVerdict v);

// What follows "2.13x [1.69, 2.84]" in every rendering: "inconclusive: the interval holds 1
// and is too wide to tell" for that verdict, "(wide interval: ±27%)" for a wide interval that
// still carries a verdict, else "".
std::string interval_note(SpeedupVerdict v, const Interval& iv);

}  // namespace tct::stats
