// Suite logic: TOML expansion and stable ids, settings, sharding, recording, resume, merge,
// summary statistics and the interval arithmetic behind them.
#include "bench/json.hpp"
#include "stats/verdict.hpp"
#include <cmath>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "stats/log_interval.hpp"
#include "errors.hpp"
#include "fixture_documents.hpp"
#include "suite/shard.hpp"
#include "suite/doc.hpp"
#include "suite/file.hpp"
#include "suite/json.hpp"
#include "suite/settings.hpp"
#include "suite/summary.hpp"

using namespace tct;
using namespace tct::suite;
using json = nlohmann::json;

namespace {

std::vector<std::string> ids(const Suite& s) {
  std::vector<std::string> out;
  for (const auto& e : s.entries) out.push_back(e.id);
  return out;
}

std::string usage_message(const std::string& toml) {
  try {
    parse_suite(toml, "s.toml");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_FALSE(e.hint().empty()) << e.what();  // every error says what to do
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << toml;
  return "";
}

// A bench section of one row with this speedup object.
json bench_with(json sp) { return {{"rows", json::array({json{{"speedup", std::move(sp)}}})}}; }

json entry(const std::string& id, const std::string& status, double est, double lo, double hi, double wall = 1e9) {
  json sp = std::isfinite(est) ? json{{"estimate", est}, {"low", lo}, {"high", hi}} : json(nullptr);
  json r = {{"speedup", sp}, {"verdict", tct::stats::to_string(tct::stats::decide(est, lo, hi))}, {"compile_ns", 2e9}};
  json e = {{"id", id}, {"status", status}, {"result", r}, {"wall_ns", wall}, {"error", nullptr}};
  if (status != "ok") e["error"] = {{"kind", status == "mismatch" ? "output_mismatch" : "timeout"}, {"message", "m"}};
  return e;
}

// The same entries as the suite holds them, read through the section's one reader.
std::vector<EntryRecord> records(const json& entries) {
  std::vector<EntryRecord> out;
  for (const auto& e : entries) out.push_back(record_from_json(e));
  return out;
}

}  // namespace

TEST(SuiteFile, MatrixExpandsInFileOrderWithStableIds) {
  Suite s = parse_suite(R"(
name = "zoo"
[defaults]
budget = 5
backend = ["inductor", "aot_eager"]
[[target]]
spec = "models.py:make"
params = { batch = [1, 8] }
[[target]]
spec = "builtin:mlp"
)",
                        "s.toml");
  EXPECT_EQ(s.name, "zoo");
  EXPECT_EQ(ids(s), (std::vector<std::string>{"models.py:make[batch=1]", "models.py:make[batch=1,backend=aot_eager]",
                                              "models.py:make[batch=8]", "models.py:make[batch=8,backend=aot_eager]",
                                              "builtin:mlp", "builtin:mlp[backend=aot_eager]"}));
  // Each entry holds one value per setting; scalars from [defaults] reach every entry.
  EXPECT_EQ(s.entries[1].settings["backend"], "aot_eager");
  EXPECT_EQ(s.entries[1].settings["budget"], 5);
  EXPECT_EQ(s.entries[3].params["batch"], 8);
}

TEST(SuiteFile, IdsSurviveAddingTargetsAndMatrixValues) {
  Suite before = parse_suite("[[target]]\nspec = \"builtin:mlp\"\nparams = { batch = 8 }\n", "s.toml");
  Suite after = parse_suite(R"(
[defaults]
backend = ["inductor", "eager"]
budget = 2
[[target]]
spec = "builtin:convnet"
[[target]]
spec = "builtin:mlp"
params = { batch = 8 }
)",
                            "s.toml");
  auto a = ids(after);
  EXPECT_NE(std::find(a.begin(), a.end(), before.entries[0].id), a.end()) << before.entries[0].id;
}

