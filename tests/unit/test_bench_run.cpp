// run_bench end to end through a scripted fake agent: the phases, the processes it starts,
// what lands in the section. The real agent and torch are covered by tests/e2e/test_bench.py.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "errors.hpp"
#include "fake_agent.hpp"
#include "runner/bench_run.hpp"

namespace {

using tct::testing::FakeExecutor;
using tct::testing::FakeHost;
using json = nlohmann::json;

// An agent whose eager call takes `eager_ns` and whose compiled call takes `compiled_ns`,
// each sample jittered by a few percent.
struct ScriptedTarget {
  double eager_ns = 2000, compiled_ns = 500;
  std::mt19937_64 rng{7};
  std::vector<double> block(double centre, int n) {
    std::normal_distribution<double> jitter(1.0, 0.02);
    std::vector<double> out;
    for (int i = 0; i < n; ++i) out.push_back(centre * jitter(rng));
    return out;
  }
  json operator()(int, const std::string& op, const json& p) {
    if (op == "target.load") return {{"spec", "fake:target"}, {"kind", "function"}};
    if (op == "bench.env")
      return {{"clock", {{"resolution_ns", 20.0}}}, {"backends", {"inductor", "aot_eager"}},
              {"modes", {"default"}}, {"set_stance", true}, {"device_type", "cpu"}};
    if (op == "bench.eager_warmup") return {{"times_ns", block(eager_ns, p.value("n", 10))}};
    if (op == "bench.compile") return {{"key", p["key"]}};
    if (op == "bench.first_calls") {
      auto t = block(compiled_ns, p.value("n", 20));
      t[0] = 2e9;  // the compile
      return {{"times_ns", t}, {"counters", {{"graph_breaks", 0}}}, {"compile_times_ns", json::object()}};
    }
    if (op == "bench.time_block") {
      double centre = p.value("which", "") == "eager" ? eager_ns : compiled_ns;
      return {{"samples_ns", block(centre, p.value("samples", 10))}, {"frames_compiled", 0}, {"graph_breaks", 0}};
    }
    return json::object();
  }
};

tct::runner::BenchConfig quick_config() {
  tct::runner::BenchConfig cfg;
  cfg.target.target = "fake:target";
  cfg.budget_s = 0.5;
  cfg.check = false;
  cfg.memory = false;
  cfg.compile_time = false;
  return cfg;
}

TEST(RunBench, MeasuresTheScriptedSpeedup) {
  ScriptedTarget target;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) { return target(i, op, p); });
  FakeHost host;
  json section = tct::runner::run_bench(host, exec, quick_config());
  ASSERT_EQ(section["rows"].size(), 1u);
  const json& row = section["rows"][0];
  EXPECT_EQ(row["status"], "ok");
  EXPECT_NEAR(row["speedup"]["estimate"].get<double>(), 4.0, 0.1);
  EXPECT_LE(row["speedup"]["low"].get<double>(), 4.0);
  EXPECT_GE(row["speedup"]["high"].get<double>(), 4.0);
  EXPECT_EQ(section["phase"], "done");
  EXPECT_EQ(host.doc["bench"], section);
  EXPECT_GT(host.checkpoints, 2);
}

TEST(RunBench, AFailingCompileFailsTheRowNotTheRun) {
  ScriptedTarget target;
  FakeExecutor exec([&](int i, const std::string& op, const json& p) -> json {
    if (op == "bench.first_calls")
      throw tct::Error(tct::ExitCode::TargetFailed, "compile_failed", "inductor exploded", "try aot_eager");
    return target(i, op, p);
  });
  FakeHost host;
  json section = tct::runner::run_bench(host, exec, quick_config());
  const json& row = section["rows"][0];
  EXPECT_EQ(row["status"], "failed");
  EXPECT_EQ(row["error"]["kind"], "compile_failed");
  auto err = tct::runner::bench_outcome(section, quick_config());
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->code(), tct::ExitCode::TargetFailed);
}

}  // namespace
