// run_bench end to end through a scripted fake agent: the phases, the processes it starts,
// what lands in the section. The real agent and torch are covered by tests/e2e/test_bench.py.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "errors.hpp"
#include "fake_agent.hpp"
#include "bench/allocator.hpp"
#include "bench/json.hpp"
#include "bench/run.hpp"
#include "bench/sampling.hpp"
#include "report/warning.hpp"

namespace {

using tct::testing::FakeExecutor;
using FakeHost = tct::testing::FakeCaller<tct::bench::BenchResult>;
using json = nlohmann::json;

// An agent whose eager call takes `eager_ns` and whose compiled call takes `compiled_ns`,
// each sample jittered by a few percent.
struct ScriptedTarget {
  double eager_ns = 2000, compiled_ns = 500, jitter = 0.02;
  bool warm_hits = true;
  int recompile_in_block = -1;  // the compiled time_block (counted from 0) that recompiles
  int compiled_blocks = 0;
  int switches_per_block = 0;  // the timing thread's involuntary switches per 1 ms block
  std::mt19937_64 rng{7};
  std::vector<double> block(double centre, int n) {
    std::lognormal_distribution<double> noise(0.0, jitter);
    std::vector<double> out;
    for (int i = 0; i < n; ++i) out.push_back(centre * noise(rng));
    return out;
  }
  json operator()(int, const std::string& op, const json& p) {
    if (op == "target.load") return {{"spec", "fake:target"}, {"kind", "function"}};
    if (op == "bench.env")
      return {{"clock", {{"resolution_ns", 20.0}}},
              {"backends", {"inductor", "aot_eager"}},
              {"modes", {"default"}},
              {"set_stance", true},
              {"device_type", "cpu"},
              {"cpus", 2}};
    if (op == "bench.memory_mark") return {{"kind", "rss"}, {"baseline_bytes", 1000}};
    if (op == "bench.memory_peak")
      return {{"kind", "rss"},          {"peak_bytes", 5000},    {"baseline_bytes", 1000},
              {"increase_bytes", 4000}, {"current_bytes", 3000}, {"method", "scripted"}};
    if (op == "bench.eager_warmup") return {{"times_ns", block(eager_ns, p.value("n", 10))}};
    if (op == "bench.compile") return {{"key", p["key"]}};
    if (op == "bench.first_calls") {
      auto t = block(compiled_ns, p.value("n", 20));
      t[0] = 2e9;  // the compile
      return {
          {"times_ns", t},
          {"counters",
           {{"graph_breaks", 0}, {"fxgraph_cache_hit", warm_hits ? 1 : 0}, {"fxgraph_cache_miss", warm_hits ? 0 : 1}}},
          {"compile_times_ns", json::object()}};
    }
    if (op == "bench.time_block") {
      const std::string which = p.value("which", "");
      double centre = which == "eager" ? eager_ns : which == "floor" ? 30 : compiled_ns;
      int frames = 0;
      if (which != "eager" && which != "floor" && compiled_blocks++ == recompile_in_block) frames = 1;
      return {{"samples_ns", block(centre, p.value("samples", 10))},
              {"frames_compiled", frames},
              {"graph_breaks", 0},
              {"wall_ns", 1e6},
              {"involuntary_switches", switches_per_block},
              {"loadavg_1m", 0.5}};
    }
    return json::object();
  }
};

// run_bench's section as the document has it: the result's to_json, which is also what the
// last partial result gave (the document is built from the result, never beside it).
json run_section(FakeHost& host, FakeExecutor& exec, const tct::bench::BenchConfig& cfg) {
  const json section = tct::bench::to_json(tct::bench::run_bench(host.progress(), exec, cfg, host.on_partial()));
  EXPECT_FALSE(host.partials.empty());
  if (!host.partials.empty()) EXPECT_EQ(tct::bench::to_json(host.partials.back()), section);
  return section;
}

// The warnings the last partial result carried (what the CLI puts in the document's list).
json last_warnings(const FakeHost& host) {
  return host.partials.empty() ? json::array() : tct::report::to_json(host.partials.back().all_warnings);
}

tct::bench::BenchConfig quick_config() {
  tct::bench::BenchConfig cfg;
  cfg.target.target = "fake:target";
  cfg.budget_s = 0.06;
  cfg.check = false;
  cfg.memory = false;
  cfg.compile_time = false;
  cfg.allocator_compare = false;  // its processes: RunBench.ComparesTheOtherAllocatorStates
  return cfg;
}

TEST(RunBench, MeasuresTheScriptedSpeedup) {
  ScriptedTarget target;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) { return target(i, op, p); });
  FakeHost host;
  json section = run_section(host, exec, quick_config());
  ASSERT_EQ(section["rows"].size(), 1u);
  const json& row = section["rows"][0];
  EXPECT_EQ(row["status"], "ok");
  EXPECT_NEAR(row["speedup"]["estimate"].get<double>(), 4.0, 0.1);
  EXPECT_LE(row["speedup"]["low"].get<double>(), 4.0);
  EXPECT_GE(row["speedup"]["high"].get<double>(), 4.0);
  EXPECT_EQ(section["phase"], "done");
  EXPECT_GT(host.partials.size(), 2u);
}