TEST(SuiteFile, MeasurementAxesAndNamesEnterTheId) {
  Suite s = parse_suite(R"(
[[target]]
spec = "m.py:f"
name = "small"
budget = [1, 5]
eager_warmup = 3
dynamic = "on"
)",
                        "s.toml");
  EXPECT_EQ(ids(s), (std::vector<std::string>{"small[dynamic=true,budget=1]", "small[dynamic=true,budget=5]"}));
  EXPECT_EQ(s.entries[0].settings["eager-warmup"], 3);  // underscores read as hyphens
}

TEST(SuiteFile, TargetOverridesDefaults) {
  Suite s = parse_suite(R"(
[defaults]
timeout = 60
params = { batch = 4, seq = 16 }
[[target]]
spec = "m.py:f"
timeout = 5
params = { batch = 2 }
)",
                        "s.toml");
  ASSERT_EQ(s.entries.size(), 1u);
  EXPECT_EQ(s.entries[0].settings["timeout"], 5);
  EXPECT_EQ(s.entries[0].params, (json{{"batch", 2}, {"seq", 16}}));
  EXPECT_EQ(s.entries[0].id, "m.py:f[batch=2,seq=16]");
}

TEST(SuiteFile, ListValuedParameterIsAListOfOneList) {
  Suite s = parse_suite("[[target]]\nspec = \"m.py:f\"\nparams = { sizes = [[1, 2]] }\n", "s.toml");
  ASSERT_EQ(s.entries.size(), 1u);
  EXPECT_EQ(s.entries[0].params["sizes"], json::array({1, 2}));
  EXPECT_EQ(s.entries[0].id, "m.py:f[sizes=[1,2]]");
}

TEST(SuiteFile, ClearErrors) {
  EXPECT_NE(usage_message("[[target]]\nspec = \"a\"\nbudgt = 1\n").find("unknown setting 'budgt'"), std::string::npos);
  EXPECT_NE(usage_message("[[target]]\nname = \"x\"\n").find("has no spec"), std::string::npos);
  EXPECT_NE(usage_message("[defaults]\nbudget = 1\n").find("lists no targets"), std::string::npos);
  EXPECT_NE(usage_message("[[target]]\nspec = \"a\"\nbudget = -1\n").find("budget = -1 is not a number > 0"),
            std::string::npos);
  EXPECT_NE(usage_message("[[target]]\nspec = \"a\"\nbackend = \"inductor,eager\"\n").find("write a list"),
            std::string::npos);
  EXPECT_NE(usage_message("[[target]]\nspec = \"a\"\n[[target]]\nspec = \"a\"\n").find("two entries have the id 'a'"),
            std::string::npos);
  EXPECT_NE(usage_message("[[target]]\nspec = \"a\"\nparams = { b = [] }\n").find("empty list"), std::string::npos);
  EXPECT_NE(usage_message("[[target]\nspec = 1\n").find("s.toml:1:"), std::string::npos);  // TOML syntax: line
  EXPECT_NE(usage_message("targets = 1\n").find("unknown top-level key"), std::string::npos);
  EXPECT_NE(usage_message("name = 1\n[[target]]\nspec = \"a\"\n").find("name must be a string"), std::string::npos);
  EXPECT_NE(usage_message("defaults = 1\n[[target]]\nspec = \"a\"\n").find("defaults must be a table"),
            std::string::npos);
  EXPECT_NE(usage_message("target = [1]\n").find("[[target]] 1 is not a table"), std::string::npos);
  EXPECT_NE(usage_message("[[target]]\nspec = \"a\"\nname = \"\"\n").find("name must be a non-empty string"),
            std::string::npos);
  EXPECT_NE(usage_message("[[target]]\nspec = \"a\"\nparams = 1\n").find("params must be a table"), std::string::npos);
}

