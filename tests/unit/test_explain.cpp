// The graph-break audit from synthetic agent facts: both forms of explain's output
// (torch >= 2.1 ExplainOutput fields, torch 2.0's 6-tuple), grouping, the two views,
// the capturable verdict and the gate.
#include <set>

#include <gtest/gtest.h>

#include "analysis/graph_breaks.hpp"

using namespace tct::analysis;
using json = nlohmann::json;

namespace {

json frame(const std::string& file, int line, const std::string& fn, const std::string& src) {
  return {{"file", file}, {"line", line}, {"function", fn}, {"source", src}};
}

const char* kPrintReason =
    "Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace builtin operator `print` "
    "with argument types ['str'] (has_kwargs False)\n  Hint: Avoid calling builtin `print`.\n\n  Developer debug "
    "context: builtin print\n\n For more details about this graph break, please visit: "
    "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html";
const char* kItemReason =
    "Unsupported Tensor.item() call with capture_scalar_outputs=False\n  Explanation: Dynamo does not support "
    "tracing `Tensor.item()`.\n  Hint: Set `torch._dynamo.config.capture_scalar_outputs = True`\n\n For more "
    "details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html";

json object_facts() {
  json e = {{"form", "object"},
            {"graph_count", 4},
            {"graph_break_count", 3},
            {"op_count", 6},
            {"guard_count", 90},
            {"ops_per_graph", {{"torch._C._nn.linear", "torch.relu"}, json::array(), {"_operator.add"},
                               {"_operator.add", "_operator.add", "torch._C._nn.linear"}}},
            {"break_reasons",
             {{{"reason", kPrintReason}, {"registry_id", "GB0059"},
               {"url", "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html"},
               {"frames", {frame("/m/model.py", 30, "forward", "h = helper(x)"),
                           frame("/m/util.py", 7, "helper", "print('x')")}}},
              {{"reason", kItemReason}, {"registry_id", "GB0124"},
               {"frames", {frame("/m/model.py", 40, "forward", "if h.mean().item() > 0:")}}},
              {{"reason", kItemReason}, {"registry_id", "GB0124"},
               {"frames", {frame("/m/model.py", 40, "forward", "if h.mean().item() > 0:")}}}}}};
  return {{"torch_version", "2.13.0"},
          {"explain", e},
          {"logged", nullptr},
          {"registry", {{"GB0059", {{"id", "GB0059"}, {"gb_type", "Failed to trace builtin operator"},
                                    {"explanation", "template {fn}"}, {"hints", {"a ", "b"}}}},
                        {"GB0124", {{"id", "GB0124"}, {"gb_type", "Unsupported Tensor.item() call"},
                                    {"explanation", "x"}, {"hints", json::array()}}}}}};
}

}  // namespace

TEST(Explain, ParsesObjectForm) {
  auto f = object_facts();
  ExplainModel m = parse_explain(f["explain"], f["registry"]);
  EXPECT_EQ(m.form, "object");
  EXPECT_EQ(m.graph_count, 4);
  EXPECT_EQ(m.graph_break_count, 3);
  EXPECT_EQ(m.op_count, 6);
  ASSERT_TRUE(m.guard_count.has_value());
  EXPECT_EQ(*m.guard_count, 90);
  ASSERT_EQ(m.breaks.size(), 3u);
  EXPECT_EQ(m.breaks[0].kind, BreakKind::PrintLogging);
  EXPECT_EQ(m.breaks[1].kind, BreakKind::ItemScalar);
  ASSERT_EQ(m.breaks[0].frames.size(), 2u);
  EXPECT_EQ(m.breaks[0].frames.back().function, "helper");
  // The reason's own explanation beats the registry's template; its link is kept.
  EXPECT_EQ(m.breaks[0].registry["id"], "GB0059");
  EXPECT_NE(m.breaks[0].registry["explanation"].get<std::string>().find("`print`"), std::string::npos);
  EXPECT_EQ(m.breaks[0].hint.url, "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html");
  EXPECT_EQ(m.breaks[0].registry["type"], "Failed to trace builtin operator");
}

