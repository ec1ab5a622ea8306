// ExplainResult <-> doc["explain"]: documents written by this version read back to the same
// section (tests/e2e/fixtures/explain/: real runs of the e2e targets, machine paths replaced),
// older documents of the same schema still read (tests/e2e/fixtures/html_*.json), and every
// count a rendering prints is one field of the result.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "explain/json.hpp"
#include "fixture_documents.hpp"
#include "explain/render.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tct::explain;

namespace {

fs::path fixtures() { return tct::testing::e2e_fixtures(); }
json load(const fs::path& p) { return tct::testing::load_json(p); }
std::vector<fs::path> current_documents() { return tct::testing::fixture_documents("explain"); }

}  // namespace

TEST(ExplainJson, DocumentsOfThisVersionReadBackToTheSameSection) {
  auto docs = current_documents();
  ASSERT_GE(docs.size(), 5u);
  for (const auto& p : docs) {
    const json section = load(p)["explain"];
    EXPECT_EQ(to_json(from_json(section)), section) << p;
  }
}

TEST(ExplainJson, EachCountIsOneFieldOfTheResult) {
  for (const auto& p : current_documents()) {
    const ExplainResult r = from_json(load(p)["explain"]);
    ASSERT_TRUE(r.finished) << p;
    const json s = to_json(r);
    // The groups and the kinds count the same breaks as the headline.
    int groups = std::accumulate(r.groups.begin(), r.groups.end(), 0, [](int n, const auto& g) { return n + g.count; });
    int kinds = std::accumulate(r.kinds.begin(), r.kinds.end(), 0, [](int n, const auto& k) { return n + k.count; });
    EXPECT_EQ(groups, r.graph_break_count) << p;
    EXPECT_EQ(kinds, r.graph_break_count) << p;
    // The skipped frames are one list: the compiled run's and the gate's counts are its size.
    if (r.logged) EXPECT_EQ(s["logged"]["frames_skipped"], r.skipped_frames.size()) << p;
    if (r.gate) {
      EXPECT_EQ(s["gate"]["frames_skipped"], r.skipped_frames.size()) << p;
      EXPECT_EQ(s["gate"]["graph_break_count"], r.graph_break_count) << p;
    }
    EXPECT_EQ(s["capturable"], r.verdict == Verdict::Capturable) << p;
    EXPECT_EQ(r.verdict == Verdict::FrameSkipped, !r.skipped_frames.empty()) << p;
    // The renderings print the result's answer.
    EXPECT_NE(text(r).find(summary(r)), std::string::npos) << p;
    EXPECT_NE(markdown(r).find(summary(r)), std::string::npos) << p;
  }
}

TEST(ExplainJson, OlderDocumentsStillRead) {
  for (const char* name : {"html_explain.json", "html_audit_tiny_ops.json", "html_audit_transformer_block.json"}) {
    const json section = load(fixtures() / name)["explain"];
    const ExplainResult r = from_json(section);
    EXPECT_TRUE(r.finished) << name;
    EXPECT_EQ(r.graph_break_count, section["graph_break_count"].get<int>()) << name;
    EXPECT_EQ(r.groups.size(), section["groups"].size()) << name;
    // No verdict field then: decided from the fields the document had.
    EXPECT_EQ(r.capturable(), section["capturable"].get<bool>()) << name;
    EXPECT_FALSE(r.counts_from.has_value()) << name;
  }
  // explain's -1 of an older document is a skipped frame, not a count.
  const ExplainResult old = from_json({{"target", "t"},
                                       {"graph_count", 0},
                                       {"graph_break_count", -1},
                                       {"groups", json::array()},
                                       {"capturable", false}});
  EXPECT_EQ(old.graph_break_count, 0);
  EXPECT_EQ(old.frames_skipped(), 1);
  EXPECT_EQ(old.verdict, Verdict::FrameSkipped);
}

TEST(ExplainJson, ACheckpointHoldsTheTargetAlone) {
  ExplainResult loaded;
  loaded.target = json{{"spec", "m.py:make"}};
  const json s = to_json(loaded);
  EXPECT_EQ(s, json({{"target", {{"spec", "m.py:make"}}}}));
  const ExplainResult back = from_json(s);
  EXPECT_FALSE(back.finished);
  EXPECT_EQ(text(back), "tct explain m.py:make\n  (the audit did not finish)\n");
}

TEST(ExplainJson, VerdictIsDecidedByOneRule) {
  EXPECT_EQ(decide(1, 0, 0, 0, false), Verdict::FrameSkipped);
  EXPECT_EQ(decide(1, 3, 3, 3, true), Verdict::FrameSkipped);
  EXPECT_EQ(decide(0, 0, 0, 0, false), Verdict::Capturable);
  EXPECT_EQ(decide(0, 0, 1, 1, false), Verdict::GraphBreaks);  // explain saw a break the run did not count
  EXPECT_EQ(decide(0, 0, 0, 0, true), Verdict::GraphBreaks);
  for (Verdict v : {Verdict::Capturable, Verdict::GraphBreaks, Verdict::FrameSkipped})
    EXPECT_EQ(parse_verdict(to_string(v)), v);
  EXPECT_FALSE(parse_verdict("maybe"));
}

// The renderings print the verdict the result holds; none decides it again from the counts.
TEST(ExplainJson, RenderingsPrintTheStoredVerdict) {
  ExplainResult r = from_json(load(fixtures() / "explain" / "none.json")["explain"]);
  ASSERT_EQ(r.verdict, Verdict::Capturable);
  ASSERT_EQ(r.graph_break_count, 0);
  EXPECT_NE(summary(r).find("capturable as one graph (fullgraph=True would work)"), std::string::npos);
  EXPECT_EQ(html_cards(r).at(0).tone, "good");
  // The same counts with the verdict a disagreeing explain view leads to (audit.cpp decides it).
  r.verdict = Verdict::GraphBreaks;
  EXPECT_NE(summary(r).find("not capturable as one graph"), std::string::npos) << summary(r);
  EXPECT_NE(html_section(r).find("<span class=\"warn\">no</span>"), std::string::npos);
  EXPECT_EQ(html_cards(r).at(0).tone, "warn");
  EXPECT_EQ(to_json(r)["capturable"], false);
}
