// The graph-break audit from synthetic agent facts and synthetic TORCH_TRACE logs of the
// compiled run: both forms of explain's output (torch >= 2.1 ExplainOutput fields, torch
// 2.0's 6-tuple), grouping, the two views, the capturable verdict and the gate.
#include <set>

#include <gtest/gtest.h>

#include "explain/audit.hpp"
#include "explain/json.hpp"
#include "trace/reader.hpp"

using namespace tct::core;
using namespace tct::explain;
using json = nlohmann::json;

namespace {
namespace reply = tct::explain::reply;  // not core::reply, which the using-directives also bring

// One TORCH_TRACE record of compile frame/fc: its header (kind first, as torch writes it)
// and payload lines.
std::string record(const std::string& kind, const json& body, int frame, int fc, const std::string& payload = "") {
  nlohmann::ordered_json meta;
  meta[kind] = body;
  meta["frame_id"] = frame, meta["frame_compile_id"] = fc, meta["attempt"] = 0;
  if (!payload.empty()) meta["has_payload"] = "0123";
  std::string out = "V1130 18:15:52.398000 1 torch/_dynamo/x.py:1] " + meta.dump() + "\n";
  for (size_t at = 0; !payload.empty() && at <= payload.size();) {
    size_t nl = std::min(payload.find('\n', at), payload.size());
    out += "\t" + payload.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  return out;
}

// A compile of function in file (one compilation_metrics record), with its graphs.
std::string compile(int frame, int fc, const std::string& function, const std::string& file, int graphs = 1,
                    const std::string& fail_reason = "", int first_line = 1) {
  std::string out;
  for (int i = 0; i < graphs; ++i) out += record("dynamo_output_graph", json::object(), frame, fc);
  json m = {{"co_name", function}, {"co_filename", file}, {"co_firstlineno", first_line}};
  if (!fail_reason.empty()) m["fail_type"] = "Unsupported", m["fail_reason"] = fail_reason;
  return out + record("compilation_metrics", m, frame, fc);
}

// A dynamo_graph_break_reason artifact as symbolic_convert.py writes it.
std::string graph_break(int frame, const std::string& file, int line, const std::string& reason,
                        const std::string& traceback = "") {
  return record("artifact", {{"name", "dynamo_graph_break_reason"}, {"encoding", "string"}}, frame, 0,
                "Graph break in user code at " + file + ":" + std::to_string(line) + "\nGraph Break Reason: " + reason +
                    "\n\nUser code traceback:\n" + traceback +
                    "\nTraceback (most recent call last):\n  File \"/t/torch/_dynamo/x.py\", line 1, in f\n    g()\n");
}

// The compiled run's summary from a synthetic log, as run_explain reads the real one.
RankSummary read_trace(const std::string& text) {
  RankSummary out;
  tct::trace::RankCollector collector(out);
  tct::trace::Reader reader(collector);
  reader.feed(text);
  reader.finish();
  return out;
}

// explain.run's explain and explain.registry's reply as JSON, read as run_explain reads them
// where they arrive.
reply::Registry registry_of(const json& registry) {
  reply::Registry out;
  tct::core::fields::decode(registry, out);
  return out;
}
ExplainModel explain_model(const json& explain, const json& registry = json::object(), const CodeDirs& dirs = {}) {
  return parse_explain(tct::core::fields::read_as<reply::Explain>(explain), registry_of(registry), dirs);
}

// The section as run_explain writes it (facts: explain.run's reply, with explain.registry's
// under "registry"); every test's section also reads back to itself (explain::from_json then
// to_json), so a saved document re-renders from the same result.
json section_of(const json& facts, const RankSummary* trace, const json& target, std::optional<int> max_graph_breaks) {
  json s = tct::explain::build_explain_section(tct::core::fields::read_as<reply::Run>(facts),
                                               registry_of(facts.value("registry", json::object())), trace, target,
                                               max_graph_breaks);
  EXPECT_EQ(tct::explain::to_json(tct::explain::from_json(s)), s);
  return s;
}

const json kLogged = {{"calls", 2}, {"error", nullptr}, {"warnings", json::array()}};

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
    "details about this graph break, please visit: "
    "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html";

json object_facts() {
  json e = {
      {"form", "object"},
      {"graph_count", 4},
      {"graph_break_count", 3},
      {"op_count", 6},
      {"guard_count", 90},
      {"ops_per_graph",
       {{"torch._C._nn.linear", "torch.relu"},
        json::array(),
        {"_operator.add"},
        {"_operator.add", "_operator.add", "torch._C._nn.linear"}}},
      {"break_reasons",
       {{{"reason", kPrintReason},
         {"registry_id", "GB0059"},
         {"url", "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html"},
         {"frames",
          {frame("/m/model.py", 30, "forward", "h = helper(x)"), frame("/m/util.py", 7, "helper", "print('x')")}}},
        {{"reason", kItemReason},
         {"registry_id", "GB0124"},
         {"frames", {frame("/m/model.py", 40, "forward", "if h.mean().item() > 0:")}}},
        {{"reason", kItemReason},
         {"registry_id", "GB0124"},
         {"frames", {frame("/m/model.py", 40, "forward", "if h.mean().item() > 0:")}}}}}};
  return {{"torch_version", "2.13.0"},
          {"explain", e},
          {"logged", nullptr},
          {"registry",
           {{"GB0059",
             {{"id", "GB0059"},
              {"gb_type", "Failed to trace builtin operator"},
              {"explanation", "template {fn}"},
              {"hints", {"a ", "b"}}}},
            {"GB0124",
             {{"id", "GB0124"},
              {"gb_type", "Unsupported Tensor.item() call"},
              {"explanation", "x"},
              {"hints", json::array()}}}}}};
}

}  // namespace

TEST(Explain, ParsesObjectForm) {
  auto f = object_facts();
  ExplainModel m = explain_model(f["explain"], f["registry"]);
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
  ASSERT_TRUE(m.breaks[0].registry);
  EXPECT_EQ(m.breaks[0].registry->id, "GB0059");
  EXPECT_NE(m.breaks[0].registry->explanation.find("`print`"), std::string::npos);
  EXPECT_EQ(m.breaks[0].hint.url, "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html");
  EXPECT_EQ(m.breaks[0].registry->type, "Failed to trace builtin operator");
}

TEST(Explain, ParsesTorch20TupleForm) {
  // torch 2.0: explain(fn, *args) -> (explanation, out_guards, graphs, ops_per_graph,
  // break_reasons, explanation_verbose); the agent passes the tuple's parts on as they are.
  json e = {
      {"form", "tuple"},
      {"explanation", "Dynamo produced 3 graphs with 2 graph break and 5 ops"},
      {"explanation_verbose", "Dynamo produced 3 graphs with 2 graph break and 5 ops\n Break reasons: ..."},
      {"out_guards", {"g1", "g2", "g3"}},
      {"graphs", 3},
      {"ops_per_graph", {{"add", "mul"}, {"sin"}, {"cos", "relu"}}},
      {"break_reasons",
       {{{"reason", "call_function BuiltinVariable(print) [ConstantVariable(str)] {}"},
         {"frames", {frame("/m/a.py", 5, "f", "print('hi')")}}},
        {{"reason", "generic_jump TensorVariable()"}, {"frames", {frame("/m/a.py", 9, "f", "if x.sum() > 0:")}}}}}};
  ExplainModel m = explain_model(e);
  EXPECT_EQ(m.form, "tuple");
  EXPECT_EQ(m.graph_count, 3);
  EXPECT_EQ(m.graph_break_count, 2);
  EXPECT_EQ(m.op_count, 5);
  EXPECT_EQ(m.guard_count.value_or(-1), 3);
  ASSERT_EQ(m.breaks.size(), 2u);
  EXPECT_EQ(m.breaks[0].kind, BreakKind::PrintLogging);
  EXPECT_EQ(m.breaks[1].kind, BreakKind::DataDependentControlFlow);
  EXPECT_FALSE(m.breaks[0].registry);  // no registry in torch 2.0
  EXPECT_EQ(m.breaks[0].hint.fix, catalog_hint(BreakKind::PrintLogging).fix);
}

TEST(Explain, TupleFormWithoutNumbersFallsBackToLists) {
  json e = {{"form", "tuple"},
            {"explanation", "garbled"},
            {"graphs", 2},
            {"ops_per_graph", {{"a"}, {"b", "c"}}},
            {"break_reasons", json::array()}};
  ExplainModel m = explain_model(e);
  EXPECT_EQ(m.graph_count, 2);
  EXPECT_EQ(m.graph_break_count, 1);
  EXPECT_EQ(m.op_count, 3);
  EXPECT_FALSE(m.guard_count.has_value());
}

TEST(Explain, GroupsFoldDuplicatesMostFrequentFirst) {
  auto f = object_facts();
  auto groups = group_breaks(explain_model(f["explain"], f["registry"]).breaks);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].kind, BreakKind::ItemScalar);
  EXPECT_EQ(groups[0].count, 2);
  EXPECT_EQ(groups[0].where.line, 40);
  EXPECT_EQ(groups[1].count, 1);
  EXPECT_EQ(groups[1].where.file, "/m/util.py");  // the break is in the helper
  ASSERT_EQ(groups[1].callers.size(), 1u);        // and the caller is kept
  EXPECT_EQ(groups[1].callers[0].line, 30);
}

