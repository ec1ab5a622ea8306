#pragma once
// `tct job` as a function: the user's command, unchanged, in fresh processes, once per mode
// and round, the modes' order rotated each round so that the machine's drift reaches every
// mode alike. Each run goes through tct run's bootstrap (python/tct_run_bootstrap: call
// times and ends, cache artifacts loaded or saved) with its own cache folders, TORCH_TRACE and
// stdout file; a run that fails or times out is recorded and the others go on. The figures and
// the decision are decide.cpp's. The runner prints, writes reports and exits nowhere.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "job/result.hpp"

namespace tct::job {

struct JobOptions {
  std::vector<std::string> job;  // the job's words (cli/run_args.hpp splits them off tct's)
  std::string module;            // -m MODULE
  std::optional<std::string> python;
  std::string dir;  // where every run's folder stays ("" = a new folder under $TMPDIR)
  std::vector<How> hows{std::begin(kDefaultHows), std::end(kDefaultHows)};
  std::vector<std::optional<int>> threads{std::nullopt, 1};  // none: torch's default
  int rounds = 3;
  std::optional<double> calls;           // the horizon, in calls of the job's most-called site
  std::chrono::milliseconds timeout{0};  // per run; 0: none
  std::vector<ShapeFix> shape_fixes;     // --shape-fixes: each a mode of its own (job/shape_fixes.hpp)
};

// The modes: every how at every thread count, in the order asked; then the shape fixes'.
std::vector<ModeSpec> planned_modes(const JobOptions& o);

// Throws tct::Error: usage (no command, no such script, --dir cannot be made, a command that
// cannot be started), internal (the bootstrap is missing). A run that fails is no throw. A
// Ctrl-C ends the schedule: the result holds the runs so far.
JobResult run_modes(const JobOptions& options, const core::Progress& progress,
                    const core::OnPartial<JobResult>& partial);

}  // namespace tct::job
