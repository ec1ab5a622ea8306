#pragma once
// tct startup's runner: for each start mode, fresh processes from launch to their first
// output (each with its own cache folders and TORCH_TRACE log), then the figures and the
// verdict (summary.cpp). Checkpointed after every start.
#include <chrono>
#include <string>
#include <vector>

#include "core/executor.hpp"
#include "core/progress.hpp"
#include "core/target_options.hpp"
#include "startup/result.hpp"

namespace tct::startup {

struct StartupConfig {
  core::TargetOptions target;
  std::vector<Mode> modes;  // run in kAllModes' order; warm and shipped bring cold with them
  int repeats = 3;
  std::string backend = "inductor";
  std::string compile_mode = "default";
  // Set in the warm and shipped starts only: how the machine that deploys differs (a
  // config, a variable), so that the report shows which cache that change misses.
  core::Env deploy_env;
  // Calls after the first output, for the per-call time the break-even divides by.
  int steady_calls = 30;
  double steady_max_ns = 3e8;
  // aoti-cpp: tools/aoti_runner's sources, the cache folder its builds are kept in, and how
  // long one start of it may take.
  std::string runner_source;
  std::string cache_root;
  std::chrono::milliseconds timeout{std::chrono::minutes(15)};
  // Only make sure tct-aoti is built for this interpreter's torch (set-up scripts), time nothing.
  bool build_runner_only = false;
};

// The modes to run: the ones asked for, cold added when warm or shipped needs its caches.
std::vector<Mode> planned_modes(std::vector<Mode> asked);

// Each mode's starts -> a StartupResult; the result so far goes to on_partial after each start.
StartupResult run_startup(const core::Progress& progress, core::Executor& exec, const StartupConfig& cfg,
                          const core::OnPartial<StartupResult>& on_partial);

}  // namespace tct::startup
