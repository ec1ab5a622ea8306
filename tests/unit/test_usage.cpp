// The one-line usage errors: suggestions, number checks, output paths, check failures.
#include <gtest/gtest.h>

#include "cli/context.hpp"
#include "cli/usage.hpp"
#include "errors.hpp"
#include "report/format.hpp"
#include "expect/result.hpp"

using namespace tct;

TEST(Usage, ClosestSpellingOrNothing) {
  std::vector<std::string> commands = {"probe", "bench", "explain", "diff"};
  EXPECT_EQ(cli::closest("benchh", commands), "bench");
  EXPECT_EQ(cli::closest("explian", commands), "explain");
  EXPECT_EQ(cli::closest("zzzzzz", commands), "");
}

TEST(Usage, NumberChecksSayWhatIsWrong) {
  std::string minus = "-1", word = "abc", ok = "2.5", zero = "0";
  EXPECT_EQ(cli::kPositive(minus), "must be above 0, got -1");
  EXPECT_EQ(cli::kPositive(word), "'abc' is not a number");
  EXPECT_EQ(cli::kPositive(ok), "");
  EXPECT_EQ(cli::kNonNegative(zero), "");
}

TEST(Usage, OutputPathsAndConflicts) {
  cli::CommonOptions o;
  o.json = o.markdown = true;
  EXPECT_THROW(cli::validate_common_options(o), Error);
  o.markdown = false;
  o.out = {"/no/such/folder/r.html"};
  try {
    cli::validate_common_options(o);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos);
  }
  o.out = {"report.html"};
  EXPECT_NO_THROW(cli::validate_common_options(o));
}

TEST(Usage, WrongPredictionIsACheckFailureWithItsLine) {
  // The line is expect::validate's summary: what was measured against what was predicted.
  std::string summary =
      "measured 0.82x [0.72, 0.92] is below the predicted 1.19x-2.97x (memory bound), the "
      "prediction got the direction wrong: torch.compile is not worth it here (no gain)";
  expect::ExpectResult result;
  result.validation = expect::Validation{};
  result.validation->direction_right = false;
  result.validation->summary = summary;
  try {
    expect::exit_code(result, /*validate=*/true);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::CheckFailed);
    EXPECT_EQ(std::string(e.what()), summary);
  }
  result.validation->direction_right = true;
  EXPECT_EQ(expect::exit_code(result, /*validate=*/true), 0);
}

TEST(TextTable, AlignsByCharactersNotBytes) {
  report::Table t({"name", "value"});
  t.add({"µs ± σ", "1"});
  t.add({"plain", "2"});
  std::string s = t.str("");
  // Both values start in the same column: "µs ± σ" is 6 characters but 9 bytes.
  auto col = [&](const std::string& line_start) {
    auto at = s.find(line_start);
    auto end = s.find('\n', at);
    std::string line = s.substr(at, end - at);
    return report::display_width(line.substr(0, line.find_last_of(' ') + 1));
  };
  EXPECT_EQ(col("µs"), col("plain"));
}

TEST(Format, DurationsNeverPrintAnExponent) {
  EXPECT_EQ(report::format_duration_ns(999.6e6), "1 s");  // was "1e+03 ms"
  EXPECT_EQ(report::format_duration_ns(999.7e3), "1 ms");
  EXPECT_EQ(report::format_duration_ns(999.7), "1 us");
  EXPECT_EQ(report::format_duration_ns(999.4e6), "999 ms");
  EXPECT_EQ(report::format_duration_ns(812), "812 ns");
  EXPECT_EQ(report::format_duration_ns(12.3e3), "12.3 us");
}
