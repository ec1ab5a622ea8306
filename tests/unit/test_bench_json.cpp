// BenchResult <-> doc["bench"]: documents written by this version read back to the same
// bytes (tests/e2e/fixtures/bench/: real runs of small targets, one interrupted while loading,
// machine paths replaced), older
// documents of the same schema still read (tests/e2e/fixtures/html_*.json), and the verdicts
// the renderings print are the result's fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/json.hpp"
#include "fixture_documents.hpp"
#include "bench/render.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tct::bench;

namespace {

fs::path fixtures() { return tct::testing::e2e_fixtures(); }
json load(const fs::path& p) { return tct::testing::load_json(p); }
std::vector<fs::path> current_documents() { return tct::testing::fixture_documents("bench"); }

}  // namespace

TEST(BenchJson, DocumentsOfThisVersionReadBackByteForByte) {
  auto docs = current_documents();
  ASSERT_GE(docs.size(), 3u);
  for (const auto& p : docs) {
    const json section = load(p)["bench"];
    // dump(): json's == holds 4 and 4.0 equal; the document's bytes do not.
    EXPECT_EQ(to_json(from_json(section)).dump(2), section.dump(2)) << p;
  }
}

TEST(BenchJson, EachVerdictIsOneFieldOfTheResult) {
  for (const auto& p : current_documents()) {
    const BenchResult r = from_json(load(p)["bench"]);
    if (!r.loaded()) continue;  // interrupted before the target loaded: nothing measured
    ASSERT_FALSE(r.rows.empty()) << p;
    for (const auto& row : r.rows) {
      if (!row.speedup) continue;
      const auto& iv = row.speedup->interval;
      EXPECT_EQ(row.speedup->verdict, tct::stats::decide(iv)) << p;
      // The break-even's figures are its ranges' estimates, and it gives none without a gain.
      ASSERT_TRUE(row.break_even) << p;
      EXPECT_EQ(row.break_even_calls, row.break_even->cold ? row.break_even->cold->estimate : std::nullopt) << p;
      EXPECT_EQ(row.break_even->verdict == BreakEvenVerdict::BreaksEven, row.speedup->verdict == SpeedupVerdict::Faster)
          << p;
      // The renderings print the stored verdict.
      if (row.speedup->verdict != SpeedupVerdict::Inconclusive)
        EXPECT_NE(brief(r).find(std::string(describe(row.speedup->verdict))), std::string::npos) << p;
    }
  }
}

TEST(BenchJson, OlderDocumentsStillRead) {
  // html_bench.json was written before the speedup's verdict and the break-even's were fields.
  const json section = load(fixtures() / "html_bench.json")["bench"];
  const BenchResult r = from_json(section);
  ASSERT_EQ(r.rows.size(), section["rows"].size());
  const BenchRow& row = r.rows[0];
  ASSERT_TRUE(row.speedup);
  EXPECT_EQ(row.speedup->verdict, SpeedupVerdict::Inconclusive);  // decided from its interval [0.02, 42.2]
  EXPECT_FALSE(row.break_even);
  EXPECT_EQ(row.break_even_verdict(), BreakEvenVerdict::Inconclusive);
  EXPECT_TRUE(row.correctness && row.correctness->match == true);
  EXPECT_EQ(r.best_row(), &row);
}

TEST(BenchJson, ARowStillBeingMeasuredRoundTrips) {
  // What run_bench checkpoints before a row is measured: nulls where nothing is known yet.
  const json row = {{"backend", "inductor"},
                    {"mode", "default"},
                    {"dynamic", "auto"},
                    {"fullgraph", false},
                    {"label", "inductor"},
                    {"status", "pending"},
                    {"error", nullptr},
                    {"speedup", nullptr},
                    {"latency", nullptr},
                    {"warmup_curve_ns", json::array()},
                    {"steady_state", nullptr},
                    {"compile",
                     {{"cold_ns", nullptr},
                      {"warm_ns", nullptr},
                      {"first_call_ns", nullptr},
                      {"breakdown", json::object()},
                      {"cold_source", nullptr}}},
                    {"break_even_calls", nullptr},
                    {"break_even_calls_warm", nullptr},
                    {"break_even", nullptr},
                    {"harness_floor_ns", nullptr},
                    {"blocks_dropped_for_recompile", 0},
                    {"correctness", nullptr},
                    {"memory", nullptr},
                    {"recompiles_during_measurement", nullptr},
                    {"graph_breaks", nullptr},
                    {"blocks", 0},
                    {"stop_reason", nullptr},
                    {"clock_resolution_ns", 110.0},
                    {"flags", json::array()}};
  EXPECT_EQ(to_json(row_from_json(row)).dump(), row.dump());
  EXPECT_EQ(row_from_json(row).status, RowStatus::Pending);
}

