// The default terminal report, held against golden files: saved documents (tests/e2e/fixtures)
// rendered by render_text and compared line by line with tests/unit/fixtures/golden/. After a
// deliberate change, TCT_GOLDEN_UPDATE=1 build/tct_unit --gtest_filter='ReportGolden*' rewrites
// them; review the diff like code. Also: the brief report's size limits, and one verdict across
// text, Markdown, HTML and JSON.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "stats/verdict.hpp"
#include "cli/render.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path source() { return fs::path(TCT_SOURCE_DIR); }

json load(const std::string& name) {
  std::ifstream f(source() / "tests" / "e2e" / "fixtures" / (name + ".json"));
  return json::parse(f);
}

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<std::string> non_empty_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.find_first_not_of(' ') != std::string::npos) out.push_back(l);
  return out;
}

void expect_golden(const std::string& name, const std::string& text) {
  const fs::path golden = source() / "tests" / "unit" / "fixtures" / "golden" / (name + ".txt");
  if (std::getenv("TCT_GOLDEN_UPDATE")) {
    std::ofstream(golden) << text;
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " is missing: run with TCT_GOLDEN_UPDATE=1";
  EXPECT_EQ(text, read(golden)) << "the default report of " << name << " changed";
}

}  // namespace

TEST(ReportGolden, BenchDefaultReport) {
  const json doc = load("html_bench");
  const std::string text = tct::cli::render_text(tct::cli::from_document(doc));
  expect_golden("bench_default", text);
  EXPECT_LE(non_empty_lines(text).size(), 12u) << text;
  // -v keeps every detail the report had before it was layered.
  const std::string verbose = tct::cli::render_text(tct::cli::from_document(doc), true);
  for (const char* section : {"Latency per call", "Compile", "Break-even", "Memory", "Correctness"})
    EXPECT_NE(verbose.find(section), std::string::npos) << section;
  EXPECT_GT(non_empty_lines(verbose).size(), non_empty_lines(text).size());
}

TEST(ReportGolden, AuditDefaultReportLeadsWithItsVerdict) {
  for (const char* name : {"html_audit_tiny_ops", "html_audit_transformer_block"}) {
    const json doc = load(name);
    const std::string text = tct::cli::render_text(tct::cli::from_document(doc));
    expect_golden(std::string(name).substr(5) + "_default", text);
    auto lines = non_empty_lines(text);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0].rfind("tct audit ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(tct::cli::headline(tct::cli::from_document(doc))), std::string::npos) << lines[0];
    std::size_t warning_lines = 0;
    for (const auto& l : lines) warning_lines += l.rfind("warning: ", 0) == 0;
    EXPECT_LE(warning_lines, 4u) << text;
    // The measured speedup is printed in the headline and bench's row, not a third time in
    // expect's validation line.
    const auto& iv = doc["bench"]["rows"][0]["speedup"];
    const std::string measured = fmt::format("[{:.2f}, {:.2f}]", iv["low"].get<double>(), iv["high"].get<double>());
    std::size_t times = 0;
    for (auto at = text.find(measured); at != std::string::npos; at = text.find(measured, at + 1)) ++times;
    EXPECT_EQ(times, 2u) << measured << "\n" << text;
  }
}

// One verdict across renderings, the one its interval supports: text, Markdown and HTML print
// the same words, and a stored verdict written under an older rule ("inconclusive" beside an
// interval wholly above 1) does not survive loading.
TEST(ReportGolden, OneVerdictAcrossRenderings) {
  json doc = load("html_bench");
  json& sp = doc["bench"]["rows"][0]["speedup"];
  using V = tct::stats::SpeedupVerdict;
  const struct {
    double est, low, high;
    V verdict;
  } cases[] = {{2.13, 1.69, 2.84, V::Faster}, {0.5, 0.3, 0.8, V::Slower}, {1.0, 0.95, 1.05, V::NoClearDifference}};
  for (const auto& c : cases) {
    sp["estimate"] = c.est;
    sp["low"] = c.low;
    sp["high"] = c.high;
    sp["verdict"] = "inconclusive";
    sp["inconclusive"] = true;
    const std::string words(tct::stats::describe(c.verdict));
    EXPECT_NE(tct::cli::render_text(tct::cli::from_document(doc)).find(words), std::string::npos) << words;
    EXPECT_NE(tct::cli::render_markdown(tct::cli::from_document(doc)).find(words), std::string::npos) << words;
    EXPECT_NE(tct::cli::render_html(tct::cli::from_document(doc)).find(words), std::string::npos) << words;
  }
}
