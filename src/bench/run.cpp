#include "bench/run.hpp"
#include "core/json_number.hpp"

#include "bench/json.hpp"
#include "bench/verdict.hpp"

#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "report/document.hpp"
#include "report/warnings.hpp"
#include "bench/allocator.hpp"
#include "bench/analysis.hpp"
#include "bench/phases.hpp"
#include "bench/plan.hpp"
#include "bench/sampling.hpp"
#include "stats/break_even.hpp"
#include "stats/summary.hpp"

namespace tct::runner {
namespace {

using bench::TargetAgent;

std::vector<std::string> strings(const json& arr) {
  std::vector<std::string> out;
  if (arr.is_array())
    for (const auto& v : arr)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

json config_json(const BenchConfig& cfg, const BenchPlan& plan) {
  json fg = json::array();
  for (bool f : cfg.fullgraph) fg.push_back(f);
  return {{"backends", cfg.backends},       {"modes", cfg.modes},
          {"dynamic", cfg.dynamic},         {"fullgraph", fg},
          {"precision", cfg.precision},     {"budget_s", cfg.budget_s},
          {"warmup_calls", cfg.warmup_calls}, {"eager_warmup_calls", cfg.eager_warmup_calls},
          {"min_blocks", cfg.min_blocks},   {"check", cfg.check},
          {"looks", cfg.looks},             {"compile_repeats", cfg.compile_repeats},
          {"rtol", cfg.rtol ? json(*cfg.rtol) : json(nullptr)},
          {"atol", cfg.atol ? json(*cfg.atol) : json(nullptr)},
          {"compile_time", cfg.compile_time}, {"memory", cfg.memory},
          {"raw", cfg.raw},                 {"eager_via", cfg.eager_via},
          {"allocator", cfg.allocator},     {"allocator_compare", cfg.allocator_compare},
          {"train", cfg.target.train},      {"params", cfg.target.params},
          {"device", cfg.target.device ? json(*cfg.target.device) : json(nullptr)},
          {"dtype", cfg.target.dtype ? json(*cfg.target.dtype) : json(nullptr)},
          {"notes", plan.notes}};
}

json new_row(const BenchRowSpec& spec, double clock_res) {
  return {{"backend", spec.backend},
          {"mode", spec.mode},
          {"dynamic", spec.dynamic},
          {"fullgraph", spec.fullgraph},
          {"label", spec.label()},
          {"status", "pending"},
          {"error", nullptr},
          {"speedup", nullptr},
          {"latency", nullptr},
          {"warmup_curve_ns", json::array()},
          {"steady_state", nullptr},
          {"compile", {{"cold_ns", nullptr}, {"warm_ns", nullptr}, {"first_call_ns", nullptr},
                       {"breakdown", json::object()}, {"cold_source", nullptr}}},
          {"break_even_calls", nullptr},
          {"break_even_calls_warm", nullptr},
          {"break_even", nullptr},
          {"harness_floor_ns", nullptr},
          {"blocks_dropped_for_recompile", 0},
          {"correctness", nullptr},
          {"memory", nullptr},
          {"recompiles_during_measurement", nullptr},
          {"graph_breaks", nullptr},
          {"blocks", 0},
          {"stop_reason", nullptr},
          {"clock_resolution_ns", num(clock_res)},
          {"flags", json::array()}};
}

json error_json(const Error& e, const std::string& fallback_stage) {
  return {{"kind", e.kind()},
          {"stage", e.stage.empty() ? fallback_stage : e.stage},
          {"message", e.what()},
          {"hint", e.hint()},
          {"exit_code", static_cast<int>(e.code())}};
}

// Break-even from what is known (cold first call when measured, else the main process's),
// as a range from the speedup interval: the most calls at its low end, the fewest at its
// high end. No number when the interval is inconclusive or includes 1 (no reliable gain).
void derive_break_even(json& row) {
  if (!row["latency"].is_object() || !row["speedup"].is_object()) return;
  std::vector<double> curve;
  for (const auto& v : row["warmup_curve_ns"]) curve.push_back(v.is_number() ? v.get<double>() : NAN);
  const json& sp = row["speedup"];
  const double eager = core::number_or_nan(row["latency"]["eager"], "median");
  std::size_t start = row["steady_state"].is_object() && row["steady_state"]["start_index"].is_number()
                          ? row["steady_state"]["start_index"].get<std::size_t>()
                          : 1;
  const auto verdict = tct::bench::verdict_of(sp);
  const bool no_verdict = verdict == tct::bench::SpeedupVerdict::Inconclusive ||
                          verdict == tct::bench::SpeedupVerdict::NotMeasured;
  const bool no_gain = !no_verdict && verdict != tct::bench::SpeedupVerdict::Faster;
  auto calls = [&](double first, double speedup) -> json {
    std::optional<double> f;
    if (std::isfinite(first)) f = first;
    const double compiled = eager / speedup;
    auto n = stats::break_even_calls(first_call_extra_ns(curve, start, compiled, f), eager, compiled);
    return n ? json(static_cast<long long>(std::ceil(*n))) : json(nullptr);
  };
  auto range = [&](double first) -> json {
    if (!std::isfinite(first) || no_verdict || no_gain) return nullptr;
    return {{"estimate", calls(first, core::number_or_nan(sp, "estimate"))}, {"low", calls(first, core::number_or_nan(sp, "high"))},
            {"high", calls(first, core::number_or_nan(sp, "low"))}};
  };
  const double cold = core::number_or_nan(row["compile"], "cold_ns"), warm = core::number_or_nan(row["compile"], "warm_ns");
  const double first = std::isfinite(cold) ? cold : core::number_or_nan(row["compile"], "first_call_ns");
  json be = {{"verdict", no_verdict ? "inconclusive" : no_gain ? "no_reliable_gain" : "breaks_even"},
             {"cold", range(first)}, {"warm", range(warm)}};
  row["break_even"] = be;
  row["break_even_calls"] = be["cold"].is_object() ? be["cold"]["estimate"] : json(nullptr);
  row["break_even_calls_warm"] = be["warm"].is_object() ? be["warm"]["estimate"] : json(nullptr);
}

// Median and spread of repeated compile times: {median_ns, min_ns, max_ns, samples_ns, n}.
json spread_json(const std::vector<double>& xs) {
  std::vector<double> ok;
  for (double x : xs)
    if (std::isfinite(x)) ok.push_back(x);
  if (ok.empty()) return nullptr;
  auto [lo, hi] = std::minmax_element(ok.begin(), ok.end());
  return {{"median_ns", stats::median(ok)}, {"min_ns", *lo}, {"max_ns", *hi}, {"samples_ns", ok}, {"n", ok.size()}};
}

// Rebuilds the document's warnings: what was there before bench, plus the section's own.
void publish(Host& host, const BenchConfig& cfg, json& section, const json& base_warnings) {
  json& doc = host.document();
  doc["warnings"] = base_warnings;
  RowWarningInput in{cfg.precision, cfg.check};
  in.busy_machine = machine_load(section["rows"], 0).busy();
  for (auto& row : section["rows"]) {
    if (row.value("status", "") == "pending" || row.value("status", "") == "running") continue;
    row["flags"] = json::array();
    const std::string who = section["rows"].size() > 1 ? row.value("label", "") : "";
    for (auto& w : row_warnings(row, who, in)) {
      row["flags"].push_back({{"code", w["code"]}, {"applies_to", w["applies_to"]}, {"text", flag_text(w)}});
      w.erase("applies_to");
      if (!who.empty()) w["row"] = who;
      host.warn(w);
    }
  }
  for (const auto& w : section.value("warnings", json::array())) host.warn(w);
  doc[cfg.section] = section;
  host.checkpoint();
}

bool agent_lost(const Error& e) { return e.kind() == "agent_died" || e.kind() == "timeout"; }

// Errors a row absorbs (the row failed, the others still run); anything else ends the run.
bool row_failure(const Error& e) { return e.code() == ExitCode::TargetFailed; }

}  // namespace

json run_bench(Host& host, Executor& exec, const BenchConfig& cfg) {
  const json base_warnings = host.document().value("warnings", json::array());
  BenchPlan plan = plan_rows(cfg.backends, cfg.modes, cfg.dynamic, cfg.fullgraph);
  json section = {{"target", nullptr}, {"config", config_json(cfg, plan)}, {"clock", nullptr},
                  {"eager", nullptr}, {"rows", json::array()}, {"warnings", json::array()},
                  {"phase", "load"}};
  host.document()[cfg.section] = section;

  // The main agent starts with fresh caches when compile time is measured, so the first
  // row's warm-up curve starts with a cold compile in a process that compiled nothing yet.
  std::unique_ptr<bench::CacheDirs> main_cache;
  if (cfg.compile_time) main_cache = std::make_unique<bench::CacheDirs>();
  // Every process of the headline runs in the --allocator state (a missing library is a usage
  // error before anything starts).
  const AllocatorSetup alloc = resolve_allocator(cfg);
  const Env cache_env = main_cache ? main_cache->env() : Env{};
  Env shared_env = cache_env;
  for (auto& kv : state_env(alloc.state, alloc.library)) shared_env.push_back(kv);
  // Row 0's second process starts now, so its interpreter start, torch import and target
  // load overlap the main agent's (all unmeasured). It is settled (idle) before the first
  // timed call, and compiles only after the main agent's cold compile filled the caches.
  std::unique_ptr<bench::FreshAgent> peer;
  if (!plan.rows.empty()) peer = std::make_unique<bench::FreshAgent>(exec, cfg, plan.rows[0], shared_env, cfg.memory);
  Env main_env = shared_env;
  // --trace: torch's own structured log of the measured compiles, for `tct trace DIR`.
  if (!cfg.trace_dir.empty()) main_env.emplace_back("TORCH_TRACE", cfg.trace_dir);
  TargetAgent agent(host, exec, cfg, main_env);
  section["target"] = agent.described();

  json env = bench::query_env(agent);
  validate_plan(plan, strings(env["backends"]), strings(env["modes"]));
  double clock_res = core::number_or_nan(env["clock"], "resolution_ns");
  const int cpus = env.value("cpus", json()).is_number() ? env["cpus"].get<int>() : 0;
  const int threads = env.value("num_threads", json()).is_number() ? env["num_threads"].get<int>() : 0;
  section["num_threads"] = threads > 0 ? json(threads) : json(nullptr);
  section["clock"] = env["clock"];
  section["device_type"] = env.value("device_type", "cpu");
  section["set_stance_available"] = env.value("set_stance", false);
  // The allocator comparison: CPU only (a GPU's memory comes from torch's caching allocator,
  // not malloc), and only when another state exists here. It takes a share of row 0's budget.
  std::string compare_reason;
  if (!cfg.allocator_compare) compare_reason = "--no-allocator-compare";
  else if (section["device_type"] != "cpu") compare_reason = "not on the CPU: device memory does not come from malloc";
  else if (alloc.others.empty()) compare_reason = "no other allocator state on this machine";
  const bool compare = compare_reason.empty();
  const double compare_budget_s = compare ? cfg.budget_s * kCompareShare / static_cast<double>(alloc.others.size()) : 0;
  section["allocator"] = allocator_section(alloc, env.value("allocator", json()), compare, compare_reason, compare_budget_s);
  for (const auto& spec : plan.rows) section["rows"].push_back(new_row(spec, clock_res));
  if (!cfg.check)
    section["warnings"].push_back(report::make_warning(report::WarningCode::CheckSkipped,
                                                       "outputs were not compared with eager (--no-check)",
                                                       "drop --no-check to verify the compiled outputs"));
  section["phase"] = "eager";
  publish(host, cfg, section, base_warnings);

  if (peer) {
    host.progress(fmt::format("loading {} in a second process", cfg.target.target));
    peer->settle();  // nothing timed may overlap its start-up
  }
  json eager = bench::eager_baseline(host, agent, cfg);  // throws: no baseline, no rows
  section["eager"] = eager;
  double eager_est = core::number_or_nan(eager, "steady_ns");
  section["phase"] = "rows";
  publish(host, cfg, section, base_warnings);

  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    const auto& spec = plan.rows[i];
    json& row = section["rows"][i];
    row["status"] = "running";
    if (cfg.memory) {
      const json& em = eager.value("memory", json());
      row["memory"] = {{"kind", em.is_object() ? em.value("kind", "rss") : "rss"},
                       {"eager_peak_bytes", em.is_object() ? em.value("peak_bytes", json()) : json()},
                       {"eager_increase_bytes", em.is_object() ? em.value("increase_bytes", json()) : json()},
                       {"eager_method", em.is_object() ? em.value("method", "") : ""}};
    }
    std::string stage = "compile";
    try {
      if (!peer) {
        peer = std::make_unique<bench::FreshAgent>(exec, cfg, spec, shared_env, cfg.memory);
        peer->settle();  // before the compile: nothing may overlap the warm-up curve
      }
      bench::compile_and_warm_up(host, agent, cfg, spec, row);
      publish(host, cfg, section, base_warnings);
      stage = "correctness";
      bench::check_correctness(host, agent, cfg, spec, row);
      stage = "measurement";
      bench::prepare_peer(host, *peer, cfg, spec, cfg.compile_time, row);
      publish(host, cfg, section, base_warnings);
      BenchConfig row_cfg = cfg;  // row 0 shares its budget with the allocator comparison
      if (i == 0 && compare) row_cfg.budget_s = cfg.budget_s * (1 - kCompareShare);
      bench::sample_paired(host, {agent.caller(), peer->caller()}, row_cfg, spec, clock_res, eager_est, cpus, row);
      peer->close();
      row["status"] = "ok";
    } catch (const Error& e) {
      if (!row_failure(e)) throw;
      row["status"] = "failed";
      row["error"] = error_json(e, stage);
      if (agent_lost(e) && i + 1 < plan.rows.size()) agent.restart();
    }
    peer.reset();
    derive_break_even(row);
    publish(host, cfg, section, base_warnings);
  }
  agent.close();
  if (auto w = load_warning(machine_load(section["rows"], threads))) section["warnings"].push_back(*w);

