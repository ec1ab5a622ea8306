#pragma once
// What `tct compare` found, as a value: each entry of the two documents side by side, the
// change an entry made (decided once, in compare.cpp, from the ratio's interval), the gate,
// the counts. The JSON section (json_fields.hpp, json.cpp) and every rendering (text.cpp, html.cpp) are made
// from it; none decides a change again.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/log_interval.hpp"
#include "stats/verdict.hpp"
#include "suite/result.hpp"

namespace tct::compare {

using tct::Nanoseconds;

// What a document says of one entry (a suite entry, or a bench/audit row by its label).
enum class EntryStatus { Ok, Failed, Mismatch, NotRun };

// Its headline numbers are a suite entry's (suite::EntryResult: the speedup and its verdict,
// compile, break-even, graph breaks, the output check), read by the suite's one reader.
struct Entry : suite::EntryResult {
  std::string id;
  EntryStatus status = EntryStatus::NotRun;
  std::string error_kind;  // of a failed entry
};

// An entry's change from baseline to current, in the order a reader wants them: regressions
// and other failures first.
enum class Change {
  Broken,       // passed, now fails
  NewMismatch,  // outputs matched, now differ
  Regression,   // the ratio's interval lies wholly below 1
  StillFailing,
  Improvement,  // the ratio's interval lies wholly above 1
  Fixed,        // failed, now passes
  MismatchFixed,
  Unchanged,   // the interval holds 1
  NoInterval,  // one side has no interval: not judged
  OnlyBaseline,
  OnlyCurrent,
};
inline constexpr Change kChanges[] = {Change::Broken,        Change::NewMismatch, Change::Regression,
                                      Change::StillFailing,  Change::Improvement, Change::Fixed,
                                      Change::MismatchFixed, Change::Unchanged,   Change::NoInterval,
                                      Change::OnlyBaseline,  Change::OnlyCurrent};

// The JSON values, in Change's order (to_string and the field lists read them).
inline constexpr std::string_view kChangeNames[] = {"broken",      "new_mismatch",  "regression",     "still_failing",
                                                    "improvement", "fixed",         "mismatch_fixed", "unchanged",
                                                    "no_interval", "only_baseline", "only_current"};
constexpr const auto& names(const Change*) { return kChangeNames; }
std::string_view to_string(Change c);  // the JSON value: "new_mismatch"
std::optional<Change> parse_change(std::string_view s);
std::string_view describe(Change c);  // what a reader is told: "OUTPUTS NOW DIFFER"

struct Item {
  std::string id;
  Change change = Change::Unchanged;
  bool gate_failed = false;
  stats::Interval ratio;  // current / baseline; NaN estimate when either side has none
  std::optional<Entry> baseline, current;
};

// Where a document came from; empty strings are unknown.
struct Side {
  std::string path, command, created, torch, target;
};

struct CompareResult {
  std::string kind;  // "suite" or "bench" (an audit compares as a bench)
  Side baseline, current;
  double max_regression = 0;  // the gate: a confident drop larger than this fraction fails
  std::vector<Item> items;    // regressions first (worst first), then other failures, improvements, the rest
  bool passed = true;
  // Suites: each side's geometric-mean speedup (with its entry count).
  struct Geomean {
    stats::Interval baseline, current;
    std::optional<int> baseline_n, current_n;
  };
  std::optional<Geomean> geomean;

  int count(Change c) const;
};

}  // namespace tct::compare
