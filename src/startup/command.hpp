#pragma once
// tct startup -- CMD: the start-up of a user's command, unchanged, with no FILE:FACTORY. Its
// fresh processes are tct job's (job::run_modes: the command through tct run's bootstrap, the
// modes interleaved round by round, warm and shipped starting from one unmeasured compiled
// run's caches and artifacts, a failed or timed-out run recorded); each run becomes a Start
// timed from launch to the end of the first call of the command's first compiled call site,
// and the figures are summary.cpp's, as for FILE:FACTORY.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "job/result.hpp"
#include "startup/result.hpp"
#include "startup/trace_facts.hpp"

namespace tct::startup {

struct CommandConfig {
  std::vector<std::string> command;  // the command's words (a .py runs in the chosen Python)
  std::optional<std::string> python;
  std::vector<Mode> modes;  // eager, cold, warm, shipped; none: all four
  int repeats = 3;
  std::chrono::milliseconds timeout{0};  // per start; 0: none
};

// The modes a command can start in: AOTInductor needs a model to export, which only a
// FILE:FACTORY names. Throws a usage error naming them when asked for.
std::vector<Mode> command_modes(const std::vector<Mode>& asked);

// job's runs -> a StartupResult, summarized and decided. `traces`: each run's TORCH_TRACE facts
// by its folder (a run without an entry has none read). Pure.
StartupResult from_job(const job::JobResult& job, const std::map<std::string, TraceFacts>& traces);

// Throws what job::run_modes throws (a command that cannot be started: usage).
StartupResult run_command_startup(const CommandConfig& cfg, const core::Progress& progress,
                                  const core::OnPartial<StartupResult>& on_partial);

}  // namespace tct::startup
