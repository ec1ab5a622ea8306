#pragma once
// --precision's spelling, shared by `tct bench` and suite files.
#include <string>

namespace tct::cli {

// "2%" -> 0.02, "0.02" -> 0.02. Values >= 1 without '%' are taken as percent ("5" = 5%),
// since a relative half-width of 100% or more is never what anyone means. Throws
// tct::Error (usage) for anything that is not a fraction in (0, 1) or a percentage.
double parse_precision(const std::string& text);

}  // namespace tct::cli
