#pragma once
// The renderings of a TraceResult: pure functions of the value, which print its counts and
// divergence and never decide them. The registry of renderers (cli/render.cpp) calls them with
// the result read from the document (trace::from_json), so a live run and a saved document
// render alike.
#include <string>

#include "trace/result.hpp"

namespace tct::trace {

std::string text(const TraceResult& t);      // the terminal report with -v: torch's own guard texts
std::string brief(const TraceResult& t);     // the terminal report: one line per frame and cause
std::string markdown(const TraceResult& t);  // for a pull-request comment
std::string html_section(const TraceResult& t);

}  // namespace tct::trace
