#pragma once
// A suite's summary as a value: its entries counted by outcome and by verdict, failures by
// kind, the geometric-mean speedup with its verdict and the totals. summarize() (summary.cpp)
// is the one place these are decided; the section's "summary" is its to_json, and every
// rendering reads it back through summary_from_json, so a saved or merged document renders
// like a live run.
#include <map>
#include <optional>
#include <string>

#include "bench/verdict.hpp"
#include "stats/log_interval.hpp"

namespace tct::suite {

// The geometric mean over the entries that passed, slowdowns included, with an interval from
// the entries' 95% intervals combined on the log scale.
struct GeomeanSpeedup {
  analysis::Interval interval;  // NaN bounds: no interval
  bench::SpeedupVerdict verdict = bench::SpeedupVerdict::NotMeasured;
  int n = 0;  // the entries it is over
};

struct SuiteSummary {
  int entries = 0, ok = 0, failed = 0, mismatch = 0;
  std::map<std::string, int> failures_by_kind;
  // By the verdict of each entry's speedup (bench/verdict.hpp).
  int faster = 0, slower = 0, inconclusive = 0, not_measured = 0;
  std::optional<int> no_clear_difference;  // none in documents from before that verdict existed
  std::optional<GeomeanSpeedup> geomean;   // none: no entry passed with a measured speedup
  double compile_ns_total = 0, wall_ns_total = 0;
};

}  // namespace tct::suite
