#pragma once
// `tct explain` as a reusable step: target.load, explain.run (torch._dynamo.explain plus a
// logged compiled run) and the audit built from them. Used by `tct explain` and `tct audit`.
#include <optional>
#include <string>

#include "explain/result.hpp"
#include "core/executor.hpp"
#include "core/host.hpp"
#include "core/target_options.hpp"

namespace tct::explain {

struct ExplainConfig {
  core::TargetOptions target;
  bool logged = true;                   // the compiled run with logging (the source of the verdict)
  int calls = 2;                        // calls of that run (recompiles show from the second)
  std::optional<int> max_graph_breaks;  // the gate
  std::string trace_dir;                // --trace DIR: keep the run's TORCH_TRACE there ("" = none)
  bool warn = true;                     // add the section's warnings (skip, disagreement, gate) to the document
};

// The audit as a value. The host gets it as the document's "explain" section (the target
// alone, checkpointed, once it is loaded; then the whole result) and the section's warnings
// (cfg.warn). exit_code(result) says whether the gate failed.
ExplainResult run_explain(core::Host& host, core::Session& agent, const ExplainConfig& cfg);

}  // namespace tct::explain
