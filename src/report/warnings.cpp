#include "report/warnings.hpp"

#include "report/warning.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tct::report {

namespace {

// The catalog: one row per warning. `implied_by_verdict`: the speedup verdict every report
// leads with already says it, so no brief line or flag repeats it.
struct Entry {
  WarningCode code;
  std::string_view name;  // the JSON "code"
  Severity severity;
  std::string_view title;
  bool implied_by_verdict = false;
};

// Severity: Error for a wrong or missing number; Note for how it was measured (and for
// explain_views_disagree, whose "explain alone says N" sits beside the count already).
// Within a severity the rows run from what most changes what a user should believe or do to
// what least does: the brief report keeps that order and folds the tail into one line.
constexpr Entry kCatalog[] = {
    {WarningCode::OutputMismatch, "output_mismatch", Severity::Error, "output mismatch"},
    {WarningCode::PartialResult, "partial_result", Severity::Error, "failed"},
    {WarningCode::RecompileDuringMeasure, "recompile_during_measurement", Severity::Caution,
     "recompiled during measurement"},
    {WarningCode::GraphBreaks, "graph_breaks", Severity::Caution, "graph breaks"},
    {WarningCode::Nondeterministic, "nondeterministic", Severity::Caution, "nondeterministic target"},
    {WarningCode::Oversubscribed, "oversubscribed", Severity::Caution, "oversubscribed"},
    {WarningCode::AllocatorMovesResult, "allocator_moves_result", Severity::Caution, "allocator moves the result"},
    {WarningCode::NoisyMeasurement, "noisy_measurement", Severity::Caution, "noisy"},
    {WarningCode::WarmCompileMissedCache, "warm_compile_missed_cache", Severity::Caution,
     "warm compile missed the cache"},
    {WarningCode::CudagraphsSkipped, "cudagraphs_skipped", Severity::Caution, "CUDA graphs skipped"},
    {WarningCode::PredictionModelsDefault, "prediction_models_default", Severity::Caution,
     "prediction is for inductor's default"},
    {WarningCode::NoFlopCeiling, "no_flop_ceiling", Severity::Caution, "no FLOP/s ceiling"},
    {WarningCode::FlopsNotCounted, "flops_not_counted", Severity::Caution, "FLOPs not counted"},
    {WarningCode::NoSteadyState, "no_steady_state", Severity::Caution, "no steady state in warm-up"},
    {WarningCode::PrecisionNotReached, "precision_not_reached", Severity::Caution, "precision not reached"},
    {WarningCode::SlowerThanEager, "slower_than_eager", Severity::Caution, "slower than eager", true},
    {WarningCode::Other, "other", Severity::Caution, "warning"},
    {WarningCode::CheckSkipped, "check_skipped", Severity::Note, "output check skipped"},
    {WarningCode::ClockResolution, "clock_resolution", Severity::Note, "batched"},
    {WarningCode::EnvironmentOverride, "environment_override", Severity::Note, "environment override"},
    {WarningCode::ExplainViewsDisagree, "explain_views_disagree", Severity::Note, "explain views disagree"},
    {WarningCode::ResumeLeftOut, "resume_left_out", Severity::Note, "entries left out"},
};

// The entry of a JSON code; a code this version does not know reads as "other".
const Entry& entry_of(std::string_view name) {
  const Entry* other = nullptr;
  for (const auto& e : kCatalog) {
    if (e.name == name) return e;
    if (e.code == WarningCode::Other) other = &e;
  }
  return *other;
}

// Where a code stands in the catalog: errors first, then cautions from the weightiest.
std::ptrdiff_t rank_of(std::string_view name) { return &entry_of(name) - std::begin(kCatalog); }

}  // namespace

std::string to_string(WarningCode code) {
  for (const auto& e : kCatalog)
    if (e.code == code) return std::string(e.name);
  return "other";
}

Severity severity_of(const std::string& code) { return entry_of(code).severity; }

std::string title_of(const std::string& code) { return std::string(entry_of(code).title); }

bool implied_by_verdict(const std::string& code) { return entry_of(code).implied_by_verdict; }

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

std::string format_warning(const Warning& w) {
  std::string s = "warning: " + message_of(w);
  const std::string hint = hint_of(w);
  if (!hint.empty()) s += " (" + hint + ")";
  return s;
}

std::vector<std::string> brief_warning_lines(const std::vector<Warning>& warnings, std::size_t max_lines) {
  struct Kind {
    std::string code;
    std::vector<const Warning*> said;  // its warnings, in the run's order
  };
  std::vector<Kind> kinds;
  for (const auto& w : warnings) {
    const std::string code = code_of(w);
    // Notes are details; what the verdict says is not said twice.
    if (severity_of(code) == Severity::Note || implied_by_verdict(code)) continue;
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& k) { return k.code == code; });
    if (it == kinds.end()) it = kinds.insert(kinds.end(), Kind{code, {}});
    it->said.push_back(&w);
  }
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const Kind& a, const Kind& b) { return rank_of(a.code) < rank_of(b.code); });
  auto figure = [](const Warning* w) {
    const auto f = figure_of(*w);
    return f && std::isfinite(*f) ? *f : -INFINITY;
  };
  std::vector<std::string> out;
  for (const auto& k : kinds) {
    // One line per kind: the words of its worst warning (the largest figure; the first
    // without figures), then the other configurations it touched when the warnings name
    // their rows, else how many more there are.
    const Warning* lead =
        *std::max_element(k.said.begin(), k.said.end(), [&](auto* a, auto* b) { return figure(a) < figure(b); });
    std::vector<std::string> rows;
    bool all_rows = true;
    for (const auto* w : k.said) {
      if (w == lead) continue;
      all_rows = all_rows && !w->row.empty();
      if (!w->row.empty() && w->row != lead->row && std::find(rows.begin(), rows.end(), w->row) == rows.end())
        rows.push_back(w->row);
    }
    const std::string message = message_of(*lead);
    std::string line = "warning: " + (message.empty() ? title_of(k.code) : message);
    if (all_rows && !rows.empty()) line += fmt::format(" (also {})", fmt::join(rows, ", "));
    else if (k.said.size() > 1) line += fmt::format(" (and {} more like it)", k.said.size() - 1);
    out.push_back(line);
  }
  // A busy machine raises five kinds at once; the lightest are named, not told, so the
  // warnings stay a glance: "warning: also no steady state in warm-up, precision not reached".
  if (max_lines > 0 && out.size() > max_lines) {
    std::vector<std::string> titles;
    for (std::size_t i = max_lines - 1; i < kinds.size(); ++i) titles.push_back(title_of(kinds[i].code));
    out.resize(max_lines - 1);
    out.push_back(fmt::format("warning: also {}", fmt::join(titles, ", ")));
  }
  return out;
}

}  // namespace tct::report
