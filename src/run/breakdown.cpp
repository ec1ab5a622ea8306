#include "run/breakdown.hpp"

#include <algorithm>
#include <cmath>

#include "run/analysis.hpp"
#include "stats/summary.hpp"

namespace tct::run {

namespace {

// The site's own frame's cache chain as the last window left it, each entry's guard count from
// the trace, and the position the sampled steady calls hit: their median.
bench::FrameChain chain_of(const SiteRecord& s, const std::vector<int>& hits,
                           const std::vector<FrameCompile>& compiles) {
  bench::FrameChain f;
  f.name = s.code_name;
  f.file = s.code_file;
  f.line = s.code_line;
  f.entry_frame = true;
  for (const auto& id : s.sampled->chain) {
    bench::CacheEntryFacts e;
    e.compile_id = id;
    for (const auto& c : compiles)
      if (c.compile_id == id) e.guard_count = c.guard_count;
    f.entries.push_back(e);
  }
  std::vector<double> known;
  for (int h : hits)
    if (h > 0) known.push_back(h);
  if (!known.empty()) f.hit_position = static_cast<int>(std::lround(stats::median(stats::finite_sorted(known))));
  return f;
}

}  // namespace

std::optional<SampledBreakdown> sampled_breakdown(const SiteRecord& s, const std::vector<double>& steady, Ns wall,
                                                  const std::vector<FrameCompile>& compiles) {
  if (!s.sampled) return std::nullopt;
  const SampledCalls& sampled = *s.sampled;
  SampledBreakdown out;
  out.windows = static_cast<int>(sampled.windows.size());
  out.skipped = sampled.skipped;
  out.error = sampled.error;
  out.sampler = Ns(static_cast<double>(sampled.sampler_ns));
  bench::BreakdownSample sample;
  sample.bare_ns = steady;
  sample.names = sampled.names;
  const std::vector<bool> compiling = compiling_or_after(s);
  std::vector<double> sampled_ns;  // every sampled or settling call's duration, as the job's clock took it
  std::vector<int> hits;           // the hit positions read on steady sampled calls
  for (size_t k = 0; k < sampled.index.size(); ++k) {
    const size_t i = sampled.index[k];
    if (i >= s.durations_ns.size()) continue;
    sampled_ns.push_back(static_cast<double>(s.durations_ns[i]));
    if (compiling[i]) {  // no steady call, by steady_durations' own rule
      ++out.compiling;
      continue;
    }
    if (k < sampled.hit.size() && sampled.hit[k] >= 0) {  // it read the cache chain: its lookup is slower
      ++out.chain_calls;
      hits.push_back(sampled.hit[k]);
      continue;
    }
    sample.profiled_wall_ns.push_back(sampled_ns.back());
    sample.calls.push_back(sampled.calls[k]);
  }
  if (sample.calls.empty() && out.error.empty() && out.skipped == 0) return std::nullopt;
  out.call = bench::breakdown_of(sample);
  if (!sampled.chain.empty()) out.call.frames.push_back(chain_of(s, hits, compiles));
  // The calls right after each window pay for it too (SampledCalls::settling).
  for (size_t i = 0; i < s.durations_ns.size(); ++i)
    if (sampled.settling(i)) {
      ++out.settling;
      sampled_ns.push_back(static_cast<double>(s.durations_ns[i]));
    }
  const double bare = out.call.bare_ns.median;
  double extra = 0;
  if (std::isfinite(bare))
    for (double ns : sampled_ns) extra += std::max(0.0, ns - bare);
  out.cost = out.sampler + Ns(extra);
  out.job_share = wall.count() > 0 ? out.cost / wall : 0.0;
  return out;
}

}  // namespace tct::run
