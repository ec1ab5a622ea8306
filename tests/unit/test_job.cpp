// tct job's pure parts: the t intervals across rounds, a run's total at a number of calls,
// the output check's line rule, the decision by the interval rule, where the fastest mode
// changes, and the section's JSON round trip. Expected values are worked by hand from the
// textbook formulas (Student's t table, the straight line through two points).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "job/decide.hpp"
#include "job/json.hpp"
#include "job/result.hpp"
#include "run/records.hpp"
#include "stats/mean_interval.hpp"

namespace {

using namespace tct;
using namespace tct::job;

TEST(StudentT, TableAndExpansionMatchPublishedQuantiles) {
  EXPECT_DOUBLE_EQ(stats::student_t_975(1), 12.706);
  EXPECT_DOUBLE_EQ(stats::student_t_975(2), 4.303);
  EXPECT_DOUBLE_EQ(stats::student_t_975(30), 2.042);
  // Published: t(0.975; 40) = 2.021, 60: 2.000, 120: 1.980, infinity: 1.960.
  EXPECT_NEAR(stats::student_t_975(40), 2.021, 1e-3);
  EXPECT_NEAR(stats::student_t_975(60), 2.000, 1e-3);
  EXPECT_NEAR(stats::student_t_975(120), 1.980, 1e-3);
  EXPECT_NEAR(stats::student_t_975(100000), 1.960, 1e-3);
  EXPECT_TRUE(std::isnan(stats::student_t_975(0)));
}

TEST(MeanInterval, ThreeValuesUseTwoDegreesOfFreedom) {
  const std::vector<double> xs = {1, 2, 3, NAN};  // the NaN is left out
  const auto iv = stats::mean_interval(xs);
  // mean 2, sd 1, half-width 4.303 / sqrt(3).
  EXPECT_DOUBLE_EQ(iv.estimate, 2.0);
  EXPECT_NEAR(iv.high - 2.0, 4.303 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(2.0 - iv.low, 4.303 / std::sqrt(3.0), 1e-12);
  const std::vector<double> one = {5};
  const auto single = stats::mean_interval(one);
  EXPECT_DOUBLE_EQ(single.estimate, 5);
  EXPECT_TRUE(std::isnan(single.low));
}

TEST(PairedRatio, ADriftSharedByBothModesCancels) {
  // Round 2 is twice as slow for both modes (the machine drifted): the ratio stays 1.5.
  const std::vector<double> a = {3, 6, 3.3}, b = {2, 4, 2.2};
  const auto iv = stats::paired_ratio_interval(a, b);
  EXPECT_NEAR(iv.estimate, 1.5, 1e-12);
  EXPECT_NEAR(iv.low, 1.5, 1e-9);
  EXPECT_NEAR(iv.high, 1.5, 1e-9);
  // Unpaired, the same totals would not tell the modes apart: their intervals overlap.
  EXPECT_LT(stats::mean_interval(a).low, stats::mean_interval(b).high);
}

RunFigures run_of(int round, double wall_s, double first_s, double per_call_s, size_t calls) {
  RunFigures f;
  f.round = round;
  f.exit_text = "exit 0";
  f.wall = Nanoseconds(wall_s * 1e9);
  f.anchor = "serve.py:10 Model";
  f.anchor_calls = calls;
  // The calls end on a straight line from the first; the job exits 0.5 s after the last.
  f.curve = {{1, first_s * 1e9}, {static_cast<double>(calls), (first_s + (calls - 1) * per_call_s) * 1e9}};
  f.loop_per_call = Nanoseconds(per_call_s * 1e9);
  SiteRun s;
  s.key = f.anchor;
  s.name = "Model";
  s.calls = calls;
  s.first_output = Nanoseconds(first_s * 1e9);
  s.steady = Nanoseconds(per_call_s * 0.8e9);
  f.sites.push_back(s);
  f.output = {"requests 100 checksum 12.3456"};
  f.output_lines = 1;
  return f;
}

TEST(TotalAt, MeasuredWithinTheRunExtrapolatedBeyond) {
  // First output at 2 s, 0.01 s per call, 101 calls: the last ends at 3 s, the job at 3.5 s.
  const RunFigures f = run_of(1, 3.5, 2.0, 0.01, 101);
  EXPECT_NEAR(total_at(f, 101), 3.5e9, 1);
  EXPECT_NEAR(total_at(f, 51), (2.0 + 0.5 + 0.5) * 1e9, 1);  // the 51st call ends at 2.5 s, plus the tail
  EXPECT_NEAR(total_at(f, 1001), (3.5 + 900 * 0.01) * 1e9, 1);
  RunFigures failed = f;
  failed.exit_status = 1;
  EXPECT_TRUE(std::isnan(total_at(failed, 10)));
}

TEST(SameLine, NumbersWithinATenthOfAPercentWordsExactly) {
  EXPECT_TRUE(same_line("checksum 12.3456", "checksum 12.3457"));
  EXPECT_TRUE(same_line("loss=0.25, acc=0.9", "loss=0.25001, acc=0.9"));
  EXPECT_FALSE(same_line("checksum 12.3456", "checksum 12.5"));
  EXPECT_FALSE(same_line("label cat", "label dog"));
  EXPECT_FALSE(same_line("a 1", "a 1 2"));
}

JobResult two_modes() {
  JobResult r;
  r.rounds = 3;
  r.command = {"python", "serve.py"};
  ModeResult eager, warm;
  eager.spec = {How::Eager, std::nullopt};
  warm.spec = {How::Warm, std::nullopt};
  // Eager: first output at 1 s, 10 ms per call; warm: first output at 4 s, 2 ms per call.
  for (int i = 1; i <= 3; ++i) {
    const double drift = 1 + 0.02 * i;
    eager.runs.push_back(run_of(i, (1.0 + 99 * 0.010 + 0.5) * drift, 1.0 * drift, 0.010 * drift, 100));
    warm.runs.push_back(run_of(i, (4.0 + 99 * 0.002 + 0.5) * drift, 4.0 * drift, 0.002 * drift, 100));
  }
  r.modes = {eager, warm};
  return r;
}

TEST(Decide, EagerBestAsRunCompiledBestAtTheHorizonWithTheCrossingBetween) {
  JobResult r = two_modes();
  r.horizon_calls = 3000;
  decide(r);
  EXPECT_EQ(r.as_run.best, "eager");
  ASSERT_EQ(r.as_run.others.size(), 1u);
  EXPECT_EQ(r.as_run.others[0].verdict, stats::SpeedupVerdict::Faster);  // eager is faster as run
  EXPECT_TRUE(r.as_run.clear());
  ASSERT_TRUE(r.at_horizon);
  EXPECT_EQ(r.at_horizon->best, "warm");
  // At 3000 calls: eager 1 + 2999 * 0.010 + 0.5, warm 4 + 2999 * 0.002 + 0.5 (times the drift).
  const double eager3000 = 1 + 2999 * 0.010 + 0.5, warm3000 = 4 + 2999 * 0.002 + 0.5;
  EXPECT_NEAR(r.at_horizon->others[0].ratio.estimate, eager3000 / warm3000, 1e-9);
  // The curves cross where 1 + 0.010 (n - 1) = 4 + 0.002 (n - 1): n = 376 (drift scales both alike).
  ASSERT_EQ(r.crossings.size(), 1u);
  EXPECT_EQ(r.crossings[0].from, "eager");
  EXPECT_EQ(r.crossings[0].to, "warm");
  EXPECT_NEAR(r.crossings[0].calls, 376, 1);
  EXPECT_TRUE(r.modes[1].output.compared && r.modes[1].output.same);
}

TEST(Decide, AModeWhoseOutputDiffersIsNeverRecommended) {
  JobResult r = two_modes();
  r.horizon_calls = 3000;
  for (auto& run : r.modes[1].runs) run.output = {"requests 100 checksum 99.0"};
  decide(r);
  EXPECT_FALSE(r.modes[1].output.same);
  EXPECT_EQ(r.modes[1].output.line, 1);
  EXPECT_FALSE(r.modes[1].eligible());
  EXPECT_EQ(r.at_horizon->best, "eager");  // though warm's total is lower there
  EXPECT_TRUE(r.crossings.empty());
}

TEST(Decide, LinesThatDifferBetweenEagerRunsAreLeftOut) {
  JobResult r = two_modes();
  for (size_t i = 0; i < r.modes[0].runs.size(); ++i)
    r.modes[0].runs[i].output.push_back("took " + std::to_string(10 + i) + " ms");
  for (auto& run : r.modes[1].runs) run.output.push_back("took 3 ms");
  decide(r);
  EXPECT_TRUE(r.modes[1].output.same);
  EXPECT_FALSE(r.notes.empty());
}

TEST(Decide, AFailedRunIsRecordedAndItsModeNotRecommended) {
  JobResult r = two_modes();
  r.modes[0].runs[1].exit_status = 1;
  r.modes[0].runs[1].exit_text = "exit 1";
  decide(r);
  EXPECT_EQ(r.modes[0].failed, 1);
  EXPECT_TRUE(r.modes[0].ok());
  EXPECT_FALSE(r.modes[0].eligible());
  EXPECT_EQ(r.as_run.best, "warm");
}

TEST(JobJson, RoundTripKeepsEveryField) {
  JobResult r = two_modes();
  r.horizon_calls = 500;
  decide(r);
  const auto j = to_json(r);
  const JobResult back = from_json(j);
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.at_horizon->best, r.at_horizon->best);
  EXPECT_EQ(back.as_run.others[0].verdict, r.as_run.others[0].verdict);
}

TEST(JobRecords, CallEndsAndCacheArtifactsAreReadFromTheBootstrapsRecord) {
  const std::string text = R"({"pid": 7, "sites": [{"index": 0, "name": "Model", "durations_ns": [5, 6],
    "ends_ns": [100, 200]}], "cache_artifacts": {"loaded_bytes": 4096, "load_ns": 1500,
    "load_error": "RuntimeError: bad bytes"}})";
  const run::ProcessRecord p = run::parse_record(text);
  ASSERT_EQ(p.sites.size(), 1u);
  EXPECT_EQ(p.sites[0].ends_ns, (std::vector<int64_t>{100, 200}));
  ASSERT_TRUE(p.artifacts);
  EXPECT_EQ(p.artifacts->loaded_bytes, 4096);
  EXPECT_EQ(p.artifacts->load_ns, 1500);
  EXPECT_FALSE(p.artifacts->saved_bytes);
  EXPECT_EQ(p.artifacts->load_error, "RuntimeError: bad bytes");
  // A record of tct run (no ends, no artifacts) reads as before.
  const run::ProcessRecord plain = run::parse_record(R"({"pid": 8, "sites": [{"durations_ns": [1]}]})");
  EXPECT_TRUE(plain.sites[0].ends_ns.empty());
  EXPECT_FALSE(plain.artifacts);
}

}  // namespace
