#include "bench/run.hpp"

#include "agent/agent.hpp"
#include "core/json_number.hpp"
#include "core/json_read.hpp"

#include "bench/json.hpp"
#include "stats/verdict.hpp"

#include <cmath>
#include <functional>
#include <memory>

#include <fmt/format.h>

#include "report/warning.hpp"
#include "bench/allocator.hpp"
#include "bench/aoti_row.hpp"
#include "bench/analysis.hpp"
#include "bench/breakdown_phase.hpp"
#include "bench/phases.hpp"
#include "bench/plan.hpp"
#include "bench/sampling.hpp"
#include "stats/break_even.hpp"
#include "stats/summary.hpp"

namespace tct::bench {
namespace {

// What the run was asked for, as the document's config records it.
Settings settings_of(const BenchConfig& cfg, const BenchPlan& plan) {
  Settings s;
  s.looks = cfg.looks;
  s.notes = plan.notes;
  s.backends = cfg.backends;
  s.modes = cfg.modes;
  s.dynamic = cfg.dynamic;
  s.fullgraph = cfg.fullgraph;
  s.precision = cfg.precision;
  s.budget_s = cfg.budget_s;
  s.warmup_calls = cfg.warmup_calls;
  s.eager_warmup_calls = cfg.eager_warmup_calls;
  s.min_blocks = cfg.min_blocks;
  s.check = cfg.check;
  s.compile_repeats = cfg.compile_repeats;
  s.rtol = cfg.rtol;
  s.atol = cfg.atol;
  s.compile_time = cfg.compile_time;
  s.memory = cfg.memory;
  s.raw = cfg.raw;
  s.eager_via = cfg.eager_via;
  s.allocator = cfg.allocator;
  s.allocator_compare = cfg.allocator_compare;
  s.breakdown = cfg.breakdown;
  s.train = cfg.target.train;
  s.params = cfg.target.params;
  s.device = cfg.target.device;
  s.dtype = cfg.target.dtype;
  return s;
}

BenchRow new_row(const BenchRowSpec& spec, double clock_res) {
  BenchRow row;
  row.backend = spec.backend;
  row.mode = spec.mode;
  row.dynamic = spec.dynamic;
  row.fullgraph = spec.fullgraph;
  row.label = spec.label();
  row.clock_resolution = Nanoseconds(clock_res);
  return row;
}

RowError row_error(const Error& e, const std::string& fallback_stage) {
  return {e.kind(), e.stage.empty() ? fallback_stage : e.stage, e.what(), e.hint(), static_cast<int>(e.code())};
}

// Break-even from what is known (cold first call when measured, else the main process's),
// as a range from the speedup interval: the most calls at its low end, the fewest at its
// high end. No number when the interval is inconclusive or includes 1 (no reliable gain).
void derive_break_even(BenchRow& row) {
  if (!row.latency || !row.speedup) return;
  const Speedup& sp = *row.speedup;
  const double eager = row.latency->eager_ns.median;
  const std::size_t start = row.steady_state && row.steady_state->start_index ? *row.steady_state->start_index : 1;
  const bool no_verdict = sp.verdict == SpeedupVerdict::Inconclusive || sp.verdict == SpeedupVerdict::NotMeasured;
  const bool no_gain = !no_verdict && sp.verdict != SpeedupVerdict::Faster;
  auto calls = [&](double first, double speedup) -> std::optional<long long> {
    const double compiled = eager / speedup;
    auto n = stats::break_even_calls(first_call_extra_ns(row.warmup_curve_ns, start, compiled, first), eager, compiled);
    if (!n) return std::nullopt;
    return static_cast<long long>(std::ceil(*n));
  };
  auto range = [&](double first) -> std::optional<CallRange> {
    if (!std::isfinite(first) || no_verdict || no_gain) return std::nullopt;
    return CallRange{calls(first, sp.interval.estimate), calls(first, sp.interval.high), calls(first, sp.interval.low)};
  };
  const double cold = row.compile.cold.count(), warm = row.compile.warm.count();
  BreakEven be;
  be.verdict = no_verdict ? BreakEvenVerdict::Inconclusive
               : no_gain  ? BreakEvenVerdict::NoReliableGain
                          : BreakEvenVerdict::BreaksEven;
  be.cold = range(std::isfinite(cold) ? cold : row.compile.first_call.count());
  be.warm = range(warm);
  row.break_even_calls = be.cold ? be.cold->estimate : std::nullopt;
  row.break_even_calls_warm = be.warm ? be.warm->estimate : std::nullopt;
  row.break_even = be;
}

// Median and spread of repeated compile times; none without a finite one.
std::optional<CompileSpread> spread_of(const std::vector<double>& xs) {
  std::vector<double> ok;
  for (double x : xs)
    if (std::isfinite(x)) ok.push_back(x);
  if (ok.empty()) return std::nullopt;
  auto [lo, hi] = std::minmax_element(ok.begin(), ok.end());
  return CompileSpread{Nanoseconds(stats::median(ok)), Nanoseconds(*lo), Nanoseconds(*hi), ok,
                       static_cast<int>(ok.size())};
}

// Each finished row's flags and warnings, decided from its fields (bench/analysis.cpp), and the
// run's warnings listed afresh (all_warnings): done before every hand-over, since a row's flags
// change as its phases fill it.
void decide_flags(const BenchConfig& cfg, BenchResult& result) {
  std::vector<report::Warning> warnings;
  RowWarningInput in{cfg.precision, cfg.check};
  in.busy_machine = machine_load(result.rows, 0).busy();
  for (auto& row : result.rows) {
    if (row.status == RowStatus::Pending || row.status == RowStatus::Running) continue;
    row.flags.clear();
    const std::string who = result.rows.size() > 1 ? row.label : "";
    for (const auto& w : row_warnings(row, who, in)) {
      row.flags.push_back({report::code_of(w.warning), w.applies_to, report::flag_of(w.warning)});
      warnings.push_back(w.warning);
    }
  }
  for (const auto& w : result.warnings) warnings.push_back(w);
  result.all_warnings = std::move(warnings);
}

// Errors a row absorbs (the row failed, the others still run); anything else ends the run.
bool row_failure(const Error& e) { return e.code() == ExitCode::TargetFailed; }

// What the main agent said of its process (bench.env): the timer, the CPUs and torch's threads.
struct ProcessFacts {
  double clock_res = NAN;
  int cpus = 0, threads = 0;
  std::string device_type = "cpu";
};

ProcessFacts describe_process(const reply::Env& env, BenchResult& result) {
  ProcessFacts f;
  if (env.clock) {
    f.clock_res = env.clock->resolution_ns;
    result.clock = Clock{Nanoseconds(f.clock_res), env.clock->implementation, std::nullopt};
    if (env.clock->declared_resolution_ns)
      result.clock->declared_resolution = Nanoseconds(*env.clock->declared_resolution_ns);
  }
  f.cpus = env.cpus;
  f.threads = env.num_threads;
  f.device_type = env.device_type;
  result.process =
      TargetProcess{f.threads > 0 ? std::optional<int>(f.threads) : std::nullopt, f.device_type, env.set_stance};
  return f;
}

// Why the allocator comparison does not run ("" when it does): CPU only (a GPU's memory comes
// from torch's caching allocator, not malloc), and only when another state exists here.
std::string allocator_compare_reason(const BenchConfig& cfg, const ProcessFacts& process, const AllocatorSetup& alloc,
                                     const BenchPlan& plan) {
  if (!cfg.allocator_compare) return "--no-allocator-compare";
  if (process.device_type != "cpu") return "not on the CPU: device memory does not come from malloc";
  if (alloc.others.empty()) return "no other allocator state on this machine";
  if (!plan.rows.empty() && plan.rows[0].backend == kAotiBackend)
    return "the first row is aoti: the comparison times torch.compile's warm compiles";
  return "";
}

// The row's memory before it runs: eager's side, from the eager baseline's process.
Memory eager_memory(const EagerBaseline& eager) {
  const std::optional<MemoryReading>& em = eager.memory;
  Memory m;
  m.kind = em && !em->kind.empty() ? em->kind : "rss";
  m.eager_increase_bytes = em ? em->increase_bytes : std::nullopt;
  m.eager_peak = MemoryPeak{em ? em->peak_bytes : std::nullopt, em ? em->method : ""};
  return m;
}

// What every row's measurement shares.
struct RowContext {
  const core::Progress& progress;
  core::Executor& exec;
  const BenchConfig& cfg;
  const core::Env& shared_env;
  const ProcessFacts& process;
  double eager_est;
  std::function<void()> hand_over;  // the result so far, to the caller
};

// One row, from its compile to its paired sampling, in the main agent and the row's second
// process (`peer`, started here unless row 0's already was). A failure the row absorbs is
// recorded in it (row_failure; the aoti row absorbs torch.export's refusal too: an
// "unsupported" model is the row's answer, not bad usage); anything else ends the run.
// Returns whether the row failed with the main agent lost: the next row needs a new one.
bool measure_row(const RowContext& ctx, const BenchRowSpec& spec, double budget_s, TargetAgent& agent,
                 std::unique_ptr<FreshAgent>& peer, BenchRow& row) {
  const BenchConfig& cfg = ctx.cfg;
  const ProcessFacts& p = ctx.process;
  const bool aoti = spec.backend == kAotiBackend;
  std::string stage = "compile";
  try {
    if (!peer) {
      peer = std::make_unique<FreshAgent>(ctx.exec, cfg, spec, ctx.shared_env, cfg.memory);
      peer->settle();  // before the compile: nothing may overlap the warm-up curve
    }
    BenchConfig row_cfg = cfg;
    row_cfg.budget_s = budget_s;
    if (aoti) {
      measure_aoti_row(ctx.progress, agent, *peer, row_cfg, spec, p.clock_res, ctx.eager_est, p.cpus, p.threads, row,
                       stage);
    } else {
      compile_and_warm_up(ctx.progress, agent, cfg, spec, row);
      ctx.hand_over();
      stage = "correctness";
      check_correctness(ctx.progress, agent, cfg, spec, row);
      stage = "measurement";
      prepare_peer(ctx.progress, *peer, cfg, spec, cfg.compile_time, row);
      ctx.hand_over();
      sample_paired(ctx.progress, {agent.caller(), peer->caller()}, row_cfg, spec, p.clock_res, ctx.eager_est, p.cpus,
                    row);
      stage = "breakdown";
      if (cfg.breakdown) measure_breakdown(ctx.progress, agent.caller(), row_cfg, spec, p.clock_res, row);
    }
    peer->close();
    row.status = RowStatus::Ok;
    return false;
  } catch (const Error& e) {
    if (!row_failure(e) && !(aoti && e.code() != ExitCode::Interrupted && e.code() != ExitCode::Internal)) throw;
    row.status = RowStatus::Failed;
    row.error = row_error(e, stage);
    if (aoti) row.error->exit_code = static_cast<int>(ExitCode::TargetFailed);
    return agent_lost(e);
  }
}

// The row's cold and warm compile times, each repeat in a fresh process. Cold: row 0
// compiled first in the main process with empty caches; other cold compiles get a fresh
// process with fresh caches each. Warm: the row's second process, and each repeat a fresh
// process on the caches the main agent filled (`shared_env`).
void measure_compile_times(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg,
                           const BenchRowSpec& spec, bool first_row, const core::Env& shared_env, Compile& comp) {
  std::vector<double> cold, warm;
  std::vector<CacheCounters> warm_hits;
  if (first_row) {
    cold.push_back(comp.first_call.count());
    comp.cold_source = "main agent, fresh caches, first compile in the process";
  } else {
    comp.cold_source = "fresh process, fresh caches";
  }
  warm.push_back(comp.warm.count());
  if (comp.warm_cache) warm_hits.push_back(*comp.warm_cache);
  while (static_cast<int>(cold.size()) < cfg.compile_repeats) {
    progress(
        fmt::format("{}: cold compile {}/{} in a fresh process", spec.label(), cold.size() + 1, cfg.compile_repeats));
    CacheDirs own;
    const FirstCompile c = compile_in_fresh_process(exec, cfg, spec, own.env());
    cold.push_back(c.first_call_ns);
    if (!first_row && cold.size() == 1) comp.breakdown = compile_timers(c.breakdown);
  }
  while (static_cast<int>(warm.size()) < cfg.compile_repeats) {
    progress(
        fmt::format("{}: warm compile {}/{} in a fresh process", spec.label(), warm.size() + 1, cfg.compile_repeats));
    const FirstCompile w = compile_in_fresh_process(exec, cfg, spec, shared_env);
    warm.push_back(w.first_call_ns);
    warm_hits.push_back(cache_counters(w.counters));
  }
  Compile::Repeats rep;
  rep.cold = spread_of(cold);
  rep.warm = spread_of(warm);
  rep.repeats = cfg.compile_repeats;
  rep.single_measurement = cfg.compile_repeats == 1;
  // The warm figure is a cache hit only when every warm compile says so.
  for (const auto& h : warm_hits)
    if (h.hit) rep.warm_cache_hit = rep.warm_cache_hit.value_or(true) && *h.hit;
  comp.cold = rep.cold ? rep.cold->median : kNotMeasured;
  comp.warm = rep.warm ? rep.warm->median : kNotMeasured;
  comp.repeated = rep;
}

}  // namespace

// The phases, in order: load the target (and row 0's second process beside it), the eager
// baseline, each row, the allocator comparison on row 0, the compile times. After each, the
// result so far goes to on_partial.
BenchResult run_bench(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg,
                      const core::OnPartial<BenchResult>& on_partial) {
  BenchPlan plan = plan_rows(cfg.backends, cfg.modes, cfg.dynamic, cfg.fullgraph);
  BenchResult result;
  result.config = settings_of(cfg, plan);
  result.phase = "load";
  if (on_partial) on_partial(result);

  // The main agent starts with fresh caches when compile time is measured, so the first
  // row's warm-up curve starts with a cold compile in a process that compiled nothing yet.
  std::unique_ptr<CacheDirs> main_cache;
  if (cfg.compile_time) main_cache = std::make_unique<CacheDirs>();
  // Every process of the headline runs in the --allocator state (a missing library is a usage
  // error before anything starts).
  const AllocatorSetup alloc = resolve_allocator(cfg);
  const core::Env cache_env = main_cache ? main_cache->env() : core::Env{};
  core::Env shared_env = cache_env;
  for (auto& kv : state_env(alloc.state, alloc.library)) shared_env.push_back(kv);
  // Row 0's second process starts now, so its interpreter start, torch import and target
  // load overlap the main agent's (all unmeasured). It is settled (idle) before the first
  // timed call, and compiles only after the main agent's cold compile filled the caches.
  std::unique_ptr<FreshAgent> peer;
  if (!plan.rows.empty()) peer = std::make_unique<FreshAgent>(exec, cfg, plan.rows[0], shared_env, cfg.memory);
  core::Env main_env = shared_env;
  // --trace: torch's own structured log of the measured compiles, for `tct trace DIR`.
  if (!cfg.trace_dir.empty()) main_env.emplace_back("TORCH_TRACE", cfg.trace_dir);
  TargetAgent agent(progress, exec, cfg, main_env);
  result.target = agent.described();
  // The result so far, to the caller, its flags decided first.
  const auto hand_over = [&] {
    decide_flags(cfg, result);
    if (on_partial) on_partial(result);
  };

  const reply::Env env = query_env(agent);
  validate_plan(plan, env.backends, env.modes);
  const ProcessFacts process = describe_process(env, result);
  // The allocator comparison takes a share of row 0's budget.
  const std::string compare_reason = allocator_compare_reason(cfg, process, alloc, plan);
  const bool compare = compare_reason.empty();
  const double compare_budget_s = compare ? cfg.budget_s * kCompareShare / static_cast<double>(alloc.others.size()) : 0;
  result.allocator = allocator_section(alloc, env.allocator, compare, compare_reason, compare_budget_s);
  for (const auto& spec : plan.rows) result.rows.push_back(new_row(spec, process.clock_res));
  if (!cfg.check) result.warnings.push_back(report::Warning{report::kind::CheckSkipped{}, ""});
  result.phase = "eager";
  hand_over();

  if (peer) {
    progress(fmt::format("loading {} in a second process", cfg.target.target));
    peer->settle();  // nothing timed may overlap its start-up
  }
  result.eager = eager_baseline(progress, agent, cfg);  // throws: no baseline, no rows
  result.phase = "rows";
  hand_over();

  const RowContext ctx{progress, exec, cfg, shared_env, process, result.eager->steady.count(), hand_over};
  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    BenchRow& row = result.rows[i];
    row.status = RowStatus::Running;
    if (cfg.memory && plan.rows[i].backend != kAotiBackend) row.memory = eager_memory(*result.eager);
    // Row 0 shares its budget with the allocator comparison.
    const double budget_s = i == 0 && compare ? cfg.budget_s * (1 - kCompareShare) : cfg.budget_s;
    if (measure_row(ctx, plan.rows[i], budget_s, agent, peer, row) && i + 1 < plan.rows.size()) agent.restart();
    peer.reset();
    derive_break_even(row);
    hand_over();
  }
  agent.close();
  if (auto w = load_warning(machine_load(result.rows, process.threads))) result.warnings.push_back(*w);

