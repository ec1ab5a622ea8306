// --allocator: the states and their child environment, finding the libraries, and the
// decision whether the allocator moves bench's answer (canned figures, no agent).
#include <gtest/gtest.h>

#include <set>

#include "bench/allocator_finding.hpp"
#include "core/allocator.hpp"
#include "errors.hpp"
#include "bench/allocator_rows.hpp"
#include "bench/allocator.hpp"
#include "bench/json.hpp"
#include "suite/settings.hpp"
#include "suite/json.hpp"
#include "suite/summary.hpp"
#include "fixture_documents.hpp"

using namespace tct;
using core::AllocatorState;
using json = nlohmann::json;

namespace {

const std::string kTc = "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4";
const std::string kJe = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";

core::FileExists only(std::set<std::string> files) {
  return [files](const std::string& p) { return files.count(p) > 0; };
}

bench::AllocatorStateEntry state(const std::string& name, const std::string& status, double eager_ns,
                                 double compiled_ns, double est, double lo, double hi,
                                 const std::string& library = "") {
  bench::AllocatorFigures f;
  f.eager_ns = eager_ns;
  f.compiled_ns = compiled_ns;
  f.speedup = bench::AllocatorSpeedup{est, lo, hi};
  return {name,
          "",
          *bench::parse_allocator_state_status(status),
          library.empty() ? std::nullopt : std::optional<std::string>(library),
          std::nullopt,
          f};
}

bench::AllocatorStateEntry skipped(const std::string& name, const std::string& reason) {
  return {name, "", bench::AllocatorStateStatus::Skipped, std::nullopt, reason, std::nullopt};
}

bench::AllocatorComparison comparison(const std::string& headline, std::vector<bench::AllocatorStateEntry> states) {
  bench::AllocatorComparison a;
  a.state = headline;
  a.states = std::move(states);
  return a;
}

bench::Speedup speedup(double est, double lo, double hi, std::vector<double> per_process = {},
                       double segment_spread = 0.02) {
  bench::Speedup h;
  h.interval = {est, lo, hi};
  h.per_process.emplace();
  for (double s : per_process)
    h.per_process->push_back({0, s, {s * (1 - segment_spread), s, s * (1 + segment_spread)}});
  return h;
}

}  // namespace

TEST(Allocator, ParsesTheFourStatesAndRefusesOthers) {
  for (auto s : core::all_allocator_states()) EXPECT_EQ(core::parse_allocator(core::to_string(s)), s);
  try {
    core::parse_allocator("bogus");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos);
  }
}

TEST(Allocator, FindsDebianLibrariesByKnownNames) {
  EXPECT_EQ(core::find_allocator_library(AllocatorState::Tcmalloc, only({kTc, kJe})), kTc);
  EXPECT_EQ(core::find_allocator_library(AllocatorState::Jemalloc, only({kTc, kJe})), kJe);
  EXPECT_FALSE(core::find_allocator_library(AllocatorState::Jemalloc, only({kTc})));
  EXPECT_FALSE(core::find_allocator_library(AllocatorState::System, only({kTc, kJe})));  // needs none
  // The full tcmalloc serves when the minimal one is absent.
  EXPECT_EQ(core::find_allocator_library(AllocatorState::Tcmalloc, only({"/usr/lib64/libtcmalloc.so.4"})),
            "/usr/lib64/libtcmalloc.so.4");
}

TEST(Allocator, ChildEnvironmentAndFix) {
  using Env = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(core::allocator_env(AllocatorState::System, ""), (Env{{"TCT_SETTLE_ALLOCATOR", "0"}}));
  EXPECT_EQ(core::allocator_env(AllocatorState::Settled, ""), (Env{{"TCT_SETTLE_ALLOCATOR", "1"}}));
  EXPECT_EQ(core::allocator_env(AllocatorState::Tcmalloc, kTc),
            (Env{{"TCT_SETTLE_ALLOCATOR", "0"}, {"LD_PRELOAD", kTc}}));
  EXPECT_EQ(core::allocator_fix(AllocatorState::Tcmalloc, kTc), "LD_PRELOAD=" + kTc);
  EXPECT_EQ(core::allocator_fix(AllocatorState::Settled, ""),
            "MALLOC_MMAP_THRESHOLD_=31457280 MALLOC_TRIM_THRESHOLD_=62914560");
  EXPECT_EQ(core::allocator_fix(AllocatorState::System, ""), "");
}