TEST(RunBench, SamplesInTwoProcessesWithAFloorAndDropsRecompilingPairs) {
  ScriptedTarget target;
  target.recompile_in_block = 0;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) { return target(i, op, p); });
  FakeHost host;
  json row = run_section(host, exec, quick_config())["rows"][0];
  ASSERT_EQ(exec.processes().size(), 2u);  // the main agent and the row's second process
  for (const auto& proc : exec.processes()) {
    int floors = 0, blocks = 0;
    for (const auto& [op, p] : proc.requests)
      if (op == "bench.time_block") {
        (p["which"] == "floor" ? floors : blocks)++;
        EXPECT_EQ(p["warmup_ns"], tct::bench::kBlockWarmupNs);  // the scripted calls take microseconds
      }
    EXPECT_EQ(floors, 1);
    EXPECT_GE(blocks, 2 * 2 * 3);  // >= 2 pairs in each of 3 looks
  }
  EXPECT_TRUE(exec.processes()[0].deferred);   // the second process: spawned first, settled before timing
  EXPECT_FALSE(exec.processes()[1].deferred);  // the main agent
  EXPECT_EQ(row["speedup"]["processes"], 2);
  EXPECT_EQ(row["blocks_dropped_for_recompile"], 1);
  EXPECT_EQ(row["recompiles_during_measurement"], 1);
  EXPECT_NEAR(row["harness_floor_ns"].get<double>(), 30, 3);
  EXPECT_EQ(row["calls_per_sample"]["eager"], row["calls_per_sample"]["compiled"]);
  EXPECT_FALSE(row["speedup"]["inconclusive"].get<bool>());
  EXPECT_EQ(row["break_even"]["verdict"], "breaks_even");
}

// The load warning reads the timing thread's preemptions: a few a second is a quiet
// machine (no warning), one every few ms is a CPU shared with another busy task.
TEST(RunBench, WarnsOfOtherProcessesOnlyWhenTheTimingThreadWasPreempted) {
  auto noisy = [](int switches) {
    ScriptedTarget target;
    target.switches_per_block = switches;
    FakeExecutor exec([&](int i, const std::string& op, const json& p) { return target(i, op, p); });
    FakeHost host;
    json section = run_section(host, exec, quick_config());
    for (const auto& w : section["warnings"])
      if (w["message"].get<std::string>().find("other processes loaded the CPU") != std::string::npos) return true;
    return false;
  };
  EXPECT_FALSE(noisy(0));  // 0/s
  EXPECT_TRUE(noisy(1));   // 1000/s: the CFS slices of a shared CPU
}

TEST(RunBench, WarmCompileIsCheckedAgainstCacheCountersAndRepeats) {
  ScriptedTarget target;
  target.warm_hits = false;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) { return target(i, op, p); });
  FakeHost host;
  auto cfg = quick_config();
  cfg.compile_time = true;
  cfg.memory = true;
  cfg.compile_repeats = 2;
  json row = run_section(host, exec, cfg)["rows"][0];
  // main + second process + one more cold + one more warm compile, each fresh
  EXPECT_EQ(exec.processes().size(), 4u);
  EXPECT_EQ(row["compile"]["cold"]["n"], 2);
  EXPECT_EQ(row["compile"]["warm"]["n"], 2);
  EXPECT_FALSE(row["compile"]["single_measurement"].get<bool>());
  EXPECT_FALSE(row["compile"]["warm_cache_hit"].get<bool>());
  bool flagged = false;
  for (const auto& w : last_warnings(host))
    flagged |= w["message"].get<std::string>().find("not a cache hit") != std::string::npos;
  EXPECT_TRUE(flagged);
  // The compiled side's memory comes from the second process (never ran eager).
  EXPECT_EQ(row["memory"]["compiled_increase_bytes"], 4000);
  EXPECT_EQ(row["memory"]["compiler_kept_bytes"], 2000);
  EXPECT_EQ(row["break_even"]["cold"]["low"].get<long long>() <= row["break_even"]["cold"]["high"].get<long long>(),
            true);
}

