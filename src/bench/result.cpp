#include "bench/result.hpp"

#include <cmath>

namespace tct::bench {

std::string_view to_string(RowStatus s) {
  switch (s) {
    case RowStatus::Pending: return "pending";
    case RowStatus::Running: return "running";
    case RowStatus::Ok: return "ok";
    case RowStatus::Failed: return "failed";
  }
  return "pending";
}

namespace {

struct BreakEvenWords {
  BreakEvenVerdict verdict;
  std::string_view json;
};
constexpr BreakEvenWords kBreakEvenWords[] = {
    {BreakEvenVerdict::BreaksEven, "breaks_even"},
    {BreakEvenVerdict::NoReliableGain, "no_reliable_gain"},
    {BreakEvenVerdict::Inconclusive, "inconclusive"},
};

}  // namespace

std::string_view to_string(BreakEvenVerdict v) {
  for (const auto& w : kBreakEvenWords)
    if (w.verdict == v) return w.json;
  return "inconclusive";
}

std::optional<BreakEvenVerdict> parse_break_even_verdict(std::string_view s) {
  for (const auto& w : kBreakEvenWords)
    if (w.json == s) return w.verdict;
  return std::nullopt;
}

ColdSource Compile::cold_from() const {
  if (!cold_source) return ColdSource::Other;
  // run.cpp's words: "main agent, fresh caches, first compile in the process".
  if (cold_source->rfind("main agent", 0) == 0) return ColdSource::MainAgentFirstCall;
  if (cold_source->rfind("fresh process", 0) == 0) return ColdSource::FreshProcess;
  return ColdSource::Other;
}

std::optional<bool> Compile::warm_cache_hit() const {
  if (repeated) return repeated->warm_cache_hit;
  return warm_cache ? warm_cache->hit : std::nullopt;
}

int Correctness::leaves_via_reference() const {
  int n = 0;
  if (leaf_results)
    for (const auto& l : *leaf_results) n += l.basis == "float64_reference";
  return n;
}

bool BenchRow::harness_floor_matters() const {
  const double compiled = latency ? latency->compiled_ns.median : NAN;
  return tct::measured(harness_floor) && std::isfinite(compiled) &&
         harness_floor.count() > kHarnessFloorShare * compiled;
}

std::optional<BreakEvenVerdict> BenchRow::break_even_verdict() const {
  if (break_even) return break_even->verdict;
  if (break_even_calls) return std::nullopt;  // a document from before the verdict: it gave a number
  // A document from before break_even had its verdict: the speedup's says the same.
  const SpeedupVerdict sv = speedup ? speedup->verdict : SpeedupVerdict::NotMeasured;
  if (sv == SpeedupVerdict::Inconclusive) return BreakEvenVerdict::Inconclusive;
  if (sv == SpeedupVerdict::Slower || sv == SpeedupVerdict::NoClearDifference) return BreakEvenVerdict::NoReliableGain;
  return std::nullopt;
}

const BenchRow* BenchResult::best_row() const {
  const BenchRow* best = nullptr;
  for (const auto& r : rows)
    if (r.measured() && (!best || (r.speedup ? r.speedup->interval.estimate : NAN) >
                                      (best->speedup ? best->speedup->interval.estimate : NAN)))
      best = &r;
  return best;
}

}  // namespace tct::bench
