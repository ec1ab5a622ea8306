#pragma once
// What a suite's reader quotes, computed from the recorded entries: per entry the speedup
// with its interval, compile time, break-even, graph breaks and output check; for the suite
// the geometric-mean speedup with an interval (slowdowns count as slowdowns: PyTorch's
// dashboard clips them to 1, which hides them), counts by outcome and by failure kind, and
// total compile time. Pure functions; unit-tested in tests/unit/test_suite.cpp.
#include <nlohmann/json.hpp>

#include "bench/result.hpp"
#include "suite/result.hpp"

namespace tct::suite {

using json = nlohmann::json;

// An entry's headline numbers from its bench result (its first row: a suite entry is one
// matrix point) and explain section (or null):
// {speedup:{estimate,low,high}|null, verdict: the bench row's (bench/verdict.hpp), copied,
//  compile_ns, compile_source: cold|first_call|null, break_even_calls, graph_breaks,
//  check: match|mismatch|not_checked|null, allocator, allocator_best}.
json entry_result(const tct::bench::BenchResult& bench, const json& explain_section);

// The suite's summary over entries (each with status, error, result, wall_ns). The geometric
// mean is over entries with status "ok".
SuiteSummary summarize(const json& entries);

// As the section's "summary": {entries, ok, failed, mismatch, failures_by_kind:{kind:n},
// faster, slower, no_clear_difference, inconclusive, not_measured,
// geomean_speedup:{estimate,low,high,confidence,n,verdict,method}|null, compile_ns_total,
// wall_ns_total}; and back (never throws; an older document's verdicts read by bench's rule).
json to_json(const SuiteSummary& s);
SuiteSummary summary_from_json(const json& summary);

// "3 faster, 1 slower, 0 no clear difference, 1 inconclusive".
std::string verdict_counts_text(const SuiteSummary& s);

}  // namespace tct::suite
