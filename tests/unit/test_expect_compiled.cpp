// Expect's answer bounded by what the compiled run did: a skipped frame compiles nothing
// (exactly 1.0x, its fix first), graph breaks lower the range's low end to 1.0x (their fix
// first), a function captured whole keeps the model's range.
#include <gtest/gtest.h>

#include "expect/compiled.hpp"
#include "explain/json.hpp"

using namespace tct::expect;
using json = nlohmann::json;

namespace {

json explain_section(int graphs, int breaks, json skipped = json::array()) {
  return {{"counts_from", "compiled_run"},
          {"graph_count", graphs},
          {"graph_break_count", breaks},
          {"skipped_frames", skipped},
          {"groups", breaks ? json::array({{{"kind", "print_logging"},
                                            {"file", "/m/model.py"},
                                            {"line", 13},
                                            {"reason", "Failed to trace builtin operator"}}})
                            : json::array()}};
}

// The run as expect takes it: explain's section read back into its result.
CompiledRun compiled_run_from_explain_section(const json& section) {
  return compiled_run_of(tct::explain::from_json(section));
}

const SpeedupRange kModel{1.4, 4.0, 2.2};  // low, high, point

}  // namespace

TEST(ExpectCompiled, SkippedFrameMeansNothingToGainUntilFixed) {
  json skip = {{{"function", "forward"},
                {"file", "/m/model.py"},
                {"line", 11},
                {"break_line", 13},
                {"kind", "print_logging"},
                {"reason", "Failed to trace builtin operator"},
                {"skip_reason", "graph break in loop"}}};
  CompiledRun run = compiled_run_from_explain_section(explain_section(0, 1, skip));
  ASSERT_TRUE(run.nothing_compiled());
  SpeedupRange r = bound_prediction(kModel, run, NAN);
  EXPECT_EQ(r.low, 1.0);
  EXPECT_EQ(r.point, 1.0);
  EXPECT_EQ(r.high, 1.0);
  EXPECT_EQ(prediction_assumes(run), tct::expect::Assumes::NothingCompiled);
  auto summary = summarize(run, kModel);
  ASSERT_TRUE(summary);
  EXPECT_TRUE(summary->nothing_compiled);
  EXPECT_EQ(summary->if_captured.high, 4.0);
  std::optional<Suggestion> first = fix_first_suggestion(run, "m.py:make");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->title, "Nothing compiles yet: fix what makes Dynamo skip forward");
  EXPECT_NE(first->why.find("model.py:11"), std::string::npos);
  EXPECT_NE(first->how.find("tct explain m.py:make"), std::string::npos);
  EXPECT_FALSE(first->expected_gain);
  EXPECT_FALSE(first->compile_as_is);
}

TEST(ExpectCompiled, GraphBreaksLowerTheLowEndAndComeFirst) {
  CompiledRun run = compiled_run_from_explain_section(explain_section(3, 2));
  EXPECT_FALSE(run.nothing_compiled());
  SpeedupRange r = bound_prediction(kModel, run, NAN);
  EXPECT_EQ(r.low, 1.0);
  EXPECT_EQ(r.point, 2.2);
  EXPECT_EQ(r.high, 4.0);
  EXPECT_EQ(prediction_assumes(run), tct::expect::Assumes::GraphBreaksStay);
  std::optional<Suggestion> first = fix_first_suggestion(run, "t");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->title, "Fix the 2 graph break(s) first");
  EXPECT_FALSE(first->expected_gain);
  Suggestion compile_it;
  compile_it.rank = 1;
  compile_it.title = "Compile it";
  std::vector<Suggestion> ranked = put_first(first, {compile_it});
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].title, "Fix the 2 graph break(s) first");
  EXPECT_EQ(ranked[0].rank, 1);
  EXPECT_EQ(ranked[1].title, "Compile it");
  EXPECT_EQ(ranked[1].rank, 2);
}

TEST(ExpectCompiled, CapturedOrUnknownKeepsTheModel) {
  for (const json& section :
       {explain_section(1, 0), json({{"counts_from", "explain"}, {"graph_break_count", 4}}), json(nullptr)}) {
    CompiledRun run = compiled_run_from_explain_section(section);
    SpeedupRange r = bound_prediction(kModel, run, NAN);
    EXPECT_EQ(r.low, 1.4);
    EXPECT_EQ(prediction_assumes(run), tct::expect::Assumes::Captured);
    EXPECT_FALSE(fix_first_suggestion(run, "t"));
    Suggestion only;
    only.rank = 1;
    std::vector<Suggestion> ranked = put_first(std::nullopt, {only});
    ASSERT_EQ(ranked.size(), 1u);
    EXPECT_EQ(ranked[0].rank, 1);
  }
  EXPECT_FALSE(summarize(compiled_run_from_explain_section(nullptr), kModel));
}

// Code that runs eagerly on every call: the range applies to the compiled share only (Amdahl),
// from no gain on it (1.0x) to the captured high end, and Dynamo's measured overhead around the
// graphs is counted, so a small compiled share predicts a loss, as a partly compiled GRU measures.
TEST(ExpectCompiled, EagerPartCountsTheCompiledShareAndDynamosOverhead) {
  CompiledRun run;
  run.known = true;
  run.graphs = 1;
  run.eager_parts.push_back(tct::core::EagerPart{});
  run.graph_share = tct::explain::GraphShare{15, 0.1, 1000, 100, 0.1};
  const SpeedupRange r = bound_prediction(kModel, run, NAN);
  // The captured low end 1.4x is the whole function's: no gain on the share, less the model's
  // error (1.4 / 2.2 below its point).
  EXPECT_DOUBLE_EQ(r.low, 1.0 / (0.9 + 0.1 / (1.4 / 2.2) + 0.1));
  EXPECT_DOUBLE_EQ(r.high, 1.0 / (0.9 + 0.1 / 4.0 + 0.1));
  EXPECT_LT(r.high, 1.0);
  EXPECT_EQ(prediction_assumes(run), Assumes::EagerPartStays);
  // A compiled call's fixed cost (5% of the eager call): the low end pays it, the rest do not.
  const SpeedupRange wrapped = bound_prediction(kModel, run, 0.05);
  EXPECT_DOUBLE_EQ(wrapped.low, 1.0 / (0.9 + 0.1 / (1.4 / 2.2) + 0.1 + 0.05));
  EXPECT_DOUBLE_EQ(wrapped.point, r.point);
  EXPECT_DOUBLE_EQ(wrapped.high, r.high);
  // Not measured (an older document): no overhead term.
  run.graph_share->overhead = NAN;
  EXPECT_DOUBLE_EQ(bound_prediction(kModel, run, NAN).high, 1.0 / (0.9 + 0.1 / 4.0));
}
