// TraceResult <-> doc["trace"]: documents written by this version read back to the same
// section (tests/unit/fixtures/trace/: `tct trace --json` of the fixture logs in
// tests/e2e/fixtures/traces/, logs of torch 2.13 and a hand-written torch 2.6 one), the same
// logs summarized again give that section byte for byte, and every count a rendering prints
// is one field of the result.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/render.hpp"
#include "trace/json.hpp"
#include "trace/ranks.hpp"
#include "trace/render.hpp"
#include "trace/source.hpp"
#include "trace/summarize.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tct;

namespace {

const fs::path kSource = TCT_SOURCE_DIR;

json load(const fs::path& p) {
  std::ifstream f(p);
  return json::parse(f);
}

// The saved documents, each named after its fixture folder.
std::vector<fs::path> saved_documents() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kSource / "tests" / "unit" / "fixtures" / "trace"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(TraceJson, DocumentsOfThisVersionReadBackToTheSameSection) {
  auto docs = saved_documents();
  ASSERT_EQ(docs.size(), 4u);
  for (const auto& p : docs) {
    const json section = load(p)["trace"];
    EXPECT_EQ(to_json(trace::from_json(section)).dump(), section.dump()) << p;
  }
}

// The documents were saved with the paths as given on the command line, relative to the
// source folder: the logs are read from there and named so again.
TEST(TraceJson, TheSameLogsGiveTheSameSection) {
  for (const auto& p : saved_documents()) {
    const json saved = load(p)["trace"];
    const std::string path = saved["path"];
    auto logs = trace::read_rank_logs(trace::list_trace_files((kSource / path).string()));
    ASSERT_FALSE(logs.unreadable) << p;
    for (auto& rank : logs.ranks)
      for (auto& file : rank.files) file = fs::path(file).lexically_relative(kSource).string();
    EXPECT_EQ(trace::to_json(trace::summarize(path, logs.ranks)).dump(), saved.dump()) << p;
  }
}

TEST(TraceJson, EachCountIsOneFieldOfTheResult) {
  for (const auto& p : saved_documents()) {
    const trace::TraceResult t = trace::from_json(load(p)["trace"]);
    ASSERT_FALSE(t.ranks.empty()) << p;
    for (const auto& r : t.ranks) {
      // The groups count every break logged, repeats included.
      uint64_t grouped = 0;
      for (const auto& g : r.graph_breaks) grouped += g.count;
      EXPECT_EQ(grouped, r.graph_break_count) << p;
      int graphs = 0;
      for (const auto& c : r.compiles) graphs += c.graphs;
      EXPECT_EQ(graphs, r.graph_count) << p;
    }
    EXPECT_EQ(t.ranks_diverge(), t.ranks.size() > 1 && p.stem() == "multirank") << p;
  }
}

// The renderings print the result's own divergence: a result that says the ranks diverge
// is rendered so, whatever its ranks hold.
TEST(TraceJson, RenderingsPrintTheStoredDivergence) {
  trace::TraceResult t = trace::from_json(load(kSource / "tests/unit/fixtures/trace/reset.json")["trace"]);
  t.ranks.push_back(t.ranks[0]);
  EXPECT_NE(trace::text(t).find("All ranks compiled alike"), std::string::npos);
  t.divergence.push_back({1, "b.log", "compile_ids", "", {"log 0"}, "log 1 compiled 9/0 that log 0 did not"});
  EXPECT_NE(trace::text(t).find("RANKS DIVERGE"), std::string::npos);
  EXPECT_NE(trace::markdown(t).find("- log 1 compiled 9/0 that log 0 did not"), std::string::npos);
  EXPECT_NE(trace::html_section(t).find("Ranks diverge"), std::string::npos);
  EXPECT_NE(cli::headline(cli::from_document(json{{"trace", trace::to_json(t)}})).find("ranks diverge"),
            std::string::npos);
}
