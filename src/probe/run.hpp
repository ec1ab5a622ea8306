#pragma once
// The probe as a reusable step: facts from the agent (when torch 2.x is there), optional
// smoke compiles, the verdict. Used by `tct probe` and `tct audit`.
#include <string>

#include "probe/result.hpp"
#include "errors.hpp"
#include "core/executor.hpp"
#include "core/host.hpp"

namespace tct::probe {

struct ProbeConfig {
  bool smoke = false;
  std::string smoke_backend = "inductor";
  bool use_cache = true;  // read and write the facts cache (probe/cache.hpp)
};

// The probe as a value, verdict included. The host gets it as the document's "probe"
// section: checkpointed after the facts and after each smoke compile, then whole.
ProbeResult run_probe(core::Host& host, core::Session& agent, const ProbeConfig& cfg);

// The exit-1 error of a "not_usable" verdict: its first blocker and that blocker's fix.
Error not_usable_error(const ProbeResult& result);

}  // namespace tct::probe