TEST(SuiteSettings, BenchConfigFromSettings) {
  json settings = {{"backend", "aot_eager"}, {"budget", 0.5},   {"no-compile-time", true}, {"precision", 0.05},
                   {"no-check", true},       {"device", "cpu"}, {"train", true},           {"warmup", 3}};
  auto cfg = bench_config("builtin:mlp", {{"batch", 2}}, settings);
  EXPECT_EQ(cfg.backends, std::vector<std::string>{"aot_eager"});
  EXPECT_EQ(cfg.budget_s, 0.5);
  EXPECT_FALSE(cfg.compile_time);
  EXPECT_FALSE(cfg.check);
  EXPECT_TRUE(cfg.target.train);
  EXPECT_EQ(cfg.target.device, "cpu");
  EXPECT_EQ(cfg.warmup_calls, 3);
  EXPECT_EQ(cfg.target.params["batch"], 2);
  EXPECT_EQ(check_setting("precision", "2%", "x"), 0.02);
  EXPECT_EQ(entry_timeout_s(json::object(), 900), 900);
  EXPECT_EQ(entry_timeout_s({{"timeout", 3}}, 900), 3);
}

TEST(Shard, ParseIsOneBased) {
  EXPECT_EQ(parse_shard("2/4").index, 2);
  EXPECT_EQ(parse_shard("2/4").count, 4);
  for (const char* bad : {"0/4", "5/4", "1/0", "a/b", "1", "1/2x", "-1/2"})
    EXPECT_THROW(parse_shard(bad), Error) << bad;
}

TEST(Shard, RoundRobinPartitions) {
  std::vector<std::string> ids = {"a", "b", "c", "d", "e"};
  EXPECT_EQ(assign_shards(ids, 2), (std::vector<int>{1, 2, 1, 2, 1}));
  EXPECT_EQ(assign_shards(ids, 1), (std::vector<int>{1, 1, 1, 1, 1}));
}

TEST(Shard, CostsBalanceLongestFirst) {
  std::vector<std::string> ids = {"a", "b", "c", "d", "e"};
  // a is as long as the rest together: it gets a shard of its own.
  auto s = assign_shards(ids, 2, {{"a", 40}, {"b", 10}, {"c", 10}, {"d", 10}, {"e", 10}});
  EXPECT_EQ(s, (std::vector<int>{1, 2, 2, 2, 2}));
  // Unknown costs count as the median of the known ones; the result is deterministic.
  auto t = assign_shards(ids, 2, {{"a", 40}, {"b", 10}});
  EXPECT_EQ(t, assign_shards(ids, 2, {{"b", 10}, {"a", 40}}));
  EXPECT_EQ(t[0], 1);
}

TEST(Shard, CostsFromADocument) {
  json doc = {
      {"suite", {{"entries", json::array({entry("a", "ok", 1, 1, 1, 7e9), entry("b", "failed", NAN, 0, 0, 3e9)})}}}};
  auto c = costs_from(doc);
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c["a"], 7e9);
}

namespace {

Suite four() { return parse_suite("[[target]]\nspec = \"m.py:f\"\nparams = { n = [1, 2, 3, 4] }\n", "s.toml"); }

json shard_doc(const Suite& s, int index, int count, const std::vector<std::string>& run) {
  std::vector<std::string> all = ids(s);
  json doc = {{"command", "suite"},
              {"created", "2026-01-01T00:00:00Z"},
              {"warnings", json::array()},
              {"environment", {{"torch", {{"version", "2.13.0"}}}}}};
  SuiteResult suite = plan_suite(s, "s.toml", {index, count}, assign_shards(all, count), "");
  for (const auto& id : run) record_entry(suite, record_from_json(entry(id, "ok", 1.2, 1.1, 1.3)));
  doc["suite"] = to_json(suite);
  return doc;
}

}  // namespace

