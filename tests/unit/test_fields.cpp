// Each shape declared once (core/fields.hpp): a described struct's JSON comes from its field
// list with the document's conventions, reads back to the same value, reads past what it does
// not know, and its list is the contract that schema/ and node/index.d.ts are held to here.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "audit/json_fields.hpp"
#include "bench/json_fields.hpp"
#include "compare/json_fields.hpp"
#include "expect/json_fields.hpp"
#include "explain/json_fields.hpp"
#include "job/json_fields.hpp"
#include "probe/json_fields.hpp"
#include "run/json_fields.hpp"
#include "startup/json_fields.hpp"
#include "suite/json_fields.hpp"
#include "trace/json_fields.hpp"
#include "core/fields.hpp"

using namespace tct;
using json = nlohmann::json;

namespace {

std::filesystem::path source(const std::string& rel) { return std::filesystem::path(TCT_SOURCE_DIR) / rel; }

json read_schema(const std::string& name) {
  std::ifstream f(source("schema/" + name));
  return json::parse(f);
}

// The properties a schema node gives an object: its own, its allOf's and the object branch of a
// oneOf/anyOf, following $ref into schema/'s other files.
std::set<std::string> schema_props(const json& node, const std::string& file) {
  std::set<std::string> out;
  if (!node.is_object()) return out;
  if (node.contains("$ref")) {
    const std::string ref = node["$ref"];
    const auto hash = ref.find('#');
    const std::string other = hash == 0 ? file : ref.substr(0, hash);
    const json doc = read_schema(other);
    return schema_props(doc.at(json::json_pointer(ref.substr(hash + 1))), other);
  }
  if (node.contains("properties"))
    for (const auto& [k, v] : node["properties"].items()) out.insert(k);
  for (const char* key : {"allOf", "oneOf", "anyOf"})
    if (node.contains(key))
      for (const auto& branch : node[key]) out.merge(schema_props(branch, file));
  return out;
}

template <class T>
std::set<std::string> declared() {
  std::set<std::string> out;
  for (auto n : core::fields::names_of<T>()) out.emplace(n);
  return out;
}

std::set<std::string> keys(const json& properties) {
  std::set<std::string> out;
  for (const auto& [k, v] : properties.items()) out.insert(k);
  return out;
}

// The members of `export interface NAME { ... }` in node/index.d.ts (one level: a member's
// own braces are skipped).
std::set<std::string> ts_members(const std::string& name) {
  std::ifstream f(source("node/index.d.ts"));
  std::stringstream all;
  all << f.rdbuf();
  const std::string text = all.str();
  const std::regex head_re("export interface " + name + R"((?: extends ([A-Za-z, ]+))? \{)");
  std::smatch head_m;
  std::set<std::string> out;
  if (!std::regex_search(text, head_m, head_re)) {
    ADD_FAILURE() << name << " is not in node/index.d.ts";
    return out;
  }
  // The members an interface extends are its own too.
  std::stringstream bases(head_m[1].str());
  for (std::string base; std::getline(bases, base, ',');) {
    base.erase(0, base.find_first_not_of(' '));
    if (!base.empty() && base != "Document") out.merge(ts_members(base));
  }
  const auto at = static_cast<std::size_t>(head_m.position(0));
  const std::string head = head_m[0].str();
  int depth = 0;
  std::string line;
  std::istringstream body(text.substr(at + head.size()));
  while (std::getline(body, line) && depth >= 0) {
    static const std::regex member(R"(^\s*([a-z_][a-z_0-9]*)\??:)");
    std::smatch m;
    if (depth == 0 && std::regex_search(line, m, member)) out.insert(m[1]);
    for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
  }
  return out;
}

}  // namespace

