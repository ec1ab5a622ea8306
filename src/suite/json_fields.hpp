#pragma once
// The suite section's JSON fields (core/fields.hpp): each struct of suite/result.hpp listed once.
// What is not a plain field is spelled in suite/json.cpp: a speedup written only when measured,
// the verdicts decided again on reading, an explain section, a shard's method.
#include <string_view>

#include "bench/json_fields.hpp"
#include "core/fields.hpp"
#include "suite/result.hpp"

namespace tct::suite {

inline constexpr std::string_view kStatusNames[] = {"ok", "failed", "mismatch"};  // EntryStatus's order
constexpr const auto& names(const EntryStatus*) { return kStatusNames; }

nlohmann::json speedup_json(const EntryResult& r);
nlohmann::json verdict_json(const EntryResult& r);
void speedup_from(const nlohmann::json& j, EntryResult& r);
nlohmann::json geomean_verdict_json(const GeomeanSpeedup& g);
void geomean_verdict_from(const nlohmann::json&, GeomeanSpeedup& g);
nlohmann::json confidence_json(const GeomeanSpeedup&);
nlohmann::json geomean_method_json(const GeomeanSpeedup&);
nlohmann::json explain_json(const std::optional<explain::ExplainResult>& e);
std::optional<explain::ExplainResult> explain_from(const nlohmann::json& j);
nlohmann::json error_json(const std::optional<report::ErrorRecord>& e);
nlohmann::json shard_method_json(const ShardInfo& s);

using core::fields::custom;
using core::fields::field;
using core::fields::flat;
inline constexpr auto kAbsent = core::fields::Empty::Absent;
inline constexpr auto kNull = core::fields::Empty::Null;

constexpr auto json_fields(const EntryResult*) {
  using R = EntryResult;
  return std::tuple{custom<R>("speedup", speedup_json, speedup_from),  // decides the verdict again
                    custom<R>("verdict", verdict_json),
                    field("compile_ns", &R::compile),
                    field("compile_source", &R::compile_source, kNull),
                    field("break_even_calls", &R::break_even_calls),
                    field("graph_breaks", &R::graph_breaks),
                    field("check", &R::check, kNull),
                    field("allocator", &R::allocator, kNull),
                    field("allocator_best", &R::allocator_best, kNull)};
}
constexpr auto json_fields(const GeomeanSpeedup*) {
  using G = GeomeanSpeedup;
  return std::tuple{core::fields::flat(&G::interval), custom<G>("confidence", confidence_json), field("n", &G::n),
                    custom<G>("verdict", geomean_verdict_json, geomean_verdict_from),
                    custom<G>("method", geomean_method_json)};
}
constexpr auto json_fields(const SuiteSummary*) {
  using S = SuiteSummary;
  return std::tuple{field("entries", &S::entries),
                    field("ok", &S::ok),
                    field("failed", &S::failed),
                    field("mismatch", &S::mismatch),
                    field("failures_by_kind", &S::failures_by_kind),
                    field("faster", &S::faster),
                    field("slower", &S::slower),
                    field("inconclusive", &S::inconclusive),
                    field("not_measured", &S::not_measured),
                    field("no_clear_difference", &S::no_clear_difference, kAbsent),
                    field("geomean_speedup", &S::geomean),
                    field("compile_ns_total", &S::compile_ns_total),
                    field("wall_ns_total", &S::wall_ns_total)};
}
constexpr auto json_fields(const Entry*) {  // as planned, in a plan's and a record's object
  return std::tuple{field("id", &Entry::id), field("target", &Entry::target), field("params", &Entry::params),
                    field("settings", &Entry::settings)};
}
constexpr auto json_fields(const EntryRecord*) {
  using R = EntryRecord;
  return std::tuple{flat(&R::entry),
                    field("status", &R::status),
                    field("error", &R::error, error_json, report::error_record_from_json),
                    field("wall_ns", &R::wall),
                    field("result", &R::result),
                    field("bench", &R::bench),
                    field("explain", &R::explain, explain_json, explain_from),
                    field("warnings", &R::warnings, tct::bench::warnings_json, tct::bench::warnings_from),
                    field("environment", &R::environment)};
}
constexpr auto json_fields(const PlannedEntry*) {
  return std::tuple{flat(&PlannedEntry::entry), field("shard", &PlannedEntry::shard)};
}
constexpr auto json_fields(const ShardInfo*) {  // method: round_robin, or cost (from costs_from)
  return std::tuple{field("index", &ShardInfo::index), field("count", &ShardInfo::count),
                    custom<ShardInfo>("method", shard_method_json), field("costs_from", &ShardInfo::costs_from, kNull)};
}
constexpr auto json_fields(const Resumed*) {
  return std::tuple{field("from", &Resumed::from), field("kept", &Resumed::kept), field("dropped", &Resumed::dropped)};
}
constexpr auto json_fields(const MergedShard*) {
  using M = MergedShard;
  return std::tuple{field("path", &M::path), field("shard", &M::shard), field("created", &M::created),
                    field("entries", &M::entries)};
}
constexpr auto json_fields(const SuiteResult*) {
  using S = SuiteResult;
  return std::tuple{field("file", &S::file),
                    field("name", &S::name),
                    field("plan", &S::plan),
                    field("shard", &S::shard),
                    field("selected", &S::selected),
                    field("listing", &S::listing),
                    field("entries", &S::entries),
                    field("summary", &S::summary),
                    field("resumed", &S::resumed, kAbsent),
                    field("merged_from", &S::merged_from, kAbsent)};
}

}  // namespace tct::suite