TEST(Allocator, ResolveRefusesAMissingLibraryAndSkipsAbsentStates) {
  bench::BenchConfig cfg;
  cfg.allocator = "jemalloc";
  try {
    bench::resolve_allocator(cfg, only({kTc}));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(e.hint().find("libjemalloc2"), std::string::npos);
  }
  cfg.allocator = "system";
  auto setup = bench::resolve_allocator(cfg, only({kTc}));
  EXPECT_EQ(setup.state, AllocatorState::System);
  EXPECT_EQ(setup.others, (std::vector<AllocatorState>{AllocatorState::Settled, AllocatorState::Tcmalloc}));
  ASSERT_EQ(setup.skipped.size(), 1u);
  EXPECT_EQ(setup.skipped[0].state, "jemalloc");
  EXPECT_EQ(setup.skipped[0].status, bench::AllocatorStateStatus::Skipped);
  EXPECT_FALSE(setup.skipped[0].figures);
  cfg.allocator = "tcmalloc";
  setup = bench::resolve_allocator(cfg, only({kTc, kJe}));
  EXPECT_EQ(setup.library, kTc);
  EXPECT_EQ(setup.others.size(), 3u);
}

// The agent's allocator facts as bench decodes them where they arrive (bench/reply.hpp).
static std::optional<bench::reply::Allocator> facts(const json& j) {
  std::optional<bench::reply::Allocator> out;
  core::fields::decode(j, out);
  return out;
}
static bench::DetectedAllocator detected(const json& j) { return bench::detected_allocator(facts(j)); }

TEST(Allocator, DetectedFromTheAgentsFacts) {
  json tc = {{"mapped", {{{"kind", "tcmalloc"}, {"path", kTc}}}}, {"maps_readable", true}, {"settled", false}};
  EXPECT_EQ(detected(tc).kind, "tcmalloc");
  EXPECT_EQ(detected(tc).library, kTc);
  EXPECT_EQ(detected(tc).settled, false);
  json glibc = {{"mapped", json::array()}, {"maps_readable", true}, {"settled", true}};
  EXPECT_EQ(detected(glibc).kind, "glibc");
  EXPECT_FALSE(detected(glibc).library);
  EXPECT_EQ(detected(json()).kind, "unknown");
  EXPECT_EQ(detected(json{{"mapped", json::array()}, {"maps_readable", false}}).kind, "unknown");
}

