// Pure statistics and decisions of bench (src/bench/analysis.hpp), including
// degenerate inputs.
#include <cmath>

#include <gtest/gtest.h>

#include "bench/analysis.hpp"
#include "bench/json.hpp"
#include "cli/target_options.hpp"
#include "errors.hpp"

using namespace tct::bench;
using json = nlohmann::json;

TEST(BenchAnalysis, NumMapsNonFiniteToNull) {
  EXPECT_TRUE(num(NAN).is_null());
  EXPECT_TRUE(num(INFINITY).is_null());
  EXPECT_EQ(num(1.5).get<double>(), 1.5);
}

TEST(BenchAnalysis, SummaryJsonOfEmptyIsNulls) {
  std::vector<double> none;
  auto j = summary_json(tct::stats::summarize(none));
  EXPECT_EQ(j["n"], 0);
  EXPECT_TRUE(j["median"].is_null());
  std::vector<double> one{5};
  auto k = summary_json(tct::stats::summarize(one));
  EXPECT_EQ(k["median"].get<double>(), 5);
}

TEST(BenchAnalysis, WarmupLevelPrefersSteadyStateElseLastHalf) {
  std::vector<double> curve{1000, 10, 10, 10};
  tct::stats::SteadyState none;  // not found
  EXPECT_DOUBLE_EQ(warmup_level_ns(curve, none), 10);
  tct::stats::SteadyState found{true, 1, 11, tct::stats::SteadyStateReason::Found};
  EXPECT_DOUBLE_EQ(warmup_level_ns(curve, found), 11);
  std::vector<double> empty;
  EXPECT_TRUE(std::isnan(warmup_level_ns(empty, none)));
}

TEST(BenchAnalysis, FirstCallExtraSumsWarmupAboveSteady) {
  std::vector<double> curve{1000, 30, 10, 10};
  EXPECT_DOUBLE_EQ(first_call_extra_ns(curve, 2, 10), 990 + 20);
  // steady start 0 still counts the first call
  EXPECT_DOUBLE_EQ(first_call_extra_ns(curve, 0, 10), 990);
  // a cold first call from a fresh process replaces curve[0]
  EXPECT_DOUBLE_EQ(first_call_extra_ns(curve, 1, 10, 5000.0), 4990);
  std::vector<double> empty;
  EXPECT_TRUE(std::isnan(first_call_extra_ns(empty, 1, 10)));
  EXPECT_TRUE(std::isnan(first_call_extra_ns(curve, 1, NAN)));
}

TEST(BenchAnalysis, SamplesPerBlockFitsBudget) {
  EXPECT_EQ(samples_per_block(10, 5, 1e6), 10);  // 1 ms samples: plenty of room
  EXPECT_EQ(samples_per_block(10, 5, 1e9), 3);   // 1 s samples: the floor
  EXPECT_EQ(samples_per_block(10, 5, 1e8), 5);   // 10 s / (20 * 0.1 s)
  EXPECT_EQ(samples_per_block(10, 5, NAN), 10);
  EXPECT_EQ(samples_per_block(10, 5, 0), 10);
}

namespace {
json ok_row() {
  return {{"status", "ok"},
          {"label", "inductor"},
          {"recompiles_during_measurement", 0},
          {"graph_breaks", 0},
          {"steady_state", {{"found", true}}},
          {"stop_reason", "precision"},
          {"speedup", {{"estimate", 1.5}, {"low", 1.48}, {"high", 1.52}}},
          {"outliers", {{"eager", {{"fraction", 0.0}}}, {"compiled", {{"fraction", 0.01}}}}},
          {"calls_per_sample", {{"eager", 1}, {"compiled", 1}}},
          {"correctness", {{"checked", true}, {"match", true}, {"nondeterministic", false}}}};
}
// Rows written as a document has them, read as the runner holds them.
// The warnings as the document writes them, each with the flag of its row.
std::vector<json> row_warnings(const json& row, const std::string& label, const RowWarningInput& in) {
  std::vector<json> out;
  for (const auto& w : tct::bench::row_warnings(tct::bench::row_from_json(row), label, in)) {
    out.push_back(tct::report::to_json(w.warning));
    out.back()["flag"] = tct::report::flag_of(w.warning);
  }
  return out;
}
std::optional<json> load_warning_json(const MachineLoad& m) {
  if (auto w = tct::bench::load_warning(m)) return tct::report::to_json(*w);
  return std::nullopt;
}
MachineLoad machine_load(const json& rows, int threads) {
  std::vector<tct::bench::BenchRow> typed;
  for (const auto& r : rows) typed.push_back(tct::bench::row_from_json(r));
  return tct::bench::machine_load(typed, threads);
}
std::vector<std::string> codes(const std::vector<json>& ws) {
  std::vector<std::string> out;
  for (const auto& w : ws) out.push_back(w["code"]);
  return out;
}
}  // namespace

