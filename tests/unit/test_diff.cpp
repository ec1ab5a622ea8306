// tct diff matching: fixed / added / unchanged, tolerant of line shifts; the DiffResult's JSON.
#include <gtest/gtest.h>

#include "explain/diff.hpp"
#include "explain/json.hpp"

using namespace tct::explain;
using json = nlohmann::json;

namespace {

// The diff of two sections as `tct diff` writes it; it reads back to itself (tct report of a
// saved diff renders the same result).
json diff_audits(const json& before, const json& after, const std::string& before_name, const std::string& after_name) {
  json d = to_json(diff(from_json(before), from_json(after), before_name, after_name));
  EXPECT_EQ(to_json(diff_from_json(d)), d);
  return d;
}

json group(const std::string& kind, const std::string& file, int line, const std::string& fn, const std::string& src,
           int count = 1) {
  return {{"kind", kind},  {"file", file},   {"line", line},  {"function", fn},
          {"source", src}, {"count", count}, {"reason", "r"}, {"hint", {{"fix", "f"}}}};
}

json audit(int graphs, int breaks, int ops, json groups) {
  return {{"graph_count", graphs}, {"graph_break_count", breaks}, {"op_count", ops},
          {"groups", groups},      {"capturable", breaks == 0},   {"target", {{"spec", "m.py:make"}}}};
}

}  // namespace

TEST(Diff, FixedAddedUnchangedWithLineShifts) {
  json before = audit(4, 3, 10,
                      {group("print_logging", "/a/model.py", 10, "forward", "print('x')"),
                       group("item_scalar", "/a/model.py", 20, "forward", "v = x.item()"),
                       group("numpy", "/a/model.py", 30, "forward", "np.interp(a, b, c)")});
  // Three lines inserted at the top; the print is gone; the numpy line was reworded; a
  // new explicit break appears.
  json after = audit(4, 3, 11,
                     {group("item_scalar", "/b/model.py", 23, "forward", "v = x.item()"),
                      group("numpy", "/b/model.py", 31, "forward", "np.interp(a, b, c2)"),
                      group("explicit_graph_break", "/b/model.py", 40, "forward", "torch._dynamo.graph_break()")});
  json d = diff_audits(before, after, "before.json", "after.json");
  ASSERT_EQ(d["fixed"].size(), 1u);
  EXPECT_EQ(d["fixed"][0]["kind"], "print_logging");
  ASSERT_EQ(d["added"].size(), 1u);
  EXPECT_EQ(d["added"][0]["kind"], "explicit_graph_break");
  ASSERT_EQ(d["unchanged"].size(), 2u);
  for (const auto& u : d["unchanged"]) {
    if (u["kind"] == "item_scalar") {
      EXPECT_EQ(u["matched_by"], "source");
      EXPECT_EQ(u["line_shift"], 3);
    } else {
      EXPECT_EQ(u["matched_by"], "nearest_line");
    }
  }
  EXPECT_EQ(d["break_count"]["delta"], 0);
  EXPECT_EQ(d["op_count"]["delta"], 1);
  EXPECT_FALSE(d["breaks_increased"].get<bool>());
}

TEST(Diff, NearestLineWinsAmongSameKind) {
  json before =
      audit(3, 2, 5,
            {group("print_logging", "m.py", 10, "f", "print(1)"), group("print_logging", "m.py", 50, "f", "print(2)")});
  json after = audit(2, 1, 5, {group("print_logging", "m.py", 52, "f", "print(3)")});
  json d = diff_audits(before, after, "b", "a");
  ASSERT_EQ(d["unchanged"].size(), 1u);
  EXPECT_EQ(d["unchanged"][0]["before"]["line"], 50);
  ASSERT_EQ(d["fixed"].size(), 1u);
  EXPECT_EQ(d["fixed"][0]["line"], 10);
}

TEST(Diff, KindMustMatch) {
  json before = audit(2, 1, 5, {group("print_logging", "m.py", 10, "f", "x")});
  json after = audit(2, 1, 5, {group("numpy", "m.py", 10, "f", "x")});
  json d = diff_audits(before, after, "b", "a");
  EXPECT_EQ(d["fixed"].size(), 1u);
  EXPECT_EQ(d["added"].size(), 1u);
  EXPECT_TRUE(d["unchanged"].empty());
}

TEST(Diff, MovedCodeMatchedBySourceText) {
  json before = audit(2, 1, 5, {group("numpy", "old.py", 10, "f", "np.interp(a, b, c)")});
  json after = audit(2, 1, 5, {group("numpy", "new.py", 99, "g", "np.interp(a, b, c)")});
  json d = diff_audits(before, after, "b", "a");
  ASSERT_EQ(d["unchanged"].size(), 1u);
  EXPECT_EQ(d["unchanged"][0]["matched_by"], "source_anywhere");
}

TEST(Diff, BreaksIncreased) {
  json before = audit(1, 0, 5, json::array());
  json after = audit(2, 1, 5, {group("print_logging", "m.py", 10, "f", "print()")});
  json d = diff_audits(before, after, "b", "a");
  EXPECT_TRUE(d["breaks_increased"].get<bool>());
  EXPECT_EQ(d["graph_count"]["before"], 1);
  EXPECT_EQ(d["graph_count"]["after"], 2);
  EXPECT_EQ(d["capturable"]["before"], true);
}

// Skipped frames by name: fixed, still skipped (a moved line is the same frame), added.
TEST(Diff, SkippedFramesByName) {
  json before = audit(0, 0, 0, json::array()), after = audit(1, 0, 3, json::array());
  before["skipped_frames"] = {{{"title", "Net.forward at m.py:26"}}, {{"title", "MoE.forward at m.py:12"}}};
  after["skipped_frames"] = {{{"function", "MoE.forward"}, {"file", "/a/m.py"}, {"line", 14}},
                             {{"title", "Gate.forward at m.py:40"}}};
  json d = diff_audits(before, after, "b", "a");
  EXPECT_EQ(d["frames_skipped"]["before"], 2);
  EXPECT_EQ(d["frames_skipped"]["after"], 2);
  EXPECT_EQ(d["skipped_fixed"], json({"Net.forward at m.py:26"}));
  EXPECT_EQ(d["skipped_added"], json({"Gate.forward at m.py:40"}));
}

TEST(Diff, ExplainSectionOf) {
  std::string why;
  EXPECT_TRUE(explain_section_of({{"command", "explain"}, {"explain", audit(1, 0, 1, json::array())}}, why));
  EXPECT_TRUE(explain_section_of(audit(1, 0, 1, json::array()), why));  // a bare section
  EXPECT_FALSE(explain_section_of({{"command", "bench"}, {"bench", json::object()}}, why));
  EXPECT_NE(why.find("tct bench"), std::string::npos);
  EXPECT_FALSE(explain_section_of(json::array(), why));
  EXPECT_FALSE(explain_section_of({{"command", "explain"}, {"explain", {{"target", "x"}}}}, why));
  EXPECT_NE(why.find("groups"), std::string::npos);
}
