#pragma once
// What a suite's reader quotes, computed from the recorded entries: per entry the speedup
// with its interval, compile time, break-even, graph breaks and output check; for the suite
// the geometric-mean speedup with an interval (slowdowns count as slowdowns: PyTorch's
// dashboard clips them to 1, which hides them), counts by outcome and by failure kind, and
// total compile time. Pure functions; unit-tested in tests/unit/test_suite.cpp.
#include "bench/result.hpp"
#include "explain/result.hpp"
#include "suite/result.hpp"

namespace tct::suite {

// An entry's headline numbers (result.hpp) from its bench result and explain's (null when
// explain did not run).
EntryResult entry_result(const tct::bench::BenchResult& bench, const explain::ExplainResult* explained);

// The suite's summary over its finished entries. The geometric mean is over entries that
// passed (status ok).
SuiteSummary summarize(const std::vector<EntryRecord>& entries);

// "3 faster, 1 slower, 0 no clear difference, 1 inconclusive".
std::string verdict_counts_text(const SuiteSummary& s);

}  // namespace tct::suite
