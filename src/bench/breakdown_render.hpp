#pragma once
// The breakdown's lines for the verbose terminal report and Markdown (bench/text.cpp) and
// HTML (bench/html.cpp, and tct run's per site): formatting of CallBreakdown's fields, no decision.
#include <string>
#include <vector>

#include "bench/breakdown.hpp"

namespace tct::bench {

// One line each: the window (bare and profiled call, what sampling costs; left out by a caller
// that says them itself), each part with its interval and share, each frame's cache chain, each
// fix tried or not.
std::vector<std::string> breakdown_lines(const CallBreakdown& b, bool window_line = true);

// A stacked bar of the parts (each a share of the profiled call) and its legend, HTML.
std::string breakdown_bar_html(const CallBreakdown& b);

}  // namespace tct::bench
