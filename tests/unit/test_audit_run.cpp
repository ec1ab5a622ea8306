// audit::run_audit with a scripted agent: what a failed probe means for the other steps, the
// first failure kept as the audit's exit, Ctrl-C ending the audit at once.
#include <gtest/gtest.h>

#include "audit/run.hpp"
#include "errors.hpp"
#include "fake_agent.hpp"

namespace {

using json = nlohmann::json;

tct::audit::AuditConfig config_with(tct::core::Executor& exec) {
  tct::audit::AuditConfig cfg;
  cfg.target.target = "builtin:mlp";
  cfg.start_probe_agent = [&exec] { return tct::audit::ProbeAgent{exec.start({}), "/usr/bin/python3"}; };
  cfg.bench_config = [] { return tct::bench::BenchConfig{}; };
  return cfg;
}

TEST(AuditRun, ANotUsableVerdictSkipsTheOtherSteps) {
  // The fake agent's handshake has no torch: probe's verdict is not_usable without a request.
  tct::testing::FakeExecutor executor([](int, const std::string& op, const json&) -> json {
    ADD_FAILURE() << "no request expected, got " << op;
    return json::object();
  });
  tct::testing::FakeCaller<tct::audit::AuditResult> caller;
  const auto run = tct::audit::run_audit(caller.progress(), executor, config_with(executor), caller.on_partial());

  EXPECT_EQ(run.result.target, "builtin:mlp");
  ASSERT_EQ(run.result.steps.size(), 4u);
  EXPECT_EQ(run.result.steps[0].name, "probe");
  EXPECT_EQ(run.result.steps[0].status, tct::audit::StepStatus::Ok);
  ASSERT_TRUE(run.result.probe);
  EXPECT_FALSE(run.result.probe->usable());
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(run.result.steps[i].status, tct::audit::StepStatus::Skipped);
    EXPECT_EQ(run.result.steps[i].reason, "torch.compile is not usable here (see probe)");
  }
  EXPECT_FALSE(run.first_failure);  // the verdict is the caller's exit, not a step's failure
  ASSERT_EQ(executor.processes().size(), 1u);
  EXPECT_TRUE(executor.processes()[0].closed);
  ASSERT_FALSE(caller.partials.empty());
  EXPECT_EQ(caller.partials.back().steps.size(), 4u);  // the caller saw every step
  ASSERT_FALSE(caller.progress_lines.empty());
  EXPECT_EQ(caller.progress_lines.front(), "probe");
}

TEST(AuditRun, AFailedProbeSkipsTheOtherStepsAndIsTheExit) {
  tct::testing::FakeExecutor executor([](int, const std::string&, const json&) -> json { return json::object(); });
  auto cfg = config_with(executor);
  cfg.start_probe_agent = []() -> tct::audit::ProbeAgent {
    tct::Error e(tct::ExitCode::TargetFailed, "agent_died", "the agent died", "run again");
    e.stage = "handshake";
    throw e;
  };
  const auto run = tct::audit::run_audit({}, executor, cfg, {});
  ASSERT_EQ(run.result.steps.size(), 4u);
  EXPECT_EQ(run.result.steps[0].status, tct::audit::StepStatus::Failed);
  ASSERT_TRUE(run.result.steps[0].error);
  EXPECT_EQ(run.result.steps[0].error->kind, "agent_died");
  EXPECT_EQ(run.result.steps[0].error->stage, "handshake");  // the runner's stage, as it said it
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(run.result.steps[i].reason, "the probe step failed");
  ASSERT_TRUE(run.first_failure);
  EXPECT_EQ(run.first_failure->code(), tct::ExitCode::TargetFailed);
  EXPECT_EQ(run.first_failure->stage, "probe: handshake");
}

TEST(AuditRun, AnAgentThatCannotStartFailsTheProbeStepByName) {
  tct::testing::FakeExecutor executor([](int, const std::string&, const json&) -> json { return json::object(); });
  auto cfg = config_with(executor);
  cfg.start_probe_agent = []() -> tct::audit::ProbeAgent { throw tct::usage_error("no such interpreter: /nope"); };
  const auto run = tct::audit::run_audit({}, executor, cfg, {});
  ASSERT_TRUE(run.first_failure);
  EXPECT_EQ(run.first_failure->code(), tct::ExitCode::Usage);
  EXPECT_EQ(run.first_failure->stage, "probe");
  ASSERT_EQ(run.result.steps.size(), 4u);
  EXPECT_TRUE(executor.processes().empty());
}

TEST(AuditRun, CtrlCEndsTheAuditAtOnce) {
  tct::testing::FakeExecutor executor([](int, const std::string&, const json&) -> json { return json::object(); });
  auto cfg = config_with(executor);
  cfg.start_probe_agent = []() -> tct::audit::ProbeAgent {
    throw tct::Error(tct::ExitCode::Interrupted, "interrupted", "interrupted");
  };
  tct::testing::FakeCaller<tct::audit::AuditResult> caller;
  EXPECT_THROW(tct::audit::run_audit(caller.progress(), executor, cfg, caller.on_partial()), tct::Error);
  EXPECT_TRUE(caller.partials.empty());  // no step recorded, none skipped
}

}  // namespace
