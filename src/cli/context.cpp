#include "cli/context.hpp"

#include <algorithm>
#include <cctype>

#include <cstdio>
#include <fstream>

#include <unistd.h>

#include <fmt/format.h>

#include "cli/usage.hpp"
#include "cli/render.hpp"
#include "core/agent_session.hpp"

namespace tct::cli {

void add_common_options(CLI::App& cmd, CommonOptions& o) {
  add_agent_options(cmd, o);
  add_output_options(cmd, o);
}

void add_agent_options(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--python", o.python,
                 "Python interpreter to run the target in "
                 "(default: $TCT_PYTHON, the active venv, the venv tct is installed in, "
                 "python3 on PATH)");
  cmd.add_option("--agent-path", o.agent_path,
                 "Folder holding tct_agent/ (default: next to the binary; "
                 "or $TCT_AGENT_PATH)");
  cmd.add_option("--timeout", o.timeout_s,
                 "Seconds one step may take before the target is "
                 "declared hung and killed")
      ->capture_default_str()
      ->check(kPositive);
  cmd.add_option("--threads", o.threads,
                 "torch's intra-op threads in the target's processes (torch.set_num_threads, OMP_NUM_THREADS and "
                 "MKL_NUM_THREADS set before torch is imported); fewer than the free cores on a busy machine")
      ->check(CLI::Range(1, 4096));
  cmd.add_option("--cpus", o.cpus, "CPUs the target's processes may run on (an affinity mask), e.g. 0 or 0-3,6")
      ->type_name("LIST");
}

void add_output_options(CLI::App& cmd, CommonOptions& o) {
  cmd.add_flag("--json", o.json, "Print the JSON document on stdout (schema in schema/)");
  cmd.add_flag("--markdown", o.markdown, "Print Markdown on stdout (for a pull-request comment)");
  cmd.add_option("-o,--out", o.out,
                 "Also write a report file: .json, .md or .html (repeatable); "
                 "rewritten after each phase");
  cmd.add_flag("-v,--verbose", o.verbose,
               "Every detail of the terminal report and tracebacks on errors; -vv also shows the agent's stderr live");
  cmd.add_flag("-q,--quiet", o.quiet, "No progress messages");
}

RunContext::RunContext(CommonOptions opts, Outcome o)
    : options(std::move(opts)), outcome(std::move(o)), start_(std::chrono::steady_clock::now()) {}

void RunContext::set_warnings(const std::string& source, const std::vector<report::Warning>& warnings) {
  auto it =
      std::find_if(warning_lists_.begin(), warning_lists_.end(), [&](const auto& l) { return l.first == source; });
  if (it == warning_lists_.end()) warning_lists_.emplace_back(source, warnings);
  else it->second = warnings;
  rebuild_warnings();
}

void RunContext::warn(report::Warning warning) {
  set_warnings(fmt::format("\x1f{}", own_warnings_++), {std::move(warning)});  // a source no result is named
}

void RunContext::rebuild_warnings() {
  if (!warnings_before_) warnings_before_ = outcome.warnings;
  std::vector<report::Warning> all = *warnings_before_;
  for (const auto& [source, list] : warning_lists_)
    for (const auto& w : list) report::add_once(all, w);
  outcome.warnings = std::move(all);
}

core::Progress RunContext::progress_sink() {
  return [this](const std::string& m) { progress(m); };
}

std::chrono::milliseconds RunContext::timeout() const {
  return std::chrono::milliseconds(static_cast<long long>(options.timeout_s * 1000));
}

agent::AgentOptions RunContext::agent_options(std::vector<std::pair<std::string, std::string>> env) const {
  auto lookup = agent::process_env();
  agent::AgentOptions ao;
  const std::string executable = agent::current_executable();
  ao.python = agent::choose_interpreter(options.python, lookup, executable);
  ao.agent_dir = agent::locate_agent_dir(options.agent_path, lookup, executable);
  ao.env = core::placement_env(placement());
  ao.env.insert(ao.env.end(), env.begin(), env.end());
  ao.verbose = options.verbose >= 2;
  return ao;
}