TEST(BenchJson, AnAotiRowRoundTripsAndRendersItsPackageLine) {
  // The aoti row's own facts (bench/result.hpp Aoti) are one object of the row, read back
  // byte for byte, and every rendering says who timed it.
  BenchRow row;
  row.backend = "aoti";
  row.mode = "default";
  row.dynamic = "auto";
  row.label = "aoti";
  row.status = RowStatus::Ok;
  row.warmup_curve_ns = {2e6, 1e5, 1e5};
  row.aoti = Aoti{tct::Nanoseconds(1.5e9), tct::Nanoseconds(12e9), 1234567, tct::Nanoseconds(4.2e7), "cpp", "", ""};
  const json written = to_json(row);
  EXPECT_EQ(written["aoti"]["package_compile_ns"], 13.5e9);
  EXPECT_EQ(written["aoti"]["timed_from"], "cpp");
  EXPECT_TRUE(written["aoti"]["runner_note"].is_null());
  EXPECT_EQ(to_json(row_from_json(written)).dump(), written.dump());

  BenchResult result;
  result.target = json{{"target", "builtin:mlp"}};
  result.rows.push_back(row);
  for (const std::string& out : {text(result), brief(result), markdown(result), html_section(result)}) {
    EXPECT_NE(out.find("package compile 13.5 s"), std::string::npos) << out;
    EXPECT_NE(out.find("timed from C++"), std::string::npos) << out;
  }
  result.rows[0].aoti->timed_from = "python";
  result.rows[0].aoti->runner_note = "cmake is not installed";
  EXPECT_NE(brief(result).find("timed from Python (aoti_load_package): no C++ runner, cmake is not installed"),
            std::string::npos)
      << brief(result);
}

TEST(BenchJson, AFailedRowSaysItsFix) {
  // torch.export's refusal: the row carries the exporter's reason and the fix, and the
  // terminal report prints both.
  BenchRow row;
  row.backend = row.label = "aoti";
  row.status = RowStatus::Failed;
  row.error = RowError{"unsupported", "torch.export", "torch.export cannot take this model: Could not guard",
                       "the model branches on a tensor's value: use torch.cond", 3};
  BenchResult result;
  result.target = json{{"target", "m.py:make"}};
  result.rows.push_back(row);
  const std::string out = brief(result);
  EXPECT_NE(out.find("torch.export cannot take this model"), std::string::npos) << out;
  EXPECT_NE(out.find("fix         the model branches on a tensor's value"), std::string::npos) << out;
}

TEST(BenchJson, TheRunsOwnFiguresAreFieldsOfTheResult) {
  // What tct writes itself is read into typed fields, not kept as JSON beside them: the
  // interval's evidence, torch's timers, the memory peaks, the settings, the clock and the
  // target's process.
  const json section = load(fixtures() / "bench" / "matrix_raw.json")["bench"];
  const BenchResult r = from_json(section);
  ASSERT_FALSE(r.rows.empty());
  const json& row = section["rows"][0];
  const BenchRow& typed = r.rows[0];

  ASSERT_TRUE(typed.speedup);
  const Speedup& sp = *typed.speedup;
  EXPECT_EQ(sp.confidence, row["speedup"]["confidence"].get<double>());
  EXPECT_EQ(sp.look_confidence, row["speedup"]["look_confidence"].get<double>());
  EXPECT_EQ(sp.looks, row["speedup"]["looks"].get<int>());
  EXPECT_EQ(sp.method, row["speedup"]["method"].get<std::string>());
  ASSERT_TRUE(sp.per_process);
  ASSERT_EQ(sp.per_process->size(), row["speedup"]["per_process"].size());
  const json& first_process = row["speedup"]["per_process"][0];
  EXPECT_EQ(sp.per_process->at(0).blocks, first_process["blocks"].get<long long>());
  EXPECT_EQ(sp.per_process->at(0).segment_speedups.size(), first_process["segment_speedups"].size());

  EXPECT_EQ(typed.compile.breakdown.size(), row["compile"]["breakdown"].size());
  EXPECT_EQ(typed.compile.breakdown.at("gc").count(), row["compile"]["breakdown"]["gc"].get<double>());
  ASSERT_TRUE(typed.compile.warm_breakdown);
  EXPECT_EQ(typed.compile.warm_breakdown->size(), row["compile"]["warm_breakdown"].size());

  ASSERT_TRUE(typed.memory && typed.memory->eager_peak && typed.memory->compiled && typed.memory->compiled->peak);
  EXPECT_EQ(typed.memory->eager_peak->bytes, row["memory"]["eager_peak_bytes"].get<long long>());
  EXPECT_EQ(typed.memory->compiled->peak->method, row["memory"]["compiled_method"].get<std::string>());
  ASSERT_TRUE(typed.samples);
  EXPECT_EQ(typed.samples->calls_per_sample, row["samples"]["calls_per_sample"]["eager"].get<int>());

  ASSERT_TRUE(r.config && r.clock && r.eager && r.eager->memory && r.process);
  EXPECT_EQ(r.config->backends, section["config"]["backends"].get<std::vector<std::string>>());
  EXPECT_EQ(r.config->budget_s, section["config"]["budget_s"].get<double>());
  EXPECT_EQ(r.config->raw, section["config"]["raw"].get<bool>());
  EXPECT_EQ(r.clock->implementation, section["clock"]["implementation"].get<std::string>());
  EXPECT_EQ(r.eager->memory->peak_bytes, section["eager"]["memory"]["peak_bytes"].get<long long>());
  EXPECT_EQ(r.process->device_type, section["device_type"].get<std::string>());
  EXPECT_EQ(r.process->num_threads, section["num_threads"].get<int>());
}

