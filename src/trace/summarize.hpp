#pragma once
// The TraceResult of a TORCH_TRACE path from its ranks' summaries (what RankCollector read):
// every count, group and hint made here once, file names made relative to each rank's root.
#include <string>
#include <vector>

#include "trace/result.hpp"
#include "trace/summary.hpp"

namespace tct::trace {

TraceResult summarize(const std::string& path, const std::vector<RankSummary>& ranks);

// Ranks whose compile ids, graphs, breaks, recompiles or skipped frames differ from the
// most common pattern, and tlparse's four multi-rank checks: collective schedules, graph
// execution order, cache hit/miss sequences, tensor metadata. Empty with one rank.
std::vector<Divergence> divergence(const std::vector<RankSummary>& ranks);

}  // namespace tct::trace