core::CpuPlacement RunContext::placement() const {
  core::CpuPlacement p{options.threads, {}};
  if (!options.cpus.empty()) p.cpus = core::parse_cpu_list(options.cpus, core::allowed_cpus());
  return p;
}

std::unique_ptr<agent::Agent> RunContext::start_agent(std::vector<std::pair<std::string, std::string>> env,
                                                      bool torch_required) {
  agent::AgentOptions ao = agent_options(std::move(env));
  json& environment = outcome.environment;
  environment["interpreter"] = {{"path", ao.python.path}, {"chosen_by", ao.python.source}};
  const core::CpuPlacement where = placement();
  environment["placement"] = {{"threads", where.threads ? json(*where.threads) : json(nullptr)},
                              {"cpus", where.cpus.empty() ? json(nullptr) : json(core::format_cpu_list(where.cpus))}};
  progress(fmt::format("starting {} ({})", ao.python.path, ao.python.source));
  auto a = std::make_unique<agent::Agent>(std::move(ao));
  environment["python"] = a->hello().python;
  environment["torch"] = a->hello().torch;
  environment["agent_version"] = a->hello().agent_version;
  if (torch_required && a->hello().torch.is_null()) {
    std::string python = environment["interpreter"]["path"];
    a->close();
    throw Error(ExitCode::Usage, "unsupported",
                fmt::format("torch is not installed in {}; pip install torch there or pass --python", python));
  }
  return a;
}

std::unique_ptr<core::Session> RunContext::start(const core::Env& env) {
  return std::make_unique<core::AgentSession>(start_agent(env), timeout(), progress_fn());
}

std::unique_ptr<core::Session> RunContext::start_for_probe() {
  return std::make_unique<core::AgentSession>(start_agent({}, /*torch_required=*/false), timeout(), progress_fn());
}

std::unique_ptr<core::Session> RunContext::spawn(const core::Env& env) {
  return std::make_unique<core::AgentSession>(
      std::make_unique<agent::Agent>(agent_options(env), agent::DeferHandshake{}), timeout(), progress_fn());
}

// On a terminal one live line, rewritten in place; otherwise (a log, CI, a pipe) a line per
// phase (the message with its counts left out: "cold compile 2/3" is the phase of "cold
// compile 1/3"), so a long run is never silent and a log never fills with every step.
void RunContext::progress(const std::string& message) {
  if (options.quiet) return;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string line = fmt::format("[{:6.1f}s] {}", elapsed, message);
  if (::isatty(2)) {
    if (line.size() > 118) line = line.substr(0, 115) + "...";
    fmt::print(stderr, "\r\033[K{}", line);
    std::fflush(stderr);
    progress_shown_ = true;
    return;
  }
  std::string phase;
  for (char c : message.substr(0, message.find('(')))
    if (!std::isdigit(static_cast<unsigned char>(c))) phase += c;
  if (phase == last_phase_) return;
  last_phase_ = std::move(phase);
  fmt::print(stderr, "tct: {}\n", line);
  std::fflush(stderr);
}

// The agent's own steps ("compiling (first call)") are details of the runner's phase: on a
// terminal they update the live line; in a log the phase's line says enough.
agent::ProgressFn RunContext::progress_fn() {
  return [this](const std::string& m) {
    if (::isatty(2)) progress(m);
  };
}

void RunContext::end_progress() {
  if (!progress_shown_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  progress_shown_ = false;
}

void RunContext::checkpoint() { write_files(render_files(outcome, options.out)); }

void RunContext::write_files(const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [path, content] : files) {
    // Write then rename: a reader never sees half a report.
    std::string tmp = path + ".tmp";
    {
      std::ofstream f(tmp, std::ios::binary);
      f << content;
      if (!f)
        throw Error(ExitCode::Usage, "output", fmt::format("cannot write {}", path),
                    "check that the folder exists and is writable");
    }
    std::rename(tmp.c_str(), path.c_str());
  }
}

}  // namespace tct::cli
