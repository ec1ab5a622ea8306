// tct compare: regressions and improvements only where the intervals say so, the gate, the
// order (regressions first), and matching bench rows and suite entries by id.
#include <cmath>

#include <gtest/gtest.h>

#include "cli/outcome.hpp"
#include "compare/compare.hpp"
#include "errors.hpp"

using namespace tct;
using json = nlohmann::json;

namespace {

json suite_entry(const std::string& id, const std::string& status, double est, double lo, double hi, int breaks = 0) {
  json sp = std::isfinite(est) ? json{{"estimate", est}, {"low", lo}, {"high", hi}} : json(nullptr);
  json e = {{"id", id},
            {"status", status},
            {"error", nullptr},
            {"result", {{"speedup", sp}, {"graph_breaks", breaks}, {"compile_ns", 1e9}}}};
  if (status == "failed") e["error"] = {{"kind", "timeout"}, {"message", "hung"}};
  return e;
}

json suite_doc(std::vector<json> entries) {
  return {{"command", "suite"}, {"created", "t"}, {"suite", {{"entries", entries}, {"summary", json::object()}}}};
}

json bench_doc(double est, double lo, double hi, bool match = true) {
  json row = {{"label", "inductor"},
              {"status", "ok"},
              {"speedup", {{"estimate", est}, {"low", lo}, {"high", hi}}},
              {"compile", {{"first_call_ns", 1e9}}},
              {"graph_breaks", 1},
              {"correctness", {{"match", match}}}};
  return {{"command", "bench"}, {"bench", {{"target", {{"spec", "builtin:mlp"}}}, {"rows", json::array({row})}}}};
}

// Two documents compared as `tct compare` reads them: through `tct report`'s reader.
compare::CompareResult compare_docs(const json& base, const std::string& bp, const json& cur, const std::string& cp,
                                    double max) {
  const cli::Outcome b = cli::from_document(base), c = cli::from_document(cur);
  return compare::compare_documents(cli::saved_document(b, bp), cli::saved_document(c, cp), max);
}

// An item as its JSON (compare::to_json, the section a document holds): the assertions read
// what a user's document says.
json item(const json& cmp, const std::string& id) {
  for (const auto& i : cmp["items"])
    if (i["id"] == id) return i;
  ADD_FAILURE() << "no item " << id;
  return json();
}

json compare_json(const json& base, const std::string& bp, const json& cur, const std::string& cp, double max) {
  return compare::to_json(compare_docs(base, bp, cur, cp, max));
}

}  // namespace

TEST(Compare, ADocumentAgainstItselfPasses) {
  json doc = suite_doc({suite_entry("a", "ok", 1.5, 1.4, 1.6), suite_entry("b", "failed", NAN, 0, 0)});
  json cmp = compare_json(doc, "x.json", doc, "x.json", 0.0);
  EXPECT_TRUE(cmp["passed"].get<bool>());
  EXPECT_EQ(item(cmp, "a")["change"], "unchanged");
  EXPECT_EQ(item(cmp, "b")["change"], "still_failing");
}

TEST(Compare, OnlyIntervalsMakeARegression) {
  json base = suite_doc({suite_entry("noisy", "ok", 1.5, 1.0, 2.2), suite_entry("tight", "ok", 1.5, 1.45, 1.55),
                         suite_entry("up", "ok", 1.0, 0.95, 1.05)});
  // "noisy" dropped 20% in its point estimate, but its intervals overlap a lot: not a regression.
  json cur = suite_doc({suite_entry("noisy", "ok", 1.2, 0.8, 1.8), suite_entry("tight", "ok", 1.2, 1.15, 1.25),
                        suite_entry("up", "ok", 1.5, 1.45, 1.55)});
  json cmp = compare_json(base, "b.json", cur, "c.json", 0.0);
  EXPECT_EQ(item(cmp, "noisy")["change"], "unchanged");
  EXPECT_EQ(item(cmp, "tight")["change"], "regression");
  EXPECT_EQ(item(cmp, "up")["change"], "improvement");
  EXPECT_LT(item(cmp, "tight")["ratio"]["high"].get<double>(), 1.0);
  EXPECT_FALSE(cmp["passed"].get<bool>());
  EXPECT_EQ(cmp["items"][0]["id"], "tight");  // regressions first
  // A 20% drop known to within a few percent does not cross a 50% gate.
  EXPECT_TRUE(compare_docs(base, "b.json", cur, "c.json", 0.5).passed);
  EXPECT_TRUE(item(compare_json(base, "b", cur, "c", 0.05), "tight")["gate_failed"].get<bool>());
}

