#include "run/trace_dir.hpp"

#include <filesystem>

#include "trace/ranks.hpp"
#include "trace/summarize.hpp"
#include "errors.hpp"
#include "trace/source.hpp"

namespace tct::run {

TraceRead read_trace_dir(const std::string& dir) {
  TraceRead out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec) || std::filesystem::is_empty(dir, ec)) return out;
  std::vector<trace::TraceFile> files;
  try {
    files = trace::list_trace_files(dir);
  } catch (const Error&) { return out; }
  // As `tct trace` reads them; a log cut mid-gzip (a job killed while writing) keeps what
  // was read of it, and the job's report goes on.
  out.ranks = trace::read_rank_logs(files).ranks;
  out.summary = trace::summarize(dir, out.ranks);
  return out;
}

}  // namespace tct::run
