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

using namespace core::fields::declare;

constexpr auto json_fields(const EntryResult*) {
  using R = EntryResult;
  return std::tuple{custom<R>("speedup", speedup_json, speedup_from),  // decides the verdict again
                    custom<R>("verdict", verdict_json),
                    TCT_FIELDS(R, compile),
                    TCT_FIELDS_WITH(R, kNull, compile_source),
                    TCT_FIELDS(R, break_even_calls, graph_breaks),
                    TCT_FIELDS_WITH(R, kNull, check, allocator, allocator_best)};
}
constexpr auto json_fields(const GeomeanSpeedup*) {
  using G = GeomeanSpeedup;
  return std::tuple{core::fields::flat(&G::interval), custom<G>("confidence", confidence_json), TCT_FIELDS(G, n),
                    custom<G>("verdict", geomean_verdict_json, geomean_verdict_from),
                    custom<G>("method", geomean_method_json)};
}
constexpr auto json_fields(const SuiteSummary*) {
  using S = SuiteSummary;
  return std::tuple{TCT_FIELDS(S, entries, ok, failed, mismatch, failures_by_kind, faster, slower, inconclusive,
                               not_measured, compile_ns_total, wall_ns_total),
                    TCT_FIELDS_WITH(S, kAbsent, no_clear_difference), field("geomean_speedup", &S::geomean)};
}
constexpr auto json_fields(const Entry*) {  // as planned, in a plan's and a record's object
  return std::tuple{TCT_FIELDS(Entry, id, target, params, settings)};
}
constexpr auto json_fields(const EntryRecord*) {
  using R = EntryRecord;
  return std::tuple{flat(&R::entry),
                    TCT_FIELDS(R, status),
                    field("error", &R::error, error_json, report::error_record_from_json),
                    TCT_FIELDS(R, wall, result, bench),
                    field("explain", &R::explain, explain_json, explain_from),
                    field("warnings", &R::warnings, tct::bench::warnings_json, tct::bench::warnings_from),
                    TCT_FIELDS(R, environment)};
}
constexpr auto json_fields(const PlannedEntry*) {
  return std::tuple{flat(&PlannedEntry::entry), TCT_FIELDS(PlannedEntry, shard)};
}
constexpr auto json_fields(const ShardInfo*) {  // method: round_robin, or cost (from costs_from)
  return std::tuple{TCT_FIELDS(ShardInfo, index, count), custom<ShardInfo>("method", shard_method_json),
                    TCT_FIELDS_WITH(ShardInfo, kNull, costs_from)};
}
constexpr auto json_fields(const Resumed*) { return std::tuple{TCT_FIELDS(Resumed, from, kept, dropped)}; }
constexpr auto json_fields(const MergedShard*) {
  using M = MergedShard;
  return std::tuple{TCT_FIELDS(M, path, shard, created, entries)};
}
constexpr auto json_fields(const SuiteResult*) {
  using S = SuiteResult;
  return std::tuple{TCT_FIELDS(S, file, name, plan, shard, selected, listing, entries, summary),
                    TCT_FIELDS_WITH(S, kAbsent, resumed, merged_from)};
}

}  // namespace tct::suite
