// tct job [OPTIONS] -- COMMAND [ARGS...]: the user's real job, unchanged, run each way it could
// be deployed (eager, torch.compile with empty, warm or shipped caches, at the thread counts
// asked for), in fresh processes, interleaved over rounds, and which way is best for the job as
// it ran and at a horizon of calls. The schedule is job::run_modes (src/job/run.hpp); this file
// is flags and exit codes.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "errors.hpp"
#include "job/run.hpp"

namespace tct::cli {
namespace {

class JobCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct job --calls 3000 -- python serve.py    how to run this job: eager, compiled, warm or shipped caches, "
           "threads\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand(
        "job",
        "Run a real job (a service, a training script) unchanged in each way it could be deployed (eager, "
        "torch.compile with empty, warm or shipped caches, thread counts) and say which is best for the job's "
        "whole life: start-up, compile and every call");
    cmd->add_option("-m", options_.module, "Run a module as `python -m MODULE ARGS...`")->type_name("MODULE");
    cmd->add_option(
           "--modes", modes_,
           "Modes, comma-separated: eager (every call site bypassed), cold (empty caches), warm (the caches "
           "of an earlier run), shipped (empty caches after load_cache_artifacts of an earlier run's save), aoti "
           "(each site's AOTInductor package, exported with the sizes an earlier run used; not run unless "
           "named)")
        ->delimiter(',')
        ->check(CLI::IsMember({"eager", "cold", "warm", "shipped", "aoti"}))
        ->capture_default_str();
    cmd->add_option("--shape-fixes", shape_fixes_,
                    "Shape fixes to measure, comma-separated, each a mode of its own (compiled, empty caches, "
                    "the fix applied to every compiled site): static (dynamic=False), dynamic (dynamic=True), "
                    "mark_dynamic and mark_unbacked (the dims that varied in an earlier run, marked before each "
                    "call), spec (the installed torch's shape spec argument of torch.compile), or all; each is "
                    "compared with cold and given with the code to write for the installed torch. The shapes are "
                    "read in the run that fills the caches; a fix that needs a dim that varied, or an API this "
                    "torch lacks, does not run")
        ->delimiter(',')
        ->check(CLI::IsMember({"static", "dynamic", "mark_dynamic", "mark_unbacked", "spec", "all"}));
    cmd->add_option("--threads", threads_,
                    "torch's intra-op thread counts to run each mode at, comma-separated; `default` leaves torch's "
                    "own (every mode runs at each)")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--rounds", options_.rounds,
                    "Rounds: each runs every mode once, in an order rotated from the round before (the interval "
                    "is across rounds)")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cmd->add_option("--calls", calls_,
                    "The horizon: how many calls of the job's busiest call site a real run makes (a replica's "
                    "requests before it is recycled); totals beyond the job's own calls are extrapolated")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--timeout", timeout_s_, "End a run after this many seconds (it is recorded as timed out)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--dir", options_.dir,
                    "Keep every run's records, TORCH_TRACE, caches, stdout and stderr here (default: a new "
                    "folder under $TMPDIR, kept; its path is in the report)");
    cmd->add_option("--python", options_.python,
                    "Python for `tct job script.py` and `-m` (default: $TCT_PYTHON, the active venv, the venv "
                    "tct is installed in, python3 on PATH)");
    add_output_options(*cmd, common);
    cmd->footer(R"(Usage: tct job [OPTIONS] -- COMMAND [ARGS...]
       tct job [OPTIONS] SCRIPT.py [ARGS...]
tct's options come first; everything from the command on is the job's, flags included.
Examples:
  tct job --calls 3000 -- python serve.py       which way to run a service recycled after 3000 requests
  tct job --modes eager,warm --threads default,1,4 --rounds 5 -- python train.py --steps 200
  tct job --modes eager,cold --threads default --shape-fixes all -- python serve.py
Every run is a fresh process of the unchanged command, through tct run's bootstrap (the same
call-site records), with its own cache folders and TORCH_TRACE; its stdout and stderr go to
files in its folder. Warm and shipped runs start from one earlier compiled run (not timed in
the totals). The job's stdout is compared with eager's, line by line (numbers within 1e-3
relative; lines that differ between eager's own runs are left out): a mode whose output
differs is flagged and never recommended. A run that fails or times out is recorded; the
others go on. --modes ...,aoti exports each call site with a torch.export.Dim per size the
earlier run varied (its min and max), packages it with AOTInductor in one more unmeasured run
that checks the package's outputs against eager's at the sizes it sees, and runs the package in
the aoti runs; a site that cannot be exported or packaged keeps the mode from running, and the
report says why (torch's error).
Exit codes: 0 ok; 2 bad usage or a command that cannot be started; 3 every run failed; 4
internal error; 130 interrupted (the report holds the runs so far).)");
    return cmd;
  }

  bool takes_job() const override { return true; }

  int run(RunContext& ctx) override {
    options_.job = trailing;
    options_.hows.clear();
    for (const auto& m : modes_) options_.hows.push_back(*job::parse_how(m));
    options_.shape_fixes.clear();
    for (const auto& f : shape_fixes_) {
      if (f == "all") {
        options_.shape_fixes.assign(std::begin(job::kAllShapeFixes), std::end(job::kAllShapeFixes));
        break;
      }
      if (const auto fix = job::parse_shape_fix(f);
          fix &&
          std::find(options_.shape_fixes.begin(), options_.shape_fixes.end(), *fix) == options_.shape_fixes.end())
        options_.shape_fixes.push_back(*fix);
    }
    options_.threads.clear();
    for (const auto& t : threads_) {
      if (t == "default") {
        options_.threads.push_back(std::nullopt);
        continue;
      }
      int n = 0;
      try {
        size_t used = 0;
        n = std::stoi(t, &used);
        if (used != t.size() || n < 1) throw std::invalid_argument(t);
      } catch (const std::exception&) {
        throw usage_error(fmt::format("--threads {}: not a thread count", t),
                          "give positive integers or `default`, comma-separated: --threads default,1,2");
      }
      options_.threads.push_back(n);
    }
    if (calls_ > 0) options_.calls = calls_;
    if (timeout_s_ > 0) options_.timeout = std::chrono::milliseconds(static_cast<long>(timeout_s_ * 1000));
    const job::JobResult result = job::run_modes(
        options_, [&](const std::string& message) { ctx.progress(message); }, checkpoints<job::JobResult>(ctx));
    write_section(ctx, result);
    bool interrupted = false, any_ok = false;
    for (const auto& m : result.modes)
      for (const auto& r : m.runs) {
        interrupted = interrupted || r.interrupted;
        any_ok = any_ok || r.ok();
      }
    if (interrupted) throw Error(ExitCode::Interrupted, "interrupted", "interrupted; the report holds the runs so far");
    if (!any_ok)
      throw Error(ExitCode::TargetFailed, "target_failed", "every run of the job failed",
                  "each run's stderr is in its folder (tct job -v lists them)");
    return 0;
  }

 private:
  job::JobOptions options_;
  std::vector<std::string> modes_{"eager", "cold", "warm", "shipped"};
  std::vector<std::string> threads_{"default", "1"};
  std::vector<std::string> shape_fixes_;
  double calls_ = 0, timeout_s_ = 0;
};

}  // namespace

std::unique_ptr<Command> make_job_command() { return std::make_unique<JobCommand>(); }

}  // namespace tct::cli