TEST(RunBench, AWideIntervalIsInconclusiveAndGivesNoBreakEven) {
  // The two processes disagree (1x against 3x): a re-run could land anywhere between.
  ScriptedTarget target;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) {
    target.compiled_ns = i == 0 ? 2000 : 667;
    return target(i, op, p);
  });
  FakeHost host;
  auto cfg = quick_config();
  cfg.compile_time = true;
  json row = run_section(host, exec, cfg)["rows"][0];
  EXPECT_TRUE(row["speedup"]["inconclusive"].get<bool>());
  EXPECT_EQ(row["break_even"]["verdict"], "inconclusive");
  EXPECT_TRUE(row["break_even_calls"].is_null());
  EXPECT_TRUE(row["break_even_calls_warm"].is_null());
}

TEST(RunBench, AFailingCompileFailsTheRowNotTheRun) {
  ScriptedTarget target;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) -> json {
    if (op == "bench.first_calls")
      throw tct::Error(tct::ExitCode::TargetFailed, "compile_failed", "inductor exploded", "try aot_eager");
    return target(i, op, p);
  });
  FakeHost host;
  json section = run_section(host, exec, quick_config());
  const json& row = section["rows"][0];
  EXPECT_EQ(row["status"], "failed");
  EXPECT_EQ(row["error"]["kind"], "compile_failed");
  auto err = tct::bench::bench_outcome(tct::bench::from_json(section), quick_config());
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->code(), tct::ExitCode::TargetFailed);
}

}  // namespace

namespace {

std::string env_of(const tct::core::Env& env, const std::string& key) {
  for (const auto& [k, v] : env)
    if (k == key) return v;
  return "";
}

}  // namespace

// The headline's processes run in the --allocator state; after the row, each other state
// available on this machine gets one fresh process of its own, in its own state, and its
// figures land in section.allocator.states beside the headline's.
TEST(RunBench, ComparesTheOtherAllocatorStates) {
  ScriptedTarget target;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) {
    if (op == "bench.allocator") return json{{"mapped", json::array()}, {"maps_readable", true}, {"settled", true}};
    return target(i, op, p);
  });
  FakeHost host;
  auto cfg = quick_config();
  cfg.allocator_compare = true;
  cfg.allocator = "settled";
  const auto setup = tct::bench::resolve_allocator(cfg);  // what this machine has installed
  json section = run_section(host, exec, cfg);
  ASSERT_EQ(exec.processes().size(), 2u + setup.others.size());
  for (std::size_t i = 0; i < 2; ++i) {  // the headline's two processes settle, preload nothing
    EXPECT_EQ(env_of(exec.processes()[i].env, "TCT_SETTLE_ALLOCATOR"), "1");
    EXPECT_EQ(env_of(exec.processes()[i].env, "LD_PRELOAD"), "");
  }
  const json& a = section["allocator"];
  EXPECT_EQ(a["state"], "settled");
  EXPECT_EQ(a["compare"]["enabled"], true);
  EXPECT_NEAR(a["compare"]["budget_s"].get<double>(), cfg.budget_s * tct::bench::kCompareShare / setup.others.size(),
              1e-9);
  ASSERT_EQ(a["states"].size(), 4u);  // every state: headline, measured or skipped
  EXPECT_EQ(a["states"][0]["status"], "headline");
  std::size_t measured = 0;
  for (const auto& s : a["states"])
    if (s["status"] == "measured") {
      ++measured;
      EXPECT_GT(s["compiled_ns"].get<double>(), 0);
      EXPECT_NEAR(s["speedup"]["estimate"].get<double>(), 4.0, 0.4);
    }
  EXPECT_EQ(measured, setup.others.size());
  // Every state ran at the scripted 4x: no finding.
  EXPECT_EQ(a["differs"], false);
  for (const auto& w : section["warnings"]) EXPECT_NE(w["code"], "allocator_moves_result");
  // The state processes: system first (no settling), then the preloaded ones with their library.
  EXPECT_EQ(env_of(exec.processes()[2].env, "TCT_SETTLE_ALLOCATOR"), "0");
  for (std::size_t i = 3; i < exec.processes().size(); ++i)
    EXPECT_NE(env_of(exec.processes()[i].env, "LD_PRELOAD"), "");
}
