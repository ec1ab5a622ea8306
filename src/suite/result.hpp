#pragma once
// A suite run as a value (SuiteResult): its plan, this run's share, the finished entries, each
// with its headline numbers (EntryResult), and the summary over them (SuiteSummary). The
// entries' numbers and the summary's counts and verdicts are decided once (summary.cpp; json.cpp
// decides a read entry's verdict again from its interval, by the same stats::decide);
// doc.cpp plans, records, resumes and merges on the value; json.cpp is the one writer of the
// section and its reader, so a saved or merged document renders like a live run.
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/result.hpp"
#include "core/units.hpp"
#include "explain/result.hpp"
#include "report/error_record.hpp"
#include "report/warning.hpp"
#include "stats/log_interval.hpp"
#include "stats/verdict.hpp"
#include "suite/file.hpp"

namespace tct::suite {

using tct::Nanoseconds;

// An entry's headline numbers, from its bench result (its first row: a suite entry is one
// matrix point) and its explain section. entry_result() (summary.cpp) makes it once; the
// entry's "result" object is its to_json, and the suite's renderings and `tct compare` read it
// back through entry_result_from_json.
struct EntryResult {
  stats::Interval speedup;                                             // NaN estimate: not measured
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;  // the bench row's, copied
  std::optional<Nanoseconds> compile;                                  // the cold compile, else the first compiled call
  std::string compile_source;                                          // "cold", "first_call", or "" (none)
  std::optional<double> break_even_calls;
  std::optional<int> graph_breaks;  // the compiled run's, else explain's
  std::string check;                // "match", "mismatch", "not_checked", or "" (unknown)
  std::string allocator;            // the malloc state the speedup was measured under ("" = not recorded)
  std::string allocator_best;       // the fastest state, only when the allocator moved the result
};

// The geometric mean over the entries that passed, slowdowns included, with an interval from
// the entries' 95% intervals combined on the log scale.
struct GeomeanSpeedup {
  stats::Interval interval;  // NaN bounds: no interval
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;
  int n = 0;  // the entries it is over
};

struct SuiteSummary {
  int entries = 0, ok = 0, failed = 0, mismatch = 0;
  std::map<std::string, int> failures_by_kind;
  // By the verdict of each entry's speedup (stats/verdict.hpp).
  int faster = 0, slower = 0, inconclusive = 0, not_measured = 0;
  std::optional<int> no_clear_difference;  // none in documents from before that verdict existed
  std::optional<GeomeanSpeedup> geomean;   // none: no entry passed with a measured speedup
  double compile_ns_total = 0, wall_ns_total = 0;
};

enum class EntryStatus { Ok, Failed, Mismatch };

// A finished entry, as the section's "entries" hold it.
struct EntryRecord {
  Entry entry;  // id, target, params, settings: as planned
  EntryStatus status = EntryStatus::Ok;
  // Why it failed ({kind, message, hint, stage when it has one}) with the exit code it would
  // have given alone; none when it passed.
  std::optional<report::ErrorRecord> error;
  Nanoseconds wall{0};
  EntryResult result;
  // The entry's own document's sections, as `tct bench` and `tct explain` would write them (the
  // suite quotes only `result`): bench's and explain's results, none where that runner did not
  // run (or stopped before bench had its configuration), and the document's warnings as written.
  std::optional<tct::bench::BenchResult> bench;
  std::optional<explain::ExplainResult> explain;
  std::vector<report::Warning> warnings;
  // The agent's record of the interpreter and torch, its raw record kept whole.
  nlohmann::json environment = nlohmann::json::object();
};

struct PlannedEntry {
  Entry entry;
  int shard = 1;  // 1-based
};

struct ShardInfo {
  int index = 1, count = 1;
  std::string costs_from;  // the document the costs came from; "" for round robin
};

// --resume: which earlier file the finished entries came from.
struct Resumed {
  std::string from;
  std::size_t kept = 0, dropped = 0;
};

// One shard document `tct merge` joined.
struct MergedShard {
  std::string path;
  std::optional<ShardInfo> shard;      // the shard's own; none: not sharded
  std::optional<std::string> created;  // when the shard's document was made; none: it does not say
  std::size_t entries = 0;
};

struct SuiteResult {
  std::string file, name;
  std::vector<PlannedEntry> plan;     // every entry of the suite
  std::optional<ShardInfo> shard;     // none: not sharded
  std::vector<std::string> selected;  // this run's share
  bool listing = false;               // --list: nothing ran
  std::vector<EntryRecord> entries;   // finished, in plan order
  SuiteSummary summary;               // summarize(entries), kept in step by record_entry
  std::optional<Resumed> resumed;
  std::optional<std::vector<MergedShard>> merged_from;  // only in a merged document
};

}  // namespace tct::suite
