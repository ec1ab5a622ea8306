#include "runner/bench_run.hpp"

#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "report/document.hpp"
#include "report/warnings.hpp"
#include "runner/bench_analysis.hpp"
#include "runner/bench_phases.hpp"
#include "runner/bench_plan.hpp"
#include "stats/break_even.hpp"

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

double number(const json& obj, const char* key) {
  return obj.is_object() && obj.contains(key) && obj[key].is_number() ? obj[key].get<double>() : NAN;
}

json config_json(const BenchConfig& cfg, const BenchPlan& plan) {
  json fg = json::array();
  for (bool f : cfg.fullgraph) fg.push_back(f);
  return {{"backends", cfg.backends},       {"modes", cfg.modes},
          {"dynamic", cfg.dynamic},         {"fullgraph", fg},
          {"precision", cfg.precision},     {"budget_s", cfg.budget_s},
          {"warmup_calls", cfg.warmup_calls}, {"eager_warmup_calls", cfg.eager_warmup_calls},
          {"min_blocks", cfg.min_blocks},   {"check", cfg.check},
          {"rtol", cfg.rtol ? json(*cfg.rtol) : json(nullptr)},
          {"atol", cfg.atol ? json(*cfg.atol) : json(nullptr)},
          {"compile_time", cfg.compile_time}, {"memory", cfg.memory},
          {"raw", cfg.raw},                 {"eager_via", cfg.eager_via},
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

// Break-even from what is known: cold first call when measured, else the main process's.
void derive_break_even(json& row) {
  if (!row["latency"].is_object()) return;
  std::vector<double> curve;
  for (const auto& v : row["warmup_curve_ns"]) curve.push_back(v.is_number() ? v.get<double>() : NAN);
  double eager = number(row["latency"]["eager"], "median");
  double compiled = number(row["latency"]["compiled"], "median");
  std::size_t start = row["steady_state"].is_object() && row["steady_state"]["start_index"].is_number()
                          ? row["steady_state"]["start_index"].get<std::size_t>()
                          : 1;
  auto be = [&](double first) -> json {
    std::optional<double> f;
    if (std::isfinite(first)) f = first;
    auto n = stats::break_even_calls(first_call_extra_ns(curve, start, compiled, f), eager, compiled);
    return n ? json(static_cast<long long>(std::ceil(*n))) : json(nullptr);
  };
  row["break_even_calls"] = be(number(row["compile"], "cold_ns"));
  row["break_even_calls_warm"] = be(number(row["compile"], "warm_ns"));
}

// Rebuilds the document's warnings: what was there before bench, plus the section's own.
void publish(Host& host, const BenchConfig& cfg, json& section, const json& base_warnings) {
  json& doc = host.document();
  doc["warnings"] = base_warnings;
  RowWarningInput in{cfg.precision, cfg.check};
  for (auto& row : section["rows"]) {
    if (row.value("status", "") == "pending" || row.value("status", "") == "running") continue;
    row["flags"] = json::array();
    for (auto& w : row_warnings(row, section["rows"].size() > 1 ? row.value("label", "") : "", in)) {
      row["flags"].push_back({{"code", w["code"]}, {"applies_to", w["applies_to"]}, {"text", flag_text(w)}});
      w.erase("applies_to");
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
  // The process that measures the first row's warm compile starts now, so its interpreter
  // start, torch import and target load overlap the main agent's (all unmeasured). It is
  // settled (idle) before the first timed call, and compiles only in the compile-time
  // phase, after the main agent's cold compile filled the caches and after sampling.
  std::unique_ptr<bench::FreshAgent> warm0;
  if (cfg.compile_time && !plan.rows.empty())
    warm0 = std::make_unique<bench::FreshAgent>(exec, cfg, plan.rows[0], main_cache->env());
  TargetAgent agent(host, exec, cfg, main_cache ? main_cache->env() : Env{});
  section["target"] = agent.described();

  json env = bench::query_env(agent);
  validate_plan(plan, strings(env["backends"]), strings(env["modes"]));
  double clock_res = number(env["clock"], "resolution_ns");
  section["clock"] = env["clock"];
  section["device_type"] = env.value("device_type", "cpu");
  section["set_stance_available"] = env.value("set_stance", false);
  for (const auto& spec : plan.rows) section["rows"].push_back(new_row(spec, clock_res));
  if (!cfg.check)
    section["warnings"].push_back(report::make_warning(report::WarningCode::CheckSkipped,
                                                       "outputs were not compared with eager (--no-check)",
                                                       "drop --no-check to verify the compiled outputs"));
  section["phase"] = "eager";
  publish(host, cfg, section, base_warnings);

  if (warm0) {
    host.progress(fmt::format("loading {} for the warm compile", cfg.target.target));
    warm0->settle();  // nothing timed may overlap its start-up
  }
  json eager = bench::eager_baseline(host, agent, cfg);  // throws: no baseline, no rows
  section["eager"] = eager;
  double eager_est = number(eager, "steady_ns");
  section["phase"] = "rows";
  publish(host, cfg, section, base_warnings);

  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    const auto& spec = plan.rows[i];
    json& row = section["rows"][i];
    row["status"] = "running";
    std::string stage = "compile";
    try {
      bench::compile_and_warm_up(host, agent, cfg, spec, row);
      publish(host, cfg, section, base_warnings);
      stage = "correctness";
      bench::check_correctness(host, agent, cfg, spec, row);
      stage = "measurement";
      json compiled_memory;  // peak over the compiled sampling blocks
      bench::sample_interleaved(host, agent, cfg, spec, clock_res, eager_est, row,
                                cfg.memory ? &compiled_memory : nullptr);
      stage = "memory";
      if (cfg.memory) bench::measure_memory(agent, spec, eager.value("memory", json()), compiled_memory, row);
      row["status"] = "ok";
    } catch (const Error& e) {
      if (!row_failure(e)) throw;
      row["status"] = "failed";
      row["error"] = error_json(e, stage);
      if (agent_lost(e) && i + 1 < plan.rows.size()) agent.restart();
    }
    derive_break_even(row);
    publish(host, cfg, section, base_warnings);
  }
  agent.close();
  if (warm0 && section["rows"][0]["status"] != "ok") warm0.reset();  // no warm compile to measure

  if (cfg.compile_time) {
    section["phase"] = "compile_time";
    for (std::size_t i = 0; i < plan.rows.size(); ++i) {
      const auto& spec = plan.rows[i];
      json& row = section["rows"][i];
      if (row["status"] != "ok") continue;
      try {
        // Cold: row 0 compiled first in the main process with empty caches; later rows
        // get a fresh process with fresh caches. Warm: a fresh process on the filled caches.
        // Both fresh processes of a row start together (their start-up is unmeasured) and
        // are idle until their turn; the warm one compiles after the cold one exited.
        std::unique_ptr<bench::CacheDirs> own;
        std::unique_ptr<bench::FreshAgent> cold, warm;
        if (i == 0) {
          warm = std::move(warm0);
          row["compile"]["cold_ns"] = row["compile"]["first_call_ns"];
          row["compile"]["cold_source"] = "main agent, fresh caches, first compile in the process";
        } else {
          host.progress(fmt::format("{}: cold compile in a fresh process (next: warm compile)", spec.label()));
          own = std::make_unique<bench::CacheDirs>();
          cold = std::make_unique<bench::FreshAgent>(exec, cfg, spec, own->env());
          warm = std::make_unique<bench::FreshAgent>(exec, cfg, spec, own->env());
          cold->settle();
          warm->settle();
          json c = cold->first_call();
          cold.reset();
          row["compile"]["cold_ns"] = c["first_call_ns"];
          row["compile"]["breakdown"] = c["breakdown"];
          row["compile"]["cold_source"] = "fresh process, fresh caches";
        }
        publish(host, cfg, section, base_warnings);
        host.progress(fmt::format("{}: warm compile in a fresh process", spec.label()));
        json w = warm->first_call();
        row["compile"]["warm_ns"] = w["first_call_ns"];
        row["compile"]["warm_breakdown"] = w["breakdown"];
      } catch (const Error& e) {
        if (!row_failure(e)) throw;
        row["compile"]["error"] = error_json(e, "compile_time");
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
  const json& rows = section.value("rows", json::array());
  std::vector<const json*> failed, mismatched;
  for (const auto& r : rows) {
    if (r.value("status", "") == "failed") failed.push_back(&r);
    const json& c = r.value("correctness", json());
    if (cfg.check && c.is_object() && c.contains("match") && c["match"].is_boolean() && !c["match"].get<bool>())
      mismatched.push_back(&r);
  }
  if (!failed.empty()) {
    const json& r = *failed.front();
    const json& e = r["error"];
    Error err(ExitCode::TargetFailed, e.value("kind", "compile_failed"),
              fmt::format("{}{} failed at {}: {}",
                          failed.size() > 1 ? fmt::format("{} of {} rows failed; ", failed.size(), rows.size()) : "",
                          r.value("label", "?"), e.value("stage", "?"), e.value("message", "")),
              e.value("hint", ""));
    err.stage = e.value("stage", "");
    return err;
  }
  if (!mismatched.empty()) {
    const json& r = *mismatched.front();
    const auto& mm = r["correctness"].value("mismatches", json::array());
    std::string where = mm.empty() ? "" : fmt::format(" ({} {})", mm[0].value("path", ""), mm[0].value("reason", ""));
    return Error(ExitCode::CheckFailed, "output_mismatch",
                 fmt::format("{}: compiled outputs differ from eager{}", r.value("label", "?"), where),
                 "loosen --rtol/--atol if this is acceptable rounding, or --no-check to skip the check");
  }
  return std::nullopt;
}

}  // namespace tct::runner
