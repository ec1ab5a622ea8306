// ProbeResult <-> doc["probe"]: documents written by this version read back to the same
// section (tests/unit/fixtures/probe/: real `tct probe` runs, machine paths replaced), the
// stored verdict is the one rule's verdict of the stored facts, and the renderings print it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "probe/json.hpp"
#include "probe/render.hpp"
#include "probe/verdict.hpp"
#include "cli/render.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tct::probe;

namespace {

json load(const fs::path& p) {
  std::ifstream f(p);
  return json::parse(f);
}

std::vector<fs::path> saved_documents() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(TCT_SOURCE_DIR) / "tests" / "unit" / "fixtures" / "probe"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(ProbeJson, DocumentsOfThisVersionReadBackToTheSameSection) {
  auto docs = saved_documents();
  ASSERT_GE(docs.size(), 3u);
  for (const auto& p : docs) {
    const json section = load(p)["probe"];
    EXPECT_EQ(to_json(from_json(section)).dump(), section.dump()) << p;
  }
}

TEST(ProbeJson, TheStoredVerdictIsTheRulesVerdictOfTheStoredFacts) {
  for (const auto& p : saved_documents()) {
    const json doc = load(p);
    const ProbeResult r = from_json(doc["probe"]);
    ASSERT_TRUE(r.verdict) << p;
    const Decision d = decide(r, doc["environment"]["interpreter"]["path"]);
    EXPECT_EQ(d.verdict, *r.verdict) << p;
    ASSERT_EQ(d.reasons.size(), r.reasons.size()) << p;
    for (size_t i = 0; i < d.reasons.size(); ++i) EXPECT_EQ(d.reasons[i].message, r.reasons[i].message) << p;
  }
}

TEST(ProbeJson, ACheckpointHoldsTheFactsWithoutAVerdict) {
  ProbeResult r = from_json(load(saved_documents()[0])["probe"]);
  r.verdict.reset();
  r.reasons.clear();
  r.smoke.clear();
  const json s = to_json(r);
  EXPECT_FALSE(s.contains("verdict"));
  EXPECT_FALSE(s.contains("smoke"));
  EXPECT_FALSE(from_json(s).verdict);
}

// The renderings print the result's verdict: they never decide it from the facts.
TEST(ProbeJson, RenderingsPrintTheStoredVerdict) {
  for (const auto& p : saved_documents()) {
    ProbeResult r = from_json(load(p)["probe"]);
    r.verdict = Verdict::NotUsable;
    EXPECT_NE(text(r, {"/venv/bin/python", "--python"}).find("verdict: NOT usable"), std::string::npos) << p;
    EXPECT_NE(markdown(r, {"/venv/bin/python", "--python"}).find("**torch.compile here: NOT usable**"),
              std::string::npos);
    EXPECT_EQ(html_cards(r).at(0).value, "not usable");
    EXPECT_EQ(tct::cli::headline(tct::cli::from_document(json{{"probe", to_json(r)}})),
              "torch.compile here: not usable");
  }
}