TEST(Explain, ParsesTorch20TupleForm) {
  // torch 2.0: explain(fn, *args) -> (explanation, out_guards, graphs, ops_per_graph,
  // break_reasons, explanation_verbose); the agent passes the tuple's parts on as they are.
  json e = {{"form", "tuple"},
            {"explanation", "Dynamo produced 3 graphs with 2 graph break and 5 ops"},
            {"explanation_verbose", "Dynamo produced 3 graphs with 2 graph break and 5 ops\n Break reasons: ..."},
            {"out_guards", {"g1", "g2", "g3"}},
            {"graphs", 3},
            {"ops_per_graph", {{"add", "mul"}, {"sin"}, {"cos", "relu"}}},
            {"break_reasons",
             {{{"reason", "call_function BuiltinVariable(print) [ConstantVariable(str)] {}"},
               {"frames", {frame("/m/a.py", 5, "f", "print('hi')")}}},
              {{"reason", "generic_jump TensorVariable()"}, {"frames", {frame("/m/a.py", 9, "f", "if x.sum() > 0:")}}}}}};
  ExplainModel m = parse_explain(e);
  EXPECT_EQ(m.form, "tuple");
  EXPECT_EQ(m.graph_count, 3);
  EXPECT_EQ(m.graph_break_count, 2);
  EXPECT_EQ(m.op_count, 5);
  EXPECT_EQ(m.guard_count.value_or(-1), 3);
  ASSERT_EQ(m.breaks.size(), 2u);
  EXPECT_EQ(m.breaks[0].kind, BreakKind::PrintLogging);
  EXPECT_EQ(m.breaks[1].kind, BreakKind::DataDependentControlFlow);
  EXPECT_TRUE(m.breaks[0].registry.is_null());  // no registry in torch 2.0
  EXPECT_EQ(m.breaks[0].hint.fix, catalog_hint(BreakKind::PrintLogging).fix);
}

TEST(Explain, TupleFormWithoutNumbersFallsBackToLists) {
  json e = {{"form", "tuple"}, {"explanation", "garbled"}, {"graphs", 2}, {"ops_per_graph", {{"a"}, {"b", "c"}}},
            {"break_reasons", json::array()}};
  ExplainModel m = parse_explain(e);
  EXPECT_EQ(m.graph_count, 2);
  EXPECT_EQ(m.graph_break_count, 1);
  EXPECT_EQ(m.op_count, 3);
  EXPECT_FALSE(m.guard_count.has_value());
}

TEST(Explain, GroupsFoldDuplicatesMostFrequentFirst) {
  auto f = object_facts();
  auto groups = group_breaks(parse_explain(f["explain"], f["registry"]).breaks);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].kind, BreakKind::ItemScalar);
  EXPECT_EQ(groups[0].count, 2);
  EXPECT_EQ(groups[0].where.line, 40);
  EXPECT_EQ(groups[1].count, 1);
  EXPECT_EQ(groups[1].where.file, "/m/util.py");  // the break is in the helper
  ASSERT_EQ(groups[1].callers.size(), 1u);         // and the caller is kept
  EXPECT_EQ(groups[1].callers[0].line, 30);
}

TEST(Explain, SectionHasStableFieldsAndVerdict) {
  json s = build_explain_section(object_facts(), {{"spec", "m.py:make"}}, std::nullopt);
  for (const char* k : {"target", "graph_count", "graph_break_count", "op_count", "ops_per_graph", "guard_count",
                        "capturable", "breaks", "groups", "logged", "disagreements", "gate", "kinds"})
    EXPECT_TRUE(s.contains(k)) << k;
  EXPECT_FALSE(s["capturable"].get<bool>());
  EXPECT_TRUE(s["gate"].is_null());
  EXPECT_EQ(s["ops_per_graph"][3]["op_count"], 3);
  EXPECT_EQ(s["ops_per_graph"][3]["ops"][0]["name"], "_operator.add");
  EXPECT_EQ(s["ops_per_graph"][3]["ops"][0]["count"], 2);
  const json& b = s["breaks"][0];
  for (const char* k : {"reason", "kind", "registry", "frames", "hint"}) EXPECT_TRUE(b.contains(k)) << k;
  for (const char* k : {"id", "type", "explanation", "hints", "url"}) EXPECT_TRUE(b["registry"].contains(k)) << k;
  for (const char* k : {"kind", "file", "line", "function", "source", "count", "reason", "hint"})
    EXPECT_TRUE(s["groups"][0].contains(k)) << k;
}

TEST(Explain, NoBreakIsCapturable) {
  json f = {{"explain", {{"form", "object"}, {"graph_count", 1}, {"graph_break_count", 0}, {"op_count", 2},
                         {"ops_per_graph", {{"a", "b"}}}, {"guard_count", 3}, {"break_reasons", json::array()}}},
            {"logged", {{"graph_breaks", json::array()}, {"recompiles", json::array()}, {"calls", 2},
                        {"counters", {{"frames", {{"total", 1}, {"ok", 1}}}}}}}};
  json s = build_explain_section(f, "t", 0);
  EXPECT_TRUE(s["capturable"].get<bool>());
  EXPECT_TRUE(s["disagreements"].empty());
  EXPECT_TRUE(s["gate"]["passed"].get<bool>());
}

TEST(Explain, GateFailsAboveLimit) {
  json s = build_explain_section(object_facts(), "t", 2);
  EXPECT_FALSE(s["gate"]["passed"].get<bool>());
  s = build_explain_section(object_facts(), "t", 3);
  EXPECT_TRUE(s["gate"]["passed"].get<bool>());
}

