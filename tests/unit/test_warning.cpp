// Warnings as values (report/warning.hpp): the shape documents hold, the row's name in front
// of its message, a document's warnings read back as written, and each said once a run.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "report/warning.hpp"

namespace {

using nlohmann::json;
using tct::report::Warning;
namespace kind = tct::report::kind;

TEST(Warning, WrittenAsEveryDocumentHoldsThem) {
  const json w = tct::report::to_json(Warning{kind::RecompiledDuringMeasurement{2, 3}, "inductor"});
  EXPECT_EQ(w["code"], "recompile_during_measurement");
  EXPECT_EQ(w["row"], "inductor");
  EXPECT_EQ(
      w["message"].get<std::string>().rfind("inductor: recompiled during measurement (2 times): 3 block pairs", 0), 0u)
      << w;
  EXPECT_NE(w["hint"].get<std::string>().find("tct explain"), std::string::npos);
  EXPECT_EQ(w["figure"], 2.0);  // the count: the brief report leads with the row that recompiled most
  // No row, no prefix and no "row"; a kind without a figure writes none, nor does a NaN one.
  const json plain = tct::report::to_json(Warning{kind::GraphBreaksInRow{1}, ""});
  EXPECT_EQ(plain, json({{"code", "graph_breaks"},
                         {"message", "1 graph break: parts of the target run eagerly"},
                         {"hint", "run `tct explain` on the target to see where and what to change"}}));
  const json nan = tct::report::to_json(Warning{kind::PrecisionNotReached{NAN, 0.05}, ""});
  EXPECT_FALSE(nan.contains("figure"));
  EXPECT_EQ(nan["message"], "too few samples for a confidence interval");
}

TEST(Warning, ADocumentsWarningsReadBackAsWrittenWhateverTheirCode) {
  const json newer = {{"code", "from_a_newer_tct"},
                      {"message", "row: something new"},
                      {"hint", "do this"},
                      {"figure", 0.5},
                      {"row", "row"}};
  const Warning w = tct::report::warning_from_json(newer);
  EXPECT_EQ(tct::report::to_json(w), newer);  // its words kept, its row not said twice
  EXPECT_EQ(tct::report::code_of(w), "from_a_newer_tct");
  EXPECT_EQ(tct::report::flag_of(w), "! warning");  // a code this version does not know reads as "other"
  const json written = tct::report::to_json(Warning{kind::Outliers{0.2, true}, "a"});
  EXPECT_EQ(tct::report::to_json(tct::report::warning_from_json(written)), written);
}

TEST(Warning, ARunSaysEachWarningOnce) {
  std::vector<Warning> ws;
  tct::report::add_once(ws, {kind::CheckSkipped{}, ""});
  tct::report::add_once(ws, {kind::CheckSkipped{}, ""});
  tct::report::add_once(ws, {kind::GraphBreaksInRow{1}, "a"});
  tct::report::add_once(ws, {kind::GraphBreaksInRow{1}, "b"});  // another row: another warning
  tct::report::add_once(ws, {kind::GraphBreaksInRow{2}, "a"});  // other facts: another warning
  EXPECT_EQ(ws.size(), 4u);
}

}  // namespace