TEST(Explain, SectionHasStableFieldsAndVerdict) {
  json s = section_of(object_facts(), nullptr, {{"spec", "m.py:make"}}, std::nullopt);
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
  json f = {{"explain",
             {{"form", "object"},
              {"graph_count", 1},
              {"graph_break_count", 0},
              {"op_count", 2},
              {"ops_per_graph", {{"a", "b"}}},
              {"guard_count", 3},
              {"break_reasons", json::array()}}},
            {"logged", kLogged}};
  RankSummary run = read_trace(compile(0, 0, "f", "/m/model.py"));
  json s = section_of(f, &run, "t", 0);
  EXPECT_EQ(s["counts_from"], "compiled_run");
  EXPECT_EQ(s["graph_count"], 1);
  EXPECT_TRUE(s["capturable"].get<bool>());
  EXPECT_TRUE(s["disagreements"].empty());
  EXPECT_TRUE(s["gate"]["passed"].get<bool>());
}

TEST(Explain, GateFailsAboveLimit) {
  json s = section_of(object_facts(), nullptr, "t", 2);
  EXPECT_FALSE(s["gate"]["passed"].get<bool>());
  s = section_of(object_facts(), nullptr, "t", 3);
  EXPECT_TRUE(s["gate"]["passed"].get<bool>());
}