// The issue's resnet18 figures: the headline (system) at 0.38x, the others at 0.60-0.68x.
TEST(AllocatorFinding, StatesOutsideTheIntervalMakeAFindingNamingTheFastest) {
  auto a = comparison("system", {state("system", "headline", 6.0e6, 15.5e6, 0.38, 0.35, 0.41),
                                 state("settled", "measured", 7.0e6, 10.5e6, 0.67, 0.62, 0.72),
                                 state("tcmalloc", "measured", 5.9e6, 8.5e6, 0.68, 0.63, 0.73, kTc),
                                 state("jemalloc", "measured", 13.5e6, 22.2e6, 0.60, 0.55, 0.65, kJe)});
  auto f = bench::find_allocator_effect(a, speedup(0.38, 0.35, 0.41, {0.38, 0.39}));
  EXPECT_TRUE(f.differs);
  EXPECT_FALSE(f.processes_disagree);
  EXPECT_EQ(f.best_state, "tcmalloc");
  ASSERT_TRUE(f.warning);
  const json w = report::to_json(*f.warning);
  const std::string msg = w["message"], hint = w["hint"];
  EXPECT_EQ(w["code"], "allocator_moves_result");
  EXPECT_NE(msg.find("0.38x system"), std::string::npos) << msg;
  EXPECT_NE(msg.find("0.68x tcmalloc"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(2.6x)"), std::string::npos) << msg;  // 22.2 ms / 8.5 ms
  EXPECT_NE(hint.find("LD_PRELOAD=" + kTc), std::string::npos) << hint;
  EXPECT_NE(hint.find("--allocator tcmalloc"), std::string::npos) << hint;
}

TEST(AllocatorFinding, NoFindingWhenEveryStateIsInsideTheInterval) {
  auto a = comparison("system", {state("system", "headline", 1e6, 0.5e6, 2.0, 1.9, 2.1),
                                 state("settled", "measured", 1e6, 0.5e6, 2.05, 1.95, 2.15),
                                 state("tcmalloc", "measured", 1e6, 0.52e6, 1.92, 1.8, 2.0, kTc),
                                 skipped("jemalloc", "not installed")});
  auto f = bench::find_allocator_effect(a, speedup(2.0, 1.9, 2.1, {2.0, 2.02}));
  EXPECT_FALSE(f.differs);
  EXPECT_FALSE(f.warning);
  EXPECT_EQ(f.best_state, "system");
}

// A state's estimate just outside the headline's interval, but its own (short) interval
// reaches it: the comparison's own noise, not a finding.
TEST(AllocatorFinding, OverlappingIntervalsAreNotAFinding) {
  auto a = comparison("system", {state("system", "headline", 1e6, 0.5e6, 2.0, 1.9, 2.1),
                                 state("settled", "measured", 1e6, 0.45e6, 2.2, 2.0, 2.4)});
  EXPECT_FALSE(bench::find_allocator_effect(a, speedup(2.0, 1.9, 2.1)).differs);
  a.states[1].figures->speedup->low = 2.15;
  EXPECT_TRUE(bench::find_allocator_effect(a, speedup(2.0, 1.9, 2.1)).differs);
}

// The rmsnorm case: the headline's two processes landed in different glibc states.
TEST(AllocatorFinding, ProcessesThatDisagreeAreReported) {
  auto a = comparison("system", {state("system", "headline", 3e6, 1e6, 1.5, 0.4, 6.0),
                                 state("settled", "measured", 0.5e6, 0.4e6, 1.25, 1.2, 1.3)});
  auto f = bench::find_allocator_effect(a, speedup(1.5, 0.4, 6.0, {0.5, 4.0}));
  EXPECT_FALSE(f.differs);  // 1.25 is inside [0.4, 6.0]
  EXPECT_TRUE(f.processes_disagree);
  ASSERT_TRUE(f.warning);
  EXPECT_NE(report::message_of(*f.warning).find("processes disagreed (0.50x, 4.00x)"), std::string::npos);
  EXPECT_NE(report::hint_of(*f.warning).find("--allocator settled"), std::string::npos);
  // The same two figures from processes whose segments wander over both: load, not two states.
  EXPECT_FALSE(bench::find_allocator_effect(a, speedup(1.5, 0.4, 6.0, {0.5, 4.0}, 0.9)).processes_disagree);
}

TEST(AllocatorFinding, NothingWithoutAHeadline) {
  EXPECT_FALSE(bench::find_allocator_effect(bench::AllocatorComparison{}, bench::Speedup{}).warning);
  auto a = comparison("system", {state("tcmalloc", "measured", 1, 1, 1, 1, 1)});
  EXPECT_FALSE(bench::find_allocator_effect(a, speedup(1, 1, 1)).warning);
}

TEST(AllocatorRows, OneRowPerStateHeadlineFirst) {
  std::optional<bench::AllocatorComparison> a =
      comparison("system", {state("system", "headline", 6.0e6, 15.5e6, 0.38, 0.35, 0.41),
                            state("tcmalloc", "measured", 5.9e6, 8.5e6, 0.68, 0.63, 0.73, kTc),
                            skipped("jemalloc", "not installed")});
  a->detected.kind = "glibc";
  a->best_state = "tcmalloc";
  a->compare = {true, std::nullopt, 1.0, std::nullopt};
  EXPECT_EQ(report::allocator_state_label(a), "system (glibc)");
  EXPECT_EQ(report::allocator_state_label(std::nullopt), "");
  auto t = report::allocator_table(a);
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0][0], "system (headline)");
  EXPECT_EQ(t.rows[1][0], "tcmalloc fastest");
  EXPECT_EQ(t.rows[1][3], "0.68x [0.63, 0.73]");
  EXPECT_EQ(t.rows[2][4], "skipped: not installed");
  EXPECT_FALSE(t.note.empty());
}

// A suite entry carries the same names as bench's flags.
TEST(AllocatorSuite, SettingsReachTheBenchConfig) {
  auto cfg =
      suite::bench_config("builtin:mlp", json::object(), {{"allocator", "tcmalloc"}, {"no-allocator-compare", true}});
  EXPECT_EQ(cfg.allocator, "tcmalloc");
  EXPECT_FALSE(cfg.allocator_compare);
  EXPECT_EQ(suite::bench_config("builtin:mlp", json::object(), json::object()).allocator, "settled");  // the default
  EXPECT_THROW(suite::check_setting("allocator", "bogus", "suite.toml"), Error);
  EXPECT_EQ(suite::check_setting("allocator", "settled", "suite.toml"), "settled");
}

TEST(AllocatorSuite, EntryResultNamesTheStateAndTheFastestWhenMoved) {
  json bench = {{"rows", json::array()},
                {"allocator",
                 {{"state", "system"}, {"differs", true}, {"processes_disagree", false}, {"best_state", "tcmalloc"}}}};
  json r = suite::to_json(suite::entry_result(tct::bench::from_json(bench), nullptr));
  EXPECT_EQ(r["allocator"], "system");
  EXPECT_EQ(r["allocator_best"], "tcmalloc");
  bench["allocator"]["differs"] = false;
  EXPECT_TRUE(suite::entry_result(tct::bench::from_json(bench), nullptr).allocator_best.empty());
  EXPECT_TRUE(suite::to_json(suite::entry_result(tct::bench::BenchResult{}, nullptr))["allocator"].is_null());
}

