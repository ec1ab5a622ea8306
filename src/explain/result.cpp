#include "explain/result.hpp"

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
               bool logged_only) {
  // A skipped frame outranks everything: nothing of it compiles, and what breaks after the
  // skip point is not visible yet. One graph needs both views to agree there is no break.
  if (skipped_frames > 0) return Verdict::FrameSkipped;
  bool one_graph = graph_breaks == 0 && explain_breaks == 0 && explain_listed == 0 && !logged_only;
  return one_graph ? Verdict::Capturable : Verdict::GraphBreaks;
}

int exit_code(const ExplainResult& r) { return r.gate && !r.gate->passed ? 1 : 0; }

}  // namespace tct::explain
