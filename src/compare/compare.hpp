#pragma once
// tct compare: a baseline document against a current one (bench, audit or suite), entry by
// entry. A change is a regression or an improvement only when the intervals say so: the
// ratio current/baseline of the speedups gets its own 95% interval (log_interval.hpp), and
// "regressed" means the whole interval is below 1, never a lower point estimate. A gate
// (max_regression) fails for an entry whose ratio interval lies wholly below 1 - max, for an
// entry that passed and now fails, and for one whose outputs matched and now differ.
// Pure functions over documents; unit-tested in tests/unit/test_compare.cpp.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/result.hpp"
#include "compare/result.hpp"
#include "explain/result.hpp"
#include "suite/result.hpp"

namespace tct::compare {

// A saved document as compare reads it: the typed results `tct report`'s reader gives
// (cli::from_document), and where the document came from. Pointers into the caller's results.
struct SavedDocument {
  std::string path, command, created, torch;  // empty: not known
  std::string target;                         // the bench's or audit's target spec
  const bench::BenchResult* bench = nullptr;  // a bench's or an audit's rows
  const explain::ExplainResult* explain = nullptr;
  const suite::SuiteResult* suite = nullptr;
};

// The entries a document offers: a suite's entries by their ids; a bench's (or audit's) rows
// by their label (backend, mode, dynamic, fullgraph). `kind` is set to "suite" or "bench".
// Throws tct::Error (usage) for a document with neither.
std::vector<Entry> comparable_entries(const SavedDocument& doc, std::string& kind);

// Throws tct::Error (usage) when the two documents are not of the same kind.
CompareResult compare_documents(const SavedDocument& baseline, const SavedDocument& current, double max_regression);

// The section a document holds (json.cpp): made from the result, and read back for `tct report`.
nlohmann::json to_json(const CompareResult& result);
CompareResult compare_from_json(const nlohmann::json& section);

// The cells of the before/after table (words.cpp), the same in every rendering: a side as
// "1.52x [1.48, 1.56]", "failed (timeout)", "not run" or "... (outputs differ)"; a figure of
// both sides as "3 -> 1" (`arrow` between), or once when they agree ("-" for a side without it).
std::string entry_text(const Entry& e);
std::string before_after(const Item& item, const std::function<std::string(const Entry&)>& figure,
                         std::string_view arrow);
std::string graph_breaks_text(const Entry& e);
std::string compile_text(const Entry& e);

}  // namespace tct::compare
