// tct run [OPTIONS] -- COMMAND [ARGS...] (or: tct run script.py ARGS, tct run -m module ARGS):
// runs the user's real job unchanged, with TORCH_TRACE pointed at a fresh folder and tct's
// bootstrap (python/tct_run_bootstrap) first on PYTHONPATH, then reports per torch.compile
// call site what compile cost and gained in that job. --compare-eager runs it again with
// every call site forced eager. The job's stdin, stdout, stderr and exit status are its own;
// the text report goes to stderr, after the job.
#include <cstdlib>
#include <sys/resource.h>
#include <thread>
#include <filesystem>

#include <fmt/format.h>

#include "agent/interpreter.hpp"
#include "cli/command.hpp"
#include "errors.hpp"
#include "report/document.hpp"
#include "run/analysis.hpp"
#include "run/launch.hpp"
#include "run/json.hpp"
#include "run/trace_dir.hpp"

namespace tct::cli {
namespace fs = std::filesystem;

namespace {

std::string make_run_dir(const std::string& asked) {
  if (!asked.empty()) {
    std::error_code ec;
    fs::create_directories(asked, ec);
    if (ec) throw usage_error(fmt::format("cannot create {}: {}", asked, ec.message()));
    return fs::absolute(asked).string();
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = fmt::format("{}/tct-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    throw Error(ExitCode::Internal, "internal", fmt::format("cannot create a folder under {}", tmp ? tmp : "/tmp"));
  return buf.data();
}

// Involuntary context switches of the finished children so far: the job's threads waited
// for a core that often.
long involuntary_switches() {
  struct rusage u {};
  return ::getrusage(RUSAGE_CHILDREN, &u) == 0 ? u.ru_nivcsw : 0;
}

run::Contention contention(long switches_before, std::chrono::nanoseconds wall) {
  run::Contention c;
  double load[1];
  if (::getloadavg(load, 1) == 1) c.load_1m = load[0];
  c.cpus = std::max(1u, std::thread::hardware_concurrency());
  const double s = std::chrono::duration<double>(wall).count();
  if (s > 0) c.involuntary_switches_per_s = static_cast<double>(involuntary_switches() - switches_before) / s;
  return c;
}

class RunCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand(
        "run", "Run a real job (a training script, a server, torchrun) unchanged and report, per torch.compile call "
               "site, what compile cost and gained there: calls, time per call, breaks, recompiles, fallbacks");
    cmd->add_option("-m", module_, "Run a module as `python -m MODULE ARGS...`")->type_name("MODULE");
    cmd->add_flag("--compare-eager", compare_eager_,
                  "Run the job again with every call site bypassed (its calls go straight to the uncompiled code; "
                  "torch.compiler.set_stance(\"force_eager\") for the rest) and report eager "
                  "against compiled time per call, what compile cost and after how many calls it paid back");
    cmd->add_option("--repeat", repeat_, "With --compare-eager: run the job N times each way (the interval then "
                                         "covers run-to-run variation)")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cmd->add_flag("--fail-on-fallback", fail_on_fallback_,
                  "Exit 1 when a call site silently fell back to eager (a frame hit a recompile limit or "
                  "failed to compile) and the job itself succeeded: a gate for CI");
    cmd->add_option("--threads", threads_,
                    "torch's intra-op threads in the job and its eager runs (OMP_NUM_THREADS and "
                    "torch.set_num_threads); 1 keeps a busy machine's stalls out of the per-call times")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--dir", dir_, "Keep the run's TORCH_TRACE logs and records here (default: a new folder under "
                                   "$TMPDIR, kept; its path is in the report)");
    cmd->add_option("--python", common.python, "Python for `tct run script.py` and `-m` (default: $TCT_PYTHON, the "
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
forward, hooks included), the same in the compiled and the eager run.
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
    std::vector<std::string> job = trailing;
    if (job.empty() && module_.empty())
      throw usage_error("no command to run", "give it after --: tct run -- python train.py");
    const auto lookup = agent::process_env();
    const std::string exe = agent::current_executable();
    auto python = [&] { return agent::choose_interpreter(common.python, lookup, exe).path; };
    if (!module_.empty()) {
      job.insert(job.begin(), {python(), "-m", module_});
    } else if (job[0].size() > 3 && job[0].substr(job[0].size() - 3) == ".py") {
      if (!fs::exists(job[0])) throw usage_error(fmt::format("no such script: {}", job[0]));
      job.insert(job.begin(), python());
    }
    const std::string bootstrap = (fs::path(agent::locate_agent_dir(std::nullopt, lookup, exe)) / "tct_run_bootstrap").string();
    if (!fs::is_regular_file(fs::path(bootstrap) / "sitecustomize.py"))
      throw Error(ExitCode::Internal, "install", fmt::format("tct's run bootstrap is missing ({})", bootstrap),
                  "reinstall tct");
    const std::string dir = make_run_dir(dir_);
    std::string pythonpath = bootstrap;
    if (auto old = lookup("PYTHONPATH"); old && !old->empty()) pythonpath += ":" + *old;

    run::RunInputs in;
    // -o files are rewritten as the job runs (records so far), so a long job can be watched
    // and a killed tct still leaves a report.
    auto tick = [&](std::chrono::nanoseconds so_far) {
      try {
        run::RunInputs partial;
        partial.command = job;
        partial.cwd = fs::current_path().string();
        partial.record_dir = (fs::path(dir) / "compiled" / "records").string();
        partial.trace_dir = (fs::path(dir) / "compiled" / "trace").string();
        partial.finished.wall = so_far;
        partial.records = run::read_records(partial.record_dir);
        run::RunResult r = run::analyze(partial);
        r.exit_text = "still running";
        ctx.doc["run"] = run::to_json(r);
        ctx.checkpoint();
      } catch (const std::exception&) {
        // A half-written record or an unwritable file: the final report will say.
      }
    };
    auto one_run = [&](const std::string& sub, bool eager) {
      fs::create_directories(fs::path(dir) / sub / "records");
      fs::create_directories(fs::path(dir) / sub / "trace");
      run::Launch l;
      l.argv = job;
      l.env = {{"PYTHONPATH", pythonpath},
               {"TCT_RUN_RECORD_DIR", (fs::path(dir) / sub / "records").string()},
               {"TORCH_TRACE", (fs::path(dir) / sub / "trace").string()},
               {"TCT_RUN_FORCE_EAGER", eager ? "1" : "0"}};
      if (threads_)
        for (const char* var : {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "TCT_RUN_THREADS"}) l.env.push_back({var, std::to_string(*threads_)});
      const bool watch = !eager && sub == "compiled" && !common.out.empty();
      return watch ? run::run_command(l, tick) : run::run_command(l);
    };

    in.command = job;
    in.cwd = fs::current_path().string();
    in.record_dir = (fs::path(dir) / "compiled" / "records").string();
    in.trace_dir = (fs::path(dir) / "compiled" / "trace").string();
    const long switches_before = involuntary_switches();
    in.finished = one_run("compiled", false);
    in.contention = contention(switches_before, in.finished.wall);
    in.threads = threads_;
    in.records = run::read_records(in.record_dir);
    const bool failed = run::shell_status(in.finished.exit) != 0;
    if (compare_eager_ && !failed && !in.finished.interrupted) {
      for (int i = 0; i < repeat_; ++i) {
        if (i > 0) {
          ctx.progress(fmt::format("compiled run {}/{}", i + 1, repeat_));
          auto f = one_run(fmt::format("compiled-{}", i + 1), false);
          in.compiled_repeats.push_back(run::read_records((fs::path(dir) / fmt::format("compiled-{}", i + 1) / "records").string()));
          in.repeat_traces.push_back(run::read_trace_dir((fs::path(dir) / fmt::format("compiled-{}", i + 1) / "trace").string()).ranks);
          if (f.interrupted) break;
        }
        ctx.progress(fmt::format("eager run {}/{} (--compare-eager)", i + 1, repeat_));
        auto f = one_run(fmt::format("eager-{}", i + 1), true);
        in.eager_exit_statuses.push_back(run::shell_status(f.exit));
        in.eager_runs.push_back(run::read_records((fs::path(dir) / fmt::format("eager-{}", i + 1) / "records").string()));
        if (f.interrupted) break;
      }
      ctx.end_progress();
    }
    auto trace = run::read_trace_dir(in.trace_dir);
    in.trace_ranks = std::move(trace.ranks);
    in.trace_section = std::move(trace.section);
    run::RunResult result = run::analyze(in);
    ctx.doc["run"] = run::to_json(result);
    if (result.exit_status != 0)
      throw Error(static_cast<ExitCode>(result.exit_status), "target_failed",
                  fmt::format("the command failed ({}){}", result.exit_text,
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
  bool compare_eager_ = false, fail_on_fallback_ = false;
  int repeat_ = 1;
  std::optional<int> threads_;
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace tct::cli
