#include "suite/summary.hpp"

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "stats/verdict.hpp"
#include "core/json_read.hpp"
#include "stats/log_interval.hpp"

namespace tct::suite {

EntryResult entry_result(const tct::bench::BenchResult& bench, const explain::ExplainResult* explained) {
  EntryResult r;
  if (!bench.rows.empty()) {
    const tct::bench::BenchRow& row = bench.rows[0];
    if (row.speedup) {
      r.speedup = row.speedup->interval;
      r.verdict = row.speedup->verdict;
    }
    if (measured(row.compile.cold)) {
      r.compile = row.compile.cold;
      r.compile_source = "cold";
    } else if (measured(row.compile.first_call)) {
      r.compile = row.compile.first_call;
      r.compile_source = "first_call";
    }
    r.break_even_calls = row.break_even_calls;
    r.graph_breaks = row.graph_breaks;
    if (row.correctness && row.correctness->match) r.check = *row.correctness->match ? "match" : "mismatch";
    else if (bench.config && !bench.config->check) r.check = "not_checked";
  }
  // The malloc state of the speedup, and the fastest state when the allocator moved it.
  if (const auto& alloc = bench.allocator) {
    r.allocator = alloc->state;
    if (alloc->differs.value_or(false) || alloc->processes_disagree.value_or(false))
      r.allocator_best = alloc->best_state.value_or("");
  }
  // Explain's count, once it finished (a run that stopped after loading the target has none).
  if (!r.graph_breaks && explained && explained->finished) r.graph_breaks = explained->graph_break_count;
  return r;
}

SuiteSummary summarize(const std::vector<EntryRecord>& entries) {
  SuiteSummary s;
  std::vector<stats::Interval> passing;
  s.no_clear_difference = 0;  // counted since that verdict exists
  for (const auto& e : entries) {
    ++s.entries;
    switch (e.status) {
      case EntryStatus::Ok: ++s.ok; break;
      case EntryStatus::Mismatch: ++s.mismatch; break;
      case EntryStatus::Failed: ++s.failed; break;
    }
    if (e.status != EntryStatus::Ok) ++s.failures_by_kind[e.error ? e.error->kind : "unknown"];
    const EntryResult& r = e.result;
    switch (r.verdict) {
      case tct::stats::SpeedupVerdict::Faster: ++s.faster; break;
      case tct::stats::SpeedupVerdict::Slower: ++s.slower; break;
      case tct::stats::SpeedupVerdict::NoClearDifference: ++*s.no_clear_difference; break;
      case tct::stats::SpeedupVerdict::Inconclusive: ++s.inconclusive; break;
      case tct::stats::SpeedupVerdict::NotMeasured: ++s.not_measured; break;
    }
    if (e.status == EntryStatus::Ok && std::isfinite(r.speedup.estimate)) passing.push_back(r.speedup);
    if (r.compile) s.compile_ns_total += r.compile->count();
    s.wall_ns_total += e.wall.count();
  }
  if (!passing.empty()) {
    auto g = stats::geometric_mean(passing);
    // The same rule as a row's speedup, decided here once: the card's colour and the text read it.
    if (std::isfinite(g.estimate))
      s.geomean = GeomeanSpeedup{g, tct::stats::decide(g.estimate, g.low, g.high), static_cast<int>(passing.size())};
  }
  return s;
}

std::string verdict_counts_text(const SuiteSummary& s) {
  std::string out = fmt::format("{} faster, {} slower", s.faster, s.slower);
  if (s.no_clear_difference) out += fmt::format(", {} no clear difference", *s.no_clear_difference);
  return out + fmt::format(", {} inconclusive", s.inconclusive);
}

}  // namespace tct::suite