TEST(Compare, FailuresAndMismatchesFailTheGate) {
  json base = suite_doc({suite_entry("a", "ok", 1.5, 1.4, 1.6), suite_entry("b", "failed", NAN, 0, 0),
                         suite_entry("c", "ok", 1.5, 1.4, 1.6), suite_entry("gone", "ok", 1, 1, 1)});
  json cur = suite_doc({suite_entry("a", "failed", NAN, 0, 0), suite_entry("b", "ok", 1.5, 1.4, 1.6),
                        suite_entry("c", "mismatch", 1.5, 1.4, 1.6), suite_entry("new", "ok", 1, 1, 1)});
  json cmp = compare_json(base, "b.json", cur, "c.json", 0.5);
  EXPECT_EQ(item(cmp, "a")["change"], "broken");
  EXPECT_TRUE(item(cmp, "a")["gate_failed"].get<bool>());
  EXPECT_EQ(item(cmp, "b")["change"], "fixed");
  EXPECT_EQ(item(cmp, "c")["change"], "new_mismatch");
  EXPECT_EQ(item(cmp, "gone")["change"], "only_baseline");
  EXPECT_EQ(item(cmp, "new")["change"], "only_current");
  EXPECT_FALSE(cmp["passed"].get<bool>());
  EXPECT_EQ(cmp["items"][0]["change"], "broken");
  EXPECT_EQ(cmp["counts"]["fixed"], 1);
}

TEST(Compare, BenchRowsMatchByLabelAndAuditsCompareWithBench) {
  json base = bench_doc(2.0, 1.9, 2.1);
  json cur = bench_doc(1.0, 0.95, 1.05);
  json audit = cur;
  audit["command"] = "audit";
  json cmp = compare_json(base, "b.json", audit, "a.json", 0.05);
  EXPECT_EQ(cmp["kind"], "bench");
  EXPECT_EQ(item(cmp, "inductor")["change"], "regression");
  EXPECT_TRUE(item(cmp, "inductor")["gate_failed"].get<bool>());
  EXPECT_EQ(item(cmp, "inductor")["current"]["graph_breaks"], 1);
  EXPECT_EQ(cmp["baseline"]["target"], "builtin:mlp");
  EXPECT_EQ(item(compare_json(base, "b", bench_doc(2.0, 1.9, 2.1, false), "c", 0), "inductor")["change"],
            "new_mismatch");
}

TEST(Compare, RefusesDocumentsOfDifferentKinds) {
  json s = suite_doc({suite_entry("a", "ok", 1, 1, 1)});
  EXPECT_THROW(compare_docs(s, "s.json", bench_doc(1, 1, 1), "b.json", 0), Error);
  EXPECT_THROW(compare_docs(json{{"command", "probe"}}, "p.json", s, "s.json", 0), Error);
}

TEST(Compare, TheSectionReadsBackAsTheSameResult) {
  json base = suite_doc({suite_entry("a", "ok", 1.5, 1.4, 1.6), suite_entry("b", "failed", NAN, 0, 0),
                         suite_entry("tight", "ok", 1.5, 1.45, 1.55)});
  base["suite"]["summary"]["geomean_speedup"] = {{"estimate", 1.5}, {"low", 1.4}, {"high", 1.6}, {"n", 2}};
  json cur = suite_doc({suite_entry("a", "ok", 1.5, 1.4, 1.6, 2), suite_entry("b", "ok", 1.5, 1.4, 1.6),
                        suite_entry("tight", "ok", 1.2, 1.15, 1.25), suite_entry("new", "mismatch", 1, 0.9, 1.1)});
  const json section = compare_json(base, "b.json", cur, "c.json", 0.05);
  EXPECT_EQ(compare::to_json(compare::compare_from_json(section)), section);
  EXPECT_EQ(section["counts"]["regression"], 1);
  EXPECT_EQ(section["geomean"]["baseline"]["n"], 2);
  EXPECT_TRUE(section["geomean"]["current"].is_null());
}