  const BenchRow* headline = result.rows.empty() ? nullptr : &result.rows[0];
  if (headline && headline->ok()) {
    add_headline_state(*result.allocator, *headline);
    if (compare) {
      result.phase = "allocator";
      hand_over();
      // Warm compiles on the caches the main agent filled, as the row's second process.
      compare_allocator_states(progress, exec, cfg, plan.rows[0], alloc, cache_env, *headline, process.clock_res,
                               ctx.eager_est, process.cpus, compare_budget_s, *result.allocator);
    }
  }
  if (auto w = conclude_allocator(*result.allocator, headline)) result.warnings.push_back(*w);
  hand_over();

  if (cfg.compile_time) {
    result.phase = "compile_time";
    for (std::size_t i = 0; i < plan.rows.size(); ++i) {
      BenchRow& row = result.rows[i];
      if (!row.ok() || plan.rows[i].backend == kAotiBackend) continue;  // its package compile is timed once
      try {
        measure_compile_times(progress, exec, cfg, plan.rows[i], i == 0, shared_env, row.compile);
      } catch (const Error& e) {
        if (!row_failure(e)) throw;
        row.compile.error = row_error(e, "compile_time");
      }
      derive_break_even(row);
      hand_over();
    }
  }
  result.phase = "done";
  hand_over();
  return result;
}

