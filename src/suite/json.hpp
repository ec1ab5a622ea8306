#pragma once
// SuiteResult <-> doc["suite"] (schema/suite.schema.json): the one place the section and its
// parts are written, and their reader (an entry's bench and explain sections through bench's
// and explain's own). to_json(suite_from_json(section)) gives back, byte for byte, a section
// this version wrote; the readers also take older documents of the same schema (fields added
// since are absent there) and never throw on a missing or mistyped field.
#include <string_view>

#include <nlohmann/json.hpp>

#include "suite/result.hpp"

namespace tct::suite {

nlohmann::json to_json(const SuiteResult& suite);
SuiteResult suite_from_json(const nlohmann::json& section);

// An entry's record: {id, target, params, settings, status: ok|failed|mismatch, error,
// wall_ns, result, bench, explain, warnings, environment}.
nlohmann::json to_json(const EntryRecord& record);
EntryRecord record_from_json(const nlohmann::json& record);

// An entry's "result": {speedup:{estimate,low,high}|null, verdict, compile_ns,
// compile_source: cold|first_call|null, break_even_calls, graph_breaks,
// check: match|mismatch|not_checked|null, allocator, allocator_best}.
nlohmann::json to_json(const EntryResult& result);
EntryResult entry_result_from_json(const nlohmann::json& result);

// The section's "summary": {entries, ok, failed, mismatch, failures_by_kind:{kind:n}, faster,
// slower, no_clear_difference, inconclusive, not_measured,
// geomean_speedup:{estimate,low,high,confidence,n,verdict,method}|null, compile_ns_total,
// wall_ns_total}. An older document's verdicts are read by bench's rule.
nlohmann::json to_json(const SuiteSummary& summary);
SuiteSummary summary_from_json(const nlohmann::json& summary);

std::string_view to_string(EntryStatus s);  // "ok", "failed", "mismatch"

}  // namespace tct::suite
