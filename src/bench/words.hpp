#pragma once
// The words of a row's facts that every rendering prints the same (terminal, Markdown, HTML):
// how its outputs compared with eager, and when compiling pays for itself. Formatting only:
// the verdicts are the row's fields (BenchRow::break_even_verdict, Correctness).
#include <string>

#include "bench/result.hpp"

namespace tct::bench {

// How the row's outputs compared with eager, for a renderer's tone (HTML's colours).
enum class OutputCheck { NotChecked, Skipped, Match, MatchWithinSpread, Mismatch, Inconclusive };
OutputCheck output_check(const BenchRow& row);

// "match (12 leaves; 3 within eager's own error against a float64 reference)", "MISMATCH in 1
// of 4 leaves: out[0] ...", "skipped (--no-check)", "not checked".
std::string correctness_words(const BenchRow& row);

// "after 120 calls (range 100 .. 140), warm cache: 30 calls", or why none is given.
std::string break_even_words(const BenchRow& row);

}  // namespace tct::bench
