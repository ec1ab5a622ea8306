#pragma once
// Does the allocator move bench's answer? Decided once, from the section's AllocatorComparison
// (the headline's state and the per-state figures the comparison measured, see
// bench/allocator.hpp), and stored there (differs, best_state); the warning it
// makes (its words: report/warning_wording.cpp) is the one every report prints. Pure:
// unit-tested in tests/unit/test_allocator.cpp.
#include <optional>
#include <string>
#include <vector>

#include "bench/allocator_comparison.hpp"
#include "bench/result.hpp"
#include "report/warning.hpp"
#include "stats/bootstrap.hpp"

namespace tct::bench {

// Two processes of the headline whose speedups differ by more than this factor landed in
// different allocator states (glibc's mmap threshold follows the history of each process:
// rmsnorm on 2048 x 512 floats gave 0.5 ms or 6 ms per eager call, process by process).
// Honest noise moves one process's speedup a few percent (bench/calibration/README.md), so
// 20% is far outside it; and each process must be steady in its own state (the ranges of its
// segments' speedups do not overlap), since load that comes and goes moves them all.
inline constexpr double kProcessDisagreement = 1.2;

struct AllocatorFinding {
  bool differs = false;                    // a state's speedup lies outside the headline's interval
  bool processes_disagree = false;         // the headline's own processes landed in different states
  std::string best_state;                  // the measured state with the fastest compiled call ("" none)
  std::optional<report::Warning> warning;  // when the allocator moves the result
};

// `allocator`: the states with their figures, the headline's own entry among them (status
// headline; its speedup is `headline`'s, the row's own interval across processes, with each
// process's own speedup and its segments'; NaN bounds: the row has none). A state differs when its speedup estimate
// lies outside the headline's interval and its own interval (when it has one) does not reach the headline's: the
// comparison samples briefly, and its own noise must not make a finding.
AllocatorFinding find_allocator_effect(const AllocatorComparison& allocator, const Speedup& headline);

}  // namespace tct::bench
