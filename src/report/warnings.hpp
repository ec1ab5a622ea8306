#pragma once
// Warnings are data: one enum, one formatter. Each says what is wrong with a number and
// what to do about it; renderers print them next to the number they concern.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

// "warning: MESSAGE (HINT)" for terminals and Markdown.
std::string format_warning(const nlohmann::json& warning);

// One line per kind of warning, weightiest first (the catalog's order), notes and what the
// verdict implies left out (they are in --verbose and the JSON): "warning: MESSAGE" of the
// kind's worst warning (its largest figure; else its first), "(also ROW, ROW)" for the rest
// when they name their rows, else "(and N more like it)". Past max_lines, the last line names
// the remaining kinds by their titles.
// The hints are left to --verbose: the brief report names what is wrong, -v what to do.
std::vector<std::string> brief_warning_lines(const nlohmann::json& warnings, std::size_t max_lines = 4);

}  // namespace tct::report
