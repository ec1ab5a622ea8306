#include "explain/warnings.hpp"

#include <string>

#include "core/hint_catalog.hpp"

namespace tct::explain {

std::vector<report::Warning> explain_warnings(const ExplainResult& result, const reply::Run& facts) {
  namespace kind = report::kind;
  std::vector<report::Warning> out;
  if (facts.logged_unsupported) out.push_back({kind::LoggedRunUnsupported{*facts.logged_unsupported}, ""});
  const auto& dis = result.disagreements;
  if (!dis.empty()) out.push_back({kind::ExplainViewsDisagree{dis.size(), dis[0].message}, ""});
  const auto& skipped = result.skipped_frames;
  if (!skipped.empty()) {
    kind::SkippedFrames w;
    for (const auto& f : skipped) w.titles.push_back(f.title);
    w.first_skip_reason = skipped[0].skip_reason;
    w.first_break_kind = core::to_string(skipped[0].kind);
    w.first_break_line = skipped[0].break_line;
    out.push_back({std::move(w), ""});
  }
  if (result.gate && !result.gate->passed)
    out.push_back(
        {kind::GraphBreakGateFailed{result.graph_break_count, result.gate->max_graph_breaks, skipped.size()}, ""});
  return out;
}

}  // namespace tct::explain