TEST(BenchAnalysis, CleanRowHasNoWarnings) { EXPECT_TRUE(row_warnings(ok_row(), "", {}).empty()); }

TEST(BenchAnalysis, ShortBatchOfLongCallsIsNotAClockWarning) {
  auto r = ok_row();
  r["calls_per_sample"] = {{"eager", 2}, {"compiled", 2}};  // ~1 ms calls, 1000-tick samples
  EXPECT_TRUE(row_warnings(r, "", {}).empty());
}

TEST(BenchAnalysis, RowWarningsEachCondition) {
  auto r = ok_row();
  r["recompiles_during_measurement"] = 2;
  r["graph_breaks"] = 1;
  r["steady_state"]["found"] = false;
  r["outliers"]["eager"]["fraction"] = 0.2;
  r["stop_reason"] = "budget";
  r["speedup"] = {{"estimate", 0.8}, {"low", 0.7}, {"high", 0.9}};
  r["calls_per_sample"]["eager"] = 50;
  r["correctness"]["match"] = false;
  r["correctness"]["mismatches"] = json::array({{{"path", "out"}, {"reason", "too far"}}});
  auto ws = row_warnings(r, "inductor", {});
  auto c = codes(ws);
  for (const char* want : {"recompile_during_measurement", "graph_breaks", "no_steady_state", "noisy_measurement",
                           "slower_than_eager", "clock_resolution", "output_mismatch"})
    EXPECT_NE(std::find(c.begin(), c.end(), want), c.end()) << want;
  for (const auto& w : ws) {
    EXPECT_EQ(w["message"].get<std::string>().rfind("inductor: ", 0), 0u);
    EXPECT_FALSE(w["flag"].get<std::string>().empty());
  }
  // the noisy hint says what to do
  for (const auto& w : ws)
    if (w["code"] == "noisy_measurement") EXPECT_NE(w["hint"].get<std::string>().find("--budget"), std::string::npos);
}

// The budget ran out before --precision: said only when the interval is too wide for the
// verdict, not for a clear 1.73x [1.64, 1.83] that misses a 5% aim by a few tenths.
TEST(BenchAnalysis, PrecisionNotReachedOnlyWhenTheVerdictIsOpen) {
  auto r = ok_row();
  r["stop_reason"] = "budget";
  r["speedup"] = {{"estimate", 1.73}, {"low", 1.64}, {"high", 1.83}, {"verdict", "faster"}};
  EXPECT_TRUE(row_warnings(r, "", {}).empty());
  r["speedup"] = {{"estimate", 1.02}, {"low", 0.95}, {"high", 1.09}, {"verdict", "no_clear_difference"}};
  EXPECT_EQ(codes(row_warnings(r, "", {})), std::vector<std::string>{"precision_not_reached"});
  r["speedup"] = {{"estimate", 2.07}, {"low", 0.88}, {"high", 4.44}, {"verdict", "inconclusive"}};
  auto c = codes(row_warnings(r, "", {}));
  EXPECT_NE(std::find(c.begin(), c.end(), "precision_not_reached"), c.end());
}

// Two torch threads on 2 CPUs beside a job that keeps one busy: oversubscribed, and the fix
// is --threads 1; the same load with one thread is only "loaded"; a quiet machine says nothing.
TEST(BenchAnalysis, OversubscriptionNamesTheThreadsThatFit) {
  json busy = json::array({{{"calls_per_sample", {{"eager", 1}, {"compiled", 1}}},
                            {"load", {{"loadavg_1m_max", 2.3}, {"cpus", 2}, {"involuntary_switches_per_s", 140.0}}}}});
  auto m = machine_load(busy, 2);
  EXPECT_TRUE(m.busy() && m.oversubscribed);
  EXPECT_EQ(m.suggested_threads, 1);
  auto w = load_warning_json(m);
  ASSERT_TRUE(w);
  EXPECT_EQ((*w)["code"], "oversubscribed");
  EXPECT_NE((*w)["hint"].get<std::string>().find("--threads 1"), std::string::npos);
  EXPECT_NE((*w)["hint"].get<std::string>().find("does not help"), std::string::npos);
  auto one = machine_load(busy, 1);
  EXPECT_TRUE(one.busy() && !one.oversubscribed);
  EXPECT_EQ((*load_warning_json(one))["code"], "noisy_measurement");
  json quiet = json::array({{{"calls_per_sample", {{"eager", 1}, {"compiled", 1}}},
                             {"load", {{"loadavg_1m_max", 1.1}, {"cpus", 2}, {"involuntary_switches_per_s", 3.0}}}}});
  EXPECT_FALSE(load_warning_json(machine_load(quiet, 2)));
  // While the machine is busy, no warning tells the user to raise --budget.
  auto r = ok_row();
  r["outliers"]["eager"]["fraction"] = 0.3;
  RowWarningInput in;
  in.busy_machine = true;
  for (const auto& x : row_warnings(r, "", in))
    EXPECT_EQ(x["hint"].get<std::string>().find("raise --budget"), std::string::npos);
}

