#include "report/warnings.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

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
    case WarningCode::Oversubscribed: return "oversubscribed";
    case WarningCode::AllocatorMovesResult: return "allocator_moves_result";
  }
  return "other";
}

Severity severity_of(const std::string& code) {
  if (code == "output_mismatch" || code == "partial_result") return Severity::Error;
  // explain_views_disagree: explain's report says "explain alone says N" beside the count already.
  if (code == "clock_resolution" || code == "check_skipped" || code == "environment_override" ||
      code == "explain_views_disagree")
    return Severity::Note;
  return Severity::Caution;
}

std::string title_of(const std::string& code) {
  if (code == "noisy_measurement") return "noisy";
  if (code == "precision_not_reached") return "precision not reached";
  if (code == "no_steady_state") return "no steady state in warm-up";
  if (code == "recompile_during_measurement") return "recompiled during measurement";
  if (code == "graph_breaks") return "graph breaks";
  if (code == "output_mismatch") return "output mismatch";
  if (code == "nondeterministic") return "nondeterministic target";
  if (code == "check_skipped") return "output check skipped";
  if (code == "clock_resolution") return "batched";
  if (code == "slower_than_eager") return "slower than eager";
  if (code == "environment_override") return "environment override";
  if (code == "partial_result") return "failed";
  if (code == "explain_views_disagree") return "explain views disagree";
  if (code == "oversubscribed") return "oversubscribed";
  if (code == "allocator_moves_result") return "allocator moves the result";
  return "warning";
}

std::string flag_of(const std::string& code) {
  std::string title = title_of(code);
  switch (severity_of(code)) {
    case Severity::Error:
      for (auto& c : title) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return "!! " + title;
    case Severity::Caution: return "! " + title;
    case Severity::Note: return "(" + title + ")";
  }
  return "! " + title;
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

namespace tct::report {

std::vector<std::string> brief_warning_lines(const nlohmann::json& warnings) {
  struct Kind {
    std::string code;
    const nlohmann::json* first;
    int more = 0;
  };
  std::vector<Kind> kinds;
  if (warnings.is_array())
    for (const auto& w : warnings) {
      if (!w.is_object()) continue;
      const std::string code = w.value("code", "other");
      // Notes are details; "slower than eager" is the verdict every brief report leads with.
      if (severity_of(code) == Severity::Note || code == "slower_than_eager") continue;
      auto it = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& k) { return k.code == code; });
      if (it == kinds.end()) kinds.push_back({code, &w});
      else ++it->more;
    }
  std::stable_sort(kinds.begin(), kinds.end(), [](const Kind& a, const Kind& b) {
    return static_cast<int>(severity_of(a.code)) < static_cast<int>(severity_of(b.code));
  });
  std::vector<std::string> out;
  for (const auto& k : kinds) {
    std::string line = "warning: " + k.first->value("message", title_of(k.code));
    if (k.more) line += fmt::format(" (and {} more like it)", k.more);
    out.push_back(line);
  }
  return out;
}

}  // namespace tct::report