TEST(SuiteDoc, ShardsMergeIntoTheWhole) {
  Suite s = four();
  auto all = ids(s);
  json whole = shard_doc(s, 1, 1, all);
  json a = shard_doc(s, 1, 2, {all[0], all[2]});
  json b = shard_doc(s, 2, 2, {all[3], all[1]});
  EXPECT_EQ(a["suite"]["selected"], json::array({all[0], all[2]}));
  json merged = merge_shards({{"a.json", a}, {"b.json", b}});
  EXPECT_EQ(merged["suite"]["entries"], whole["suite"]["entries"]);  // in plan order
  EXPECT_EQ(merged["suite"]["summary"], whole["suite"]["summary"]);
  EXPECT_TRUE(merged["suite"]["shard"].is_null());
  EXPECT_EQ(merged["suite"]["merged_from"].size(), 2u);
}

TEST(SuiteDoc, MergeRefusesOverlapMissingAndStrangers) {
  Suite s = four();
  auto all = ids(s);
  json a = shard_doc(s, 1, 2, {all[0], all[2]});
  json b = shard_doc(s, 2, 2, {all[1], all[3]});
  json partial = shard_doc(s, 2, 2, {all[1]});
  auto message = [](const std::vector<std::pair<std::string, json>>& docs) {
    try {
      merge_shards(docs);
    } catch (const Error& e) { return std::string(e.what()); }
    return std::string("no error");
  };
  EXPECT_NE(message({{"a.json", a}, {"a2.json", a}, {"b.json", b}}).find("is in both a.json and a2.json"),
            std::string::npos);
  EXPECT_NE(message({{"a.json", a}, {"p.json", partial}}).find("1 of 4 entries are in no shard: m.py:f[n=4]"),
            std::string::npos);
  json other = shard_doc(parse_suite("[[target]]\nspec = \"x\"\n", "t.toml"), 1, 1, {"x"});
  EXPECT_NE(message({{"a.json", a}, {"o.json", other}}).find("different suites"), std::string::npos);
  EXPECT_NE(message({{"a.json", a}, {"bench.json", json{{"command", "bench"}}}}).find("not a tct suite document"),
            std::string::npos);
  json listing = a;
  listing["suite"]["listing"] = true;
  EXPECT_NE(message({{"l.json", listing}, {"b.json", b}}).find("l.json is a --list output"), std::string::npos);
}

TEST(SuiteDoc, ResumeKeepsThisSharesEntriesAndRunsTheRest) {
  Suite s = four();
  auto all = ids(s);
  json previous = shard_doc(s, 1, 1, {all[0], all[1]});
  SuiteResult section = plan_suite(s, "s.toml", {1, 2}, assign_shards(all, 2), "");  // share: all[0], all[2]
  std::size_t dropped = 0;
  auto keep = resumable_entries(previous, section, dropped);
  ASSERT_EQ(keep.size(), 1u);
  EXPECT_EQ(keep[0].entry.id, all[0]);
  EXPECT_EQ(to_json(keep[0]), previous["suite"]["entries"][0]);  // kept as it was written
  EXPECT_EQ(dropped, 1u);
  for (auto& e : keep) record_entry(section, e);
  EXPECT_EQ(pending_ids(section), std::vector<std::string>{all[2]});
}

TEST(SuiteDoc, TheSectionReadsBackToTheSameValue) {
  // Every rendering, --resume, tct merge and tct compare read the section through
  // suite_from_json: what they read is what the run wrote.
  Suite s = four();
  auto all = ids(s);
  json doc = shard_doc(s, 2, 2, {all[1], all[3]});
  doc["suite"]["entries"][1] = to_json(record_from_json(entry(all[3], "failed", NAN, 0, 0, 5e9)));
  doc["suite"]["resumed"] = {{"from", "old.json"}, {"kept", 1}, {"dropped", 0}};
  doc["suite"]["shard"]["method"] = "cost";
  doc["suite"]["shard"]["costs_from"] = "costs.json";
  SuiteResult back = suite_from_json(doc["suite"]);
  back.summary = summarize(back.entries);
  doc["suite"]["summary"] = to_json(back.summary);
  EXPECT_EQ(to_json(back), doc["suite"]);
  ASSERT_TRUE(back.shard);
  EXPECT_EQ(back.shard->costs_from, "costs.json");
  EXPECT_EQ(back.entries[1].status, EntryStatus::Failed);
  EXPECT_EQ(back.entries[1].wall.count(), 5e9);
  json merged = merge_shards(
      {{"a.json", shard_doc(s, 1, 2, {all[0], all[2]})}, {"b.json", shard_doc(s, 2, 2, {all[1], all[3]})}});
  EXPECT_EQ(to_json(suite_from_json(merged["suite"])), merged["suite"]);
}

