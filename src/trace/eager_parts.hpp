#pragma once
// The parts of the user's code that run eagerly on every call (core::EagerPart), from one
// rank's TORCH_TRACE records: the one rule explain, run and trace read them through.
#include <vector>

#include "core/eager_part.hpp"
#include "trace/summary.hpp"

namespace tct::trace {

// Each part once (a break logged on every recompile is one part, its records counted), in the
// order of the compiles that logged them: breaks Dynamo could not resume from (the rest of the
// frame), frames it skipped, torch.compiler.disable'd calls, frames over their recompile limit.
std::vector<core::EagerPart> eager_parts(const RankSummary& rank);

// A logged break's one fix (core::break_fix from its kind, where it broke, its traceback's files
// and torch's own hint lines): what trace, run and an eager part all print for it.
core::Hint fix_of(const TraceBreak& b);

}  // namespace tct::trace
