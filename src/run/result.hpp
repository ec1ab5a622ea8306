#pragma once
// tct run's result: per process (rank) and per torch.compile call site, what the job's calls
// cost, what the trace says compile did there, whether the site fell back to eager, and,
// with --compare-eager, eager against compiled. Every statistic and decision is made once,
// in run/analysis.cpp; run/to_json.cpp is the only place it becomes JSON.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/verdict.hpp"
#include "core/units.hpp"
#include "stats/bootstrap.hpp"

namespace tct::run {

using Ns = tct::Nanoseconds;

struct CallTimes {
  size_t calls = 0;
  Ns median{0}, p90{0}, total{0};
};

// One compile of the site's frames, from TORCH_TRACE.
struct FrameCompile {
  std::string compile_id, function;
  int line = 0;
  std::map<std::string, Ns> phases;          // entire_frame, backend, inductor...
  std::vector<std::string> recompile_reasons;  // the guard(s) that failed
  std::map<std::string, int> cache;
  int graph_breaks = 0;
  bool skipped = false;
  std::string fail_reason;
};

struct SiteBreak {
  std::string file, kind, reason, fix;
  int line = 0;
  int count = 0;
};

// The site hit the recompile limit: from then on, a call whose guards no compiled entry
// passes runs eagerly, silently.
struct Fallback {
  std::optional<size_t> at_call;  // the call that hit it
  std::string limit;              // recompile_limit / accumulated_recompile_limit
  std::optional<int> value;
  std::string guard;              // the last guard that failed, in torch's words
  std::string kind, fix;          // the hint catalog's kind and fix for that guard
  size_t calls_after = 0;         // calls from the hit on
  size_t eager_after = 0;         // of which ran no compiled graph
};

struct EagerComparison {
  CallTimes compiled, eager;      // steady calls, pooled over runs
  stats::Interval speedup{};      // eager / compiled per-call median, 95% bootstrap
  int runs_each = 1;
  std::string covers;             // what the interval covers, in words
  Ns compile_cost{0};             // compiling calls' time beyond the steady compiled time
  std::optional<double> break_even_calls;  // only on a "faster" verdict: none is built on an interval holding 1
  bool paid_back = false;         // this job made at least break_even_calls calls
  // The one speedup verdict rule (stats::decide): it follows the interval, not its width.
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;
  std::string clock = "host";     // "cuda_events" when both runs timed the site's calls on the device
};

struct SiteResult {
  std::string key, kind, name, site_file, code_name, code_file;
  int site_line = 0, code_line = 0;
  size_t calls = 0;
  size_t compiling_calls = 0;     // calls during which Dynamo compiled (first + recompiles)
  size_t eager_calls = 0;         // calls that ran no compiled graph
  std::optional<size_t> first_eager_call;  // the first of those after the first call
  bool eager_known = false;       // the bootstrap could count compiled graphs here
  CallTimes all, steady;
  std::optional<CallTimes> device_steady;  // CUDA event time of the steady calls
  Ns compiling_time{0};           // the compiling calls' total time
  double job_share = 0;           // all.total / the job's wall time
  // From the trace.
  std::vector<FrameCompile> compiles;
  Ns compile_time{0};             // entire_frame, summed over compiles
  int recompiles = 0;
  int graph_breaks = 0;
  std::vector<SiteBreak> breaks;
  std::map<std::string, int> cache;
  std::optional<Fallback> fallback;
  std::optional<EagerComparison> eager;
};

struct ProcessResult {
  std::optional<int> rank;
  int64_t pid = 0;
  bool final = true;              // false: the process died before writing at exit
  std::vector<SiteResult> sites;
};

struct Divergence {
  std::optional<int> rank;
  std::string what, message;
};

struct RunResult {
  std::vector<std::string> command;
  int exit_status = 0;
  std::string exit_text;
  bool interrupted = false;
  Ns wall{0};
  std::string record_dir, trace_dir, torch, stance, cwd;
  std::vector<ProcessResult> processes;  // those that made at least one compiled object
  int processes_with_torch = 0;
  std::vector<Divergence> divergence;    // ranks that compiled differently
  std::vector<std::string> notes;        // things the reader must know (skipped files...)
  bool compared = false;
  int repeat = 1;
  std::vector<int> eager_exit_statuses;
  nlohmann::json trace;                  // the trace section (tct trace's), for the details
};

}  // namespace tct::run
