// The warning catalog: every code has its own entry (no known warning reads as "other"), and
// the brief report says each kind once, with the configurations it touched.
#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "report/warning.hpp"
#include "report/warnings.hpp"

namespace {

using nlohmann::json;
using tct::report::brief_warning_lines;
using tct::report::WarningCode;

// A warning as a document holds it, read back with these words (the brief report reads
// documents, whatever made them).
json as_written(WarningCode code, std::string message, std::string hint = {},
                std::optional<double> figure = std::nullopt) {
  return tct::report::to_json(tct::report::Warning{
      tct::report::kind::AsWritten{tct::report::to_string(code), std::move(message), std::move(hint), figure}, ""});
}

// A document's warnings list, read back as a saved document's are.
std::vector<tct::report::Warning> read(const json& ws) {
  std::vector<tct::report::Warning> out;
  for (const auto& w : ws) out.push_back(tct::report::warning_from_json(w));
  return out;
}

TEST(WarningCatalog, EveryCodeHasItsOwnName) {
  for (auto code : {WarningCode::WarmCompileMissedCache, WarningCode::CudagraphsSkipped, WarningCode::ResumeLeftOut,
                    WarningCode::PredictionModelsDefault, WarningCode::NoFlopCeiling, WarningCode::FlopsNotCounted,
                    WarningCode::AllocatorMovesResult})
    EXPECT_NE(tct::report::to_string(code), "other");
  // A code a newer version wrote reads as the generic entry, not as an error.
  EXPECT_EQ(tct::report::title_of("made_up_by_a_newer_tct"), "warning");
}

TEST(BriefWarnings, OneLinePerKindNamingTheOtherRows) {
  json ws = json::array();
  for (const char* row : {"inductor/default", "inductor/max-autotune", "aot_eager/default"}) {
    json w = as_written(WarningCode::NoisyMeasurement, std::string(row) + ": noisy", "rerun");
    w["row"] = row;
    ws.push_back(w);
  }
  ws.push_back(as_written(WarningCode::CheckSkipped, "not checked"));  // a note: -v only
  auto lines = brief_warning_lines(read(ws));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "warning: inductor/default: noisy (also inductor/max-autotune, aot_eager/default)");
}

TEST(BriefWarnings, AKindLeadsWithItsWorstConfiguration) {
  // Three configurations with outliers: the line quotes the worst (40%), names the other two.
  json ws = json::array();
  for (auto [row, fraction] :
       {std::pair{"inductor/default", 0.20}, {"inductor/max-autotune", 0.40}, {"aot_eager/default", 0.30}}) {
    json w = as_written(WarningCode::NoisyMeasurement,
                        fmt::format("{}: noisy machine: {:.0f}% outliers", row, fraction * 100), "close other programs",
                        fraction);
    w["row"] = row;
    ws.push_back(w);
  }
  auto lines = brief_warning_lines(read(ws));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "warning: inductor/max-autotune: noisy machine: 40% outliers "
            "(also inductor/default, aot_eager/default)");
  EXPECT_DOUBLE_EQ(ws[1]["figure"].get<double>(), 0.40);
  EXPECT_FALSE(as_written(WarningCode::NoisyMeasurement, "m", "", NAN).contains("figure"));
}

TEST(BriefWarnings, WithoutRowsCountsTheRest) {
  json ws =
      json::array({as_written(WarningCode::GraphBreaks, "2 breaks"), as_written(WarningCode::GraphBreaks, "3 breaks"),
                   as_written(WarningCode::OutputMismatch, "outputs differ")});
  auto lines = brief_warning_lines(read(ws));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "warning: outputs differ");  // errors first
  EXPECT_EQ(lines[1], "warning: 2 breaks (and 1 more like it)");
}

TEST(BriefWarnings, ABusyMachinesFiveKindsFitInFourLines) {
  // What a loaded 2-core machine raised at once on one configuration (CI, stop 33): the
  // weightiest three are told, the other two named.
  json ws = json::array({as_written(WarningCode::NoSteadyState, "warm-up did not settle"),
                         as_written(WarningCode::NoisyMeasurement, "35% outliers"),
                         as_written(WarningCode::PrecisionNotReached, "interval is +-33.7%"),
                         as_written(WarningCode::Oversubscribed, "2 threads on 2 busy CPUs"),
                         as_written(WarningCode::AllocatorMovesResult, "processes disagreed")});
  auto lines = brief_warning_lines(read(ws));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "warning: 2 threads on 2 busy CPUs");
  EXPECT_EQ(lines[1], "warning: processes disagreed");
  EXPECT_EQ(lines[2], "warning: 35% outliers");
  EXPECT_EQ(lines[3], "warning: also no steady state in warm-up, precision not reached");
  EXPECT_EQ(brief_warning_lines(read(ws), 0).size(), 5u);  // 0: no cap
}

}  // namespace
