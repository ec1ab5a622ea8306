// tct run [OPTIONS] -- COMMAND [ARGS...] (or: tct run script.py ARGS, tct run -m module ARGS):
// runs the user's real job unchanged, with TORCH_TRACE pointed at a fresh folder and tct's
// bootstrap (python/tct_run_bootstrap) first on PYTHONPATH, then reports per torch.compile
// call site what compile cost and gained in that job. --compare-eager runs it again with
// every call site forced eager; --try-fixes again with each fix tct can apply. The job's stdin, stdout, stderr and exit
// status are its own; the text report goes to stderr, after the job. The job's run is run::run_job (src/run/run.hpp);
// this file is flags and exit codes.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "errors.hpp"
#include "run/json.hpp"
#include "run/render.hpp"
#include "run/run.hpp"

namespace tct::cli {

namespace {

class RunCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct run -- python train.py                 a real job: per torch.compile call site, what it gained\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand(
        "run",
        "Run a real job (a training script, a server, torchrun) unchanged and report, per torch.compile call "
        "site, what compile cost and gained there: calls, time per call, breaks, recompiles, fallbacks");
    cmd->add_option("-m", module_, "Run a module as `python -m MODULE ARGS...`")->type_name("MODULE");
    cmd->add_flag("--compare-eager", compare_eager_,
                  "Run the job again with every call site bypassed (its calls go straight to the uncompiled code; "
                  "torch.compiler.set_stance(\"force_eager\") for the rest) and report eager "
                  "against compiled time per call, what compile cost and after how many calls it paid back");
    cmd->add_option("--repeat", repeat_,
                    "With --compare-eager: run the job N times each way (the interval then "
                    "covers run-to-run variation)")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cmd->add_flag("--try-fixes", try_fixes_,
                  "Where a break's fix is one tct can apply, run the job once more with it and report each way's "
                  "graph breaks and per-call time: today the wrap order for breaks inside DDP's own code "
                  "(torch.compile(DDP(model)) run as DDP(torch.compile(model))). Off by default: the job runs twice");
    cmd->add_flag("--no-breakdown", no_breakdown_,
                  "Do not sample calls under torch's profiler (by default a few windows of 32 calls per site, "
                  "where the job's own profiler is off): no breakdown of where a call's time goes. For a job that "
                  "starts torch.profiler itself at a moment tct cannot foresee");
    cmd->add_flag("--fail-on-fallback", fail_on_fallback_,
                  "Exit 1 when a call site silently fell back to eager (a frame hit a recompile limit or "
                  "failed to compile) and the job itself succeeded: a gate for CI");
    cmd->add_option("--threads", threads_,
                    "torch's intra-op threads in the job and its eager runs (OMP_NUM_THREADS and "
                    "torch.set_num_threads); 1 keeps a busy machine's stalls out of the per-call times")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--dir", dir_,
                    "Keep the run's TORCH_TRACE logs and records here (default: a new folder under "
                    "$TMPDIR, kept; its path is in the report)");
    cmd->add_option("--python", common.python,
                    "Python for `tct run script.py` and `-m` (default: $TCT_PYTHON, the "
                    "active venv, the venv tct is installed in, python3 on PATH)");
    add_output_options(*cmd, common);
    // The job's words never reach CLI11: main.cpp splits them off first (cli/run_args.hpp).
    cmd->footer(R"(Usage: tct run [OPTIONS] -- COMMAND [ARGS...]
       tct run [OPTIONS] SCRIPT.py [ARGS...]      (in the chosen Python)
       tct run [OPTIONS] -m MODULE [ARGS...]
tct's options come first; everything from the command on is the job's, flags included.
Examples:
  tct run -- python train.py --epochs 1      the job as you run it; report on stderr after it
  tct run train.py --epochs 1                the same (a .py runs in the chosen Python)
  tct run -m mypkg.serve --port 8000
  tct run --compare-eager -- python train.py is compile worth it in this job, per call site?
  tct run --try-fixes -- torchrun --nproc-per-node 2 train.py   breaks inside DDP: the wrap order, measured
  tct run -o run.html -- torchrun --nproc-per-node 2 train.py   per rank, ranks that diverge
Use run for a real job as it runs; use bench for a controlled A/B of one function.
Recompiles driven by values (a Python int, str or list that changes per call) show only
in run and trace: explain and bench call a factory with fixed inputs. Silent fallbacks
are said first, at every frame: the site's own, the code after a graph break, a nested
function. On a busy machine, --threads 1 keeps threads waiting for a core out of the
per-call times (the report warns when calls stall).
Every Python the job starts records its call sites (torchrun's workers too), through a
sitecustomize that chains to your own and costs nothing where torch is never imported
(python -S or -I skip it). A call's time is host time; where CUDA is in use at
torch.compile, CUDA events time each call too, resolved after the fact (no synchronize).
What is timed is the call inside the object torch.compile returned (for a module: its
forward, hooks included), the same in the compiled and the eager run. A few windows of
calls per site run under torch's profiler (its events give the breakdown: Dynamo's lookup
and guards, the wrappers, the graphs, the eager code); those calls are left out of every
other figure, and what sampling cost the job is said beside the breakdown.
The job's stdout and stderr are its own; the report follows on stderr (--json and
--markdown print on stdout after the job; -o FILE keeps them apart, and is rewritten
every 10 s while the job runs, with exit "still running").
Exit codes: the job's own status when it failed (128+N when killed by signal N), else 0
(1 with --fail-on-fallback when a site silently fell back to eager); 2 bad usage or a
command that cannot be started; 4 internal error.)");
    return cmd;
  }

  bool report_on_stderr() const override { return true; }

  int run(RunContext& ctx) override {
    run::RunOptions options;
    options.job = trailing;
    options.module = module_;
    options.python = common.python;
    options.dir = dir_;
    options.compare_eager = compare_eager_;
    options.repeat = repeat_;
    options.try_fixes = try_fixes_;
    options.threads = threads_;
    options.breakdown = !no_breakdown_;
    // -o files are rewritten as the job runs, so a long job can be watched and a killed tct
    // still leaves a report.
    options.watch = !common.out.empty();
    run::RunHooks hooks;
    hooks.progress = [&](const std::string& message) { ctx.progress(message); };
    hooks.end_progress = [&] { ctx.end_progress(); };
    hooks.partial = [&](const run::RunResult& so_far) {
      write_section(ctx, so_far);
      ctx.checkpoint();
    };
    const run::RunResult result = run::run_job(options, hooks);
    write_section(ctx, result);
    if (result.exit_status != 0)
      throw Error(static_cast<ExitCode>(result.exit_status), "target_failed",
                  fmt::format("the command failed ({}){}{}", result.exit_text,
                              result.first_end ? ": " + run::first_end_text(*result.first_end) : "",
                              result.processes.empty() ? "" : "; the report below holds what was recorded"));
    if (fail_on_fallback_)
      if (const size_t fallbacks = run::silent_fallbacks(result).size())
        throw Error(ExitCode::CheckFailed, "silent_fallback",
                    fmt::format("{} silent fallback(s) to eager (--fail-on-fallback)", fallbacks),
                    "the report's first lines name each frame, the guard that kept failing and the fix");
    return 0;
  }

 private:
  std::string module_, dir_;
  bool compare_eager_ = false, fail_on_fallback_ = false, try_fixes_ = false, no_breakdown_ = false;
  int repeat_ = 1;
  std::optional<int> threads_;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace tct::cli
