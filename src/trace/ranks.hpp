#pragma once
// The logs of a TORCH_TRACE path read into one summary per rank, for every command that
// reads them (`tct trace`, `tct run`): the logs of one rank (a job restarted into the same
// folder) go into one summary, each log's compile ids its own.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "trace/summary.hpp"
#include "errors.hpp"
#include "trace/source.hpp"

namespace tct::trace {

struct RankLogs {
  std::vector<RankSummary> ranks;
  // Per log, in the order read: what the reader saw (a log of no record is not a trace).
  std::vector<std::pair<std::string, ReadStats>> logs;
  // The first log that could not be read on (unopenable, or a gzip stream cut off): what
  // was read of it before stays in its rank's summary.
  std::optional<Error> unreadable;
};

// `before_each` is told each log before it is read (progress). check_every_md5: hash every
// payload (--strict), not only those the summary reads (Reader).
RankLogs read_rank_logs(const std::vector<TraceFile>& files,
                        const std::function<void(const TraceFile&)>& before_each = {}, bool check_every_md5 = false);

}  // namespace tct::trace
