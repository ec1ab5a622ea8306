#pragma once
// The renderings of tct run's section (run/text.cpp, run/html.cpp). They read the section's
// JSON: run has no from_json yet, so the saved document is what every rendering shares.
#include <string>

#include <nlohmann/json.hpp>

namespace tct::run {

// The whole document in; `verbose` every detail (-v), `markdown` for a .md file.
std::string text(const nlohmann::json& doc, bool markdown, bool verbose);
std::string html_section(const nlohmann::json& run_section);
// The job in one line: its sites, its silent fallbacks, every verdict counted.
std::string answer(const nlohmann::json& run_section);
// A site's silent fallbacks: its "fallbacks" list, or an older document's one "fallback".
nlohmann::json fallbacks_of(const nlohmann::json& site);

}  // namespace tct::run
