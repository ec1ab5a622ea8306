#include "run/trace_dir.hpp"

#include <filesystem>
#include <map>

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
  } catch (const Error&) {
    return out;
  }
  // As cmd_trace: the logs of one rank read into one summary, each log's compile ids its own.
  std::map<int, size_t> by_rank;
  for (const auto& f : files) {
    size_t index = out.ranks.size();
    if (f.rank) {
      auto [it, fresh] = by_rank.try_emplace(*f.rank, out.ranks.size());
      index = it->second;
      if (fresh) out.ranks.emplace_back();
    } else {
      out.ranks.emplace_back();
    }
    analysis::RankSummary& r = out.ranks[index];
    if (f.rank) r.rank = f.rank;
    r.files.push_back(f.path);
    analysis::RankCollector collector(r, static_cast<int>(r.files.size()) - 1);
    trace::Reader reader(collector);
    try {
      trace::read_file(f.path, reader);
    } catch (const Error&) {
      continue;  // a log cut mid-gzip: what was read stays
    }
    r.stats += reader.stats();
  }
  out.section = analysis::trace_section(dir, out.ranks);
  return out;
}

}  // namespace tct::run
