#pragma once
// The renderings of an ExplainResult (and of a DiffResult, `tct diff`): pure functions of the
// value, which print its counts and verdict and never decide them. The registry of renderers (cli/render.cpp) calls
// them with the result read from the document (explain::from_json), so a live run and a
// saved document render alike.
#include <string>
#include <vector>

#include "explain/diff.hpp"
#include "explain/result.hpp"
#include "report/html_util.hpp"

namespace tct::explain {

// The headline: "3 graph breaks in 4 graphs; not capturable as one graph", or the skipped
// frames first.
std::string summary(const ExplainResult& r);
// The answer a report leads with: "3 in 4 graph(s)", ", 1 frame(s) skipped (run eagerly)" after it.
std::string answer(const ExplainResult& r);
// The terminal report (the same with and without -v: it is short already).
std::string text(const ExplainResult& r);
// For a pull-request comment.
std::string markdown(const ExplainResult& r);
// The HTML report's card and section.
std::vector<report::html::Card> html_cards(const ExplainResult& r);
std::string html_section(const ExplainResult& r);

// `tct diff`: the same four.
std::string answer(const DiffResult& d);  // "3 before, 1 after" (graph breaks)
std::string text(const DiffResult& d);
std::string markdown(const DiffResult& d);
std::string html_section(const DiffResult& d);

}  // namespace tct::explain
