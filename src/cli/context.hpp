#pragma once
// What every command shares: the common flags, the outcome (the runners' results, the warnings
// each result carries, the environment), progress display, checkpoints (rewrite --out files
// after each phase so a crash still leaves data), and starting an agent in the chosen interpreter.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "agent/agent.hpp"
#include "cli/outcome.hpp"
#include "core/cpu_placement.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "report/warning.hpp"

namespace tct::cli {

using json = nlohmann::json;

struct CommonOptions {
  std::optional<std::string> python;
  std::optional<std::string> agent_path;
  double timeout_s = 900;        // per request to the agent
  std::optional<int> threads;    // --threads: torch's intra-op threads (and OpenMP's, MKL's)
  std::string cpus;              // --cpus: the affinity mask of the target's processes, "0-1,3"
  bool json = false;             // print the JSON document on stdout
  bool markdown = false;         // print Markdown on stdout
  std::vector<std::string> out;  // report files, type by extension
  int verbose = 0;               // -v: every detail of the report, tracebacks; -vv: also the agent's stderr live
  bool quiet = false;
};

// Both groups below; commands that read saved files (diff, report) take the output group only.
void add_common_options(CLI::App& cmd, CommonOptions& options);
void add_agent_options(CLI::App& cmd, CommonOptions& options);   // --python --agent-path --timeout --threads --cpus
void add_output_options(CLI::App& cmd, CommonOptions& options);  // --json --markdown -o -v -q

// The outcome a command makes of its runners' results, progress on stderr, and the runners'
// Executor (agents in the chosen interpreter, with --timeout and progress on every request).
// Runners never see the outcome: they return values and hand partial results to callbacks
// that the command keeps here (cli/sections.hpp).
class RunContext : public core::Executor {
 public:
  RunContext(CommonOptions options, Outcome outcome);

  CommonOptions options;
  // The CLI's alone: a command sets each result it has; main renders it and writes the files.
  Outcome outcome;

  // The warnings a result carries: they replace what `source` gave before, in the place its
  // first list took in the outcome's warnings (a runner decides its list afresh after each
  // phase); an identical warning is said once.
  void set_warnings(const std::string& source, const std::vector<report::Warning>& warnings);
  // A warning of the command's own (not a result's): added after those there now, said once.
  void warn(report::Warning warning);

  std::chrono::milliseconds timeout() const;
  // Starts `python -m tct_agent` in the chosen interpreter and records the environment
  // (interpreter, how it was chosen, torch) in the outcome. Unless torch is not required
  // (probe reports its absence as a verdict), an interpreter without torch is a usage error.
  std::unique_ptr<agent::Agent> start_agent(std::vector<std::pair<std::string, std::string>> env = {},
                                            bool torch_required = true);
  // What start_agent would start (interpreter, agent folder, env, verbosity), without
  // starting it or touching the outcome: for agents spawned with agent::DeferHandshake.
  agent::AgentOptions agent_options(std::vector<std::pair<std::string, std::string>> env = {}) const;
  // --threads and --cpus, parsed (validate_common_options refused a bad list before anything ran).
  core::CpuPlacement placement() const;
  // core::Executor: start_agent (recorded in the outcome) / an agent spawned with
  // agent::DeferHandshake, each behind a core::Session using timeout() and progress.
  std::unique_ptr<core::Session> start(const core::Env& env) override;
  // As start(), for probe: an interpreter without torch is its verdict, not an error.
  std::unique_ptr<core::Session> start_for_probe();
  std::unique_ptr<core::Session> spawn(const core::Env& env) override;
  // "phase: message" on stderr, only when stderr is a terminal and not --quiet.
  void progress(const std::string& message);
  // progress(), as the runners take it.
  core::Progress progress_sink();
  agent::ProgressFn progress_fn();
  void end_progress();
  // Rewrites every --out file with the outcome as it is now: a crash after this still leaves
  // what was measured.
  void checkpoint();
  // Writes each (path, content), each file whole or not at all.
  void write_files(const std::vector<std::pair<std::string, std::string>>& files);

 private:
  std::chrono::steady_clock::time_point start_;
  bool progress_shown_ = false;
  std::string last_phase_;  // off a terminal: the phase last said
  // The outcome's warnings: those it held before any list came (a saved document's, read
  // back as written), then each source's list in the order the sources first gave one, each
  // warning once (report::add_once).
  void rebuild_warnings();
  std::optional<std::vector<report::Warning>> warnings_before_;
  std::vector<std::pair<std::string, std::vector<report::Warning>>> warning_lists_;
  int own_warnings_ = 0;  // warn()'s count: each its own source
};

}  // namespace tct::cli
