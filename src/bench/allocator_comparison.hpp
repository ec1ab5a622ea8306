#pragma once
// The allocator section of a bench result as a value (BenchResult::allocator, the document's
// section["allocator"]): the headline's malloc state, what the measuring agent found serving
// malloc, the comparison's plan, and one entry per state. bench/allocator.cpp fills it,
// bench/allocator_finding.cpp decides differs and best_state, bench/json.cpp writes and
// reads it, bench/allocator_rows.cpp lays it out for the renderers.
//
// State names are core::AllocatorState's (system, settled, tcmalloc, jemalloc), kept as the
// document writes them, so that a document naming another state still reads.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tct::bench {

// What an agent found serving malloc in its own process (bench::detected_allocator).
struct DetectedAllocator {
  std::string kind = "unknown";           // glibc, tcmalloc, jemalloc, unknown (maps unreadable)
  std::optional<std::string> library;     // the allocator library mapped into it; none for glibc
  std::optional<bool> settled;            // whether it freed the settling block; none: not said
  std::optional<std::string> ld_preload;  // LD_PRELOAD as it saw it; none when unset
};

// A state's place in the comparison: the headline's own, measured in a fresh process, left
// out (its library is not installed), or failed in its process.
enum class AllocatorStateStatus { Headline, Measured, Skipped, Failed };
std::string_view to_string(AllocatorStateStatus s);
std::optional<AllocatorStateStatus> parse_allocator_state_status(std::string_view s);

// A state's speedup from its own sampling. NaN: not measured (null in the document).
struct AllocatorSpeedup {
  double estimate = NAN, low = NAN, high = NAN;
  double confidence = NAN;  // the interval's confidence, as the row's speedup gives it
};

// What a state's process measured. The headline's are the first row's own figures.
struct AllocatorFigures {
  std::optional<std::string> detected;       // DetectedAllocator::kind in that process; none: not known
  double eager_ns = NAN, compiled_ns = NAN;  // the medians
  std::optional<AllocatorSpeedup> speedup;
  int blocks = 0;  // block pairs sampled
  double sampling_s = NAN;
};

struct AllocatorStateEntry {
  std::string state;
  std::string description;  // core::describe's words, as written
  AllocatorStateStatus status = AllocatorStateStatus::Measured;
  std::optional<std::string> library;       // the preloaded library; none without one
  std::optional<std::string> reason;        // why it was left out or failed, or what spoiled its figures
  std::optional<AllocatorFigures> figures;  // none for a state left out (no process ran)
};

// Whether the other states are timed, and on how much sampling.
struct AllocatorComparePlan {
  bool enabled = false;
  std::optional<std::string> skipped_reason;  // why not; none when enabled
  double budget_s = NAN;                      // seconds of sampling per compared state; NaN when not enabled
  std::optional<std::string> row;             // the row compared (the first), once it was measured
};

struct AllocatorComparison {
  std::string state;  // the headline's (--allocator)
  std::string description;
  std::optional<std::string> library;     // the preloaded library; none for system and settled
  std::optional<std::string> ld_preload;  // what the headline's processes were given
  bool settled = false;                   // the headline's agents freed the settling block
  DetectedAllocator detected;             // what the main agent found
  AllocatorComparePlan compare;
  std::vector<AllocatorStateEntry> states;  // the headline's first, then the measured, then those left out
  // bench::conclude_allocator's decision; none until it ran.
  std::optional<bool> differs;
  std::optional<bool> processes_disagree;
  std::optional<std::string> best_state;  // the measured state with the fastest compiled call
};

}  // namespace tct::bench
