#pragma once
// The renderings of a JobResult: pure functions of the value, which print its figures and its
// decision and never decide them. The registry of renderers (cli/render.cpp) calls them.
#include <string>
#include <vector>

#include "job/result.hpp"
#include "report/html_util.hpp"

namespace tct::job {

// The decision in one line: "eager, 1 thread: 27.8 s per 3000 calls of KWS [27.1, 28.6]; ...".
std::string answer(const JobResult& r);

std::string brief(const JobResult& r);  // the decision, a line per mode, then the evidence
std::string text(const JobResult& r);   // -v: every run
std::string markdown(const JobResult& r);

// The HTML report's section (the chart of total time per mode against the number of calls,
// break-even points marked; the tables) and its summary card.
std::string html_section(const JobResult& r);
std::vector<report::html::Card> html_cards(const JobResult& r);

// The AOTInductor mode's build (aoti_render.cpp): a line per site (its Dims and their ranges, the
// build's times, its outputs against eager's, or why it cannot), and the same as an HTML table.
std::vector<std::string> aoti_lines(const JobResult& r);
std::string aoti_html(const JobResult& r);
// --shape-fixes (shape_fixes_text.cpp): the fixes' table and code lines; the HTML's part.
std::string shape_fixes_text(const JobResult& r, bool md);
std::string shape_fixes_html(const JobResult& r);

// Shared by the renderings (words.cpp): a total with its interval, "27.8 s [27.1, 28.6]";
// a comparison with the best, "1.20x as long [1.15, 1.25]: slower"; the horizon's words.
std::string total_text(const stats::Interval& ns);
std::string comparison_text(const Comparison& c);
std::string horizon_text(const JobResult& r);  // "3000 calls of KWS"
// The best mode of `d` with its total and the runner-up's, compared: at the horizon's calls or
// as the job ran.
std::string decision_text(const JobResult& r, const Decision& d, bool horizon);

}  // namespace tct::job
