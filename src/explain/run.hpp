#pragma once
// `tct explain` as a reusable step: target.load, explain.run (torch._dynamo.explain plus a
// logged compiled run) and the audit built from them. Used by `tct explain` and `tct audit`.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/executor.hpp"
#include "runner/host.hpp"
#include "runner/target_options.hpp"

namespace tct::runner {

using json = nlohmann::json;

struct ExplainConfig {
  TargetOptions target;
  bool logged = true;                   // the compiled run with logging (the source of the verdict)
  int calls = 2;                        // calls of that run (recompiles show from the second)
  std::optional<int> max_graph_breaks;  // the gate
  std::string trace_dir;                // --trace DIR: keep the run's TORCH_TRACE there ("" = none)
  bool warn = true;                     // add the section's warnings (skip, disagreement, gate) to the document
};

// Fills the document's "explain" section (checkpointing after the load) and its warnings;
// returns the section.
json run_explain(Host& host, Session& agent, const ExplainConfig& cfg);

// 1 when the gate failed (more breaks than the limit, or a frame dynamo skipped), else 0.
int explain_exit_code(const json& section);

}  // namespace tct::runner