TEST(Fields, WriteSpellsTheDocumentsConventions) {
  compare::Side side{"a.json", "", "2026-12-04", "", "builtin:mlp"};
  json j = core::fields::write(side);
  EXPECT_EQ(j["path"], "a.json");
  EXPECT_TRUE(j["command"].is_null());  // an empty "not known" string is null
  EXPECT_TRUE(j["torch"].is_null());
  EXPECT_EQ(j["created"], "2026-12-04");

  compare::Item item;
  item.id = "gpt2";
  item.change = compare::Change::NewMismatch;
  item.ratio = {0.9, NAN, 1.1};
  json i = core::fields::write(item);
  EXPECT_EQ(i["change"], "new_mismatch");
  EXPECT_TRUE(i["ratio"]["low"].is_null());  // NaN is null
  EXPECT_EQ(i["ratio"]["confidence"], 0.95);
  EXPECT_TRUE(i["baseline"].is_null());  // no entry
}

TEST(Fields, ReadGivesBackWhatWasWrittenAndReadsPastTheRest) {
  compare::Item item;
  item.id = "bert";
  item.change = compare::Change::Regression;
  item.gate_failed = true;
  item.ratio = {0.8, 0.7, 0.9};
  json j = core::fields::write(item);
  j["added_by_a_newer_version"] = {1, 2, 3};
  auto back = core::fields::read_as<compare::Item>(j);
  EXPECT_EQ(back.id, "bert");
  EXPECT_EQ(back.change, compare::Change::Regression);
  EXPECT_TRUE(back.gate_failed);
  EXPECT_DOUBLE_EQ(back.ratio.low, 0.7);
  EXPECT_EQ(core::fields::write(back), core::fields::write(item));
}

TEST(Fields, AMissingOrMistypedFieldKeepsItsInitializer) {
  auto item = core::fields::read_as<compare::Item>(json{{"id", 7}, {"change", "no_such_change"}});
  EXPECT_EQ(item.id, "");
  EXPECT_EQ(item.change, compare::Item{}.change);
  EXPECT_FALSE(item.gate_failed);
  auto side = core::fields::read_as<compare::Side>(json::array());
  EXPECT_EQ(side.path, "");
}

// The contract: every field a declaration lists is in the schema and in index.d.ts, and
// nothing else is.
TEST(Fields, SchemaAndTypeScriptHoldTheDeclaredFields) {
  const json cmp = read_schema("compare.schema.json");
  EXPECT_EQ(keys(cmp["$defs"]["side"]["properties"]), declared<compare::Side>());
  EXPECT_EQ(keys(cmp["properties"]["items"]["items"]["properties"]), declared<compare::Item>());
  EXPECT_EQ(ts_members("CompareSide"), declared<compare::Side>());
  EXPECT_EQ(ts_members("CompareItem"), declared<compare::Item>());

  std::set<std::string> schema_changes, declared_changes;
  for (const auto& v : cmp["properties"]["items"]["items"]["properties"]["change"]["enum"]) schema_changes.insert(v);
  for (auto n : compare::kChangeNames) declared_changes.emplace(n);
  EXPECT_EQ(schema_changes, declared_changes);
}

// "lacks: a, b; has besides: c" for two sets of names that differ (gtest cuts a long set).
std::string difference(const std::set<std::string>& have, const std::set<std::string>& want) {
  std::string lacks, extra;
  for (const auto& n : want)
    if (!have.count(n)) lacks += " " + n;
  for (const auto& n : have)
    if (!want.count(n)) extra += " " + n;
  return "lacks:" + lacks + "; has besides:" + extra;
}

// Each described type, its object in schema/ (a JSON pointer; a oneOf's object branch and an
// allOf's parts count) and its interface in node/index.d.ts: the three name the same fields, so a
// field the declaration lacks fails as one the schema or the interface lacks does.
template <class T>
void holds(const char* file, const std::string& pointer, const char* ts) {
  const json doc = read_schema(file);
  const json::json_pointer at(pointer);
  EXPECT_TRUE(doc.contains(at)) << file << pointer;
  const auto schema = schema_props(doc.contains(at) ? doc[at] : json(), file), members = ts_members(ts);
  EXPECT_TRUE(schema == declared<T>()) << "schema " << file << pointer << " " << difference(schema, declared<T>());
  EXPECT_TRUE(members == declared<T>()) << "ts " << ts << " " << difference(members, declared<T>());
}

