// tct job --shape-fixes' pure parts: the modes it adds, the code it gives for each torch's API
// (the names as torch 2.13.0 and 2.15.0 spell them, read from their own signatures), the fixes
// that cannot apply, the speedup against the default paired by round, and the code kept only
// for a fix that ran. The e2e test runs the code itself on both torches.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "job/decide.hpp"
#include "job/json.hpp"
#include "job/shape_fixes.hpp"

namespace {

using namespace tct;
using namespace tct::job;

ShapeFixes feats_site(const std::string& spec_keyword) {
  ShapeFixes s;
  s.api = {"2.13.0+cpu",
           "torch._dynamo.mark_dynamic",
           "torch._dynamo.decorators.mark_unbacked",
           true,
           true,
           spec_keyword,
           spec_keyword.empty() ? "" : "torch.fx.experimental.dynamic_spec"};
  s.sites = {{"/job/mlp.py:41 MLP", "MLP", "module", "/job/mlp.py", 41}};
  VariedInput v;
  v.site = "/job/mlp.py:41 MLP";
  v.site_name = "MLP";
  v.input = "feats";
  v.position = 0;
  v.dim = 0;
  v.rank = 2;
  v.min = 3;
  v.max = 11;
  v.sizes = 5;
  s.varied = {v};
  return s;
}

TEST(ShapeFixModes, TheDefaultThenEachFixAtEachThreadCount) {
  std::vector<ModeSpec> modes = {{How::Eager, std::nullopt}};
  add_shape_fix_modes(modes, {ShapeFix::Static, ShapeFix::MarkDynamic}, {std::nullopt, 1});
  std::vector<std::string> labels;
  for (const auto& m : modes) labels.push_back(m.label());
  EXPECT_EQ(labels, (std::vector<std::string>{"eager", "cold", "cold, static", "cold, mark_dynamic", "cold, 1 thread",
                                              "cold, static, 1 thread", "cold, mark_dynamic, 1 thread"}));
  std::vector<ModeSpec> none = {{How::Cold, std::nullopt}};
  add_shape_fix_modes(none, {}, {std::nullopt});
  EXPECT_EQ(none.size(), 1u);
}

TEST(ShapeFixCode, EachTorchsOwnSpelling) {
  const ShapeFixes on213 = feats_site("shapes_spec"), on215 = feats_site("dynamic_shapes");
  auto one = [](ShapeFix f, const ShapeFixes& s) {
    const auto code = shape_fix_code(f, s);
    EXPECT_EQ(code.size(), 1u);
    return code.empty() ? FixCode{} : code.front();
  };
  EXPECT_EQ(one(ShapeFix::Static, on213).code, "torch.compile(model, dynamic=False)");
  EXPECT_EQ(one(ShapeFix::Dynamic, on213).code, "torch.compile(model, dynamic=True)");
  const FixCode md = one(ShapeFix::MarkDynamic, on213);
  EXPECT_EQ(md.code, "torch._dynamo.mark_dynamic(feats, 0, min=3, max=11)");
  EXPECT_EQ(md.imports, std::vector<std::string>{"import torch._dynamo"});
  EXPECT_EQ(one(ShapeFix::MarkUnbacked, on213).code, "torch._dynamo.decorators.mark_unbacked(feats, 0, min=3, max=11)");
  EXPECT_EQ(one(ShapeFix::Spec, on213).code,
            "torch.compile(model, shapes_spec=ParamsSpec({\"feats\": TensorSpec([ShapeVar(\"feats_dim0\", min=3, "
            "max=11), None])}))");
  EXPECT_EQ(one(ShapeFix::Spec, on215).code,
            "torch.compile(model, dynamic_shapes=ParamsSpec({\"feats\": TensorSpec([ShapeVar(\"feats_dim0\", min=3, "
            "max=11), None])}))");
  // A mark_dynamic without min= and max= (an older torch) is given without them.
  ShapeFixes old = on213;
  old.api.mark_dynamic_range = false;
  EXPECT_EQ(one(ShapeFix::MarkDynamic, old).code, "torch._dynamo.mark_dynamic(feats, 0)");
}

// A result as the runner leaves it after the run that read the shapes and two rounds.
JobResult two_rounds(double cold1, double cold2, double fix1, double fix2) {
  JobResult r;
  r.rounds = 2;
  r.shape_fixes = feats_site("shapes_spec");
  auto mode = [](ModeSpec spec, double w1, double w2) {
    ModeResult m;
    m.spec = spec;
    for (int round : {1, 2}) {
      RunFigures f;
      f.round = round;
      f.wall = Nanoseconds(round == 1 ? w1 : w2);
      SiteRun s;
      s.key = "/job/mlp.py:41 MLP";
      s.name = "MLP";
      s.recompiles = spec.shape_fix ? 0 : 1;
      f.sites.push_back(s);
      m.runs.push_back(f);
    }
    return m;
  };
  r.modes.push_back(mode({How::Cold, std::nullopt}, cold1, cold2));
  r.modes.push_back(mode({How::Cold, std::nullopt, ShapeFix::MarkDynamic}, fix1, fix2));
  ShapeFixResult x;
  x.fix = ShapeFix::MarkDynamic;
  x.mode = "cold, mark_dynamic";
  x.baseline = "cold";
  x.applied = {"/job/mlp.py:41 MLP"};
  r.shape_fixes->fixes.push_back(x);
  return r;
}

TEST(ShapeFixDecision, SpeedupIsTheDefaultsTotalOverTheFixsPairedByRound) {
  JobResult r = two_rounds(4e9, 4.4e9, 2e9, 2.2e9);
  decide(r);
  const ShapeFixResult& x = r.shape_fixes->fixes.front();
  EXPECT_NEAR(x.speedup.estimate, 2.0, 1e-9);  // both rounds 2x: a zero-width interval above 1
  EXPECT_EQ(x.verdict, stats::SpeedupVerdict::Faster);
  EXPECT_EQ(x.recompiles, 0);
  ASSERT_EQ(x.code.size(), 1u);
  EXPECT_EQ(x.code.front().code, "torch._dynamo.mark_dynamic(feats, 0, min=3, max=11)");
  // The section's JSON round trip keeps the fixes.
  const JobResult back = from_json(to_json(r));
  ASSERT_TRUE(back.shape_fixes);
  EXPECT_EQ(back.shape_fixes->fixes.front().code.front().code, x.code.front().code);
  EXPECT_EQ(back.modes[1].spec.shape_fix, ShapeFix::MarkDynamic);
}

TEST(ShapeFixDecision, NoCodeForAFixThatWasNotApplied) {
  JobResult r = two_rounds(4e9, 4.4e9, 2e9, 2.2e9);
  r.shape_fixes->fixes.front().applied.clear();
  decide(r);
  EXPECT_TRUE(r.shape_fixes->fixes.front().code.empty());
  // Nor for one whose runs failed.
  JobResult failed = two_rounds(4e9, 4.4e9, 2e9, 2.2e9);
  for (auto& run : failed.modes[1].runs) run.exit_status = 1;
  decide(failed);
  EXPECT_TRUE(failed.shape_fixes->fixes.front().code.empty());
}

}  // namespace
