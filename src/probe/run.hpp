#pragma once
// The probe as a reusable step: facts from the agent (when torch 2.x is there), optional
// smoke compiles, the verdict. Used by `tct probe` and `tct audit`.
#include <string>

#include "probe/result.hpp"
#include "errors.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"

namespace tct::probe {

struct ProbeConfig {
  bool smoke = false;
  std::string smoke_backend = "inductor";
  bool use_cache = true;    // read and write the facts cache (probe/cache.hpp)
  std::string python_path;  // the interpreter the agent runs in, as the CLI recorded it (the cache's key)
};

// The probe as a value, verdict included. on_partial (if set) gets it before torch is
// imported (which may fail), after the facts and after each smoke compile.
ProbeResult run_probe(const core::Progress& progress, core::Session& agent, const ProbeConfig& cfg,
                      const core::OnPartial<ProbeResult>& on_partial = {});

// The exit-1 error of a "not_usable" verdict: its first blocker and that blocker's fix.
Error not_usable_error(const ProbeResult& result);

}  // namespace tct::probe
