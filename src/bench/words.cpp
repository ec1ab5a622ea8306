#include "bench/words.hpp"

#include <cstddef>
#include <optional>

#include <fmt/format.h>

namespace tct::bench {
namespace {

std::string calls_words(const std::optional<long long>& n) {
  if (!n) return "never";
  return *n == 1 ? "1 call" : fmt::format("{} calls", *n);
}

// "match (12 leaves; 3 via the float64 reference; 1 not compared; seeded)".
std::string check_basis_words(const Correctness& c) {
  std::string out;
  if (int via_ref = c.leaves_via_reference())
    out += fmt::format("; {} within eager's own error against a float64 reference", via_ref);
  if (std::size_t nc = c.not_compared ? c.not_compared->size() : 0) out += fmt::format("; {} not compared", nc);
  if (c.fallback_random.value_or(false)) out += "; random ops via inductor's fallback_random";
  else if (c.eager_used_rng.value_or(false)) out += "; random ops seeded alike";
  return out;
}

std::string call_range_words(const std::optional<CallRange>& r) {
  if (!r || !r->estimate) return "";
  if (r->low && r->high && *r->low != *r->high)
    return fmt::format("{} (range {} .. {})", calls_words(r->estimate), *r->low, *r->high);
  return calls_words(r->estimate);
}

}  // namespace

OutputCheck output_check(const BenchRow& row) {
  if (!row.correctness) return OutputCheck::NotChecked;
  const Correctness& c = *row.correctness;
  if (!c.checked) return OutputCheck::Skipped;
  if (c.match == true) return c.nondeterministic.value_or(false) ? OutputCheck::MatchWithinSpread : OutputCheck::Match;
  if (c.match == false) return OutputCheck::Mismatch;
  return OutputCheck::Inconclusive;
}

std::string correctness_words(const BenchRow& row) {
  if (!row.correctness) return "not checked";
  const Correctness& c = *row.correctness;
  if (!c.checked) return "skipped (--no-check)";
  std::string out;
  if (c.nondeterministic.value_or(false))
    out = "eager differs from itself under identical seeds, judged against its spread: ";
  const int n = c.leaves.value_or(0);
  if (c.match == true) {
    out += fmt::format("match ({} {}{})", n, n == 1 ? "leaf" : "leaves", check_basis_words(c));
  } else if (c.match == false) {
    out += fmt::format("MISMATCH in {} of {} leaves", c.mismatches.size(), n);
    if (c.differing_parameters && !c.differing_parameters->empty()) {
      std::string names;
      for (const auto& p : *c.differing_parameters) names += (names.empty() ? "" : ", ") + p;
      out += fmt::format(" (parameters: {})", names);
    }
    if (!c.mismatches.empty()) out += fmt::format(": {} {}", c.mismatches[0].path, c.mismatches[0].reason);
  } else out += "inconclusive";
  return out;
}

// Built on the verdict: no number when the interval holds 1.
std::string break_even_words(const BenchRow& row) {
  const auto verdict = row.break_even_verdict();
  if (verdict == BreakEvenVerdict::Inconclusive)
    return "not given: the speedup interval holds 1 and is too wide to tell";
  if (verdict == BreakEvenVerdict::NoReliableGain)
    return row.speedup && row.speedup->verdict == SpeedupVerdict::Slower
               ? "never breaks even: compiled is slower (the whole interval is below 1)"
               : "no reliable gain: the speedup interval includes 1";
  std::string cold = row.break_even ? call_range_words(row.break_even->cold) : "";
  std::string warm = row.break_even ? call_range_words(row.break_even->warm) : "";
  if (!verdict && row.break_even_calls)  // a document from before ranges
    return "after " + calls_words(row.break_even_calls);
  if (cold.empty()) return verdict ? "not measured" : "n/a";
  return "after " + cold + (warm.empty() ? "" : ", warm cache: " + warm);
}

}  // namespace tct::bench
