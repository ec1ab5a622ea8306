#pragma once
// A fraction's spelling ("5%" or "0.05"), shared by bench's --precision, suite files and
// compare's thresholds.
#include <string>

namespace tct::core {

// "2%" -> 0.02, "0.02" -> 0.02. Values >= 1 without '%' are taken as percent ("5" = 5%),
// since a relative half-width of 100% or more is never what anyone means. Throws
// tct::Error (usage) for anything that is not a fraction in (0, 1) or a percentage.
double parse_precision(const std::string& text);

// The shared spelling: "5%" or "0.05" -> 0.05, a bare number >= 1 read as percent; NaN when
// the text is no number. Range checks are the caller's.
double parse_fraction(const std::string& text);

}  // namespace tct::core