TEST(Fields, EveryDeclaredTypeIsItsSchemaAndItsInterface) {
  using namespace bench;
  const char* b = "bench.schema.json";
  holds<BenchResult>(b, "", "BenchSection");
  holds<Settings>(b, "/properties/config", "BenchConfig");
  holds<Clock>(b, "/properties/clock", "BenchClock");
  holds<EagerBaseline>(b, "/properties/eager", "BenchEager");
  holds<MemoryReading>(b, "/properties/eager/oneOf/1/properties/memory", "BenchMemoryReading");
  holds<AllocatorComparison>(b, "/properties/allocator", "AllocatorSection");
  holds<DetectedAllocator>(b, "/properties/allocator/properties/detected", "DetectedAllocator");
  holds<AllocatorComparePlan>(b, "/properties/allocator/properties/compare", "AllocatorComparePlan");
  holds<AllocatorStateEntry>(b, "/properties/allocator/properties/states/items", "AllocatorStateFigures");
  holds<AllocatorSpeedup>(b, "/properties/allocator/properties/states/items/properties/speedup", "AllocatorSpeedup");
  const std::string row = "/$defs/row/properties/";
  holds<BenchRow>(b, "/$defs/row", "BenchRow");
  holds<RowError>(b, (row + "error"), "DocError");
  holds<Speedup>(b, (row + "speedup"), "Speedup");
  holds<ProcessSpeedup>(b, (row + "speedup/oneOf/1/properties/per_process/items"), "ProcessSpeedup");
  holds<Latency>(b, (row + "latency"), "BenchLatency");
  holds<SteadyState>(b, (row + "steady_state"), "BenchSteadyState");
  holds<Compile>(b, (row + "compile"), "BenchCompile");
  holds<CompileSpread>(b, (row + "compile/properties/cold"), "CompileSpread");
  holds<CacheCounters>(b, (row + "compile/properties/warm_cache"), "CacheCounters");
  holds<BreakEven>(b, (row + "break_even"), "BreakEven");
  holds<CallRange>(b, (row + "break_even/properties/cold"), "CallRange");
  holds<Memory>(b, (row + "memory"), "BenchMemory");
  holds<Correctness>(b, (row + "correctness"), "Correctness");
  const std::string c = row + "correctness/oneOf/1/properties/";
  holds<Mismatch>(b, (c + "mismatches/items"), "Mismatch");
  holds<NotCompared>(b, (c + "not_compared/items"), "NotCompared");
  holds<LeafCheck>(b, (c + "leaf_results/items"), "LeafCheck");
  holds<LeafReference>(b, (c + "leaf_results/items/properties/reference"), "LeafReference");
  holds<ReferenceRun>(b, (c + "reference"), "ReferenceRun");
  holds<CheckCosts>(b, (c + "agent_cost_ns"), "CheckCosts");
  holds<Flag>(b, (row + "flags/items"), "RowFlag");
  holds<GraphBreakReason>(b, (row + "graph_break_reasons/items"), "GraphBreakReason");
  holds<OutlierCount>(b, (row + "outliers/properties/eager"), "OutlierCount");
  holds<Load>(b, (row + "load"), "MachineLoad");
  holds<BenchRow::RawSamples>(b, (row + "samples"), "RawSamples");
  holds<Aoti>(b, (row + "aoti"), "AotiFacts");
}

