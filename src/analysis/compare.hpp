#pragma once
// tct compare: a baseline document against a current one (bench, audit or suite), entry by
// entry. A change is a regression or an improvement only when the intervals say so: the
// ratio current/baseline of the speedups gets its own 95% interval (log_interval.hpp), and
// "regressed" means the whole interval is below 1, never a lower point estimate. A gate
// (max_regression) fails for an entry whose ratio interval lies wholly below 1 - max, for an
// entry that passed and now fails, and for one whose outputs matched and now differ.
// Pure functions over documents; unit-tested in tests/unit/test_compare.cpp.
#include <string>

#include <nlohmann/json.hpp>

namespace tct::analysis {

using json = nlohmann::json;

// The entries a document offers, as [{id, status: ok|failed|mismatch|not_run, speedup, verdict,
// compile_ns, break_even_calls, graph_breaks, check, error_kind}]: a suite's entries by their
// ids; a bench's (or audit's) rows by their label (backend, mode, dynamic, fullgraph).
// `kind` is set to "suite" or "bench". Throws tct::Error (usage) for a document with neither.
json comparable_entries(const json& doc, const std::string& path, std::string& kind);

// The compare section: {baseline:{path,command,created,torch,target}, current:{...},
// max_regression, items:[{id, change, gate_failed, ratio, baseline, current}] (regressions
// first), counts:{change:n}, passed, geomean:{baseline, current}|null}.
// change: regression | improvement | unchanged | no_interval | broken | fixed | still_failing |
// new_mismatch | mismatch_fixed | only_baseline | only_current.
// Throws tct::Error (usage) when the two documents are not of the same kind.
json compare_documents(const json& baseline, const std::string& baseline_path, const json& current,
                       const std::string& current_path, double max_regression);

}  // namespace tct::analysis
