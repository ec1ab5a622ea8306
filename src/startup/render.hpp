#pragma once
// The renderings of a StartupResult: pure functions of the value, which print its figures
// and its verdict and never decide them. The registry of renderers (cli/render.cpp) calls them
// with the result read from the document (startup::from_json), so a live run and a saved
// document render alike.
#include <string>
#include <vector>

#include "report/html_util.hpp"
#include "startup/result.hpp"

namespace tct::startup {

// A break-even as read: "120 calls", "21.6 million calls".
std::string calls_text(double calls);

// A command's call sites and their median first outputs: "call sites: embed 1.2 s; rank 1.5 s".
std::string sites_line(const ModeResult& m);

// The verdict in words: "eager starts fastest (1.52 s); of the compiled modes, warm (8.53 s)".
std::string answer(const StartupResult& r);

std::string brief(const StartupResult& r);  // the default terminal report
std::string text(const StartupResult& r);   // -v: every phase, every lookup
std::string markdown(const StartupResult& r);

// The HTML report's section (the bar chart of start-up time per mode split by phase, the
// table, the cache lookups) and its summary card.
std::string html_section(const StartupResult& r);
std::vector<report::html::Card> html_cards(const StartupResult& r);

}  // namespace tct::startup
