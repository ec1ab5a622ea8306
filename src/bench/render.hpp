#pragma once
// The renderings of a BenchResult: pure functions of the value, which print its verdicts,
// flags and counts and never decide them. The registry of renderers (cli/render.cpp) calls them
// with the result read from the document (bench::from_json), so a live run and a saved
// document render alike.
#include <string>
#include <vector>

#include "bench/result.hpp"
#include "report/html_util.hpp"

namespace tct::bench {

// The terminal report: every detail (-v).
std::string text(const BenchResult& r);
// The default terminal report: about 8 lines per configuration.
std::string brief(const BenchResult& r);
// For a pull-request comment.
std::string markdown(const BenchResult& r);
// The HTML report's cards and section.
std::vector<report::html::Card> html_cards(const BenchResult& r);
std::string html_section(const BenchResult& r);

}  // namespace tct::bench
