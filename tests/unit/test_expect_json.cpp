// ExpectResult <-> doc["expect"]: a section tct wrote reads back into the same result and
// writes out as the same JSON, at every checkpoint (the final sections in
// fixtures/expect/sections/ were written by real runs: a plain expect, a --sweep with
// --validate). And the verdicts a rendering prints are fields made in one place.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/json.hpp"
#include "errors.hpp"
#include "expect/json.hpp"
#include "expect/suggestions.hpp"

using nlohmann::json;
namespace fs = std::filesystem;
using namespace tct::expect;

namespace {

json read(const fs::path& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

std::vector<fs::path> saved_sections() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(TCT_SOURCE_DIR) / "tests/unit/fixtures/expect/sections"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void expect_round_trip(const json& section, const std::string& what) {
  EXPECT_EQ(to_json(from_json(section)).dump(2), section.dump(2)) << what;
}

}  // namespace

TEST(ExpectJson, SavedSectionsRoundTrip) {
  auto paths = saved_sections();
  ASSERT_GE(paths.size(), 2u);
  for (const auto& path : paths) {
    json doc = read(path);
    ASSERT_TRUE(doc.contains("expect")) << path;
    expect_round_trip(doc["expect"], path.filename().string());
  }
}

TEST(ExpectJson, EveryCheckpointRoundTrips) {
  for (const auto& path : saved_sections()) {
    const json full = read(path)["expect"];
    // As the runner writes them: nothing yet, the target, the ceilings, the analysis, a sweep
    // with its first point only.
    json s = {{"target", nullptr}, {"sweep", nullptr}, {"validation", nullptr}, {"class", nullptr}};
    expect_round_trip(s, "nothing yet");
    s["target"] = full["target"];
    expect_round_trip(s, "the target");
    for (const char* k : {"ceilings", "device", "ceilings_cache"}) s[k] = full[k];
    if (full.contains("ceilings_measurement")) s["ceilings_measurement"] = full["ceilings_measurement"];
    expect_round_trip(s, "the ceilings");
    json analysed = full;
    analysed["sweep"] = nullptr;
    analysed["validation"] = nullptr;
    expect_round_trip(analysed, "the analysis");
    if (full["sweep"].is_object()) {
      json partial = full;
      partial["sweep"]["points"] = json::array({full["sweep"]["points"][0]});
      partial["sweep"]["class_changes"] = json::array();
      expect_round_trip(partial, "a sweep's first point");
    }
  }
}

TEST(ExpectJson, FailedSweepPointsKeepWhatTheyHad) {
  json s = {
      {"target", nullptr},
      {"validation", nullptr},
      {"class", nullptr},
      {"sweep",
       {{"param", "batch"},
        {"values", {1, 2}},
        {"class_changes", json::array()},
        {"points",
         {{{"value", 1},
           {"error",
            {{"kind", "target_raised"}, {"message", "no"}, {"hint", ""}, {"stage", nullptr}, {"exit_code", 3}}}}}}}}};
  expect_round_trip(s, "a point that failed before its profile");
  ExpectResult r = from_json(s);
  ASSERT_TRUE(r.sweep);
  EXPECT_FALSE(r.sweep->points[0].analysed);
  EXPECT_FALSE(r.sweep->points[0].benched);
}

TEST(ExpectJson, SweepValuesErrorsAndInputsReadBackAsWritten) {
  // Each way a point fails writes its own fields (report/error_record.hpp); each kind of value
  // is written as the literal it was typed as; a non-tensor input keeps its type and repr.
  json tensor = {
      {"path", "args[0]"}, {"shape", {8, 64}}, {"dtype", "float32"}, {"device", "cpu"}, {"requires_grad", false}};
  json other = {{"path", "kwargs['act']"}, {"type", "str"}, {"value", "'relu'"}};
  json analysed = {{"class", "memory_bound"},
                   {"inputs", {tensor, other}},
                   {"predicted_speedup", {{"low", 1.1}, {"point", 1.4}, {"high", 1.9}}},
                   {"profile", {{"wall_per_call_ns", 1e5}, {"overhead_fraction", 0.2}, {"ops_per_call", 12.0}}},
                   {"arithmetic_intensity", 0.5},
                   {"decided_by", json::array()}};
  json no_speedup = analysed, row_error = analysed;
  no_speedup["value"] = 0.5;
  no_speedup["error"] = {{"kind", "bench"}, {"message", "bench measured no speedup"}};
  no_speedup["speedup"] = nullptr;
  row_error["value"] = "relu";
  row_error["error"] = {{"kind", "compile_failed"}, {"stage", "compile"}, {"message", "boom"}, {"hint", "h"}};
  row_error["speedup"] = nullptr;
  json ok = analysed;
  ok["value"] = true;
  ok["error"] = nullptr;
  json s = {{"target", nullptr},
            {"validation", nullptr},
            {"class", nullptr},
            {"sweep",
             {{"param", "p"},
              {"values", {0.5, "relu", true, nullptr, 7}},
              {"class_changes", json::array()},
              {"points", {no_speedup, row_error, ok}}}}};
  expect_round_trip(s, "points of every kind");
  const ExpectResult r = from_json(s);
  ASSERT_TRUE(r.sweep);
  const auto& pts = r.sweep->points;
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[0].value, SweepValue(0.5));
  ASSERT_TRUE(pts[0].error && pts[1].error);
  EXPECT_FALSE(pts[0].error->hint);
  EXPECT_EQ(pts[1].error->stage, "compile");
  EXPECT_FALSE(pts[1].error->exit_code);
  EXPECT_FALSE(pts[2].error);
  ASSERT_TRUE(pts[2].analysed);
  ASSERT_EQ(pts[2].analysed->inputs.size(), 2u);
  ASSERT_TRUE(pts[2].analysed->inputs[0].tensor);
  EXPECT_EQ(pts[2].analysed->inputs[0].tensor->shape, (std::vector<long long>{8, 64}));
  EXPECT_FALSE(pts[2].analysed->inputs[1].tensor);
  EXPECT_EQ(pts[2].analysed->inputs[1].value, "'relu'");
  EXPECT_EQ(r.sweep->values[3], SweepValue(nullptr));
  EXPECT_EQ(r.sweep->values[4], SweepValue(7LL));
}