namespace {

// An entry as `tct suite` writes one, its sections taken from saved bench and explain documents
// (tests/e2e/fixtures/), its warnings and its error as given.
json full_entry(const std::string& id, const json& bench_doc, const json& explain_doc, json error) {
  json e = to_json(record_from_json(entry(id, error.is_null() ? "ok" : "failed", 1.2, 1.1, 1.3)));
  e["error"] = std::move(error);
  e["bench"] = bench_doc["bench"];
  e["explain"] = explain_doc.is_object() ? explain_doc["explain"] : json(nullptr);
  e["warnings"] = bench_doc.value("warnings", json::array());
  e["environment"] = bench_doc.value("environment", json::object());
  return e;
}

}  // namespace

TEST(SuiteDoc, EntriesWithTheirSectionsReadBackByteForByte) {
  // The entry's bench and explain read through bench's and explain's own readers, its warnings
  // through report's, its error kept with the fields it was written with: a resumed or merged
  // run writes every entry as the run that made it did.
  const auto benches = tct::testing::fixture_documents("bench");
  const auto explains = tct::testing::fixture_documents("explain");
  ASSERT_FALSE(benches.empty());
  ASSERT_FALSE(explains.empty());
  const std::vector<json> errors = {
      nullptr,
      // A bench outcome: no stage of its own.
      {{"kind", "output_mismatch"}, {"message", "m"}, {"hint", "h"}, {"exit_code", 1}},
      // A runner's error with the suite's step before its own stage.
      {{"kind", "compile_failed"}, {"message", "m"}, {"hint", ""}, {"stage", "bench: compile"}, {"exit_code", 3}},
      {{"kind", "internal"}, {"stage", "explain"}, {"exit_code", 4}, {"message", "internal error: x"}, {"hint", "h"}},
  };
  std::size_t k = 0;
  for (const auto& b : benches) {
    const json bench_doc = tct::testing::load_json(b);
    const json explain_doc = tct::testing::load_json(explains[k % explains.size()]);
    const json e =
        full_entry("e" + std::to_string(k), bench_doc, k % 2 ? json(nullptr) : explain_doc, errors[k % errors.size()]);
    ++k;
    const EntryRecord r = record_from_json(e);
    EXPECT_EQ(to_json(r).dump(), e.dump()) << b;
    EXPECT_EQ(r.bench.has_value(), e["bench"].is_object()) << b;
    EXPECT_EQ(r.warnings.size(), e["warnings"].size()) << b;
  }
  // A failed entry's error as its renderings and the summary read it.
  const EntryRecord failed = record_from_json(full_entry("f", tct::testing::load_json(benches[0]), nullptr, errors[2]));
  ASSERT_TRUE(failed.error);
  EXPECT_EQ(failed.error->stage, "bench: compile");
  EXPECT_EQ(failed.error->exit_code, 3);
  EXPECT_EQ(summarize({failed}).failures_by_kind.at("compile_failed"), 1);
}

