#include "startup/command.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "errors.hpp"
#include "job/run.hpp"
#include "startup/run.hpp"
#include "startup/summary.hpp"

namespace tct::startup {
namespace {

Mode mode_of(job::How h) {
  switch (h) {
    case job::How::Eager: return Mode::Eager;
    case job::How::Cold: return Mode::Cold;
    case job::How::Warm: return Mode::Warm;
    case job::How::Shipped: return Mode::Shipped;
    case job::How::Aoti: return Mode::AotiPython;
  }
  return Mode::Eager;
}

job::How how_of(Mode m) {
  switch (m) {
    case Mode::Cold: return job::How::Cold;
    case Mode::Warm: return job::How::Warm;
    case Mode::Shipped: return job::How::Shipped;
    default: return job::How::Eager;
  }
}

std::string trace_dir_of(const job::RunFigures& run) { return (std::filesystem::path(run.dir) / "trace").string(); }

// What ended a run that did not run to the end, or that never called a compiled site.
std::string run_error(const job::RunFigures& run) {
  if (run.interrupted) return "interrupted";
  if (run.timed_out) return "timed out";
  if (!run.ok()) return run.exit_text;
  if (run.sites.empty()) return "it called no torch.compile'd function (no call site was recorded)";
  return "";
}

// One run of the command as a start: its sites by first output, the earliest the start's own.
Start start_of(const job::RunFigures& run, const std::map<std::string, TraceFacts>& traces,
               const std::vector<KeyedLookup>& filled) {
  Start s;
  s.error = run_error(run);
  for (const auto& site : run.sites) s.sites.push_back({site.key, site.name, site.first_output, site.steady});
  std::stable_sort(s.sites.begin(), s.sites.end(),
                   [](const SiteStart& a, const SiteStart& b) { return a.first_output < b.first_output; });
  if (s.error.empty() && !s.sites.empty()) s.first_output = s.sites.front().first_output;
  if (auto t = traces.find(trace_dir_of(run)); t != traces.end()) {
    s.trace_read = t->second.read;
    for (const auto& l : t->second.lookups) s.lookups.push_back(l.lookup);
    explain_misses(s.lookups, t->second.lookups, filled);
  }
  return s;
}

}  // namespace

std::vector<Mode> command_modes(const std::vector<Mode>& asked) {
  for (Mode m : asked)
    if (m == Mode::AotiPython || m == Mode::AotiCpp)
      throw usage_error(fmt::format("--modes {}: an AOTInductor package needs a model to export, and a command "
                                    "names none",
                                    to_string(m)),
                        "give FILE.py:FACTORY for aoti and aoti-cpp; a command runs eager, cold, warm and shipped");
  std::vector<Mode> out;
  for (Mode m : planned_modes(asked))
    if (m != Mode::AotiPython && m != Mode::AotiCpp) out.push_back(m);
  return out;
}

StartupResult from_job(const job::JobResult& job, const std::map<std::string, TraceFacts>& traces) {
  StartupResult r;
  r.command = job.command;
  for (const auto& w : job.command) r.target += (r.target.empty() ? "" : " ") + w;
  r.repeats = job.rounds;
  r.backend = "";  // the command's own torch.compile calls name theirs
  // Warm and shipped misses are explained against the compiled run that filled their caches.
  std::vector<KeyedLookup> filled;
  if (job.filling)
    if (auto t = traces.find(trace_dir_of(*job.filling)); t != traces.end()) filled = t->second.lookups;
  for (const auto& jm : job.modes) {
    ModeResult m;
    m.mode = mode_of(jm.spec.how);
    m.error = jm.error;
    for (const auto& run : jm.runs) {
      m.starts.push_back(start_of(run, traces, filled));
      if (m.mode == Mode::Shipped && run.artifacts_bytes) m.shipped_bytes = run.artifacts_bytes;
    }
    const bool any_ok = std::any_of(m.starts.begin(), m.starts.end(), [](const Start& s) { return s.error.empty(); });
    if (m.error.empty() && !m.starts.empty() && !any_ok) m.error = "every start failed: " + m.starts.front().error;
    summarize(m);
    r.modes.push_back(std::move(m));
  }
  decide(r);
  return r;
}

StartupResult run_command_startup(const CommandConfig& cfg, const core::Progress& progress,
                                  const core::OnPartial<StartupResult>& on_partial) {
  job::JobOptions o;
  o.job = cfg.command;
  o.python = cfg.python;
  o.hows.clear();
  for (Mode m : command_modes(cfg.modes)) o.hows.push_back(how_of(m));
  o.threads = {std::nullopt};
  o.rounds = cfg.repeats;
  o.timeout = cfg.timeout;
  // Each run's trace is read once, when the run is first seen.
  std::map<std::string, TraceFacts> traces;
  auto read_new = [&](const job::JobResult& j) {
    auto read = [&](const job::RunFigures& run) {
      const std::string dir = trace_dir_of(run);
      if (!traces.count(dir)) traces[dir] = read_trace_facts(dir);
    };
    if (j.filling) read(*j.filling);
    for (const auto& m : j.modes)
      for (const auto& run : m.runs) read(run);
  };
  const job::JobResult done = job::run_modes(o, progress, [&](const job::JobResult& partial) {
    read_new(partial);
    if (on_partial) on_partial(from_job(partial, traces));
  });
  read_new(done);
  return from_job(done, traces);
}

}  // namespace tct::startup
