#pragma once
// `tct explain` as a reusable step: target.load, explain.run (torch._dynamo.explain plus a
// logged compiled run) and the audit built from them. Used by `tct explain` and `tct audit`.
#include <optional>
#include <string>

#include "explain/result.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "core/target_options.hpp"

namespace tct::explain {

struct ExplainConfig {
  core::TargetOptions target;
  bool logged = true;                   // the compiled run with logging (the source of the verdict)
  int calls = 2;                        // calls of that run (recompiles show from the second)
  std::optional<int> max_graph_breaks;  // the gate
  std::string trace_dir;                // --trace DIR: keep the run's TORCH_TRACE there ("" = none)
  bool warn = true;                     // list the result's warnings (skip, disagreement, gate)
};

// The audit as a value, its warnings in result.warnings (cfg.warn). on_partial (if set) gets
// the target alone once it is loaded: what a failure of explain.run leaves.
// exit_code(result) says whether the gate failed.
ExplainResult run_explain(const core::Progress& progress, core::Session& agent, const ExplainConfig& cfg,
                          const core::OnPartial<ExplainResult>& on_partial = {});

}  // namespace tct::explain
