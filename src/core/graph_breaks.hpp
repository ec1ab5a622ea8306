#pragma once
// A graph break's text as torch writes it, read the same way by `tct explain`
// (explain/audit.cpp), `tct trace` (trace/summary.cpp) and bench (phases.cpp, analysis.cpp):
// the headline of a reason, whether it skipped its frame, and the cause and skip reason of a
// break dynamo could not resume from.
#include <string>

namespace tct::core {

// torch's text when a break could not be resumed: "Failed to handle graph break gracefully.
// Skipping the function and falling back to eager. Graph break encountered:\n<the break>
// \n*** While handling this graph break, another graph break occurred: ***\n<why it could
// not resume, e.g. "graph break in loop">". cause: the break itself (what to fix);
// skip_reason: why the frame was skipped (empty when torch did not say).
// Whether torch's text says Dynamo ran some of the frame eagerly, so that torch does not count
// the record as a graph break: the one rule for every reason tct reads (the trace's break
// records and fail reasons, the agent's raw counters["unimplemented"] keys). Markers from
// torch/_dynamo/symbolic_convert.py and exc.py: "Skipping the function and falling back to
// eager" (2.6+), "Skipping frame because ..." and "Skipping the frame" (older), and the
// rest-of-the-function record below (skips_rest_of_frame).
bool skips_frame(const std::string& reason);

// torch's record of a break it cannot resume from inside a frame it keeps compiling
// (symbolic_convert.py, InstructionTranslatorBase.step, in 2.13.0 and 2.14.1): "Encountered
// graph break that we cannot resume from. Compiling up to the previous resumable state, then
// skipping the rest of the function. Graph break encountered:\n\n<the break>". The frame
// compiles up to its last checkpoint and runs the rest eagerly on every call; torch logs the
// record but adds it to no counter (counters["graph_break"] counts the breaks it resumed after).
bool skips_rest_of_frame(const std::string& reason);

struct SkipSplit {
  bool skipped = false;     // skips_frame: not a graph break as torch counts them
  bool rest_only = false;   // skips_rest_of_frame: the frame compiles up to the break
  std::string cause;        // the break itself (what to fix)
  std::string skip_reason;  // why code runs eagerly, in torch's words ("" when it did not say)
};
SkipSplit split_skip(const std::string& reason);

// The short headline of a reason (registry gb_type, or its first line).
std::string reason_headline(const std::string& reason);

}  // namespace tct::core
