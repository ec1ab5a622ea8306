#pragma once
// The probe as a reusable step: facts from the agent (when torch 2.x is there), optional
// smoke compiles, the verdict. Used by `tct probe` and `tct audit`.
#include <string>

#include "probe/verdict.hpp"
#include "errors.hpp"
#include "core/executor.hpp"
#include "core/host.hpp"

namespace tct::runner {

struct ProbeConfig {
  bool smoke = false;
  std::string smoke_backend = "inductor";
  bool use_cache = true;  // read and write the facts cache (probe/cache.hpp)
};

// Fills the document's "probe" section (checkpointing after each phase) and returns the verdict.
analysis::ProbeVerdict run_probe(Host& host, Session& agent, const ProbeConfig& cfg);

// The exit-1 error of a "not_usable" verdict: its first blocker and that blocker's fix.
Error not_usable_error(const analysis::ProbeVerdict& verdict);

}  // namespace tct::runner
