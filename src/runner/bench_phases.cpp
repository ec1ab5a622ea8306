#include "runner/bench_phases.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "runner/target_options.hpp"
#include "runner/bench_analysis.hpp"
#include "runner/sampling.hpp"
#include "stats/outliers.hpp"
#include "stats/summary.hpp"

namespace tct::runner::bench {
namespace fs = std::filesystem;

namespace {

std::vector<double> doubles(const json& arr) {
  std::vector<double> out;
  if (!arr.is_array()) return out;
  out.reserve(arr.size());
  for (const auto& v : arr) out.push_back(v.is_number() ? v.get<double>() : NAN);
  return out;
}

json compile_params(const BenchRowSpec& spec) {
  return {{"key", spec.key()}, {"backend", spec.backend}, {"mode", spec.mode},
          {"dynamic", spec.dynamic}, {"fullgraph", spec.fullgraph}};
}

json outliers_json(const std::vector<double>& xs) {
  auto o = stats::detect_outliers(xs);
  return {{"count", o.count}, {"fraction", o.fraction}, {"high", o.high.size()}, {"low", o.low.size()},
          {"relative_fallback", o.used_relative_fallback}};
}

std::string stop_name(Action a) {
  switch (a) {
    case Action::Stop_Precise: return "precision";
    case Action::Stop_Budget: return "budget";
    case Action::Stop_MaxBlocks: return "max_blocks";
    case Action::Continue: return "continue";
  }
  return "unknown";
}

}  // namespace

// ------------------------------------------------------------------------ cache dirs

CacheDirs::CacheDirs() {
  std::string pattern = (fs::temp_directory_path() / "tct-cache-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    throw Error(ExitCode::Internal, "internal", "cannot create a temporary cache folder",
                "check that the temp folder ($TMPDIR) is writable");
  root_ = buf.data();
  fs::create_directories(fs::path(root_) / "inductor");
  fs::create_directories(fs::path(root_) / "triton");
}

CacheDirs::~CacheDirs() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

Env CacheDirs::env() const {
  return {{"TORCHINDUCTOR_CACHE_DIR", (fs::path(root_) / "inductor").string()},
          {"TRITON_CACHE_DIR", (fs::path(root_) / "triton").string()}};
}

// ---------------------------------------------------------------------- target agent

TargetAgent::TargetAgent(Host& host, Executor& exec, const BenchConfig& cfg, Env env)
    : host_(host), exec_(exec), cfg_(cfg), env_(std::move(env)) {
  start();
}

void TargetAgent::start() {
  agent_ = exec_.start(env_);
  host_.progress(fmt::format("loading {}", cfg_.target.target));
  described_ = agent_->call("target.load", to_load_params(cfg_.target));
}

json TargetAgent::call(const std::string& op, const json& params) {
  return agent_->call(op, params);
}

void TargetAgent::restart() {
  agent_.reset();  // kills the old process group
  start();
}

void TargetAgent::close() {
  if (agent_) close_quickly(*agent_);
}

void close_quickly(Session& agent) {
  try {
    agent.send("bench.exit", json::object());
  } catch (const Error&) {
    // already gone: close() below reaps it
  }
  agent.close();
}

// ------------------------------------------------------------------- fresh agents

FreshAgent::FreshAgent(Executor& exec, const BenchConfig& cfg, const BenchRowSpec& spec, const Env& env)
    : spec_(spec) {
  try {
    agent_ = exec.spawn(env);
    load_id_ = agent_->send("target.load", to_load_params(cfg.target));
    compile_id_ = agent_->send("bench.compile", compile_params(spec));
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
    agent_->receive(load_id_, "target.load");
    agent_->receive(compile_id_, "bench.compile");
  } catch (const Error& e) {
    error_ = e;
    agent_.reset();  // kills its process group
  }
}

json FreshAgent::first_call() {
  settle();
  if (error_) throw *error_;
  json r = agent_->call("bench.first_calls", {{"key", spec_.key()}, {"backend", spec_.backend}, {"n", 1}});
  close_quickly(*agent_);
  agent_.reset();
  auto t = doubles(r["times_ns"]);
  return {{"first_call_ns", t.empty() ? json(nullptr) : num(t[0])},
          {"breakdown", r.value("compile_times_ns", json::object())}};
}

json query_env(TargetAgent& agent) { return agent.call("bench.env", json::object()); }

// ------------------------------------------------------------------------- eager

json eager_baseline(Host& host, TargetAgent& agent, const BenchConfig& cfg) {
  host.progress("eager warm-up (next: compile)");
  // Warm-up may not eat the sampling budget: a slow target stops after half of it.
  // With memory on, the warm-up calls after the first also give eager's peak memory.
  json r = agent.call("bench.eager_warmup",
                      {{"n", cfg.eager_warmup_calls}, {"max_ns", cfg.budget_s * 0.5e9}, {"memory", cfg.memory}});
  auto times = doubles(r["times_ns"]);
  json out = {{"warmup_ns", r["times_ns"]},
              {"first_call_ns", times.empty() ? json(nullptr) : num(times[0])},
              {"steady_ns", num(times.size() > 1 ? stats::median(std::span(times).subspan(times.size() / 2))
                                                 : (times.empty() ? NAN : times[0]))},
              {"memory", nullptr}};
  if (cfg.memory)
    out["memory"] = r.contains("memory") && r["memory"].is_object()
                        ? r["memory"]
                        : agent.call("bench.memory", {{"which", "eager"}, {"calls", 3}});  // no resettable peak
  return out;
}

// ------------------------------------------------------------------ compile/warm-up

void compile_and_warm_up(Host& host, TargetAgent& agent, const BenchConfig& cfg,
                         const BenchRowSpec& spec, json& row) {
  host.progress(fmt::format("{}: compiling (next: warm-up curve)", spec.label()));
  agent.call("bench.compile", compile_params(spec));
  json r = agent.call("bench.first_calls", {{"key", spec.key()},
                                            {"backend", spec.backend},
                                            {"n", cfg.warmup_calls},
                                            {"max_ns", cfg.budget_s * 0.5e9}});
  auto curve = doubles(r["times_ns"]);
  row["warmup_curve_ns"] = r["times_ns"];
  auto ss = stats::detect_steady_state(curve);
  row["steady_state"] = steady_state_json(ss);
  row["steady_state"]["estimate_ns"] = num(warmup_level_ns(curve, ss));
  row["compile"]["first_call_ns"] = curve.empty() ? json(nullptr) : num(curve[0]);
  row["compile"]["breakdown"] = r.value("compile_times_ns", json::object());
  const json& counters = r.value("counters", json::object());
  row["graph_breaks"] = counters.value("graph_breaks", 0);
  row["graph_break_reasons"] = counters.value("graph_break_reasons", json::array());
  row["graphs"] = counters.value("unique_graphs", 0);
  row["frames_compiled_in_warmup"] = counters.value("frames_total", 0);
}

// ------------------------------------------------------------------------- sampling

// The peak over blocks: the largest peak and the largest rise above a block's baseline.
void merge_peak(json& acc, const json& block) {
  if (!block.is_object() || !block.contains("peak_bytes") || !block["peak_bytes"].is_number()) return;
  if (!acc.is_object()) {
    acc = block;
    acc["blocks"] = 1;
    return;
  }
  auto bigger = [&](const char* k) {
    if (block.contains(k) && block[k].is_number() && (!acc[k].is_number() || block[k].get<double>() > acc[k].get<double>()))
      acc[k] = block[k];
  };
  bigger("peak_bytes");
  bigger("increase_bytes");
  acc["blocks"] = acc.value("blocks", 0) + 1;
}

void sample_interleaved(Host& host, TargetAgent& agent, const BenchConfig& cfg,
                        const BenchRowSpec& spec, double clock_res, double eager_est, json& row,
                        json* compiled_memory) {
  double compiled_est = row["steady_state"].value("estimate_ns", json()).is_number()
                            ? row["steady_state"]["estimate_ns"].get<double>()
                            : NAN;
  // Each sample lasts >= 1000 clock ticks (nanobench's rule, runner/sampling.hpp).
  int cps_e = calls_per_sample(eager_est, clock_res, 0.0);
  int cps_c = calls_per_sample(compiled_est, clock_res, 0.0);
  double sample_ns = std::max(std::isfinite(eager_est) ? eager_est * cps_e : 0.0,
                              std::isfinite(compiled_est) ? compiled_est * cps_c : 0.0);
  SamplerConfig sc;
  sc.precision = cfg.precision;
  sc.budget_s = cfg.budget_s;
  sc.min_blocks = cfg.min_blocks;
  sc.max_blocks = std::max(cfg.min_blocks, 200);
  sc.samples_per_block = samples_per_block(cfg.budget_s, cfg.min_blocks, sample_ns);
  sc.resamples = 1000;  // per decision; the final interval below uses 2000
  sc.seed = cfg.seed;
  AdaptiveSampler sampler(sc);
  row["calls_per_sample"] = {{"eager", cps_e}, {"compiled", cps_c}};
  row["samples_per_block"] = sc.samples_per_block;

  int recompiles = 0, breaks_during = 0;
  const auto start = std::chrono::steady_clock::now();
  Decision d;
  while (true) {
    json e = agent.call("bench.time_block", {{"which", "eager"}, {"samples", sc.samples_per_block},
                                             {"calls_per_sample", cps_e}, {"eager_via", cfg.eager_via},
                                             {"key", spec.key()}});
    auto es = doubles(e["samples_ns"]);
    sampler.add_eager_block(es);
    json c = agent.call("bench.time_block", {{"which", spec.key()}, {"samples", sc.samples_per_block},
                                             {"calls_per_sample", cps_c}, {"memory", compiled_memory != nullptr}});
    if (compiled_memory) merge_peak(*compiled_memory, c.value("memory", json()));
    auto cs = doubles(c["samples_ns"]);
    sampler.add_compiled_block(cs);
    recompiles += c.value("frames_compiled", 0);
    breaks_during += c.value("graph_breaks", 0);
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    d = sampler.next(elapsed);
    host.progress(fmt::format("{}: block {}, speedup {:.2f}x ±{:.1f}% after {:.1f}/{:.0f} s (next: {})",
                             spec.label(), d.blocks, d.speedup.estimate,
                             std::isfinite(d.relative_half_width) ? d.relative_half_width * 100 : 0.0, elapsed,
                             cfg.budget_s, d.action == Action::Continue ? "more blocks" : "correctness"));
    if (d.action != Action::Continue) break;
  }
  const auto& eager = sampler.eager_samples();
  const auto& compiled = sampler.compiled_samples();
  auto final_iv = stats::bootstrap_ratio_of_medians(eager, compiled, sc.confidence, 2000, cfg.seed);
  row["speedup"] = interval_json(final_iv, sc.confidence);
  row["latency"] = {{"eager", summary_json(stats::summarize(eager))},
                    {"compiled", summary_json(stats::summarize(compiled))}};
  row["outliers"] = {{"eager", outliers_json(eager)}, {"compiled", outliers_json(compiled)}};
  row["blocks"] = d.blocks;
  row["stop_reason"] = stop_name(d.action);
  row["sampling_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row["recompiles_during_measurement"] = recompiles;
  row["graph_breaks_during_measurement"] = breaks_during;
  if (cfg.raw) row["samples"] = {{"eager", eager}, {"compiled", compiled}, {"calls_per_sample", row["calls_per_sample"]}};
}

// ---------------------------------------------------------------------- correctness

void check_correctness(Host& host, TargetAgent& agent, const BenchConfig& cfg,
                       const BenchRowSpec& spec, json& row) {
  if (!cfg.check) {
    row["correctness"] = {{"checked", false}, {"match", nullptr}, {"mismatches", json::array()},
                          {"nondeterministic", nullptr}};
    return;
  }
  host.progress(fmt::format("{}: comparing outputs with eager (next: timing)", spec.label()));
  json r = agent.call("bench.check", {{"key", spec.key()}});
  analysis::ToleranceOverride tol{cfg.rtol, cfg.atol};
  row["correctness"] = correctness_json(r.value("eager_vs_eager", json::array()),
                                        r.value("compiled_vs_eager", json::array()), tol);
}

// --------------------------------------------------------------------------- memory

void measure_memory(TargetAgent& agent, const BenchRowSpec& spec, const json& eager_memory,
                    const json& compiled_memory, json& row) {
  json c = compiled_memory.is_object() ? compiled_memory
                                       : agent.call("bench.memory", {{"which", spec.key()}, {"calls", 3}});
  auto get = [](const json& m, const char* k) { return m.is_object() && m.contains(k) ? m[k] : json(nullptr); };
  row["memory"] = {{"kind", c.value("kind", "rss")},
                   {"eager_peak_bytes", get(eager_memory, "peak_bytes")},
                   {"compiled_peak_bytes", get(c, "peak_bytes")},
                   {"eager_increase_bytes", get(eager_memory, "increase_bytes")},
                   {"compiled_increase_bytes", get(c, "increase_bytes")},
                   {"method", c.contains("blocks") ? fmt::format("{}, the largest of {} blocks",
                                                                  c.value("method", ""), c.value("blocks", 0))
                                                    : c.value("method", "")}};
}

// ------------------------------------------------------------------ fresh processes

}  // namespace tct::runner::bench
