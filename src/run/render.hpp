#pragma once
// The renderings of tct run's result (run/text.cpp, run/html.cpp): pure functions of the typed
// RunResult (a saved document reads back through run::from_json first).
#include <string>

#include "run/result.hpp"

namespace tct::run {

// `verbose` every detail (-v), `markdown` for a .md file.
std::string text(const RunResult& r, bool markdown, bool verbose);
std::string html_section(const RunResult& r);
// The job in one line: its sites, its silent fallbacks, every verdict counted.
std::string answer(const RunResult& r);
// "rank 1 (pid 4242) ended first: it was killed by SIGKILL while compiling (forward, compile 0/0);
// the launcher then stopped rank(s) 0": the report's first line and tct's error line.
std::string first_end_text(const FirstEnd& e);
// "graph breaks 3 -> 0, per call 412 us -> 316 us (steady median), 1.30x [1.21, 1.41] faster with
// the fix (...)": what --try-fixes measured, said beside the fix it measured.
std::string trial_text(const FixTrial& t);
// "96 call(s) in 3 window(s) ran under torch's profiler; they and the 48 settling after the
// windows are left out of the per-call figures; sampling cost the job 4.1 ms (0.3% of its
// time)": beside the breakdown it made.
std::string sampling_text(const SampledBreakdown& d);

}  // namespace tct::run
