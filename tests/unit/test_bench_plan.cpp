// Planning the bench matrix and validating names (src/bench/plan.hpp).
#include <gtest/gtest.h>

#include "errors.hpp"
#include "bench/plan.hpp"

using namespace tct::bench;

TEST(BenchPlan, SplitListTrimsDropsEmptyAndDuplicates) {
  EXPECT_EQ(split_list(" a, b,,a ,c "), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(split_list("").empty());
  EXPECT_TRUE(split_list(" , ,").empty());
}

TEST(BenchPlan, CartesianProductBackendOutermost) {
  auto p = plan_rows({"inductor"}, {"default", "max-autotune"}, {"auto", "true"}, {false});
  ASSERT_EQ(p.rows.size(), 4u);
  EXPECT_EQ(p.rows[0].mode, "default");
  EXPECT_EQ(p.rows[1].dynamic, "true");
  EXPECT_EQ(p.rows[2].mode, "max-autotune");
  EXPECT_TRUE(p.notes.empty());
}

TEST(BenchPlan, ModeOnlyAppliesToInductor) {
  auto p = plan_rows({"aot_eager", "inductor"}, {"default", "max-autotune"}, {}, {});
  ASSERT_EQ(p.rows.size(), 3u);
  EXPECT_EQ(p.rows[0].backend, "aot_eager");
  EXPECT_EQ(p.rows[0].mode, "default");
  EXPECT_EQ(p.notes.size(), 1u);
}

TEST(BenchPlan, EmptyListsFallBackToDefaults) {
  auto p = plan_rows({}, {}, {}, {});
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0].backend, "inductor");
  EXPECT_EQ(p.rows[0].mode, "default");
  EXPECT_EQ(p.rows[0].dynamic, "auto");
  EXPECT_FALSE(p.rows[0].fullgraph);
  EXPECT_EQ(p.rows[0].label(), "inductor");
}

TEST(BenchPlan, KeysAreUniqueAndLabelsShowNonDefaults) {
  auto p = plan_rows({"inductor"}, {"default"}, {"auto", "false"}, {false, true});
  std::set<std::string> keys;
  for (const auto& r : p.rows) keys.insert(r.key());
  EXPECT_EQ(keys.size(), p.rows.size());
  EXPECT_EQ(p.rows.back().label(), "inductor dynamic=false fullgraph");
}

TEST(BenchPlan, DynamicSpellings) {
  EXPECT_EQ(normalize_dynamic("ON"), "true");
  EXPECT_EQ(normalize_dynamic("0"), "false");
  EXPECT_EQ(normalize_dynamic("none"), "auto");
  EXPECT_THROW(normalize_dynamic("maybe"), tct::Error);
  auto p = plan_rows({"inductor"}, {}, {"true", "1", "yes"}, {});
  EXPECT_EQ(p.rows.size(), 1u);  // all the same value
}

TEST(BenchPlan, ValidateRejectsUnknownBackendWithSuggestion) {
  auto p = plan_rows({"indcutor"}, {}, {}, {});
  try {
    validate_plan(p, {"aot_eager", "eager", "inductor"}, {"default"});
    FAIL() << "expected an error";
  } catch (const tct::Error& e) {
    EXPECT_EQ(e.code(), tct::ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("indcutor"), std::string::npos);
    EXPECT_NE(e.hint().find("did you mean 'inductor'"), std::string::npos);
  }
}

TEST(BenchPlan, ValidateRejectsUnknownMode) {
  auto p = plan_rows({"inductor"}, {"max-autotun"}, {}, {});
  EXPECT_THROW(validate_plan(p, {"inductor"}, {"default", "max-autotune"}), tct::Error);
  auto ok = plan_rows({"inductor"}, {"max-autotune"}, {}, {});
  EXPECT_NO_THROW(validate_plan(ok, {"inductor"}, {"default", "max-autotune"}));
}

TEST(BenchPlan, AotiIsOneRowBesideTheOthers) {
  // --backend inductor,aoti: aoti takes no mode, dynamic or fullgraph; one row, with a note
  // when more were asked for.
  auto p = plan_rows({"inductor", "aoti"}, {"default"}, {"auto", "true"}, {false, true});
  ASSERT_EQ(p.rows.size(), 5u);
  EXPECT_EQ(p.rows[4].backend, "aoti");
  EXPECT_EQ(p.rows[4].label(), "aoti");
  EXPECT_EQ(p.rows[4].dynamic, "auto");
  EXPECT_FALSE(p.rows[4].fullgraph);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("do not apply to aoti"), std::string::npos);
  EXPECT_TRUE(plan_rows({"aoti"}, {}, {}, {}).notes.empty());
}

TEST(BenchPlan, AotiIsKnownWhateverTorchListsAndOfferedForATypo) {
  EXPECT_NO_THROW(validate_plan(plan_rows({"aoti"}, {}, {}, {}), {"inductor", "eager"}, {"default"}));
  try {
    validate_plan(plan_rows({"aotii"}, {}, {}, {}), {"inductor", "eager"}, {"default"});
    FAIL() << "an unknown backend must be a usage error";
  } catch (const tct::Error& e) {
    EXPECT_EQ(e.code(), tct::ExitCode::Usage);
    EXPECT_NE(e.hint().find("did you mean 'aoti'"), std::string::npos) << e.hint();
  }
}
