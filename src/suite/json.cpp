#include "suite/json.hpp"

#include <cmath>

#include "bench/json.hpp"
#include "core/json_number.hpp"
#include "core/json_read.hpp"
#include "explain/json.hpp"

namespace tct::suite {
namespace {

using json = nlohmann::json;
using namespace core::json_read;

stats::Interval interval_of(const json& speedup) {
  return {core::number_or_nan(speedup, "estimate"), core::number_or_nan(speedup, "low"),
          core::number_or_nan(speedup, "high")};
}

json text_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

constexpr std::string_view kStatus[] = {"ok", "failed", "mismatch"};

Entry planned_from_json(const json& j) {
  return {str(j, "id"), str(j, "target"), has(j, "params") ? j["params"] : json::object(),
          has(j, "settings") ? j["settings"] : json::object()};
}

// {index, count, method: round_robin|cost, costs_from}: a shard run's own, and each merged shard's.
json shard_json(const std::optional<ShardInfo>& shard) {
  if (!shard) return nullptr;
  return {{"index", shard->index},
          {"count", shard->count},
          {"method", shard->costs_from.empty() ? "round_robin" : "cost"},
          {"costs_from", text_or_null(shard->costs_from)}};
}
std::optional<ShardInfo> shard_from_json(const json& sh) {
  if (!sh.is_object()) return std::nullopt;
  return ShardInfo{num(sh, "index", 1), num(sh, "count", 1), str(sh, "costs_from")};
}

}  // namespace

std::string_view to_string(EntryStatus s) { return kStatus[static_cast<int>(s)]; }

json to_json(const EntryResult& r) {
  json speedup = nullptr;
  if (std::isfinite(r.speedup.estimate))
    speedup = {{"estimate", r.speedup.estimate},
               {"low", core::number_or_null(r.speedup.low)},
               {"high", core::number_or_null(r.speedup.high)}};
  return {{"speedup", speedup},
          {"verdict", stats::to_string(r.verdict)},
          {"compile_ns", r.compile ? json(r.compile->count()) : json(nullptr)},
          {"compile_source", text_or_null(r.compile_source)},
          {"break_even_calls", r.break_even_calls ? json(*r.break_even_calls) : json(nullptr)},
          {"graph_breaks", r.graph_breaks ? json(*r.graph_breaks) : json(nullptr)},
          {"check", text_or_null(r.check)},
          {"allocator", text_or_null(r.allocator)},
          {"allocator_best", text_or_null(r.allocator_best)}};
}

EntryResult entry_result_from_json(const json& j) {
  EntryResult r;
  if (const json& sp = at(j, "speedup"); sp.is_object()) r.speedup = interval_of(sp);
  r.verdict = stats::decide(r.speedup);  // from the numbers, by the one rule, whatever rule wrote it
  if (const auto ns = opt_num<double>(j, "compile_ns")) r.compile = Nanoseconds(*ns);
  r.compile_source = str(j, "compile_source");
  r.break_even_calls = opt_num<double>(j, "break_even_calls");
  r.graph_breaks = opt_num<int>(j, "graph_breaks");
  r.check = str(j, "check");
  r.allocator = str(j, "allocator");
  r.allocator_best = str(j, "allocator_best");
  return r;
}

json to_json(const SuiteSummary& s) {
  json out = {{"entries", s.entries},
              {"ok", s.ok},
              {"failed", s.failed},
              {"mismatch", s.mismatch},
              {"failures_by_kind", s.failures_by_kind},
              {"faster", s.faster},
              {"slower", s.slower},
              {"inconclusive", s.inconclusive},
              {"not_measured", s.not_measured},
              {"geomean_speedup", nullptr},
              {"compile_ns_total", s.compile_ns_total},
              {"wall_ns_total", s.wall_ns_total}};
  if (s.no_clear_difference) out["no_clear_difference"] = *s.no_clear_difference;
  if (s.geomean)
    out["geomean_speedup"] = {
        {"estimate", s.geomean->interval.estimate},
        {"low", core::number_or_null(s.geomean->interval.low)},
        {"high", core::number_or_null(s.geomean->interval.high)},
        {"confidence", 0.95},
        {"n", s.geomean->n},
        {"verdict", stats::to_string(s.geomean->verdict)},
        {"method",
         "geometric mean over entries that passed, slowdowns included; interval from the entries' "
         "95% intervals combined on the log scale (independent errors)"}};
  return out;
}

SuiteSummary summary_from_json(const json& j) {
  SuiteSummary s;
  s.entries = num(j, "entries");
  s.ok = num(j, "ok");
  s.failed = num(j, "failed");
  s.mismatch = num(j, "mismatch");
  for (auto& [kind, n] : at(j, "failures_by_kind").items())
    if (n.is_number()) s.failures_by_kind[kind] = n.get<int>();
  s.faster = num(j, "faster");
  s.slower = num(j, "slower");
  s.inconclusive = num(j, "inconclusive");
  s.not_measured = num(j, "not_measured");
  s.no_clear_difference = opt_num(j, "no_clear_difference");
  if (const json& g = at(j, "geomean_speedup"); g.is_object())
    s.geomean = GeomeanSpeedup{interval_of(g), stats::decide(interval_of(g)), num(g, "n")};
  s.compile_ns_total = num<double>(j, "compile_ns_total");
  s.wall_ns_total = num<double>(j, "wall_ns_total");
  return s;
}

json to_json(const EntryRecord& r) {
  return {{"id", r.entry.id},
          {"target", r.entry.target},
          {"params", r.entry.params},
          {"settings", r.entry.settings},
          {"status", to_string(r.status)},
          {"error", r.error ? report::to_json(*r.error) : json(nullptr)},
          {"wall_ns", r.wall.count()},
          {"result", to_json(r.result)},
          {"bench", r.bench ? tct::bench::to_json(*r.bench) : json(nullptr)},
          {"explain", r.explain ? explain::to_json(*r.explain) : json(nullptr)},
          {"warnings", report::to_json(r.warnings)},
          {"environment", r.environment}};
}

EntryRecord record_from_json(const json& j) {
  EntryRecord r;
  r.entry = planned_from_json(j);
  const std::string status = str(j, "status", "failed");
  r.status = status == "ok" ? EntryStatus::Ok : status == "mismatch" ? EntryStatus::Mismatch : EntryStatus::Failed;
  r.error = report::error_record_from_json(at(j, "error"));
  r.wall = Nanoseconds(num<double>(j, "wall_ns"));
  r.result = entry_result_from_json(at(j, "result"));
  if (const json& bench = at(j, "bench"); bench.is_object()) r.bench = tct::bench::from_json(bench);
  if (const json& explained = at(j, "explain"); explained.is_object()) r.explain = explain::from_json(explained);
  for (const auto& w : list(j, "warnings")) r.warnings.push_back(report::warning_from_json(w));
  r.environment = has(j, "environment") ? j["environment"] : json::object();
  return r;
}

json to_json(const SuiteResult& s) {
  json plan = json::array(), entries = json::array();
  for (const auto& p : s.plan)
    plan.push_back({{"id", p.entry.id},
                    {"target", p.entry.target},
                    {"params", p.entry.params},
                    {"settings", p.entry.settings},
                    {"shard", p.shard}});
  for (const auto& e : s.entries) entries.push_back(to_json(e));
  json out = {{"file", s.file},         {"name", s.name},       {"plan", plan},       {"shard", shard_json(s.shard)},
              {"selected", s.selected}, {"listing", s.listing}, {"entries", entries}, {"summary", to_json(s.summary)}};
  if (s.resumed)
    out["resumed"] = {{"from", s.resumed->from}, {"kept", s.resumed->kept}, {"dropped", s.resumed->dropped}};
  if (s.merged_from) {
    out["merged_from"] = json::array();
    for (const auto& m : *s.merged_from)
      out["merged_from"].push_back({{"path", m.path},
                                    {"shard", shard_json(m.shard)},
                                    {"created", m.created ? json(*m.created) : json(nullptr)},
                                    {"entries", m.entries}});
  }
  return out;
}

SuiteResult suite_from_json(const json& j) {
  SuiteResult s;
  s.file = str(j, "file");
  s.name = str(j, "name");
  for (const auto& p : list(j, "plan")) s.plan.push_back({planned_from_json(p), num(p, "shard", 1)});
  s.shard = shard_from_json(at(j, "shard"));
  s.selected = strings(j, "selected");
  s.listing = flag(j, "listing");
  for (const auto& e : list(j, "entries")) s.entries.push_back(record_from_json(e));
  s.summary = summary_from_json(at(j, "summary"));
  if (const json& r = at(j, "resumed"); r.is_object())
    s.resumed = Resumed{str(r, "from"), num<std::size_t>(r, "kept"), num<std::size_t>(r, "dropped")};
  if (has(j, "merged_from")) {
    s.merged_from.emplace();
    for (const auto& m : list(j, "merged_from"))
      s.merged_from->push_back(
          {str(m, "path"), shard_from_json(at(m, "shard")), opt_str(m, "created"), num<std::size_t>(m, "entries")});
  }
  return s;
}

}  // namespace tct::suite