TEST(BenchAnalysis, MismatchNotWarnedWithoutCheckAndNondeterminismWarned) {
  auto r = ok_row();
  r["correctness"]["match"] = false;
  EXPECT_TRUE(row_warnings(r, "", {0.02, false}).empty());
  r["correctness"]["nondeterministic"] = true;
  auto c = codes(row_warnings(r, "", {}));
  EXPECT_EQ(c, std::vector<std::string>{"nondeterministic"});
}

TEST(BenchAnalysis, FailedRowGetsPartialResult) {
  json r = {{"status", "failed"}, {"error", {{"stage", "backend (inductor)"}, {"message", "boom"}, {"hint", "h"}}}};
  auto ws = row_warnings(r, "", {});
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0]["code"], "partial_result");
  EXPECT_NE(ws[0]["message"].get<std::string>().find("backend (inductor)"), std::string::npos);
}

TEST(TargetOptions, ParamJsonLiteralElseString) {
  json p = json::object();
  tct::cli::parse_param("batch=64", p);
  tct::cli::parse_param("lr=1e-3", p);
  tct::cli::parse_param("flag=true", p);
  tct::cli::parse_param("shape=[1,2]", p);
  tct::cli::parse_param("act=relu", p);
  tct::cli::parse_param("empty=", p);
  tct::cli::parse_param(" name = \"x\"", p);
  tct::cli::parse_param("expr=a=b", p);
  EXPECT_EQ(p["batch"], 64);
  EXPECT_DOUBLE_EQ(p["lr"].get<double>(), 1e-3);
  EXPECT_EQ(p["flag"], true);
  EXPECT_EQ(p["shape"], json::array({1, 2}));
  EXPECT_EQ(p["act"], "relu");
  EXPECT_EQ(p["empty"], "");
  EXPECT_EQ(p["name"], "x");  // a quoted JSON string (whitespace around it allowed)
  EXPECT_EQ(p["expr"], "a=b");
  EXPECT_THROW(tct::cli::parse_param("novalue", p), tct::Error);
  EXPECT_THROW(tct::cli::parse_param("=3", p), tct::Error);
}

TEST(TargetOptions, LoadParams) {
  tct::cli::TargetOptions o;
  o.target = "builtin:mlp";
  o.device = "cpu";
  auto j = tct::cli::to_load_params(o);
  EXPECT_EQ(j["target"], "builtin:mlp");
  EXPECT_EQ(j["device"], "cpu");
  EXPECT_TRUE(j["dtype"].is_null());
  EXPECT_EQ(j["params"], json::object());
  EXPECT_EQ(j["train"], false);
}

TEST(BenchAnalysis, CacheHitFromTorchCounters) {
  using tct::bench::cache_counters;
  EXPECT_FALSE(cache_counters(tct::core::fields::read_as<tct::bench::reply::Counters>(json(json::object())))
                   .hit.has_value());  // aot_eager: no cache looked up
  EXPECT_EQ(cache_counters(tct::core::fields::read_as<tct::bench::reply::Counters>(
                               json({{"fxgraph_cache_hit", 2}, {"autograd_cache_hit", 1}})))
                .hit,
            true);
  EXPECT_EQ(cache_counters(tct::core::fields::read_as<tct::bench::reply::Counters>(
                               json({{"fxgraph_cache_hit", 2}, {"fxgraph_cache_miss", 1}})))
                .hit,
            false);
  EXPECT_EQ(
      cache_counters(tct::core::fields::read_as<tct::bench::reply::Counters>(json({{"autograd_cache_miss", 1}}))).hit,
      false);
  EXPECT_EQ(cache_counters(tct::core::fields::read_as<tct::bench::reply::Counters>(
                               json({{"fxgraph_cache_hit", 2}, {"fxgraph_cache_miss", 1}})))
                .fxgraph_cache_miss,
            1);
}
