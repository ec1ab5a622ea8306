#pragma once
// Warnings are data: one enum, one formatter. Each says what is wrong with a number and
// what to do about it; renderers print them next to the number they concern.
#include <string>

#include <nlohmann/json.hpp>

namespace tct::report {

enum class WarningCode {
  NoisyMeasurement,        // many outliers / wide interval
  PrecisionNotReached,     // budget ran out before the CI reached --precision
  NoSteadyState,           // the warm-up curve never settled
  RecompileDuringMeasure,  // dynamo recompiled while we were timing
  GraphBreaks,             // compiled code has graph breaks
  OutputMismatch,          // compiled outputs differ from eager
  Nondeterministic,        // eager differs from itself
  CheckSkipped,            // --no-check
  ClockResolution,         // calls shorter than the timer resolution: timed in batches
  SlowerThanEager,         // compiled is slower
  EnvironmentOverride,     // an environment variable changes compile behaviour
  PartialResult,           // a phase failed; what is shown was measured before it
  Other,
  ExplainViewsDisagree,    // explain and the logged compiled run report different breaks
};

std::string to_string(WarningCode code);

// {"code", "message", "hint"}: the shape every document's "warnings" array holds.
nlohmann::json make_warning(WarningCode code, std::string message, std::string hint = {});

// "warning: MESSAGE (HINT)" for terminals and Markdown.
std::string format_warning(const nlohmann::json& warning);

}  // namespace tct::report