TEST(Fields, EveryExpectTypeIsItsSchemaAndItsInterface) {
  using namespace expect;
  const char* e = "expect.schema.json";
  holds<ExpectResult>(e, "", "ExpectSection");
  holds<Reason>(e, "/properties/decided_by/items", "ExpectReason");
  holds<Suggestion>(e, "/properties/suggestions/items", "ExpectSuggestion");
  holds<Roofline>(e, "/properties/roofline", "ExpectRoofline");
  holds<TimeShares>(e, "/properties/time_shares", "ExpectTimeShares");
  holds<ProfileSummary>(e, "/properties/profile", "ExpectProfile");
  holds<TopOp>(e, "/properties/profile/properties/top_ops/items", "ExpectTopOp");
  holds<CompiledRunSummary>(e, "/properties/compiled_run", "ExpectCompiledRun");
  holds<Sweep>(e, "/properties/sweep", "ExpectSweep");
  holds<ClassChange>(e, "/properties/sweep/oneOf/1/properties/class_changes/items", "ExpectClassChange");
  holds<SweepPoint>(e, "/$defs/point", "ExpectSweepPoint");
  holds<SpeedupRange>(e, "/$defs/range", "ExpectRange");
  holds<Validation>(e, "/$defs/validation", "ExpectValidation");
  holds<MeasuredSpeedup>(e, "/$defs/validation/properties/measured", "ExpectMeasured");
  holds<Prediction>(e, "/$defs/prediction", "ExpectPrediction");
  holds<Term>(e, "/$defs/prediction/properties/terms/items", "ExpectTerm");
  holds<Shift>(e, "/$defs/prediction/properties/shifts/items", "ExpectShift");
  holds<IntervalModel>(e, "/$defs/prediction/properties/interval", "ExpectIntervalModel");
}

TEST(Fields, EveryTraceTypeIsItsSchemaAndItsInterface) {
  using namespace trace;
  const char* t = "trace.schema.json";
  const std::string rank = "/$defs/rank/properties/";
  holds<TraceResult>(t, "", "TraceSection");
  holds<Divergence>(t, "/properties/divergence/items", "TraceDivergence");
  holds<Divergence>(t, "/properties/cache_notes/items", "TraceDivergence");
  holds<FirstDifference>(t, "/properties/divergence/items/properties/first_difference", "TraceFirstDifference");
  holds<Rank>(t, "/$defs/rank", "TraceRank");
  holds<Compile>(t, rank + "compiles/items", "TraceCompile");
  holds<BreakGroup>(t, rank + "graph_breaks/items", "TraceBreakGroup");
  holds<Recompile>(t, rank + "recompiles/items", "TraceRecompile");
  holds<RecompileGroup>(t, rank + "recompile_groups/items", "TraceRecompileGroup");
  holds<SkippedFrame>(t, rank + "skipped_frames/items", "TraceSkippedFrame");
  holds<Failure>(t, rank + "failures/items", "TraceFailure");
  holds<Restart>(t, rank + "restarts/items", "TraceRestart");
  holds<CompileWithoutId>(t, rank + "compiles_without_id/items", "TraceCompileWithoutId");
  holds<ReadStats>(t, rank + "read", "TraceReadStats");
  holds<Spot>(t, rank + "read/properties/damaged_at/items", "TraceSpot");
}

