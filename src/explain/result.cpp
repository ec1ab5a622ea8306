#include "explain/result.hpp"

#include <algorithm>

#include "stats/summary.hpp"

namespace tct::explain {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::Capturable: return "capturable";
    case Verdict::GraphBreaks: return "graph_breaks";
    case Verdict::FrameSkipped: return "frame_skipped";
  }
  return "graph_breaks";
}

std::optional<Verdict> parse_verdict(std::string_view s) {
  for (Verdict v : {Verdict::Capturable, Verdict::GraphBreaks, Verdict::FrameSkipped})
    if (s == to_string(v)) return v;
  return std::nullopt;
}

Verdict decide(std::size_t skipped_frames, int graph_breaks, int explain_breaks, std::size_t explain_listed,
               bool logged_only, bool runs_eagerly) {
  // A skipped frame outranks everything: nothing of it compiles, and what breaks after the
  // skip point is not visible yet. One graph needs both views to agree there is no break.
  if (skipped_frames > 0) return Verdict::FrameSkipped;
  bool one_graph = graph_breaks == 0 && explain_breaks == 0 && explain_listed == 0 && !logged_only && !runs_eagerly;
  return one_graph ? Verdict::Capturable : Verdict::GraphBreaks;
}

int ExplainResult::rest_of_frame_parts() const {
  int n = 0;
  for (const auto& p : eager_parts) n += p.cause == core::EagerCause::RestOfFrame;
  return n;
}

std::optional<GraphShare> graph_share_of(const reply::SharePairs& pairs) {
  const std::vector<double>&eager = pairs.eager_ns, &in_graph = pairs.in_graph_ns, &compiled = pairs.compiled_ns;
  const std::size_t n = std::min(eager.size(), in_graph.size());
  // Three pairs at least: one pair's ratio is one preemption away from any value.
  if (n < 3) return std::nullopt;
  GraphShare s;
  s.pairs = static_cast<int>(n);
  s.eager_fastest_ns = *std::min_element(eager.begin(), eager.begin() + static_cast<long>(n));
  s.in_graph_fastest_ns = *std::min_element(in_graph.begin(), in_graph.begin() + static_cast<long>(n));
  if (!(s.eager_fastest_ns > 0)) return std::nullopt;
  s.covered = std::clamp(s.in_graph_fastest_ns / s.eager_fastest_ns, 0.0, 1.0);
  // The overhead as bench would see it: bench's speedup is a ratio of typical calls (block means
  // of interleaved pairs), so the overhead is the typical pair's, the median of compiled / eager,
  // less 1. The difference of the two fastest calls is not it: it came out at 4.8% of a call
  // where bench measured about 10% (the GRU fixture at 40 steps, bench/eager_part_expect.py).
  if (compiled.size() >= n) {
    std::vector<double> ratios;
    for (std::size_t i = 0; i < n; ++i)
      if (eager[i] > 0) ratios.push_back(compiled[i] / eager[i]);
    if (!ratios.empty()) s.overhead = std::max(0.0, stats::median(ratios) - 1.0);
  }
  return s;
}

int exit_code(const ExplainResult& r) { return r.gate && !r.gate->passed ? 1 : 0; }

}  // namespace tct::explain