TEST(SuiteDoc, MergedShardsKeepEveryEntryAsWritten) {
  Suite s = four();
  auto all = ids(s);
  const json bench_doc = tct::testing::load_json(tct::testing::fixture_documents("bench")[0]);
  const json explain_doc = tct::testing::load_json(tct::testing::fixture_documents("explain")[0]);
  auto shard = [&](int index, const std::vector<std::string>& run) {
    json doc = shard_doc(s, index, 2, {});
    SuiteResult suite = suite_from_json(doc["suite"]);
    for (const auto& id : run) record_entry(suite, record_from_json(full_entry(id, bench_doc, explain_doc, nullptr)));
    doc["suite"] = to_json(suite);
    return doc;
  };
  const json a = shard(1, {all[0], all[2]}), b = shard(2, {all[1], all[3]});
  const json merged = merge_shards({{"a.json", a}, {"b.json", b}});
  std::map<std::string, std::string> written;
  for (const json* d : {&a, &b})
    for (const auto& e : (*d)["suite"]["entries"]) written[e["id"]] = e.dump();
  ASSERT_EQ(merged["suite"]["entries"].size(), 4u);
  for (const auto& e : merged["suite"]["entries"]) EXPECT_EQ(e.dump(), written.at(e["id"])) << e["id"];
  // Each shard as its document said it, and the merged section reads back to itself.
  EXPECT_EQ(merged["suite"]["merged_from"][1]["shard"], b["suite"]["shard"]);
  EXPECT_EQ(merged["suite"]["merged_from"][1]["created"], "2026-01-01T00:00:00Z");
  EXPECT_EQ(to_json(suite_from_json(merged["suite"])).dump(), merged["suite"].dump());
  json unsharded = a;
  unsharded.erase("created");
  unsharded["suite"]["shard"] = nullptr;
  const json one = merge_shards({{"u.json", unsharded}, {"b.json", b}});
  EXPECT_TRUE(one["suite"]["merged_from"][0]["shard"].is_null());
  EXPECT_TRUE(one["suite"]["merged_from"][0]["created"].is_null());
}

TEST(SuiteDoc, OutcomeFailedBeforeMismatch) {
  SuiteResult section;
  section.entries = records(json::array({entry("a", "ok", 1, 1, 1), entry("b", "mismatch", 1, 1, 1)}));
  ASSERT_TRUE(suite_outcome(section));
  EXPECT_EQ(suite_outcome(section)->code(), ExitCode::CheckFailed);
  section.entries.push_back(record_from_json(entry("c", "failed", NAN, 0, 0)));
  EXPECT_EQ(suite_outcome(section)->code(), ExitCode::TargetFailed);
  SuiteResult passing;
  passing.entries = records(json::array({entry("a", "ok", 1, 1, 1)}));
  EXPECT_FALSE(suite_outcome(passing));
}

TEST(SuiteSummary, GeometricMeanCountsSlowdownsAsSlowdowns) {
  json entries = json::array({entry("a", "ok", 2.0, 1.9, 2.1), entry("b", "ok", 0.5, 0.45, 0.55),
                              entry("c", "failed", NAN, 0, 0), entry("d", "mismatch", 3.0, 2.9, 3.1)});
  json s = to_json(summarize(records(entries)));
  // sqrt(2 * 0.5) = 1: the slowdown cancels the speedup (clipping it to 1 would say 1.41x).
  EXPECT_NEAR(s["geomean_speedup"]["estimate"].get<double>(), 1.0, 1e-12);
  EXPECT_LT(s["geomean_speedup"]["low"].get<double>(), 1.0);
  EXPECT_GT(s["geomean_speedup"]["high"].get<double>(), 1.0);
  EXPECT_EQ(s["geomean_speedup"]["n"], 2);                            // only entries that passed
  EXPECT_EQ(s["geomean_speedup"]["verdict"], "no_clear_difference");  // decided here, read by every rendering
  EXPECT_EQ(s["ok"], 2);
  EXPECT_EQ(s["failed"], 1);
  EXPECT_EQ(s["mismatch"], 1);
  EXPECT_EQ(s["failures_by_kind"], (json{{"timeout", 1}, {"output_mismatch", 1}}));
  EXPECT_EQ(s["faster"], 2);
  EXPECT_EQ(s["slower"], 1);
  EXPECT_EQ(s["compile_ns_total"], 8e9);
  EXPECT_TRUE(to_json(summarize({}))["geomean_speedup"].is_null());
  // What the renderings read back is what summarize decided.
  const SuiteSummary back = summary_from_json(s);
  ASSERT_TRUE(back.geomean);
  EXPECT_EQ(back.geomean->verdict, tct::stats::SpeedupVerdict::NoClearDifference);
  EXPECT_EQ(back.no_clear_difference, 0);
  EXPECT_EQ(back.failures_by_kind.at("timeout"), 1);
  EXPECT_EQ(to_json(back), s);
}