TEST(Fields, EveryJobTypeIsItsSchemaAndItsInterface) {
  using namespace job;
  const char* j = "job.schema.json";
  holds<JobResult>(j, "", "JobSection");
  holds<Crossing>(j, "/properties/crossings/items", "JobCrossing");
  holds<SiteRun>(j, "/$defs/site_run", "JobSiteRun");
  holds<RunFigures>(j, "/$defs/run", "JobRun");
  holds<ModeResult>(j, "/$defs/mode", "JobModeResult");
  holds<OutputCheck>(j, "/$defs/mode/properties/output", "JobOutputCheck");
  holds<SiteSummary>(j, "/$defs/mode/properties/sites/items", "JobSiteSummary");
  holds<Decision>(j, "/$defs/decision", "JobDecision");
  holds<Comparison>(j, "/$defs/decision/properties/others/items", "JobComparison");
  holds<AotiBuild>(j, "/$defs/aoti_build", "JobAotiBuild");
  holds<AotiSite>(j, "/$defs/aoti_site", "JobAotiSite");
  holds<AotiDim>(j, "/$defs/aoti_dim", "JobAotiDim");
  holds<AotiAt>(j, "/$defs/aoti_at", "JobAotiAt");
  holds<AotiCheck>(j, "/$defs/aoti_check", "JobAotiCheck");
  const std::string fixes = "/$defs/shape_fixes";
  holds<ShapeFixes>(j, fixes, "JobShapeFixes");
  holds<ShapeApi>(j, fixes + "/properties/api", "JobShapeApi");
  holds<FixSite>(j, fixes + "/properties/sites/items", "JobFixSite");
  holds<VariedInput>(j, fixes + "/properties/varied/items", "JobVariedInput");
  holds<ShapeFixResult>(j, fixes + "/properties/fixes/items", "JobShapeFixResult");
  holds<FixCode>(j, fixes + "/properties/fixes/items/properties/code/items", "JobFixCode");
}

TEST(Fields, EveryStartupTypeIsItsSchemaAndItsInterface) {
  using namespace startup;
  const char* s = "startup.schema.json";
  holds<StartupResult>(s, "", "StartupSection");
  holds<Verdict>(s, "/properties/verdict", "StartVerdict");
  holds<CompileFinding>(s, "/properties/still_compiled/items", "StartCompileFinding");
  holds<CacheFinding>(s, "/properties/cache_findings/items", "StartCacheFinding");
  holds<CacheLookup>(s, "/$defs/lookup", "CacheLookup");
  holds<CacheCounters>(s, "/$defs/counters", "StartCounters");
  holds<Start>(s, "/$defs/start", "StartRecord");
  holds<ModeResult>(s, "/$defs/mode", "StartModeResult");
  holds<SiteStart>(s, "/$defs/site_start", "StartSite");
  holds<SiteSummary>(s, "/$defs/site_summary", "StartSiteSummary");
  holds<OutputCheck>(s, "/$defs/mode/properties/output_check", "StartOutputCheck");
}

TEST(Fields, EverySuiteTypeIsItsSchemaAndItsInterface) {
  using namespace suite;
  const char* s = "suite.schema.json";
  holds<SuiteResult>(s, "", "SuiteSection");
  holds<PlannedEntry>(s, "/properties/plan/items", "SuitePlannedEntry");
  holds<ShardInfo>(s, "/properties/shard", "SuiteShard");
  holds<Resumed>(s, "/properties/resumed", "SuiteResumed");
  holds<MergedShard>(s, "/properties/merged_from/items", "SuiteMergedShard");
  holds<SuiteSummary>(s, "/properties/summary", "SuiteSummary");
  holds<GeomeanSpeedup>(s, "/properties/summary/properties/geomean_speedup", "SuiteGeomean");
  holds<EntryResult>(s, "/$defs/result", "SuiteEntryResult");
  holds<EntryRecord>(s, "/$defs/entry", "SuiteEntry");
}