TEST(Explain, ViewsDisagreementsAreNamed) {
  json f = object_facts();
  f["logged"] = kLogged;
  RankSummary run = read_trace(
      compile(0, 0, "forward", "/m/model.py") +
      graph_break(0, "/m/util.py", 7,
                  std::string("Encountered graph break when attempting to trace CALL:\n\n") + kPrintReason) +
      graph_break(0, "/m/model.py", 55, "Call to `torch._dynamo.graph_break()`",
                  "  File \"/m/model.py\", line 55, in forward\n    torch._dynamo.graph_break()\n") +
      record("artifact", {{"name", "recompile_reasons"}, {"encoding", "json"}}, 0, 1,
             "0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8\nUser stack trace:\n  File ...") +
      compile(0, 1, "forward", "/m/model.py") + compile(1, 0, "a", "/m/model.py") + compile(2, 0, "b", "/m/model.py") +
      compile(3, 0, "c", "/m/model.py", 0, "Unsupported: something"));
  json s = section_of(f, &run, "t", std::nullopt);
  std::set<std::string> kinds;
  for (const auto& d : s["disagreements"]) kinds.insert(d["kind"]);
  EXPECT_TRUE(kinds.count("only_in_explain"));  // model.py:40 (.item()) is not in the log
  EXPECT_TRUE(kinds.count("only_in_logged"));   // model.py:55 is only in the log
  EXPECT_TRUE(kinds.count("recompiles"));
  EXPECT_TRUE(kinds.count("frames_skipped"));
  EXPECT_EQ(s["logged"]["frames_skipped"], 1);
  EXPECT_EQ(s["logged"]["recompiles"][0]["kind"], "dynamic_shape_recompile");
  EXPECT_EQ(s["logged"]["recompiles"][0]["guard_failures"],
            json({"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8"}));
  EXPECT_EQ(s["graph_count"], 4);  // the graphs the run's trace records
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
  EXPECT_EQ(
      reason_headline(std::string("Encountered graph break when attempting to trace CALL: a call:\n\n") + kItemReason),
      "Unsupported Tensor.item() call with capture_scalar_outputs=False");
  EXPECT_EQ(reason_headline("generic_jump TensorVariable()"), "generic_jump TensorVariable()");
}

