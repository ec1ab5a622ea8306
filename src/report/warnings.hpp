#pragma once
// Warnings are data: one enum, one formatter. Each says what is wrong with a number and
// what to do about it; renderers print them next to the number they concern.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tct::report {

enum class WarningCode {
  NoisyMeasurement,         // many outliers / wide interval
  PrecisionNotReached,      // budget ran out before the CI reached --precision
  NoSteadyState,            // the warm-up curve never settled
  RecompileDuringMeasure,   // dynamo recompiled while we were timing
  GraphBreaks,              // compiled code has graph breaks
  OutputMismatch,           // compiled outputs differ from eager
  Nondeterministic,         // eager differs from itself
  CheckSkipped,             // --no-check
  ClockResolution,          // calls shorter than the timer resolution: timed in batches
  SlowerThanEager,          // compiled is slower
  EnvironmentOverride,      // an environment variable changes compile behaviour
  PartialResult,            // a phase failed; what is shown was measured before it
  Other,                    // a code this version does not know (read from a newer document)
  ExplainViewsDisagree,     // explain and the logged compiled run report different breaks
  Oversubscribed,           // more torch threads than the cores other processes left free
  AllocatorMovesResult,     // the malloc state (glibc fresh/settled, tcmalloc, jemalloc) moves the speedup
  WarmCompileMissedCache,   // the warm compile was not a cache hit: its figure includes compiling
  CudagraphsSkipped,        // reduce-overhead ran without CUDA graphs
  ResumeLeftOut,            // suite --resume dropped entries outside this run's share
  PredictionModelsDefault,  // expect predicts inductor's default while the bench ran another configuration
  NoFlopCeiling,            // expect's FLOP/s ceiling could not be measured
  FlopsNotCounted,          // expect could not count FLOPs and bytes
};

std::string to_string(WarningCode code);

// How much a warning weighs on the answer: Error (a number is wrong or missing: outputs
// differ, a step failed), Caution (a number holds but needs its caveat), Note (how it was
// measured; the brief terminal report leaves notes to --verbose).
enum class Severity { Error, Caution, Note };
Severity severity_of(const std::string& code);

// A few words naming the warning ("noisy", "output mismatch").
std::string title_of(const std::string& code);

// The speedup verdict a report leads with already says it ("slower than eager"): no flag or
// brief line repeats it.
bool implied_by_verdict(const std::string& code);

// The flag printed beside the number a warning concerns: "! noisy", "!! OUTPUT MISMATCH" for
// an error, "(batched)" for a note.
std::string flag_of(const std::string& code);

}  // namespace tct::report