std::optional<Error> bench_outcome(const BenchResult& result, const BenchConfig& cfg) {
  std::vector<const BenchRow*> failed, mismatched;
  for (const auto& r : result.rows) {
    if (r.failed()) failed.push_back(&r);
    if (cfg.check && r.correctness && r.correctness->match == false) mismatched.push_back(&r);
  }
  auto label = [](const BenchRow& r) { return r.label.empty() ? std::string("?") : r.label; };
  if (!failed.empty()) {
    const BenchRow& r = *failed.front();
    const RowError e = r.error.value_or(RowError{});
    Error err(
        ExitCode::TargetFailed, e.kind.empty() ? "compile_failed" : e.kind,
        fmt::format("{}{} failed at {}: {}",
                    failed.size() > 1 ? fmt::format("{} of {} rows failed; ", failed.size(), result.rows.size()) : "",
                    label(r), e.stage.empty() ? "?" : e.stage, e.message),
        e.hint);
    err.stage = e.stage;
    return err;
  }
  if (!mismatched.empty()) {
    const BenchRow& r = *mismatched.front();
    const auto& mm = r.correctness->mismatches;
    std::string where = mm.empty() ? "" : fmt::format(" ({} {})", mm[0].path, mm[0].reason);
    return Error(ExitCode::CheckFailed, "output_mismatch",
                 fmt::format("{}: compiled outputs differ from eager{}", label(r), where),
                 "loosen --rtol/--atol if this is acceptable rounding, or --no-check to skip the check");
  }
  return std::nullopt;
}

}  // namespace tct::bench
