#include "bench/phases.hpp"
#include "core/json_number.hpp"
#include "core/graph_breaks.hpp"
#include "core/json_read.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <system_error>

#include <fmt/format.h>

#include "bench/json.hpp"
#include "stats/verdict.hpp"
#include "core/target_options.hpp"
#include "bench/analysis.hpp"
#include "bench/sampling.hpp"
#include "stats/outliers.hpp"
#include "stats/summary.hpp"
#include "stats/paired.hpp"

namespace tct::bench {
namespace fs = std::filesystem;
using ::tct::bench::Correctness;
using ::tct::bench::Latency;
using ::tct::bench::Load;
using ::tct::bench::Memory;
using ::tct::bench::OutlierCount;
using ::tct::bench::Sampling;
using ::tct::bench::Speedup;
using ::tct::bench::SteadyState;
using ::tct::bench::WarmupCounters;

using core::fields::read_as;

namespace {

MemoryReading memory_reading(const reply::Memory& m) {
  return {m.kind, m.peak_bytes, m.baseline_bytes, m.increase_bytes, m.method};
}

json compile_params(const BenchRowSpec& spec) {
  return {{"key", spec.key()},
          {"backend", spec.backend},
          {"mode", spec.mode},
          {"dynamic", spec.dynamic},
          {"fullgraph", spec.fullgraph}};
}

OutlierCount outliers_of(const std::vector<double>& xs) {
  auto o = stats::detect_outliers(xs);
  return {static_cast<long long>(o.count), static_cast<long long>(o.high.size()), static_cast<long long>(o.low.size()),
          o.fraction, o.used_relative_fallback};
}

std::string stop_name(Action a) {
  switch (a) {
    case Action::Stop_Precise: return "precision";
    case Action::Stop_Budget: return "budget";
    case Action::Continue: return "continue";
  }
  return "unknown";
}

}  // namespace

// ------------------------------------------------------------------------ cache dirs

CacheDirs::CacheDirs() : dir_("tct-cache") {
  fs::create_directories(fs::path(root()) / "inductor");
  fs::create_directories(fs::path(root()) / "triton");
}

core::Env CacheDirs::env() const {
  return {{"TORCHINDUCTOR_CACHE_DIR", (fs::path(root()) / "inductor").string()},
          {"TRITON_CACHE_DIR", (fs::path(root()) / "triton").string()}};
}

// ---------------------------------------------------------------------- target agent

TargetAgent::TargetAgent(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg, core::Env env)
    : progress_(progress), exec_(exec), cfg_(cfg), env_(std::move(env)) {
  start();
}

void TargetAgent::start() {
  agent_ = exec_.start(env_);
  progress_(fmt::format("loading {}", cfg_.target.target));
  described_ = agent_->call("target.load", core::to_load_params(cfg_.target));
}

json TargetAgent::call(const std::string& op, const json& params) { return agent_->call(op, params); }

void TargetAgent::restart() {
  agent_.reset();  // kills the old process group
  start();
}

void TargetAgent::close() {
  if (agent_) close_quickly(*agent_);
}

void close_quickly(core::Session& agent) {
  try {
    agent.send("bench.exit", json::object());
  } catch (const Error&) {
    // already gone: close() below reaps it
  }
  agent.close();
}

// ------------------------------------------------------------------- fresh agents

FreshAgent::FreshAgent(core::Executor& exec, const BenchConfig& cfg, const BenchRowSpec& spec, const core::Env& env,
                       bool mark_memory)
    : spec_(spec) {
  try {
    agent_ = exec.spawn(env);
    queued_.emplace_back(agent_->send("target.load", to_load_params(cfg.target)), "target.load");
    if (mark_memory) queued_.emplace_back(agent_->send("bench.memory_mark", json::object()), "bench.memory_mark");
    // An aoti row's second process runs eager only (its compiled side is a package).
    if (spec.backend != kAotiBackend)
      queued_.emplace_back(agent_->send("bench.compile", compile_params(spec)), "bench.compile");
  } catch (const Error& e) {
    error_ = e;
    agent_.reset();
    settled_ = true;
  }
}

void FreshAgent::settle() {
  if (settled_) return;
  settled_ = true;
  try {
    for (const auto& [id, op] : queued_) agent_->receive(id, op);
  } catch (const Error& e) {
    error_ = e;
    agent_.reset();  // kills its process group
  }
}

json FreshAgent::call(const std::string& op, const json& params) {
  settle();
  if (error_) throw *error_;
  return agent_->call(op, params);
}

FirstCompile FreshAgent::first_call() {
  auto r = read_as<reply::FirstCalls>(
      call("bench.first_calls", {{"key", spec_.key()}, {"backend", spec_.backend}, {"n", 1}}));
  return {r.times_ns.empty() ? NAN : r.times_ns[0], std::move(r.compile_times_ns), std::move(r.counters)};
}

void FreshAgent::close() {
  if (agent_) close_quickly(*agent_);
  agent_.reset();
}

FirstCompile compile_in_fresh_process(core::Executor& exec, const BenchConfig& cfg, const BenchRowSpec& spec,
                                      const core::Env& env) {
  FreshAgent fresh(exec, cfg, spec, env);
  FirstCompile r = fresh.first_call();
  fresh.close();
  return r;
}

reply::Env query_env(TargetAgent& agent) { return read_as<reply::Env>(agent.call("bench.env", json::object())); }

// ------------------------------------------------------------------------- eager

EagerBaseline eager_baseline(const core::Progress& progress, TargetAgent& agent, const BenchConfig& cfg) {
  progress("eager warm-up (next: compile)");
  // Warm-up may not eat the sampling budget: a slow target stops after half of it.
  // With memory on, the agent also reports eager's peak above the memory held before the
  // first call (the post-load baseline: this process has done nothing else yet).
  auto r = read_as<reply::EagerWarmup>(agent.call(
      "bench.eager_warmup", {{"n", cfg.eager_warmup_calls}, {"max_ns", cfg.budget_s * 0.5e9}, {"memory", cfg.memory}}));
  EagerBaseline out;
  out.warmup_ns = std::move(r.times_ns);
  const auto& times = out.warmup_ns;
  out.first_call = Nanoseconds(times.empty() ? NAN : times[0]);
  out.steady = Nanoseconds(times.size() > 1 ? stats::median(std::span(times).subspan(times.size() / 2))
                                            : (times.empty() ? NAN : times[0]));
  if (cfg.memory)
    out.memory =
        memory_reading(r.memory ? *r.memory
                                : read_as<reply::Memory>(agent.call(
                                      "bench.memory", {{"which", "eager"}, {"calls", 3}})));  // no resettable peak
  return out;
}

// ------------------------------------------------------------------ compile/warm-up

void set_warmup_curve(std::vector<double> curve, BenchRow& row) {
  row.warmup_curve_ns = std::move(curve);
  const auto& c = row.warmup_curve_ns;
  const auto ss = stats::detect_steady_state(c);
  row.steady_state = SteadyState{
      ss.found, ss.found ? std::optional<int>(static_cast<int>(ss.start_index)) : std::nullopt,
      Nanoseconds(ss.found ? ss.level : NAN), steady_reason_name(ss.reason), Nanoseconds(warmup_level_ns(c, ss))};
  row.compile.first_call = Nanoseconds(c.empty() ? NAN : c[0]);
}

void compile_and_warm_up(const core::Progress& progress, TargetAgent& agent, const BenchConfig& cfg,
                         const BenchRowSpec& spec, BenchRow& row) {
  progress(fmt::format("{}: compiling (next: warm-up curve)", spec.label()));
  agent.call("bench.compile", compile_params(spec));
  auto r = read_as<reply::FirstCalls>(agent.call(
      "bench.first_calls",
      {{"key", spec.key()}, {"backend", spec.backend}, {"n", cfg.warmup_calls}, {"max_ns", cfg.budget_s * 0.5e9}}));
  set_warmup_curve(std::move(r.times_ns), row);
  row.compile.breakdown = compile_timers(r.compile_times_ns);
  const reply::Counters& counters = r.counters;
  row.graph_breaks = counters.graph_breaks;
  WarmupCounters wc;
  wc.graphs = counters.unique_graphs;
  wc.frames = counters.frames_total;
  for (const auto& b : counters.graph_break_reasons) wc.graph_break_reasons.push_back({b.reason, b.count});
  // The agent sends every counters["unimplemented"] reason as torch wrote it; which of them
  // skipped a frame is decided here, by the rule explain and trace use (core::skips_frame).
  for (const auto& reason : counters.unimplemented_reasons)
    if (core::skips_frame(reason)) wc.skip_reasons.push_back(reason);
  row.warmup_counters = std::move(wc);
  row.cudagraph_skips = counters.cudagraph_skips;
}

// ------------------------------------------------------------------ second process

void prepare_peer(const core::Progress& progress, FreshAgent& peer, const BenchConfig& cfg, const BenchRowSpec& spec,
                  bool warm_compile, BenchRow& row) {
  progress(fmt::format("{}: {} (next: timing)", spec.label(),
                       warm_compile ? "warm compile in a fresh process" : "compiling in a second process"));
  const FirstCompile first = peer.first_call();
  if (warm_compile) {
    row.compile.warm = Nanoseconds(first.first_call_ns);
    row.compile.warm_breakdown = compile_timers(first.breakdown);
    row.compile.warm_cache = cache_counters(first.counters);
  }
  // Past the warm-up curve's steady start (and CUDA graphs' warm-up and recording calls,
  // which reduce-overhead makes on the first calls) before anything is timed or weighed.
  const int start = row.steady_state ? row.steady_state->start_index.value_or(3) : 3;
  const json warm_up = {{"key", spec.key()},
                        {"backend", spec.backend},
                        {"n", std::clamp(start + 2, 3, std::max(3, cfg.warmup_calls))},
                        {"max_ns", cfg.budget_s * 0.25e9}};
  peer.call("bench.first_calls", warm_up);
  if (cfg.memory) {
    // This process never ran eager: its memory is the compiled model's and the compiler's.
    const reply::MemoryPeak compile =
        reply::memory_peak_from(peer.call("bench.memory_peak", {{"over", "compile and the first compiled calls"}}));
    peer.call("bench.memory_mark", json::object());
    peer.call("bench.first_calls", {{"key", spec.key()}, {"backend", spec.backend}, {"n", 3}});
    const reply::MemoryPeak steady =
        reply::memory_peak_from(peer.call("bench.memory_peak", {{"over", "3 steady compiled calls"}}));
    if (!row.memory) row.memory.emplace();
    Memory& m = *row.memory;
    const auto bytes = [](const std::optional<long long>& b) { return b ? static_cast<double>(*b) : NAN; };
    const double kept = bytes(compile.now.current_bytes) - bytes(compile.reading.baseline_bytes);
    m.compiled = Memory::Compiled{steady.reading.increase_bytes, compile.reading.increase_bytes,
                                  std::isfinite(kept) ? std::max(0.0, kept) : NAN,
                                  MemoryPeak{steady.reading.peak_bytes, steady.reading.method}};
  }
  peer.call("bench.eager_warmup", {{"n", 3}, {"max_ns", cfg.budget_s * 0.25e9}});
}

// ------------------------------------------------------------------------- sampling

namespace {

// Every process's harness floor, before its first pair: the empty callable through the
// same tight loop, calls per sample as the target's.
std::vector<double> harness_floor(const std::vector<Caller>& processes, int samples, int cps) {
  std::vector<double> all;
  for (const auto& call : processes) {
    const auto xs =
        read_as<reply::TimeBlock>(
            call("bench.time_block",
                 {{"which", "floor"}, {"samples", samples}, {"calls_per_sample", cps}, {"warmup_ns", kBlockWarmupNs}}))
            .samples_ns;
    all.insert(all.end(), xs.begin(), xs.end());
  }
  return all;
}

// How the pairs of blocks are sized.
struct BlockPlan {
  int calls_per_sample = 1;  // both sides of a pair alike
  int samples_per_block = 0;
  int min_pairs = 1;         // per process and look
  double chunk_s = 0;        // one process's share of one look
  double warmup_ns[2] = {};  // eager's, compiled's
};

BlockPlan plan_blocks(const BenchConfig& cfg, const SamplerConfig& sc, double clock_res, double eager_est,
                      double compiled_est) {
  BlockPlan plan;
  // The same calls per sample on both sides of a pair (so both pay the loop the same way),
  // sized so the faster side's sample lasts >= 1000 clock ticks.
  double faster =
      std::fmin(std::isfinite(eager_est) ? eager_est : INFINITY, std::isfinite(compiled_est) ? compiled_est : INFINITY);
  plan.calls_per_sample = calls_per_sample(std::isfinite(faster) ? faster : NAN, clock_res, 0.0);
  double slower =
      std::fmax(std::isfinite(eager_est) ? eager_est : 0.0, std::isfinite(compiled_est) ? compiled_est : 0.0);
  plan.chunk_s = cfg.budget_s / (sc.processes * sc.looks);
  // Blocks short enough that a chunk holds several pairs; at least min_blocks pairs over the
  // run, and at least one per chunk (a slow target then overruns a chunk by one pair at most).
  plan.min_pairs = std::max(1, (cfg.min_blocks + sc.processes * sc.looks - 1) / (sc.processes * sc.looks));
  plan.samples_per_block = samples_per_block(plan.chunk_s, plan.min_pairs, slower * plan.calls_per_sample);
  plan.warmup_ns[0] = block_warmup_ns(eager_est * plan.calls_per_sample);
  plan.warmup_ns[1] = block_warmup_ns(compiled_est * plan.calls_per_sample);
  return plan;
}

// What happened while the pairs were timed, beside their samples.
struct PairEvents {
  int dropped = 0, recompiles = 0, graph_breaks = 0, cudagraph_skips = 0;
  double switches = 0, load_max = NAN, busy_s = 0;
};

// One process's chunk of a look: pairs of blocks in random order, each pair that timed a
// compile dropped (another one runs), at least min_pairs, and a chunk of recompiling blocks
// given up at 3x its time.
void time_chunk(const Caller& process, int p, const BlockPlan& plan, const BenchConfig& cfg, const BenchRowSpec& spec,
                std::mt19937_64& order_rng, PairedSampler& sampler, PairEvents& events) {
  using Clock = std::chrono::steady_clock;
  const auto chunk_start = Clock::now();
  int pairs = 0;
  auto spent = [&] { return std::chrono::duration<double>(Clock::now() - chunk_start).count(); };
  while ((pairs < plan.min_pairs || spent() < plan.chunk_s) && spent() < 3 * plan.chunk_s + 1) {
    const bool eager_first = (order_rng() & 1) != 0;  // random pair order
    reply::TimeBlock blocks[2];
    for (int k = 0; k < 2; ++k) {
      const bool eager = (k == 0) == eager_first;
      json params = {{"which", eager ? "eager" : spec.key()},
                     {"samples", plan.samples_per_block},
                     {"calls_per_sample", plan.calls_per_sample},
                     {"warmup_ns", plan.warmup_ns[eager ? 0 : 1]}};
      if (eager) params.update({{"eager_via", cfg.eager_via}, {"key", spec.key()}});
      blocks[eager ? 0 : 1] = read_as<reply::TimeBlock>(process("bench.time_block", params));
    }
    int compiled_here = 0;
    for (const auto& b : blocks) {
      compiled_here += b.frames_compiled;
      events.switches += b.involuntary_switches;
      events.busy_s += b.wall_ns / 1e9;
      const double l = b.loadavg_1m;
      if (std::isfinite(l)) events.load_max = std::isfinite(events.load_max) ? std::max(events.load_max, l) : l;
    }
    events.graph_breaks += blocks[1].graph_breaks;
    events.cudagraph_skips += blocks[1].cudagraph_skips;
    if (compiled_here > 0) {  // the pair timed a compile: dropped, and another one runs
      ++events.dropped;
      events.recompiles += compiled_here;
      continue;
    }
    sampler.add_pair(p, blocks[0].samples_ns, blocks[1].samples_ns);
    ++pairs;
  }
}

// The interval the last look decided, how it was made, and each process's speedup with each
// of its segments' (one per look, in time order): how much the speedup moves between
// processes and over time, the evidence behind the interval.
Speedup speedup_from_looks(const Decision& d, const SamplerConfig& sc, const PairedSampler& sampler) {
  Speedup sp;
  sp.interval = {d.interval.speedup.estimate, d.interval.speedup.low, d.interval.speedup.high};
  sp.verdict = ::tct::stats::decide(sp.interval.estimate, sp.interval.low, sp.interval.high);
  sp.processes = d.interval.processes;
  sp.confidence = sc.confidence;
  sp.look_confidence = look_confidence(sc.confidence, sc.looks);
  sp.looks = d.look;
  sp.segments = d.interval.segments;
  sp.between_segment_sd = d.interval.between_sd;
  sp.within_sd = d.interval.within_sd;
  sp.method =
      "paired block log ratios; circular block bootstrap within processes, the spread between "
      "segments (processes and stretches of time) pooled with a prior, as a re-run would see it; "
      "Bonferroni over planned looks";
  auto speedup = [](const std::vector<double>& r) { return r.empty() ? NAN : std::exp(stats::mean(r)); };
  sp.per_process.emplace();
  for (const auto& segments : sampler.segments()) {
    ProcessSpeedup one;
    std::vector<double> all;
    for (const auto& seg : segments) {
      all.insert(all.end(), seg.begin(), seg.end());
      one.segment_speedups.push_back(speedup(seg));
    }
    one.blocks = static_cast<long long>(all.size());
    one.speedup = speedup(all);
    sp.per_process->push_back(std::move(one));
  }
  return sp;
}

}  // namespace

// Looks until the interval is as tight as --precision asks or the budget is spent; at each,
// every process times its chunk of pairs (time_chunk).
void sample_paired(const core::Progress& progress, const std::vector<Caller>& processes, const BenchConfig& cfg,
                   const BenchRowSpec& spec, double clock_res, double eager_est, int cpus, BenchRow& row) {
  using Clock = std::chrono::steady_clock;
  SamplerConfig sc;
  sc.precision = cfg.precision;
  sc.processes = static_cast<int>(processes.size());
  sc.looks = cfg.looks;
  sc.resamples = 2000;
  sc.seed = cfg.seed;
  PairedSampler sampler(sc);
  const double compiled_est = row.steady_state ? row.steady_state->estimate.count() : NAN;
  const BlockPlan plan = plan_blocks(cfg, sc, clock_res, eager_est, compiled_est);

  auto floor = harness_floor(processes, plan.samples_per_block, plan.calls_per_sample);
  std::mt19937_64 order_rng(cfg.seed ^ 0x9e3779b97f4a7c15ULL);
  PairEvents events;
  const auto start = Clock::now();
  Decision d;
  do {
    for (int p = 0; p < sc.processes; ++p)
      time_chunk(processes[static_cast<std::size_t>(p)], p, plan, cfg, spec, order_rng, sampler, events);
    d = sampler.look();
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    // The phase, where the estimate stands, and the time left (sampling stops earlier once
    // the interval is as tight as --precision asks).
    progress(fmt::format("{}: sampling, look {}/{}, speedup {:.2f}x ±{:.1f}%, at most {:.0f} s left", spec.label(),
                         d.look, sc.looks, d.interval.speedup.estimate,
                         std::isfinite(d.relative_half_width) ? d.relative_half_width * 100 : 0.0,
                         std::max(0.0, cfg.budget_s - elapsed)));
  } while (d.action == Action::Continue);

  const auto& eager = sampler.eager_samples();
  const auto& compiled = sampler.compiled_samples();
  row.speedup = speedup_from_looks(d, sc, sampler);
  row.latency = Latency{stats::summarize(eager), stats::summarize(compiled)};
  row.harness_floor = Nanoseconds(stats::median(floor));
  row.blocks = sampler.pairs();
  row.blocks_dropped_for_recompile = events.dropped;
  row.stop_reason = stop_name(d.action);
  row.recompiles_during_measurement = events.recompiles;
  row.cudagraph_skips = row.cudagraph_skips.value_or(0) + events.cudagraph_skips;
  Sampling s;
  s.calls_per_sample = plan.calls_per_sample;
  s.samples_per_block = plan.samples_per_block;
  s.block_warmup_eager = Nanoseconds(plan.warmup_ns[0]);
  s.block_warmup_compiled = Nanoseconds(plan.warmup_ns[1]);
  s.outliers_eager = outliers_of(eager);
  s.outliers_compiled = outliers_of(compiled);
  s.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  s.graph_breaks = events.graph_breaks;
  s.load = Load{events.load_max, cpus > 0 ? std::optional<int>(cpus) : std::nullopt,
                events.busy_s > 0 ? events.switches / events.busy_s : NAN};
  row.sampling = s;
  if (cfg.raw) row.samples = BenchRow::RawSamples{eager, compiled, plan.calls_per_sample};
}

// ---------------------------------------------------------------------- correctness

void check_correctness(const core::Progress& progress, TargetAgent& agent, const BenchConfig& cfg,
                       const BenchRowSpec& spec, BenchRow& row, const std::string& outputs) {
  if (!cfg.check) {
    row.correctness = Correctness{};  // checked false, no match, no mismatches
    return;
  }
  progress(fmt::format("{}: comparing outputs with eager (next: timing)", spec.label()));
  const auto start = std::chrono::steady_clock::now();
  const ToleranceOverride tol{cfg.rtol, cfg.atol};
  json params = {{"key", spec.key()}, {"tolerances", tolerance_table(tol)}, {"reference", true}};
  if (!outputs.empty()) params["outputs"] = outputs;
  Correctness report = correctness_report(read_as<reply::Check>(agent.call("bench.check", params)), tol);
  if (outputs.empty() && recheck_with_fallback_random(report)) {
    // Inductor draws its own random numbers: compare again with a copy compiled with
    // fallback_random, whose random ops draw eager's.
    progress(
        fmt::format("{}: outputs differ and the target draws random numbers; checking again "
                    "with inductor's fallback_random",
                    spec.label()));
    params["fallback_random"] = true;
    const auto again = read_as<reply::Check>(agent.call("bench.check", params));
    if (again.fallback_random) report = correctness_report(again, tol);
  }
  report.check_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.correctness = std::move(report);
}

}  // namespace tct::bench
