#pragma once
// The TORCH_TRACE folder of a run, read as `tct trace DIR` reads it: one summary per rank.
#include <string>
#include <vector>

#include <optional>

#include "trace/result.hpp"
#include "trace/summary.hpp"

namespace tct::run {

struct TraceRead {
  std::vector<trace::RankSummary> ranks;
  std::optional<trace::TraceResult> summary;  // as `tct trace` reads it; none when the folder holds no log
};

// An empty or missing folder (torch never compiled anything) is no trace, not an error.
TraceRead read_trace_dir(const std::string& dir);

}  // namespace tct::run
