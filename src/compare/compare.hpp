#pragma once
// tct compare: a baseline document against a current one (bench, audit or suite), entry by
// entry. A change is a regression or an improvement only when the intervals say so: the
// ratio current/baseline of the speedups gets its own 95% interval (log_interval.hpp), and
// "regressed" means the whole interval is below 1, never a lower point estimate. A gate
// (max_regression) fails for an entry whose ratio interval lies wholly below 1 - max, for an
// entry that passed and now fails, and for one whose outputs matched and now differ.
// Pure functions over documents; unit-tested in tests/unit/test_compare.cpp.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/result.hpp"

namespace tct::compare {

// The entries a document offers: a suite's entries by their ids; a bench's (or audit's) rows
// by their label (backend, mode, dynamic, fullgraph). `kind` is set to "suite" or "bench".
// Throws tct::Error (usage) for a document with neither.
std::vector<Entry> comparable_entries(const nlohmann::json& doc, const std::string& path, std::string& kind);

// Throws tct::Error (usage) when the two documents are not of the same kind.
CompareResult compare_documents(const nlohmann::json& baseline, const std::string& baseline_path,
                                const nlohmann::json& current, const std::string& current_path, double max_regression);

// The section a document holds (json.cpp): made from the result, and read back for `tct report`.
nlohmann::json to_json(const CompareResult& result);
CompareResult compare_from_json(const nlohmann::json& section);

}  // namespace tct::compare