TEST(Explain, ViewsDisagreementsAreNamed) {
  json f = object_facts();
  f["logged"] = {
      {"calls", 2},
      {"graph_breaks",
       {{{"file", "/m/util.py"}, {"line", 7}, {"reason", std::string("Encountered graph break when attempting to trace CALL:\n\n") + kPrintReason},
         {"frames", json::array()}, {"duplicate", false}, {"user_file", true}, {"registry_id", "GB0059"}},
        {{"file", "/m/model.py"}, {"line", 55}, {"reason", "Call to `torch._dynamo.graph_break()`"},
         {"frames", {frame("/m/model.py", 55, "forward", "torch._dynamo.graph_break()")}}, {"duplicate", false},
         {"user_file", true}}}},
      {"recompiles",
       {{{"function", "forward"}, {"file", "/m/model.py"}, {"line", 20},
         {"guard_failures", {"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8"}}}}},
      {"counters", {{"frames", {{"total", 5}, {"ok", 4}}}}}};
  json s = build_explain_section(f, "t", std::nullopt);
  std::set<std::string> kinds;
  for (const auto& d : s["disagreements"]) kinds.insert(d["kind"]);
  EXPECT_TRUE(kinds.count("only_in_explain"));  // model.py:40 (.item()) is not in the log
  EXPECT_TRUE(kinds.count("only_in_logged"));   // model.py:55 is only in the log
  EXPECT_TRUE(kinds.count("recompiles"));
  EXPECT_TRUE(kinds.count("frames_skipped"));
  EXPECT_EQ(s["logged"]["frames_skipped"], 1);
  EXPECT_EQ(s["logged"]["recompiles"][0]["kind"], "dynamic_shape_recompile");
  // The logged-only break becomes its own group, marked as such.
  bool found = false;
  for (const auto& g : s["groups"])
    if (g["line"] == 55) {
      found = true;
      EXPECT_EQ(g["kind"], "explicit_graph_break");
      EXPECT_EQ(g["views"], json({"logged"}));
    }
  EXPECT_TRUE(found);
  EXPECT_FALSE(s["capturable"].get<bool>());
}

TEST(Explain, ReasonHeadlineSkipsLoggedPrefix) {
  EXPECT_EQ(reason_headline(std::string("Encountered graph break when attempting to trace CALL: a call:\n\n") + kItemReason),
            "Unsupported Tensor.item() call with capture_scalar_outputs=False");
  EXPECT_EQ(reason_headline("generic_jump TensorVariable()"), "generic_jump TensorVariable()");
}

TEST(Explain, ToleratesJunk) {
  ExplainModel m = parse_explain(json("nonsense"));
  EXPECT_EQ(m.graph_count, 0);
  json s = build_explain_section(json::object(), nullptr, std::nullopt);
  EXPECT_TRUE(s["breaks"].empty());
  EXPECT_TRUE(s["logged"].is_null());
}

// A print in a loop: explain says -1, the compiled run logs the skip; the loop message
// must not label the break (it is the print, GB0059) and any gate fails.
TEST(Explain, SkippedFrameIsAStateAndFailsTheGate) {
  json f = object_facts();
  f["explain"] = {{"form", "object"}, {"graph_count", 0}, {"graph_break_count", -1}, {"op_count", 0},
                  {"ops_per_graph", json::array()}, {"break_reasons", json::array()}};
  std::string skip = std::string("Failed to handle graph break gracefully. Skipping the function and falling back to "
                                 "eager. Graph break encountered:\n") + kPrintReason +
                     "\n\n*** While handling this graph break, another graph break occurred: ***\n\ngraph break in "
                     "loop\n  Explanation: torch.compile detected a graph break in a for/while loop. Skipping the "
                     "frame and falling back to eager.\n  Hint: caused by an earlier graph break; see Tensor.item()\n\n"
                     "  Developer debug context: frame skipped: forward (/m/model.py line 11)\n\n For more details "
                     "about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb7000.html";
  f["logged"] = {{"calls", 2},
                 {"graph_breaks", {{{"file", "/m/model.py"}, {"line", 13}, {"reason", skip}, {"registry_id", "GB7000"},
                                    {"frames", {frame("/m/model.py", 13, "forward", "print(i)")}},
                                    {"duplicate", false}, {"user_file", true}}}},
                 {"counters", {{"frames", {{"total", 1}}}}}};
  json s = build_explain_section(f, "t", 5);
  EXPECT_EQ(s["verdict"], "frame_skipped");
  EXPECT_EQ(s["graph_break_count"], 1);
  EXPECT_EQ(s["graph_count"], 0);
  EXPECT_TRUE(s["explain_view"]["graph_break_count"].is_null());
  ASSERT_EQ(s["skipped_frames"].size(), 1u);
  EXPECT_EQ(s["skipped_frames"][0]["function"], "forward");
  EXPECT_EQ(s["skipped_frames"][0]["line"], 11);
  EXPECT_EQ(s["skipped_frames"][0]["skip_reason"], "graph break in loop");
  EXPECT_EQ(s["groups"][0]["kind"], "print_logging");
  EXPECT_EQ(s["groups"][0]["registry_id"], "GB0059");
  EXPECT_FALSE(s["gate"]["passed"].get<bool>());
  EXPECT_FALSE(s["capturable"].get<bool>());
}