TEST(Fields, EveryRunTypeIsItsSchemaAndItsInterface) {
  using namespace run;
  const char* r = "run.schema.json";
  const std::string site = "/$defs/site/properties/";
  holds<RunResult>(r, "", "RunSection");
  holds<ProcessResult>(r, "/properties/processes/items", "RunProcess");
  holds<Divergence>(r, "/properties/divergence/items", "RunDivergence");
  holds<RunResult::FixRun>(r, "/properties/try_fixes/oneOf/1/properties/runs/items", "RunFixRun");
  holds<Contention>(r, "/properties/contention", "RunContention");
  holds<FirstEnd>(r, "/properties/first_end/oneOf/1", "RunFirstEnd");
  holds<CallTimes>(r, "/$defs/times", "RunCallTimes");
  holds<FrameRole>(r, "/$defs/frame", "RunFrame");
  holds<SiteResult>(r, "/$defs/site", "RunSite");
  holds<FrameCompile>(r, site + "compiles/items", "RunFrameCompile");
  holds<SiteBreak>(r, site + "breaks/items", "RunSiteBreak");
  holds<Fallback>(r, site + "fallbacks/items", "RunFallback");
  holds<RecompileGroup>(r, site + "recompile_groups/items", "RunRecompileGroup");
  holds<EagerComparison>(r, site + "eager/oneOf/1", "RunEagerComparison");
  holds<RunCompile>(r, site + "compiled_runs/items", "RunCompiledRun");
  holds<FixTrial>(r, site + "fix_trials/items", "RunFixTrial");
  holds<Stall>(r, site + "stall/oneOf/1", "RunStall");
  holds<ShapeUse>(r, site + "shape_use", "RunShapeUse");
  holds<SampledBreakdown>(r, site + "breakdown", "RunSampledBreakdown");
  holds<VariedDim>(r, site + "shape_use/properties/varied/items", "RunVariedDim");
  holds<SizeCalls>(r, site + "shape_use/properties/varied/items/properties/sizes/items", "RunSizeCalls");
}

TEST(Fields, EveryExplainTypeIsItsSchemaAndItsInterface) {
  using namespace explain;
  const char* e = "explain.schema.json";
  holds<ExplainResult>(e, "", "ExplainSection");
  holds<SkippedFrame>(e, "/properties/skipped_frames/items", "SkippedFrame");
  holds<ExplainBreak>(e, "/properties/breaks/items", "GraphBreak");
  holds<BreakGroup>(e, "/$defs/group", "BreakGroup");
  holds<core::Frame>(e, "/properties/breaks/items/properties/frames/items", "Frame");
  holds<Registry>(e, "/properties/breaks/items/properties/registry", "GraphBreakRegistry");
  holds<ExplainView>(e, "/properties/explain_view", "ExplainView");
  holds<GraphOps>(e, "/properties/ops_per_graph/items", "ExplainGraphOps");
  holds<OpCount>(e, "/properties/ops_per_graph/items/properties/ops/items", "ExplainOpCount");
  holds<KindCount>(e, "/properties/kinds/items", "ExplainKindCount");
  holds<CompiledRun>(e, "/properties/logged", "ExplainLoggedRun");
  holds<LoggedBreak>(e, "/properties/logged/properties/graph_breaks/items", "ExplainLoggedBreak");
  holds<Recompile>(e, "/properties/logged/properties/recompiles/items", "ExplainRecompile");
  holds<GraphShare>(e, "/properties/logged/properties/graph_share", "ExplainGraphShare");
  holds<Disagreement>(e, "/properties/disagreements/items", "ExplainDisagreement");
  holds<Gate>(e, "/properties/gate/oneOf/1", "ExplainGate");
}

TEST(Fields, EveryProbeTypeIsItsSchemaAndItsInterface) {
  using namespace probe;
  const char* p = "probe.schema.json";
  holds<ProbeResult>(p, "", "ProbeSection");
  holds<Reason>(p, "/properties/reasons/items", "ProbeReason");
  holds<Smoke>(p, "/properties/smoke/items", "SmokeResult");
  holds<TorchSupport>(p, "/properties/supported_torch", "ProbeTorchSupport");
}

TEST(Fields, EveryCompareAndAuditTypeIsItsSchemaAndItsInterface) {
  const char* c = "compare.schema.json";
  holds<compare::CompareResult>(c, "", "CompareSection");
  holds<compare::CompareResult::Geomean>(c, "/properties/geomean", "CompareGeomean");
  const char* a = "audit.schema.json";
  holds<audit::AuditResult>(a, "", "AuditSection");
  holds<audit::Step>(a, "/properties/steps/items", "AuditStep");
}