TEST(Explain, ToleratesJunk) {
  ExplainModel m = explain_model(json("nonsense"));
  EXPECT_EQ(m.graph_count, 0);
  json s = section_of(json::object(), nullptr, nullptr, std::nullopt);
  EXPECT_TRUE(s["breaks"].empty());
  EXPECT_TRUE(s["logged"].is_null());
}

// A print in a loop: explain says -1, the compiled run logs the skip; the loop message
// must not label the break (it is the print, GB0059) and any gate fails.
TEST(Explain, SkippedFrameIsAStateAndFailsTheGate) {
  json f = object_facts();
  f["explain"] = {{"form", "object"},
                  {"graph_count", 0},
                  {"graph_break_count", -1},
                  {"op_count", 0},
                  {"ops_per_graph", json::array()},
                  {"break_reasons", json::array()}};
  std::string skip =
      std::string(
          "Failed to handle graph break gracefully. Skipping the function and falling back to "
          "eager. Graph break encountered:\n") +
      kPrintReason +
      "\n\n*** While handling this graph break, another graph break occurred: ***\n\ngraph break in "
      "loop\n  Explanation: torch.compile detected a graph break in a for/while loop. Skipping the "
      "frame and falling back to eager.\n  Hint: caused by an earlier graph break; see Tensor.item()\n\n"
      "  Developer debug context: frame skipped: forward (/m/model.py line 11)\n\n For more details "
      "about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb7000.html";
  f["logged"] = kLogged;
  RankSummary run = read_trace(
      graph_break(0, "/m/model.py", 13, skip, "  File \"/m/model.py\", line 13, in forward\n    print(i)\n") +
      compile(0, 0, "forward", "/m/model.py", 0, "Unsupported: " + skip, 11));
  json s = section_of(f, &run, "t", 5);
  EXPECT_EQ(s["verdict"], "frame_skipped");
  // A break dynamo could not resume from is not a graph break (torch's counters["graph_break"]
  // does not count it): it is the skipped frame's cause, and no group.
  EXPECT_EQ(s["graph_break_count"], 0);
  EXPECT_TRUE(s["groups"].empty());
  EXPECT_EQ(s["graph_count"], 0);
  EXPECT_TRUE(s["explain_view"]["graph_break_count"].is_null());
  ASSERT_EQ(s["skipped_frames"].size(), 1u);
  EXPECT_EQ(s["skipped_frames"][0]["function"], "forward");
  EXPECT_EQ(s["skipped_frames"][0]["qualname"], "forward");  // no code_names: the code's own name
  EXPECT_EQ(s["skipped_frames"][0]["line"], 11);
  EXPECT_EQ(s["skipped_frames"][0]["skip_reason"], "graph break in loop");
  EXPECT_EQ(s["skipped_frames"][0]["kind"], "print_logging");
  EXPECT_EQ(s["skipped_frames"][0]["registry_id"], "GB0059");
  EXPECT_EQ(s["skipped_frames"][0]["break_line"], 13);
  EXPECT_EQ(s["logged"]["frames_skipped"], 1);
  EXPECT_FALSE(s["gate"]["passed"].get<bool>());
  EXPECT_FALSE(s["capturable"].get<bool>());
}

