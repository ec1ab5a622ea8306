#pragma once
// The TraceResult of a TORCH_TRACE path from its ranks' summaries (what RankCollector read):
// every count, group and hint made here once, file names made relative to each rank's root.
#include <string>
#include <vector>

#include "trace/result.hpp"
#include "trace/summary.hpp"

namespace tct::trace {

TraceResult summarize(const std::string& path, const std::vector<RankSummary>& ranks);

// Ranks whose frames, graphs, breaks, recompiles per frame or skipped frames differ from the
// most common pattern, and tlparse's multi-rank checks of what ranks run: collective
// schedules, graph execution order, tensor metadata. Empty with one rank.
std::vector<Divergence> divergence(const std::vector<RankSummary>& ranks);
// tlparse's cache hit/miss sequence per graph, for graphs both ranks compiled: notes, not
// divergence (which rank hit or filled a shared cache changes nothing it runs).
std::vector<Divergence> cache_differences(const std::vector<RankSummary>& ranks);

}  // namespace tct::trace