  json& alloc_json = section["allocator"];
  if (!plan.rows.empty() && section["rows"][0]["status"] == "ok") {
    add_headline_state(alloc_json, section["rows"][0]);
    if (compare) {
      section["phase"] = "allocator";
      publish(host, cfg, section, base_warnings);
      // Warm compiles on the caches the main agent filled, as the row's second process.
      compare_allocator_states(host, exec, cfg, plan.rows[0], alloc, cache_env, section["rows"][0], clock_res, eager_est,
                               cpus, compare_budget_s, alloc_json);
    }
  }
  if (auto w = conclude_allocator(alloc_json, section["rows"].empty() ? json() : section["rows"][0].value("speedup", json())))
    section["warnings"].push_back(*w);
  publish(host, cfg, section, base_warnings);

  if (cfg.compile_time) {
    section["phase"] = "compile_time";
    for (std::size_t i = 0; i < plan.rows.size(); ++i) {
      const auto& spec = plan.rows[i];
      json& row = section["rows"][i];
      if (row["status"] != "ok") continue;
      json& comp = row["compile"];
      try {
        // Cold: row 0 compiled first in the main process with empty caches; other cold
        // compiles get a fresh process with fresh caches each. Warm: the row's second
        // process, and each repeat a fresh process on the caches the main agent filled.
        std::vector<double> cold, warm;
        json warm_hits = json::array();
        if (i == 0) {
          cold.push_back(core::number_or_nan(comp, "first_call_ns"));
          comp["cold_source"] = "main agent, fresh caches, first compile in the process";
        } else {
          comp["cold_source"] = "fresh process, fresh caches";
        }
        warm.push_back(core::number_or_nan(comp, "warm_ns"));
        if (comp.contains("warm_cache")) warm_hits.push_back(comp["warm_cache"]);
        while (static_cast<int>(cold.size()) < cfg.compile_repeats) {
          host.progress(fmt::format("{}: cold compile {}/{} in a fresh process", spec.label(), cold.size() + 1,
                                    cfg.compile_repeats));
          bench::CacheDirs own;
          json c = bench::compile_in_fresh_process(exec, cfg, spec, own.env());
          cold.push_back(core::number_or_nan(c, "first_call_ns"));
          if (i > 0 && cold.size() == 1) comp["breakdown"] = c["breakdown"];
        }
        while (static_cast<int>(warm.size()) < cfg.compile_repeats) {
          host.progress(fmt::format("{}: warm compile {}/{} in a fresh process", spec.label(), warm.size() + 1,
                                    cfg.compile_repeats));
          json w = bench::compile_in_fresh_process(exec, cfg, spec, shared_env);
          warm.push_back(core::number_or_nan(w, "first_call_ns"));
          warm_hits.push_back(cache_hit_json(w.value("counters", json::object())));
        }
        comp["cold"] = spread_json(cold);
        comp["warm"] = spread_json(warm);
        comp["repeats"] = cfg.compile_repeats;
        comp["single_measurement"] = cfg.compile_repeats == 1;
        comp["cold_ns"] = comp["cold"].is_object() ? comp["cold"]["median_ns"] : json(nullptr);
        comp["warm_ns"] = comp["warm"].is_object() ? comp["warm"]["median_ns"] : json(nullptr);
        // The warm figure is a cache hit only when every warm compile says so.
        json hit = nullptr;
        for (const auto& h : warm_hits) {
          const json& v = h.value("hit", json());
          if (v.is_boolean()) hit = hit.is_null() ? v : json(hit.get<bool>() && v.get<bool>());
        }
        comp["warm_cache_hit"] = hit;
      } catch (const Error& e) {
        if (!row_failure(e)) throw;
        comp["error"] = error_json(e, "compile_time");
      }
      derive_break_even(row);
      publish(host, cfg, section, base_warnings);
    }
  }
  section["phase"] = "done";
  publish(host, cfg, section, base_warnings);
  return section;
}

std::optional<Error> bench_outcome(const json& section, const BenchConfig& cfg) {
  const tct::bench::BenchResult result = tct::bench::from_json(section);
  std::vector<const tct::bench::BenchRow*> failed, mismatched;
  for (const auto& r : result.rows) {
    if (r.failed()) failed.push_back(&r);
    if (cfg.check && r.correctness && r.correctness->match == false) mismatched.push_back(&r);
  }
  auto label = [](const tct::bench::BenchRow& r) { return r.label.empty() ? std::string("?") : r.label; };
  if (!failed.empty()) {
    const tct::bench::BenchRow& r = *failed.front();
    const tct::bench::RowError e = r.error.value_or(tct::bench::RowError{});
    Error err(ExitCode::TargetFailed, e.kind.empty() ? "compile_failed" : e.kind,
              fmt::format("{}{} failed at {}: {}",
                          failed.size() > 1 ? fmt::format("{} of {} rows failed; ", failed.size(), result.rows.size()) : "",
                          label(r), e.stage.empty() ? "?" : e.stage, e.message),
              e.hint);
    err.stage = e.stage;
    return err;
  }
  if (!mismatched.empty()) {
    const tct::bench::BenchRow& r = *mismatched.front();
    const auto& mm = r.correctness->mismatches;
    std::string where = mm.empty() ? "" : fmt::format(" ({} {})", mm[0].path, mm[0].reason);
    return Error(ExitCode::CheckFailed, "output_mismatch",
                 fmt::format("{}: compiled outputs differ from eager{}", label(r), where),
                 "loosen --rtol/--atol if this is acceptable rounding, or --no-check to skip the check");
  }
  return std::nullopt;
}

}  // namespace tct::runner
