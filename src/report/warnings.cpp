#include "report/warnings.hpp"

namespace tct::report {

std::string to_string(WarningCode code) {
  switch (code) {
    case WarningCode::NoisyMeasurement: return "noisy_measurement";
    case WarningCode::PrecisionNotReached: return "precision_not_reached";
    case WarningCode::NoSteadyState: return "no_steady_state";
    case WarningCode::RecompileDuringMeasure: return "recompile_during_measurement";
    case WarningCode::GraphBreaks: return "graph_breaks";
    case WarningCode::OutputMismatch: return "output_mismatch";
    case WarningCode::Nondeterministic: return "nondeterministic";
    case WarningCode::CheckSkipped: return "check_skipped";
    case WarningCode::ClockResolution: return "clock_resolution";
    case WarningCode::SlowerThanEager: return "slower_than_eager";
    case WarningCode::EnvironmentOverride: return "environment_override";
    case WarningCode::PartialResult: return "partial_result";
    case WarningCode::Other: return "other";
    case WarningCode::ExplainViewsDisagree: return "explain_views_disagree";
  }
  return "other";
}

nlohmann::json make_warning(WarningCode code, std::string message, std::string hint) {
  return {{"code", to_string(code)}, {"message", std::move(message)}, {"hint", std::move(hint)}};
}

std::string format_warning(const nlohmann::json& w) {
  std::string s = "warning: " + w.value("message", "");
  const std::string hint = w.value("hint", "");
  if (!hint.empty()) s += " (" + hint + ")";
  return s;
}

}  // namespace tct::report