// Frames of torch and of tct's agent are not the user's (the agent's examples are); a break
// repeated at one place shows its text and traceback again (the trace keeps them once).
TEST(Explain, UserFramesFromTheTraceAndRepeatsBorrowTheFirst) {
  json f = object_facts();
  f["logged"] = kLogged;
  f["code_dirs"] = {{"torch", "/t/torch"}, {"agent", "/a/tct_agent"}, {"examples", "/a/tct_agent/examples"}};
  std::string tb =
      "  File \"/a/tct_agent/ops/explain.py\", line 331, in logged_view\n    compiled(*args)\n"
      "  File \"/t/torch/nn/modules/module.py\", line 1789, in _call_impl\n    return forward_call(*args)\n"
      "  File \"/a/tct_agent/examples/graph_breaks.py\", line 30, in forward\n    h = helper(x)\n"
      "            ^^^^^^^^^\n"
      "  File \"/m/util.py\", line 7, in helper\n    print('x')\n";
  RankSummary run = read_trace(compile(0, 0, "forward", "/a/tct_agent/examples/graph_breaks.py") +
                               graph_break(0, "/m/util.py", 7, kPrintReason, tb) +
                               graph_break(1, "/m/util.py", 7, kPrintReason, tb) + compile(1, 0, "forward", "/m/x.py"));
  ASSERT_EQ(run.breaks.size(), 2u);
  EXPECT_TRUE(run.breaks[1].duplicate);
  EXPECT_TRUE(run.breaks[1].frames.empty());  // kept once
  json s = section_of(f, &run, "t", std::nullopt);
  const json& logged = s["logged"]["graph_breaks"];
  ASSERT_EQ(logged.size(), 2u);
  for (const auto& b : logged) {
    ASSERT_EQ(b["frames"].size(), 2u);
    EXPECT_EQ(b["frames"][0]["file"], "/a/tct_agent/examples/graph_breaks.py");
    EXPECT_EQ(b["frames"][0]["source"], "h = helper(x)");
    EXPECT_EQ(b["frames"][1]["function"], "helper");
    EXPECT_EQ(b["kind"], "print_logging");
  }
  EXPECT_TRUE(logged[1]["duplicate"].get<bool>());
  EXPECT_EQ(s["graph_break_count"], 2);
}

