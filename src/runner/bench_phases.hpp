#pragma once
// The phases of `bench` that talk to the agent, one function each. They fill parts of a
// row (or of the section) and leave statistics to bench_analysis.hpp. Orchestrated by
// bench_run.cpp; each throws tct::Error when the agent reports a failure.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/executor.hpp"
#include "runner/host.hpp"
#include "runner/bench_plan.hpp"
#include "runner/bench_run.hpp"

namespace tct::runner::bench {

using json = nlohmann::json;

// Fresh TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR under the system temp folder, removed
// when the object goes away.
class CacheDirs {
 public:
  CacheDirs();
  ~CacheDirs();
  CacheDirs(const CacheDirs&) = delete;
  CacheDirs& operator=(const CacheDirs&) = delete;
  Env env() const;
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

// An agent with the target loaded; restart() replaces a dead one (same env, same target).
class TargetAgent {
 public:
  TargetAgent(Host& host, Executor& exec, const BenchConfig& cfg, Env env);
  json call(const std::string& op, const json& params);
  void restart();
  void close();
  const json& described() const { return described_; }

 private:
  void start();
  Host& host_;
  Executor& exec_;
  const BenchConfig& cfg_;
  Env env_;
  std::unique_ptr<Session> agent_;
  json described_;
};

// A fresh agent process for compile time (cold or warm cache), started early: spawning it
// queues target.load and bench.compile at once without waiting, so the interpreter start,
// the torch import and the target load overlap whatever the caller does next. Only those
// unmeasured steps run early; the compile itself happens in first_call(), the process's
// first compiled call, which the caller issues when the caches are in the state it wants.
// Failures are kept and thrown by first_call(), where the old sequential code met them.
class FreshAgent {
 public:
  FreshAgent(Executor& exec, const BenchConfig& cfg, const BenchRowSpec& spec, const Env& env);
  FreshAgent(const FreshAgent&) = delete;
  FreshAgent& operator=(const FreshAgent&) = delete;
  // Waits until the queued load and compile are done, so the process is idle (blocked on
  // its next request) from then on. Never throws; a failure is kept for first_call().
  void settle();
  // settle(), then the first compiled call, then closes the process:
  // {first_call_ns, breakdown}. Throws tct::Error on failure.
  json first_call();

 private:
  const BenchRowSpec spec_;
  std::unique_ptr<Session> agent_;
  long load_id_ = 0, compile_id_ = 0;
  bool settled_ = false;
  std::optional<Error> error_;
};

// Ends an agent whose results are all in: runs its atexit handlers and exits without the
// interpreter's teardown (seconds of CPU with torch loaded), then reaps it.
void close_quickly(Session& agent);

// {clock, backends, modes, set_stance, device, ...} from bench.env.
json query_env(TargetAgent& agent);

// Eager warm-up calls and eager memory: {warmup_ns, first_call_ns, steady_ns, memory}.
json eager_baseline(Host& host, TargetAgent& agent, const BenchConfig& cfg);

// Compile (lazily) and time the first calls one by one: fills row.warmup_curve_ns,
// steady_state, compile.first_call_ns, compile.breakdown, graph_breaks.
void compile_and_warm_up(Host& host, TargetAgent& agent, const BenchConfig& cfg,
                         const BenchRowSpec& spec, json& row);

// Interleaved eager/compiled blocks driven by AdaptiveSampler: fills speedup, latency,
// blocks, stop_reason, outliers, calls_per_sample, recompiles_during_measurement (and
// samples with --raw). With `compiled_memory`, each compiled block also reports its peak
// memory (read outside the timed region) and *compiled_memory gets the peak over the
// blocks (null where the agent has no resettable peak).
void sample_interleaved(Host& host, TargetAgent& agent, const BenchConfig& cfg,
                        const BenchRowSpec& spec, double clock_resolution_ns, double eager_estimate_ns,
                        json& row, json* compiled_memory = nullptr);

// Eager twice and compiled once, judged in C++: fills row.correctness.
void check_correctness(Host& host, TargetAgent& agent, const BenchConfig& cfg,
                       const BenchRowSpec& spec, json& row);

// Peak memory of the compiled object: fills row.memory (eager numbers from `eager_memory`,
// compiled ones from `compiled_memory`, the peak over the sampling blocks, or, when that is
// null, from bench.memory's extra calls).
void measure_memory(TargetAgent& agent, const BenchRowSpec& spec, const json& eager_memory,
                    const json& compiled_memory, json& row);

}  // namespace tct::runner::bench
