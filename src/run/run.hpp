#pragma once
// `tct run` as a function: the job resolved (a script in the chosen Python, -m MODULE), run
// unchanged with TORCH_TRACE pointed at a fresh folder and tct's bootstrap first on
// PYTHONPATH, then (--compare-eager) again with every call site forced eager, each run's
// records and trace read back (--try-fixes: again with each fix tct can apply) -> a RunResult
// (analysis.cpp makes every figure and verdict).
// The runner prints, writes reports and exits nowhere: progress and the result so far
// leave through RunHooks; cli/cmd_run.cpp turns the result into exit codes.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/result.hpp"

namespace tct::run {

struct RunOptions {
  std::vector<std::string> job;       // the job's words (cli/run_args.hpp splits them off tct's)
  std::string module;                 // -m MODULE: the job is `python -m MODULE` + job
  std::optional<std::string> python;  // --python: the interpreter for a .py job and -m (none: the usual choice)
  std::string dir;                    // --dir: where logs and records stay ("" = a new folder under $TMPDIR)
  bool compare_eager = false;
  int repeat = 1;  // with compare_eager: runs each way
  // Run the job once more with each fix tct can apply that its breaks call for (the DDP wrap
  // order: run/analysis.hpp's fixes_to_try), and measure it against the job as written.
  bool try_fixes = false;
  std::optional<int> threads;  // --threads N in the job and its eager runs
  bool watch = false;          // report the result so far every 10 s while the compiled run runs
  // Sample windows of calls under torch's profiler in the (first) compiled run: the breakdown.
  bool breakdown = true;
};

struct RunHooks {
  std::function<void(const std::string&)> progress;  // one line per run after the first
  std::function<void()> end_progress;
  // The result so far while the job runs (exit_text "still running"), when options.watch.
  std::function<void(const RunResult&)> partial;
};

// Throws tct::Error: usage (no command, no such script, --dir cannot be made, a command that
// cannot be started), internal (the bootstrap is missing). A job that fails is no throw: its
// status is in the result.
RunResult run_job(const RunOptions& options, const RunHooks& hooks);

}  // namespace tct::run
