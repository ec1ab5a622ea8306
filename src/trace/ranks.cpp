#include "trace/ranks.hpp"

#include <map>

namespace tct::trace {

RankLogs read_rank_logs(const std::vector<TraceFile>& files, const std::function<void(const TraceFile&)>& before_each,
                        bool check_every_md5) {
  RankLogs out;
  std::map<int, size_t> by_rank;
  for (const auto& f : files) {
    if (before_each) before_each(f);
    size_t index = out.ranks.size();
    if (f.rank) {
      auto [it, fresh] = by_rank.try_emplace(*f.rank, out.ranks.size());
      index = it->second;
      if (fresh) out.ranks.emplace_back();
    } else {
      out.ranks.emplace_back();
    }
    RankSummary& r = out.ranks[index];
    if (f.rank) r.rank = f.rank;
    r.files.push_back(f.path);
    // Each log of a rank is its own process: its compile ids are its own.
    RankCollector collector(r, static_cast<int>(r.files.size()) - 1);
    Reader reader(collector, 1 << 20, check_every_md5);
    try {
      read_file(f.path, reader);
    } catch (const Error& e) {
      if (!out.unreadable) out.unreadable = e;
    }
    ReadStats stats = reader.stats();
    // A rank may have several logs: each spot names its own.
    for (auto* spots : {&stats.damaged_at, &stats.edited_at})
      for (Spot& s : *spots) s.log = f.path;
    r.stats += stats;
    out.logs.emplace_back(f.path, std::move(stats));
  }
  return out;
}

}  // namespace tct::trace