TEST(BenchJson, GraphBreakReasonsAndTheAotiRowsTimersRoundTrip) {
  // No saved run broke a graph or is an aoti row: torch's reasons with their counts, and the
  // aoti row's two timers as the agent's whole numbers (torch's own timers are floats), read
  // back byte for byte.
  BenchRow row;
  row.backend = row.label = "aoti";
  row.status = RowStatus::Ok;
  row.warmup_counters = WarmupCounters{1, 2, {{"call_function print", 3}, {"data dependent branch", 1}}, {}};
  row.compile.breakdown = {{"torch.export", tct::Nanoseconds(1.5e9)}, {"aoti_compile_and_package", tct::kNotMeasured}};
  row.aoti = Aoti{tct::Nanoseconds(1.5e9), tct::kNotMeasured, 1234567, tct::Nanoseconds(4.2e7), "cpp", "", ""};
  const json written = to_json(row);
  EXPECT_EQ(written["graph_break_reasons"].dump(),
            R"([{"count":3,"reason":"call_function print"},{"count":1,"reason":"data dependent branch"}])");
  EXPECT_EQ(written["compile"]["breakdown"].dump(), R"({"aoti_compile_and_package":null,"torch.export":1500000000})");
  EXPECT_EQ(to_json(row_from_json(written)).dump(), written.dump());

  row.aoti.reset();
  EXPECT_EQ(to_json(row)["compile"]["breakdown"].dump(),
            R"({"aoti_compile_and_package":null,"torch.export":1500000000.0})");
}

TEST(BenchJson, AFieldOfANewerVersionIsReadPast) {
  // A bench section is written only from a result measured in this process: `tct report`
  // renders a saved one and `tct merge` copies suite entries whole, so nothing writes back a
  // section it read, and a field this version does not know is not kept.
  json row = to_json(BenchRow{});
  row["from_a_newer_version"] = 1;
  EXPECT_FALSE(to_json(row_from_json(row)).contains("from_a_newer_version"));
  json section = to_json(BenchResult{});
  section["from_a_newer_version"] = 1;
  EXPECT_FALSE(to_json(from_json(section)).contains("from_a_newer_version"));
}

// Each row's correctness, in the documents of this version and the older ones, reads back to
// the same bytes.
TEST(BenchJson, CorrectnessSectionsRoundTripByteForByte) {
  auto docs = current_documents();
  for (const char* older : {"html_bench.json", "html_audit_tiny_ops.json", "html_audit_transformer_block.json"})
    docs.push_back(fixtures() / older);
  int seen = 0;
  for (const auto& p : docs) {
    const json section = load(p)["bench"];
    if (!section.contains("rows")) continue;
    for (const auto& row : section["rows"]) {
      const json& c = row.value("correctness", json());
      if (!c.is_object()) continue;
      EXPECT_EQ(to_json(correctness_from_json(c)).dump(2), c.dump(2)) << p;
      ++seen;
    }
  }
  EXPECT_GE(seen, 8);
}

// The live path: the agent's bench.check reply behind mismatch.json's row (a leaf beyond its
// tolerance, with its float64 reference, and the check's costs) makes that row's correctness,
// byte for byte.
TEST(BenchJson, ACheckReplyWritesTheRowsCorrectness) {
  const json expected = load(fixtures() / "bench" / "mismatch.json")["bench"]["rows"][0]["correctness"];
  const json& leaf = expected["leaf_results"][0];
  json fact = {{"path", "out"},
               {"kind", "tensor"},
               {"shape_expected", {32}},
               {"shape_actual", {32}},
               {"dtype_expected", "float32"},
               {"dtype_actual", "float32"},
               {"numel", 32},
               {"equal", false},
               {"nan_expected", 0},
               {"nan_actual", 0},
               {"nan_mismatch", 0},
               {"inf_mismatch", 0},
               {"max_abs_expected", 0.5},
               {"mean_abs_diff", 1.0}};
  for (const char* k : {"max_abs_diff", "max_rel_diff", "out_of_tolerance", "worst_index", "expected_at_worst",
                        "actual_at_worst", "reference"})
    fact[k] = leaf[k];
  json same = fact;
  same.erase("reference");
  for (const char* k : {"max_abs_diff", "max_rel_diff", "mean_abs_diff"}) same[k] = 0.0;
  same["out_of_tolerance"] = 0;
  same["actual_at_worst"] = same["expected_at_worst"];
  const json reply = {{"eager_vs_eager", {same}},
                      {"compiled_vs_eager", {fact}},
                      {"eager_used_rng", false},
                      {"seed", 0},
                      {"reference", expected["reference"]},
                      {"cost_ns", expected["agent_cost_ns"]}};
  Correctness c = correctness_report(tct::core::fields::read_as<tct::bench::reply::Check>(reply));
  c.check_s = expected["check_s"].get<double>();
  EXPECT_EQ(to_json(c).dump(2), expected.dump(2));
}
