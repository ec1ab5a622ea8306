// tct startup's pure parts: the median's order-statistic interval, the trace's compile
// phases and cache lookups, a start's phases from the agent's marks, the mode figures and
// the verdict, and the section's JSON round trip.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "startup/interval.hpp"
#include "startup/json.hpp"
#include "startup/start.hpp"
#include "startup/summary.hpp"
#include "startup/trace_facts.hpp"

namespace {

using namespace tct;
using namespace tct::startup;
using json = nlohmann::json;

TEST(StartupInterval, ThreeStartsGiveMinAndMaxAtSeventyFivePercent) {
  const std::vector<double> xs = {3.0, 1.0, 2.0};
  const MedianInterval iv = median_interval(xs);
  EXPECT_DOUBLE_EQ(iv.median, 2.0);
  EXPECT_DOUBLE_EQ(iv.low, 1.0);
  EXPECT_DOUBLE_EQ(iv.high, 3.0);
  EXPECT_DOUBLE_EQ(iv.coverage, 0.75);
}

TEST(StartupInterval, TenStartsDropOneAtEachEnd) {
  // P(Bin(10, 1/2) <= 1) = 11/1024: [x(2), x(9)] covers 97.9%; [x(3), x(8)] only 89.1%.
  std::vector<double> xs;
  for (int i = 10; i >= 1; --i) xs.push_back(i);
  xs.push_back(NAN);  // left out
  const MedianInterval iv = median_interval(xs);
  EXPECT_DOUBLE_EQ(iv.median, 5.5);
  EXPECT_DOUBLE_EQ(iv.low, 2.0);
  EXPECT_DOUBLE_EQ(iv.high, 9.0);
  EXPECT_NEAR(iv.coverage, 1 - 2 * 11.0 / 1024, 1e-12);
}

TEST(StartupInterval, OneStartHasNoInterval) {
  const std::vector<double> xs = {4.0};
  const MedianInterval iv = median_interval(xs);
  EXPECT_DOUBLE_EQ(iv.median, 4.0);
  EXPECT_TRUE(std::isnan(iv.low));
  EXPECT_EQ(iv.coverage, 0);
}

// A TORCH_TRACE record as torch writes it: header, then the payload's lines behind a tab.
std::string record(const json& header, const std::string& payload) {
  json h = header;
  h["has_payload"] = "x";
  return "V1203 13:15:52.398000 1 torch/x.py:1] " + h.dump() + "\n\t" + payload + "\n";
}
std::string event(const std::string& name, const char* ph, double ts_us, const json& args = json::object()) {
  return record({{"chromium_event", json::object()}},
                json{{"name", name}, {"ph", ph}, {"ts", ts_us}, {"args", args}}.dump());
}
std::string lookup(const std::string& name, const json& payload) {
  return record({{"artifact", {{"name", name}, {"encoding", "json"}}}, {"frame_id", 0}, {"frame_compile_id", 0}},
                payload.dump());
}

TraceFacts read(const std::string& log) {
  TraceFactsSink sink;
  trace::Reader reader(sink);
  reader.feed(log);
  reader.finish();
  return sink.finish();
}

TEST(StartupTraceFacts, ColdCompileSplitsIntoDynamoAotInductorAndTheCompiler) {
  // frame 0..10 s; backend 1..9 s (a miss); inductor 2..8 s (a miss) with the compiler
  // 3..5 s and 4..6 s (overlapping: 3 s of it); another compile_file 8.5..8.75 s in the backend.
  const std::string log =
      event("entire_frame_compile", "B", 0) + event("backend_compile", "B", 1e6) +
      lookup("aotautograd_cache_miss", {{"cache_state", "miss"}, {"components", json::array()}}) +
      event("inductor_compile", "B", 2e6) + event("compile_file", "B", 3e6) + event("compile_file", "B", 4e6) +
      event("compile_file", "E", 5e6) + event("compile_file", "E", 6e6) +
      event("inductor_compile", "E", 8e6, {{"cache_state", "miss"}}) + event("compile_file", "B", 8.5e6) +
      event("compile_file", "E", 8.75e6) + event("backend_compile", "E", 9e6, {{"cache_state", "miss"}}) +
      event("entire_frame_compile", "E", 10e6);
  const TraceFacts f = read(log);
  ASSERT_TRUE(f.read);
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::Dynamo).count(), 2e9);          // 10 - 8
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::CppCompiler).count(), 3.25e9);  // [3, 6] and [8.5, 8.75]
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::Inductor).count(), 3e9);        // 6 - 3
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::AotAutograd).count(), 1.75e9);  // 8 - 6 - 0.25
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::CacheLoad).count(), 0);
  EXPECT_DOUBLE_EQ(f.compiling.count(), 10e9);
  ASSERT_EQ(f.lookups.size(), 1u);
  EXPECT_EQ(f.lookups[0].lookup.cache, "aot_autograd");
  EXPECT_EQ(f.lookups[0].lookup.state, "miss");
}