TEST(ExpectJson, ToleratesOddShapes) {
  EXPECT_NO_THROW(from_json(json(nullptr)));
  EXPECT_NO_THROW(
      from_json({{"class", 3}, {"sweep", {{"points", {{{"value", nullptr}, {"speedup", {{"estimate", nullptr}}}}}}}}}));
  ExpectResult r = from_json({{"class", "overhead_bound"}, {"predicted_speedup", {{"low", 1.5}, {"high", 3.0}}}});
  ASSERT_TRUE(r.analysis);
  EXPECT_EQ(r.analysis->cls, BoundClass::OverheadBound);
  EXPECT_FALSE(r.analysis->predicted.terms);  // before the calibrated model
}

TEST(ExpectJson, ValidationIsOneFieldAndTheExitStatusReadsIt) {
  ExpectResult r;
  r.analysis = Analysis{};
  r.analysis->cls = BoundClass::OverheadBound;
  r.analysis->predicted.range = {1.5, 3.0, 2.0};
  tct::bench::Speedup measured;
  measured.interval = {0.9, 0.85, 0.95};
  measured.verdict = tct::stats::SpeedupVerdict::Slower;
  r.validation = validate(*r.analysis, measured);
  ASSERT_TRUE(r.validation);
  EXPECT_FALSE(r.validation->direction_right);
  EXPECT_EQ(exit_code(r, /*validate=*/false), 0);
  EXPECT_THROW(exit_code(r, /*validate=*/true), tct::Error);
  measured.interval = {2.0, 1.0, 4.0};
  measured.verdict = tct::stats::SpeedupVerdict::Inconclusive;
  EXPECT_FALSE(validate(*r.analysis, measured));
}

namespace {
// bench's section read back, as `tct report` reads a saved audit.
std::optional<MeasuredAsIs> as_is_of(const json& bench_section) {
  const auto bench = tct::bench::from_json(bench_section);
  return measured_as_is(&bench);
}
}  // namespace

TEST(ExpectJson, NoRealGainIsDecidedWhereTheDocumentIsRead) {
  json bench = {
      {"rows",
       {{{"status", "failed"}},
        {{"status", "ok"}, {"label", "inductor"}, {"speedup", {{"estimate", 1.02}, {"low", 1.01}, {"high", 1.03}}}}}}};
  auto as_is = as_is_of(bench);
  ASSERT_TRUE(as_is);
  EXPECT_TRUE(as_is->no_real_gain);  // faster than eager, and still no gain worth a compile
  EXPECT_EQ(as_is->label, "inductor");
  bench["rows"][1]["speedup"]["high"] = 1.2;
  EXPECT_FALSE(as_is_of(bench)->no_real_gain);
  EXPECT_FALSE(measured_as_is(nullptr));
}

// "Compile it" is known by the suggestion that says it, live or read back from a document,
// and a measured speedup of no real gain answers it, whichever renderer asks.
TEST(ExpectJson, TheCompileItSuggestionIsKnownAndAnsweredByAMeasurement) {
  const json written = json::array(
      {{{"rank", 1}, {"title", std::string(kCompileAsIsTitle)}, {"why", "w"}, {"how", "h"}, {"expected_gain", 1.5}},
       {{"rank", 2}, {"title", "Increase the batch size"}, {"why", "w"}, {"how", "h"}, {"expected_gain", 1.2}}});
  const auto read = suggestions_from_json(written);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_TRUE(read[0].compile_as_is);
  EXPECT_FALSE(read[1].compile_as_is);
  json bench = {
      {"rows",
       {{{"status", "ok"}, {"label", "inductor"}, {"speedup", {{"estimate", 1.02}, {"low", 1.01}, {"high", 1.03}}}}}}};
  const auto no_gain = as_is_of(bench);
  EXPECT_TRUE(answered_by(read[0], no_gain));
  EXPECT_FALSE(answered_by(read[1], no_gain));
  EXPECT_FALSE(answered_by(read[0], std::nullopt));
  bench["rows"][0]["speedup"] = {{"estimate", 1.5}, {"low", 1.4}, {"high", 1.6}};
  EXPECT_FALSE(answered_by(read[0], as_is_of(bench)));
}
