// explain::run_explain with a scripted agent: it returns the result as a value, its caller gets
// the loaded target as a partial result first (so a crash in explain.run still leaves it), and
// the result carries the gate's warning.
#include <gtest/gtest.h>

#include <vector>

#include "explain/json.hpp"
#include "explain/run.hpp"
#include "fake_agent.hpp"
#include "report/warning.hpp"

namespace explain = tct::explain;
using json = nlohmann::json;

namespace {

json explain_facts() {
  json breaks = json::array();
  for (int line : {10, 10, 20})
    breaks.push_back(
        {{"reason", "call_function BuiltinVariable(print) [ConstantVariable(str)] {}"},
         {"frames", {{{"file", "/m/model.py"}, {"line", line}, {"function", "forward"}, {"source", "print(x)"}}}}});
  return {{"torch_version", "2.13.0"},
          {"explain",
           {{"form", "object"},
            {"graph_count", 4},
            {"graph_break_count", 3},
            {"op_count", 6},
            {"ops_per_graph", json::array()},
            {"break_reasons", breaks}}},
          {"logged", nullptr}};
}

}  // namespace

TEST(ExplainRun, ReturnsTheResultAndCheckpointsTheLoadedTargetFirst) {
  tct::testing::FakeExecutor executor([](int, const std::string& op, const json&) -> json {
    if (op == "target.load") return {{"spec", "m.py:make"}};
    if (op == "explain.run") return explain_facts();
    return json::object();
  });
  tct::testing::FakeCaller<explain::ExplainResult> caller;
  auto agent = executor.start({});
  explain::ExplainConfig cfg;
  cfg.target.target = "m.py:make";
  cfg.logged = false;
  cfg.max_graph_breaks = 2;
  const explain::ExplainResult r = explain::run_explain(caller.progress(), *agent, cfg, caller.on_partial());

  ASSERT_FALSE(caller.partials.empty());
  EXPECT_EQ(explain::to_json(caller.partials[0]), json({{"target", {{"spec", "m.py:make"}}}}));  // the partial result
  EXPECT_TRUE(r.finished);
  EXPECT_EQ(r.counts_from, explain::CountsFrom::Explain);
  EXPECT_EQ(r.graph_break_count, 3);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[0].count + r.groups[1].count, 3);
  EXPECT_EQ(r.verdict, explain::Verdict::GraphBreaks);
  ASSERT_TRUE(r.gate);
  EXPECT_FALSE(r.gate->passed);
  EXPECT_EQ(explain::exit_code(r), 1);
  // The result carries the gate's warning, once.
  int gate_warnings = 0;
  for (const auto& w : r.warnings)
    if (tct::report::message_of(w).find("--max-graph-breaks 2") != std::string::npos) ++gate_warnings;
  EXPECT_EQ(gate_warnings, 1);
}