TEST(StartupTraceFacts, AnAotAutogradHitIsACacheLoad) {
  const std::string log =
      event("entire_frame_compile", "B", 0) + event("backend_compile", "B", 1e6) +
      event("inductor_compile", "B", 1.5e6) + event("inductor_compile", "E", 2e6, {{"cache_state", "hit"}}) +
      event("backend_compile", "E", 3e6, {{"cache_state", "hit"}}) + event("entire_frame_compile", "E", 4e6) +
      lookup("fx_graph_cache_bypass",
             {{"cache_state", "bypass"}, {"cache_bypass_reason", "Can't cache HigherOrderOperators\nmore"}});
  const TraceFacts f = read(log);
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::CacheLoad).count(), 2e9);  // the backend compile, inductor in it
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::Inductor).count(), 0);
  EXPECT_DOUBLE_EQ(f.phases.at(Phase::Dynamo).count(), 2e9);
  ASSERT_EQ(f.lookups.size(), 1u);
  EXPECT_EQ(f.lookups[0].lookup.state, "bypass");
  EXPECT_EQ(f.lookups[0].lookup.reason, "Can't cache HigherOrderOperators");
}

TEST(StartupTraceFacts, AMissNamesTheKeyPartsThatChanged) {
  const json saved_payload = {
      {"components", {"[aaa] gm: graph", "[bbb] inductor_config[size_asserts]: True", "[ccc] torch_version: x"}}};
  const json missed_payload = {
      {"components", {"[aaa] gm: graph", "[ddd] inductor_config[size_asserts]: False", "[eee] cuda: 12"}}};
  const TraceFacts saved = read(lookup("fx_graph_cache_miss", saved_payload));
  const TraceFacts missed = read(lookup("fx_graph_cache_miss", missed_payload));
  const auto changed = changed_components(saved.lookups.at(0), missed.lookups.at(0));
  EXPECT_EQ(changed, (std::vector<std::string>{"cuda: (new) 12", "inductor_config[size_asserts]: True -> False",
                                               "torch_version: x -> (gone)"}));
}

TEST(StartupStart, MarksBecomePhasesThatAddUpAndTheTraceSplitsTheFirstCall) {
  const json reply = {{"marks_ns",
                       {{"op_start", 1100},
                        {"torch_imported", 3000},
                        {"built", 3100},
                        {"compile_wrapped", 4000},
                        {"first_output", 9000}}},
                      {"steady_ns", {10, 11, 12}},
                      {"counters", {{"fxgraph_cache_miss", 1}}}};
  TraceFacts trace;
  trace.read = true;
  trace.phases = {{Phase::Dynamo, Nanoseconds(1000)}, {Phase::CppCompiler, Nanoseconds(3000)}};
  trace.compiling = Nanoseconds(4000);
  const Start s = make_start(tct::core::fields::read_as<tct::startup::reply::FirstOutput>(reply), Nanoseconds(1000),
                             Nanoseconds(9500), trace);
  EXPECT_EQ(s.first_output.count(), 8000);
  EXPECT_EQ(s.phases.at(Phase::Interpreter).count(), 100);
  EXPECT_EQ(s.phases.at(Phase::ImportTorch).count(), 1900);
  EXPECT_EQ(s.phases.at(Phase::CompileSetup).count(), 900);
  EXPECT_EQ(s.phases.at(Phase::Dynamo).count(), 1000);
  EXPECT_EQ(s.phases.at(Phase::FirstCall).count(), 1000);  // 5000 - 4000 compiling
  double sum = 0;
  for (const auto& [p, d] : s.phases) sum += d.count();
  EXPECT_DOUBLE_EQ(sum, 8000);
  ASSERT_TRUE(s.counters);
  EXPECT_EQ(s.counters->fx_miss, 1);
}