// The mixture of experts: a nonzero (GB0036) in a loop over experts, inlined into the outer
// loop of Net.forward. Dynamo skips Net.forward, then MoE.forward when it runs eagerly: two
// frames, named by their qualified names, one break place, no graph break.
TEST(Explain, TwoFramesSkippedAtOneBreakAreTwoNamedFrames) {
  const std::string nonzero =
      "Dynamic shape operator\n  Explanation: Operator `aten.nonzero.default`'s output shape depends on input "
      "Tensor data.\n  Hint: Enable tracing of dynamic shape operators with "
      "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`\n\n For more details about this graph break, "
      "please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0036.html";
  auto skip = [&](int line) {
    return "Failed to handle graph break gracefully. Skipping the function and falling back to eager. Graph break "
           "encountered:\n\n" +
           nonzero +
           "\n\n*** While handling this graph break, another graph break occurred: "
           "***\n\ngraph break in loop\n  Explanation: Skipping the frame and falling back to eager.\n\n  Developer "
           "debug context: frame skipped: forward (/m/model.py line " +
           std::to_string(line) + ")";
  };
  json f = object_facts();
  f["explain"] = {{"form", "object"},
                  {"graph_count", 0},
                  {"graph_break_count", -1},
                  {"op_count", 0},
                  {"ops_per_graph", json::array()},
                  {"break_reasons", json::array()}};
  f["logged"] = kLogged;
  f["logged"]["code_names"] = {
      {{"file", "/m/model.py"}, {"line", 26}, {"name", "forward"}, {"qualname", "Net.forward"}},
      {{"file", "/m/model.py"}, {"line", 12}, {"name", "forward"}, {"qualname", "MoE.forward"}}};
  std::string tb = "  File \"/m/model.py\", line 16, in forward\n    idx = torch.nonzero(choice == i)\n";
  RankSummary run = read_trace(graph_break(0, "/m/model.py", 16, skip(26), tb) +
                               compile(0, 0, "forward", "/m/model.py", 0, "Unsupported: " + skip(26), 26) +
                               graph_break(1, "/m/model.py", 16, skip(12), tb) +
                               compile(1, 0, "forward", "/m/model.py", 0, "Unsupported: " + skip(12), 12));
  json s = section_of(f, &run, "t", std::nullopt);
  EXPECT_EQ(s["graph_break_count"], 0);
  EXPECT_TRUE(s["groups"].empty());
  ASSERT_EQ(s["skipped_frames"].size(), 2u);
  EXPECT_EQ(s["skipped_frames"][0]["title"], "Net.forward at model.py:26");
  EXPECT_EQ(s["skipped_frames"][1]["title"], "MoE.forward at model.py:12");
  EXPECT_EQ(s["skipped_frames"][1]["qualname"], "MoE.forward");
  EXPECT_EQ(s["skipped_frames"][1]["function"], "forward");
  for (const auto& sf : s["skipped_frames"]) {
    EXPECT_EQ(sf["kind"], "dynamic_shape_operator");  // GB0036, not .item()
    EXPECT_EQ(sf["registry_id"], "GB0036");
    EXPECT_NE(sf["hint"]["fix"].get<std::string>().find("capture_dynamic_output_shape_ops"), std::string::npos);
  }
  EXPECT_EQ(s["logged"]["frames_skipped"], 2);
  bool named = false;
  for (const auto& d : s["disagreements"])
    if (d["kind"] == "frames_skipped")
      named = d["message"].get<std::string>().find("Net.forward at model.py:26, MoE.forward at model.py:12") !=
              std::string::npos;
  EXPECT_TRUE(named) << s["disagreements"].dump();
}

