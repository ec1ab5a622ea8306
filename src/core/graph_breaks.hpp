#pragma once
// A graph break's text as torch writes it, read the same way by `tct explain`
// (explain/audit.cpp), `tct trace` (trace/summary.cpp) and bench's warnings: the headline of
// a reason, and the cause and skip reason of a break dynamo could not resume from.
#include <string>

namespace tct::core {

// torch's text when a break could not be resumed: "Failed to handle graph break gracefully.
// Skipping the function and falling back to eager. Graph break encountered:\n<the break>
// \n*** While handling this graph break, another graph break occurred: ***\n<why it could
// not resume, e.g. "graph break in loop">". cause: the break itself (what to fix);
// skip_reason: why the frame was skipped (empty when torch did not say).
struct SkipSplit {
  bool skipped = false;
  std::string cause;
  std::string skip_reason;
};
SkipSplit split_skip(const std::string& reason);

// The short headline of a reason (registry gb_type, or its first line).
std::string reason_headline(const std::string& reason);

}  // namespace tct::core
