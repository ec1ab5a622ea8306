// tct job's AOTInductor plan and build decision, on shape records written by hand: which
// dimensions become a torch.export.Dim (those whose size varied; those equal in every call share
// one), their ranges, the plan's JSON, and why a build keeps the mode from running.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "job/aoti.hpp"

namespace {

using namespace tct;
using namespace tct::job;

run::RecordSet records_of(std::vector<run::ShapeCount> shapes) {
  run::SiteRecord s;
  s.kind = "module";
  s.name = "Scorer";
  s.site_file = "serve.py";
  s.site_line = 12;
  s.arg_names = {"rows"};
  s.shapes = std::move(shapes);
  run::ProcessRecord p;
  p.sites.push_back(std::move(s));
  run::RecordSet out;
  out.processes.push_back(std::move(p));
  return out;
}

TEST(JobAotiPlan, DimsThatAlwaysMatchShareOneAndStaticOnesHaveNone) {
  // rows [batch, 8, 12] positionally, mask [batch, context] by keyword: the batch is the
  // same in both (one Dim), the context varies on its own (another), 12 never varies.
  const auto plan = aoti_plan(records_of({
      {{std::vector<int64_t>{3, 8, 12}}, {{"mask", {3, 8}}}, 4},
      {{std::vector<int64_t>{11, 8, 12}}, {{"mask", {11, 16}}}, 2},
      {{std::vector<int64_t>{1, 8, 12}}, {{"mask", {1, 8}}}, 1},
  }));
  ASSERT_EQ(plan.size(), 1u);
  ASSERT_EQ(plan[0].dims.size(), 2u);
  const AotiDim& batch = plan[0].dims[0];
  EXPECT_EQ(batch.name, "rows_0");
  ASSERT_EQ(batch.at.size(), 2u);
  EXPECT_EQ(batch.at[0].label, "rows[0]");
  EXPECT_EQ(batch.at[0].arg, 0);
  EXPECT_EQ(batch.at[1].kwarg, "mask");
  EXPECT_EQ(batch.min, 1);
  EXPECT_EQ(batch.max, 11);
  EXPECT_EQ(batch.sizes, 3);
  const AotiDim& context = plan[0].dims[1];
  EXPECT_EQ(context.name, "mask_1");
  EXPECT_EQ(context.min, 8);
  EXPECT_EQ(context.max, 16);

  const auto j = nlohmann::json::parse(plan_json(plan, "out"));
  EXPECT_EQ(j["sites"][0]["package"], "out/site-0.pt2");
  EXPECT_EQ(j["sites"][0]["dims"][0]["at"][1]["kwarg"], "mask");
  EXPECT_EQ(j["sites"][0]["dims"][1]["min"], 8);
}

AotiCheck check(int64_t size, double diff) {
  AotiCheck c;
  c.sizes = {{"rows_0", size}};
  c.count_equal = c.shape_equal = true;
  c.max_abs_diff = diff;
  c.max_abs_expected = 2.0;
  return c;
}

TEST(JobAotiBuild, ASiteThatFailedToExportSaysTorchsFirstLine) {
  AotiBuild b;
  b.ok = true;
  b.sites = aoti_plan(records_of({{{std::vector<int64_t>{3, 8}}, {}, 1}, {{std::vector<int64_t>{9, 8}}, {}, 1}}));
  b.sites[0].status = AotiStatus::ExportFailed;
  b.sites[0].error = "GuardOnDataDependentSymNode: Could not guard on Eq(u0, 1)\n\nconsider using ...";
  decide_build(b);
  EXPECT_EQ(b.cannot,
            "Scorer (serve.py:12): torch.export failed: GuardOnDataDependentSymNode: Could not guard on Eq(u0, 1)");
  EXPECT_FALSE(b.sites[0].outputs_match);
}

TEST(JobAotiBuild, OutputsMatchWithinTheStartupRuleAndTheExtremesAreSeen) {
  AotiBuild b;
  b.ok = true;
  b.sites = aoti_plan(records_of({{{std::vector<int64_t>{3, 8}}, {}, 1}, {{std::vector<int64_t>{9, 8}}, {}, 1}}));
  b.sites[0].status = AotiStatus::Built;
  b.sites[0].checks = {check(3, 1e-6), check(9, 2e-4)};  // 2e-4 <= 1e-4 * max(1, 2.0)
  decide_build(b);
  EXPECT_TRUE(b.cannot.empty()) << b.cannot;
  EXPECT_TRUE(b.sites[0].outputs_match);
  EXPECT_TRUE(b.sites[0].extremes_checked);

  b.sites[0].checks = {check(3, 1e-6), check(5, 3e-4)};
  decide_build(b);
  EXPECT_FALSE(b.sites[0].outputs_match);
  EXPECT_FALSE(b.sites[0].extremes_checked);  // 9 was never checked
  EXPECT_NE(b.cannot.find("differ from eager's at rows_0=5"), std::string::npos) << b.cannot;
}

}  // namespace
