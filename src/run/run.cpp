#include "run/run.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sys/resource.h>
#include <thread>

#include <fmt/format.h>

#include "agent/interpreter.hpp"
#include "errors.hpp"
#include "run/analysis.hpp"
#include "run/launch.hpp"
#include "run/setup.hpp"
#include "run/trace_dir.hpp"

namespace tct::run {
namespace fs = std::filesystem;

namespace {

// Involuntary context switches of the finished children so far: the job's threads waited
// for a core that often.
long involuntary_switches() {
  struct rusage u {};
  return ::getrusage(RUSAGE_CHILDREN, &u) == 0 ? u.ru_nivcsw : 0;
}

Contention contention(long switches_before, std::chrono::nanoseconds wall) {
  Contention c;
  double load[1];
  if (::getloadavg(load, 1) == 1) c.load_1m = load[0];
  c.cpus = std::max(1u, std::thread::hardware_concurrency());
  const double s = std::chrono::duration<double>(wall).count();
  if (s > 0) c.involuntary_switches_per_s = static_cast<double>(involuntary_switches() - switches_before) / s;
  return c;
}

}  // namespace

RunResult run_job(const RunOptions& o, const RunHooks& hooks) {
  const auto lookup = agent::process_env();
  const std::string exe = agent::current_executable();
  const std::vector<std::string> job = job_command(o.job, o.module, o.python, lookup, exe, "run");
  const std::string bootstrap = bootstrap_dir(lookup, exe);
  const std::string dir = make_run_dir(o.dir, "tct-run");
  std::string pythonpath = bootstrap;
  if (auto old = lookup("PYTHONPATH"); old && !old->empty()) pythonpath += ":" + *old;
  auto records_of = [&](const std::string& sub) { return (fs::path(dir) / sub / "records").string(); };
  auto trace_of = [&](const std::string& sub) { return (fs::path(dir) / sub / "trace").string(); };
  auto progress = [&](const std::string& message) {
    if (hooks.progress) hooks.progress(message);
  };

  // The result so far while the job runs (records so far), so a long job can be watched and a
  // killed tct still leaves a report.
  auto tick = [&](std::chrono::nanoseconds so_far) {
    try {
      RunInputs partial;
      partial.command = job;
      partial.cwd = fs::current_path().string();
      partial.record_dir = records_of("compiled");
      partial.trace_dir = trace_of("compiled");
      partial.finished.wall = so_far;
      partial.records = read_records(partial.record_dir);
      partial.live = true;
      // kill(pid, 0) sends nothing: it says whether the process is still there.
      for (const auto& p : partial.records.processes)
        if (p.pid > 0 && (::kill(static_cast<pid_t>(p.pid), 0) == 0 || errno == EPERM)) partial.alive.insert(p.pid);
      RunResult r = analyze(partial);
      r.exit_text = "still running";
      hooks.partial(r);
    } catch (const std::exception&) {
      // A half-written record or an unwritable file: the final report will say.
    }
  };
  auto one_run = [&](const std::string& sub, bool eager, const std::string& fix = "") {
    fs::create_directories(records_of(sub));
    fs::create_directories(trace_of(sub));
    Launch l;
    l.argv = job;
    l.env = {
        {"PYTHONPATH", pythonpath},     {"TCT_RUN_RECORD_DIR", records_of(sub)},
        {"TORCH_TRACE", trace_of(sub)}, {"TCT_RUN_FORCE_EAGER", eager ? "1" : "0"},
        {"TCT_RUN_TRY_FIX", fix},       {"TCT_RUN_BREAKDOWN", o.breakdown && !eager && sub == "compiled" ? "1" : "0"}};
    if (o.threads)
      for (const char* var : {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "TCT_RUN_THREADS"})
        l.env.push_back({var, std::to_string(*o.threads)});
    const bool watch = !eager && sub == "compiled" && o.watch && hooks.partial;
    return watch ? run_command(l, tick) : run_command(l);
  };

  RunInputs in;
  in.command = job;
  in.cwd = fs::current_path().string();
  in.record_dir = records_of("compiled");
  in.trace_dir = trace_of("compiled");
  const long switches_before = involuntary_switches();
  in.finished = one_run("compiled", false);
  in.contention = contention(switches_before, in.finished.wall);
  in.threads = o.threads;
  in.records = read_records(in.record_dir);
  const bool failed = shell_status(in.finished.exit) != 0;
  if (o.compare_eager && !failed && !in.finished.interrupted) {
    for (int i = 0; i < o.repeat; ++i) {
      if (i > 0) {
        const std::string sub = fmt::format("compiled-{}", i + 1);
        progress(fmt::format("compiled run {}/{}", i + 1, o.repeat));
        auto f = one_run(sub, false);
        in.compiled_repeats.push_back(read_records(records_of(sub)));
        in.repeat_traces.push_back(read_trace_dir(trace_of(sub)).ranks);
        if (f.interrupted) break;
      }
      const std::string sub = fmt::format("eager-{}", i + 1);
      progress(fmt::format("eager run {}/{} (--compare-eager)", i + 1, o.repeat));
      auto f = one_run(sub, true);
      in.eager_exit_statuses.push_back(shell_status(f.exit));
      in.eager_runs.push_back(read_records(records_of(sub)));
      if (f.interrupted) break;
    }
    if (hooks.end_progress) hooks.end_progress();
  }
  auto trace = read_trace_dir(in.trace_dir);
  in.trace_ranks = std::move(trace.ranks);
  in.trace_summary = std::move(trace.summary);
  in.try_fixes = o.try_fixes;
  if (o.try_fixes && !failed && !in.finished.interrupted) {
    // The fixes this job's breaks call for that tct can apply: one more run of the job each.
    const std::vector<std::string> fixes = fixes_to_try(analyze(in));
    for (const auto& fix : fixes) {
      const std::string sub = "fix-" + fix;
      progress(fmt::format("run with the fix {} (--try-fixes)", fix));
      RunInputs::FixRun f;
      f.fix = fix;
      f.finished = one_run(sub, false, fix);
      f.records = read_records(records_of(sub));
      f.trace_ranks = read_trace_dir(trace_of(sub)).ranks;
      const bool interrupted = f.finished.interrupted;
      in.fix_runs.push_back(std::move(f));
      if (interrupted) break;
    }
    if (!fixes.empty() && hooks.end_progress) hooks.end_progress();
  }
  return analyze(in);
}

}  // namespace tct::run