TEST(StartupStart, AMarkOnAnotherClockLeavesOnlyTheReplysTotal) {
  const json reply = {{"marks_ns", {{"op_start", 5}, {"first_output", 7}}}};
  const Start s = make_start(tct::core::fields::read_as<tct::startup::reply::FirstOutput>(reply), Nanoseconds(1000),
                             Nanoseconds(4000), TraceFacts{});
  EXPECT_EQ(s.first_output.count(), 3000);
  EXPECT_TRUE(s.phases.empty());
}

ModeResult mode(Mode m, std::vector<double> totals_s, double per_call_ns) {
  ModeResult r;
  r.mode = m;
  for (double t : totals_s) {
    Start s;
    s.first_output = Nanoseconds(t * 1e9);
    s.steady_ns = std::vector<double>(10, per_call_ns);
    r.starts.push_back(s);
  }
  summarize(r);
  return r;
}

TEST(StartupSummary, BreakEvenVerdictAndFindings) {
  StartupResult r;
  r.modes = {mode(Mode::Eager, {1.0, 1.1, 1.2}, 100e3), mode(Mode::Cold, {20, 21, 22}, 50e3),
             mode(Mode::Warm, {5, 6, 7}, 50e3), mode(Mode::Shipped, {6.5, 8, 9}, 50e3)};
  r.modes[3].lookups = {{"fx_graph", "miss", "", {"torch_version: a -> b"}}, {"aot_autograd", "hit", "", {}}};
  decide(r);
  EXPECT_DOUBLE_EQ(r.modes[2].median.count(), 6e9);
  // (6 s - 1.1 s) / (100 us - 50 us) = 98000 calls.
  ASSERT_TRUE(r.modes[2].break_even_calls);
  EXPECT_NEAR(*r.modes[2].break_even_calls, 98000, 1e-6);
  EXPECT_EQ(r.verdict.fastest, Mode::Eager);
  EXPECT_TRUE(r.verdict.tied.empty());
  EXPECT_EQ(r.verdict.fastest_compiled, Mode::Warm);
  EXPECT_EQ(r.verdict.compiled_tied, std::vector<Mode>{Mode::Shipped});  // [5, 7] and [6.5, 9] overlap
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].mode, Mode::Shipped);
  EXPECT_EQ(r.findings[0].lookup.cache, "fx_graph");

  const StartupResult back = from_json(to_json(r));
  EXPECT_EQ(to_json(back), to_json(r));
  EXPECT_EQ(back.verdict.compiled_tied, r.verdict.compiled_tied);
}

TEST(StartupSummary, AStartThatHitEveryCacheYetCompiledIsNamed) {
  StartupResult r;
  r.modes = {mode(Mode::Warm, {10}, 50e3), mode(Mode::Shipped, {20}, 50e3)};
  for (auto& m : r.modes) m.lookups = {{"fx_graph", "hit", "", {}}, {"aot_autograd", "hit", "", {}}};
  r.modes[0].phases[Phase::CppCompiler] = Nanoseconds(0.5e9);  // 5%: not worth a line
  r.modes[1].phases[Phase::CppCompiler] = Nanoseconds(12e9);
  decide(r);
  ASSERT_EQ(r.still_compiled.size(), 1u);
  EXPECT_EQ(r.still_compiled[0].mode, Mode::Shipped);
  EXPECT_DOUBLE_EQ(r.still_compiled[0].cpp_compiler.count(), 12e9);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(to_json(from_json(to_json(r))), to_json(r));
}

TEST(StartupSummary, SlowerCallsNeverBreakEven) {
  StartupResult r;
  r.modes = {mode(Mode::Eager, {1.0}, 50e3), mode(Mode::Warm, {5}, 60e3)};
  decide(r);
  EXPECT_FALSE(r.modes[1].break_even_calls);
}

}  // namespace