TEST(SuiteSummary, EntryResultFromABenchSection) {
  json bench = {{"config", {{"check", true}}},
                {"rows", json::array({{{"speedup", {{"estimate", 1.5}, {"low", 1.2}, {"high", 1.8}}},
                                       {"compile", {{"cold_ns", nullptr}, {"first_call_ns", 3e9}}},
                                       {"break_even_calls", 120},
                                       {"graph_breaks", 2},
                                       {"correctness", {{"match", false}}}}})}};
  json r = to_json(entry_result(tct::bench::from_json(bench), nullptr));
  // The entry's "result" reads back to the same value (the renderings and compare read it so).
  EXPECT_EQ(to_json(entry_result_from_json(r)), r);
  EXPECT_EQ(r["verdict"], "faster");
  EXPECT_EQ(r["compile_ns"], 3e9);
  EXPECT_EQ(r["compile_source"], "first_call");
  EXPECT_EQ(r["graph_breaks"], 2);
  EXPECT_EQ(r["check"], "mismatch");
  EXPECT_EQ(entry_result(tct::bench::from_json(bench_with({{"estimate", 0.9}, {"low", 0.8}, {"high", 1.1}})), nullptr)
                .verdict,
            tct::stats::SpeedupVerdict::NoClearDifference);
  EXPECT_EQ(entry_result(tct::bench::from_json(bench_with({{"estimate", 0.9}, {"low", 0.8}, {"high", 0.95}})), nullptr)
                .verdict,
            tct::stats::SpeedupVerdict::Slower);
  EXPECT_EQ(entry_result(tct::bench::BenchResult{}, nullptr).verdict, tct::stats::SpeedupVerdict::NotMeasured);
  // --no-check: the settings say so; an older config without the flag was checked.
  bench["rows"][0].erase("correctness");
  bench["config"]["check"] = false;
  EXPECT_EQ(entry_result(tct::bench::from_json(bench), nullptr).check, "not_checked");
  bench["config"].erase("check");
  EXPECT_EQ(entry_result(tct::bench::from_json(bench), nullptr).check, "");
}

TEST(LogInterval, GeometricMeanAndRatio) {
  using stats::Interval;
  // One item: its own interval back.
  auto one = stats::geometric_mean({{2.0, 1.5, 3.0}});
  EXPECT_NEAR(one.estimate, 2.0, 1e-12);
  EXPECT_NEAR(one.low, 1.5, 1e-12);
  EXPECT_NEAR(one.high, 3.0, 1e-12);
  // n equal, independent items: the log half-width shrinks by sqrt(n).
  auto four_items = stats::geometric_mean(std::vector<Interval>(4, Interval{2.0, 1.0, 4.0}));
  EXPECT_NEAR(four_items.low, 2.0 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(four_items.high, 2.0 * std::sqrt(2.0), 1e-12);
  EXPECT_TRUE(std::isnan(stats::geometric_mean({{2.0, NAN, NAN}}).low));
  EXPECT_TRUE(std::isnan(stats::geometric_mean({}).estimate));
  // Ratio: independent log-errors add in quadrature.
  auto r = stats::ratio({1.0, 0.5, 2.0}, {1.0, 0.5, 2.0});
  EXPECT_NEAR(r.estimate, 1.0, 1e-12);
  EXPECT_NEAR(std::log(r.high), std::sqrt(2.0) * std::log(2.0), 1e-12);
  EXPECT_NEAR(std::log(r.low), -std::sqrt(2.0) * std::log(2.0), 1e-12);
}
