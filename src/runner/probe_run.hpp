#pragma once
// The probe as a reusable step: facts from the agent (when torch 2.x is there), optional
// smoke compiles, the verdict. Used by `tct probe` and `tct audit`.
#include <string>

#include "analysis/probe_verdict.hpp"
#include "runner/executor.hpp"
#include "runner/host.hpp"

namespace tct::runner {

struct ProbeConfig {
  bool smoke = false;
  std::string smoke_backend = "inductor";
};

// Fills the document's "probe" section (checkpointing after each phase) and returns the verdict.
analysis::ProbeVerdict run_probe(Host& host, Session& agent, const ProbeConfig& cfg);

}  // namespace tct::runner