// Each saved document's section["allocator"] reads back to the same bytes (dump: json's ==
// holds 4 and 4.0 equal; the document's bytes do not).
TEST(AllocatorJson, FixtureSectionsRoundTripByteForByte) {
  int seen = 0;
  for (const auto& p : tct::testing::fixture_documents("bench")) {
    const json doc = tct::testing::load_json(p);
    if (!doc.contains("bench") || !doc["bench"].contains("allocator")) continue;
    const json& a = doc["bench"]["allocator"];
    EXPECT_EQ(bench::to_json(bench::allocator_from_json(a)).dump(2), a.dump(2)) << p;
    ++seen;
  }
  EXPECT_GE(seen, 4);
}

// The states a fixture has none of: one left out (no figures' keys at all) and one failed in
// its process (figures all null), as the runner writes them.
TEST(AllocatorJson, SkippedAndFailedStatesRoundTrip) {
  bench::BenchConfig cfg;
  cfg.allocator = "system";
  const auto setup = bench::resolve_allocator(cfg, only({kTc}));
  auto a = bench::allocator_section(
      setup, facts({{"mapped", json::array()}, {"maps_readable", true}, {"settled", false}}), true, "", 0.25);
  a.states.push_back({"tcmalloc", core::describe(AllocatorState::Tcmalloc), bench::AllocatorStateStatus::Failed, kTc,
                      "the agent died", bench::AllocatorFigures{}});
  const json written = bench::to_json(a);
  const json expected = {
      {"state", "system"},
      {"description", core::describe(AllocatorState::System)},
      {"library", nullptr},
      {"ld_preload", nullptr},
      {"settled", false},
      {"detected", {{"kind", "glibc"}, {"library", nullptr}, {"settled", false}, {"ld_preload", nullptr}}},
      {"compare", {{"enabled", true}, {"skipped_reason", nullptr}, {"budget_s", 0.25}, {"row", nullptr}}},
      {"states",
       {{{"state", "jemalloc"},
         {"description", core::describe(AllocatorState::Jemalloc)},
         {"status", "skipped"},
         {"library", nullptr},
         {"reason", written["states"][0]["reason"]}},
        {{"state", "tcmalloc"},
         {"description", core::describe(AllocatorState::Tcmalloc)},
         {"status", "failed"},
         {"library", kTc},
         {"reason", "the agent died"},
         {"detected", nullptr},
         {"eager_ns", nullptr},
         {"compiled_ns", nullptr},
         {"speedup", nullptr},
         {"blocks", 0},
         {"sampling_s", nullptr}}}},
      {"differs", nullptr},
      {"processes_disagree", nullptr},
      {"best_state", nullptr}};
  EXPECT_EQ(written.dump(2), expected.dump(2));
  EXPECT_NE(written["states"][0]["reason"].get<std::string>().find("not installed"), std::string::npos);
  EXPECT_EQ(bench::to_json(bench::allocator_from_json(written)).dump(), written.dump());
}

// The headline's entry comes from the first row, and the conclusion sorts the states (the
// headline first, those left out last) and records the decision.
TEST(AllocatorJson, HeadlineEntryAndConclusion) {
  bench::BenchConfig cfg;
  cfg.allocator = "settled";
  const auto setup = bench::resolve_allocator(cfg, only({kTc}));
  auto a =
      bench::allocator_section(setup, facts({{"mapped", json::array()}, {"maps_readable", true}, {"settled", true}}),
                               false, "--no-allocator-compare", 0);
  bench::BenchRow row;
  row.label = "inductor";
  row.latency = bench::Latency{};
  row.latency->eager_ns.median = 2e6;
  row.latency->compiled_ns.median = 1e6;
  row.speedup = bench::Speedup{{2.0, 1.9, 2.1}, bench::SpeedupVerdict::Faster, 2, 0.95};
  row.blocks = 12;
  bench::add_headline_state(a, row);
  EXPECT_FALSE(bench::conclude_allocator(a, &row));
  const json w = bench::to_json(a);
  EXPECT_EQ(w["compare"]["row"], "inductor");
  EXPECT_TRUE(w["compare"]["budget_s"].is_null());
  ASSERT_EQ(w["states"].size(), 2u);
  EXPECT_EQ(w["states"][0]["status"], "headline");
  EXPECT_EQ(w["states"][0]["detected"], "glibc");
  EXPECT_EQ(w["states"][0]["speedup"].dump(), R"({"confidence":0.95,"estimate":2.0,"high":2.1,"low":1.9})");
  EXPECT_EQ(w["states"][0]["eager_ns"].dump(), "2000000.0");
  EXPECT_TRUE(w["states"][0]["sampling_s"].is_null());
  EXPECT_EQ(w["states"][1]["status"], "skipped");
  EXPECT_EQ(w["differs"], false);
  EXPECT_EQ(w["best_state"], "settled");
}