// One helper called three times, breaking at its print each time, and a fourth time when
// dynamo resumes inside it: the groups' counts, the kinds and the headline are one number,
// the compiled run's; explain's own figure stays in explain_view.
TEST(Explain, GroupsCountTheCompiledRunsBreaks) {
  json f = object_facts();
  f["explain"] = {
      {"form", "object"},
      {"graph_count", 4},
      {"graph_break_count", 3},
      {"op_count", 3},
      {"ops_per_graph", json::array()},
      {"break_reasons",
       {{{"reason", kPrintReason},
         {"frames", {frame("/m/model.py", 13, "f", "a = _log(x)"), frame("/m/model.py", 8, "_log", "print(t)")}}},
        {{"reason", kPrintReason},
         {"frames", {frame("/m/model.py", 14, "f", "b = _log(x)"), frame("/m/model.py", 8, "_log", "print(t)")}}},
        {{"reason", kPrintReason},
         {"frames", {frame("/m/model.py", 15, "f", "c = _log(x)"), frame("/m/model.py", 8, "_log", "print(t)")}}}}}};
  f["logged"] = kLogged;
  std::string tb =
      "  File \"/m/model.py\", line 13, in f\n    a = _log(x)\n  File \"/m/model.py\", line 8, in _log\n"
      "    print(t)\n";
  std::string log;
  for (int i = 0; i < 4; ++i)
    log += graph_break(i, "/m/model.py", 8, kPrintReason, tb) + compile(i, 0, "f", "/m/model.py");
  RankSummary run = read_trace(log);
  json s = section_of(f, &run, "t", std::nullopt);
  EXPECT_EQ(s["graph_break_count"], 4);
  EXPECT_EQ(s["explain_view"]["graph_break_count"], 3);
  ASSERT_EQ(s["groups"].size(), 1u);
  EXPECT_EQ(s["groups"][0]["count"], 4);
  EXPECT_EQ(s["groups"][0]["views"], json({"explain", "logged"}));
  // the three lines the helper is called from (the trace keeps one traceback, explain has all)
  std::vector<int> sites;
  for (const auto& c : s["groups"][0]["call_sites"]) sites.push_back(c["line"]);
  EXPECT_EQ(sites, (std::vector<int>{13, 14, 15}));
  ASSERT_EQ(s["kinds"].size(), 1u);
  EXPECT_EQ(s["kinds"][0]["count"], 4);
  EXPECT_TRUE(s["skipped_frames"].empty());
}

// explain's frames arrive whole: the user's are kept here (is_user_file), not in the agent.
TEST(Explain, ExplainFramesAreFilteredHere) {
  json f = object_facts();
  f["code_dirs"] = {{"torch", "/t/torch"}, {"agent", "/a/tct_agent"}, {"examples", "/a/tct_agent/examples"}};
  f["explain"]["break_reasons"][0]["frames"].insert(f["explain"]["break_reasons"][0]["frames"].begin(),
                                                    frame("/t/torch/nn/modules/module.py", 1789, "_call_impl", "x"));
  ExplainModel m = explain_model(f["explain"], f["registry"], tct::core::fields::read_as<CodeDirs>(f["code_dirs"]));
  ASSERT_EQ(m.breaks[0].frames.size(), 2u);
  EXPECT_EQ(m.breaks[0].frames[0].function, "forward");
  ASSERT_TRUE(m.breaks[0].registry);
  EXPECT_EQ(m.breaks[0].registry->id, "GB0059");  // read from the reason's link here
}

TEST(UserCode, LibraryFilesAndPortableNames) {
  CodeDirs dirs{"/t/torch", "/a/tct_agent", "/a/tct_agent/examples"};
  EXPECT_FALSE(is_user_file("/t/torch/nn/functional.py", dirs));
  EXPECT_FALSE(is_user_file("/a/tct_agent/ops/explain.py", dirs));
  EXPECT_FALSE(is_user_file("<string>", dirs));
  EXPECT_TRUE(is_user_file("/a/tct_agent/examples/tiny.py", dirs));
  EXPECT_TRUE(is_user_file("/t/torchvision_user.py", dirs));
  EXPECT_EQ(common_root({"/a/job/model.py", "/a/job/lib/util.py", "/v/lib/site-packages/torch/x.py", "<string>"}),
            "/a/job/");
  EXPECT_EQ(common_root({"/a/jx/m.py", "/a/job/m.py"}), "/a/");
  EXPECT_EQ(common_root({}), "");
  EXPECT_EQ(portable_path("/a/job/lib/util.py", "/a/job/"), "lib/util.py");
  EXPECT_EQ(portable_path("/venv/lib/python3.11/site-packages/torch/nn/x.py", "/a/"), "torch/nn/x.py");
  EXPECT_EQ(portable_path("/b/m.py", "/a/"), "/b/m.py");
  EXPECT_EQ(portable_path("/b/m.py", "/"), "/b/m.py");
}
