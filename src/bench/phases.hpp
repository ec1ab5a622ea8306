#pragma once
// The phases of `bench` that talk to the agent, one function each. They fill the typed
// fields of a row (bench/result.hpp) and leave statistics to analysis.hpp and sampling.hpp.
// Orchestrated by bench/run.cpp; each throws tct::Error when the agent reports a failure.
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/plan.hpp"
#include "bench/reply.hpp"
#include "bench/result.hpp"
#include "bench/run.hpp"
#include "core/executor.hpp"
#include "core/reply.hpp"
#include "core/progress.hpp"
#include "core/temp_dir.hpp"

namespace tct::bench {

using json = nlohmann::json;
using ::tct::bench::BenchRow;  // the result types the phases fill
using ::tct::bench::EagerBaseline;

// Fresh TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR under the system temp folder, removed
// when the object goes away.
class CacheDirs {
 public:
  CacheDirs();
  core::Env env() const;
  const std::string& root() const { return dir_.path(); }

 private:
  core::TempDir dir_;
};

// One request to one agent: how the sampling loop talks to any of its processes.
using Caller = std::function<json(const std::string& op, const json& params)>;

// An agent with the target loaded; restart() replaces a dead one (same env, same target).
class TargetAgent {
 public:
  TargetAgent(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg, core::Env env);
  json call(const std::string& op, const json& params);
  Caller caller() {
    return [this](const std::string& op, const json& p) { return call(op, p); };
  }
  void restart();
  void close();
  const core::LoadedTarget& described() const { return described_; }

 private:
  void start();
  core::Progress progress_;
  core::Executor& exec_;
  const BenchConfig& cfg_;
  core::Env env_;
  std::unique_ptr<core::Session> agent_;
  core::LoadedTarget described_;  // target.load's reply, decoded where it arrives
};

// A process's first compiled call (the compile) as bench.first_calls with n=1 gave it.
struct FirstCompile {
  double first_call_ns = NAN;
  reply::Timers breakdown;
  reply::Counters counters;
};

// A fresh agent process, started early: spawning it queues target.load, (with
// `mark_memory`) bench.memory_mark, and bench.compile at once without waiting, so the
// interpreter start, the torch import and the target load overlap whatever the caller does
// next. Only those unmeasured steps run early; the compile itself happens in first_call(),
// the process's first compiled call, which the caller issues when the caches are in the
// state it wants. Failures are kept and thrown by the first request after settle().
class FreshAgent {
 public:
  FreshAgent(core::Executor& exec, const BenchConfig& cfg, const BenchRowSpec& spec, const core::Env& env,
             bool mark_memory = false);
  FreshAgent(const FreshAgent&) = delete;
  FreshAgent& operator=(const FreshAgent&) = delete;
  // Waits until the queued requests are done, so the process is idle (blocked on its next
  // request) from then on. Never throws; a failure is kept for the next request.
  void settle();
  // settle(), then the first compiled call.
  FirstCompile first_call();
  json call(const std::string& op, const json& params);
  Caller caller() {
    return [this](const std::string& op, const json& p) { return call(op, p); };
  }
  // Ends the process (quickly, see close_quickly).
  void close();

 private:
  const BenchRowSpec spec_;
  std::unique_ptr<core::Session> agent_;
  std::vector<std::pair<long, std::string>> queued_;
  bool settled_ = false;
  std::optional<Error> error_;
};

// Ends an agent whose results are all in: runs its atexit handlers and exits without the
// interpreter's teardown (seconds of CPU with torch loaded), then reaps it.
void close_quickly(core::Session& agent);

// The clock, backends, modes, set_stance, device, CPUs, ... from bench.env.
reply::Env query_env(TargetAgent& agent);

// Eager warm-up calls and eager memory (peak above the post-load baseline, in a process
// that has compiled nothing).
EagerBaseline eager_baseline(const core::Progress& progress, TargetAgent& agent, const BenchConfig& cfg);

// Compile (lazily) and time the first calls one by one: fills row.warmup_curve_ns,
// steady_state, compile.first_call_ns, compile.breakdown, graph_breaks, warmup_counters.
void compile_and_warm_up(const core::Progress& progress, TargetAgent& agent, const BenchConfig& cfg,
                         const BenchRowSpec& spec, BenchRow& row);

// The first compiled calls, one by one (the first one compiles): fills row.warmup_curve_ns,
// steady_state and compile.first_call.
void set_warmup_curve(std::vector<double> curve, BenchRow& row);

// The second sampling process of a row, before it samples: its first compiled call (the
// warm compile when `warm_compile`; its cache counters say whether it was a cache hit),
// compiled warm-up calls, the compiled memory figures (compile peak, what the compiler
// keeps, the peak of steady compiled calls; all in a process that never ran eager), then
// eager warm-up calls. Fills row.compile.warm_* and row.memory's compiled side.
void prepare_peer(const core::Progress& progress, FreshAgent& peer, const BenchConfig& cfg, const BenchRowSpec& spec,
                  bool warm_compile, BenchRow& row);

// Paired block sampling over `processes` (sampling.hpp's schedule): fills speedup, latency,
// blocks, stop_reason, harness floor, blocks dropped for a recompile,
// recompiles_during_measurement, sampling (sizes, outliers, load) and samples with --raw.
void sample_paired(const core::Progress& progress, const std::vector<Caller>& processes, const BenchConfig& cfg,
                   const BenchRowSpec& spec, double clock_resolution_ns, double eager_estimate_ns, int cpus,
                   BenchRow& row);

// Eager twice and compiled once, judged in C++: fills row.correctness. `outputs`: a folder of
// the C++ AOTInductor runner's outputs, checked in place of a compiled object's.
void check_correctness(const core::Progress& progress, TargetAgent& agent, const BenchConfig& cfg,
                       const BenchRowSpec& spec, BenchRow& row, const std::string& outputs = "");

// A compile in a fresh process that exits afterwards.
FirstCompile compile_in_fresh_process(core::Executor& exec, const BenchConfig& cfg, const BenchRowSpec& spec,
                                      const core::Env& env);

}  // namespace tct::bench
