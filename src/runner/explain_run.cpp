#include "runner/explain_run.hpp"

#include <fmt/format.h>

#include "analysis/graph_breaks.hpp"
#include "report/warnings.hpp"

namespace tct::runner {

json run_explain(Host& host, Session& agent, const ExplainConfig& cfg) {
  host.progress(fmt::format("loading {}", cfg.target.target));
  json description = agent.call("target.load", to_load_params(cfg.target));
  host.document()["explain"] = {{"target", description}};
  host.checkpoint();

  host.progress("running torch._dynamo.explain");
  json params = {{"logged", cfg.logged}, {"logged_calls", cfg.calls}};
  if (!cfg.trace_dir.empty()) params["trace_dir"] = cfg.trace_dir;
  json facts = agent.call("explain.run", params);
  json section = analysis::build_explain_section(facts, description, cfg.max_graph_breaks);
  host.document()["explain"] = section;

  const json& dis = section["disagreements"];
  if (!dis.empty())
    host.warn(report::make_warning(
                                     report::WarningCode::ExplainViewsDisagree,
                                     fmt::format("explain and the logged compiled run disagree in {} way(s): {}",
                                                 dis.size(), dis[0].value("message", "")),
                                     "the logged run is what torch.compile really does; see 'disagreements'"));
  const json& skipped = section["skipped_frames"];
  if (!skipped.empty())
    host.warn(report::make_warning(
                                     report::WarningCode::GraphBreaks,
                                     fmt::format("torch.compile skipped {} frame(s) and ran them eagerly (first: {} "
                                                 "at {}:{}, {})",
                                                 skipped.size(), skipped[0].value("function", "?"),
                                                 skipped[0].value("file", "?"), skipped[0].value("line", 0),
                                                 skipped[0].value("skip_reason", "")),
                                     "fix the break that caused it (see SKIPPED FRAME); breaks after it show only then"));
  const json& gate = section["gate"];
  if (gate.is_object() && !gate.value("passed", true))
    host.warn(report::make_warning(
                                     report::WarningCode::GraphBreaks,
                                     fmt::format("{} graph break(s) and {} skipped frame(s) in the compiled run; "
                                                 "--max-graph-breaks {} allows no skipped frame and at most {} break(s)",
                                                 gate.value("graph_break_count", 0), gate.value("frames_skipped", 0),
                                                 gate.value("max_graph_breaks", 0), gate.value("max_graph_breaks", 0)),
                                     "fix the breaks listed above, or raise the limit"));
  return section;
}

int explain_exit_code(const json& section) {
  const json& gate = section.value("gate", json());
  return gate.is_object() && !gate.value("passed", true) ? 1 : 0;
}

}  // namespace tct::runner
