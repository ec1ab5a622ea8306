#include "bench/allocator_rows.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/format.hpp"

namespace tct::report {

using bench::AllocatorStateStatus;

std::string allocator_state_label(const std::optional<bench::AllocatorComparison>& a) {
  if (!a || a->state.empty()) return "";
  std::string out = a->state;
  const std::string& kind = a->detected.kind;
  if (!kind.empty() && kind != out) out += " (" + kind + ")";
  return out;
}

AllocatorTable allocator_table(const std::optional<bench::AllocatorComparison>& a) {
  AllocatorTable t;
  if (!a) return t;
  t.header = {"allocator", "eager", "compiled", "speedup", ""};
  for (const auto& s : a->states) {
    const bool left_out = s.status == AllocatorStateStatus::Skipped || s.status == AllocatorStateStatus::Failed;
    std::string name = s.state;
    if (s.status == AllocatorStateStatus::Headline) name += " (headline)";
    if (a->best_state && name == *a->best_state && !left_out) name += " fastest";
    if (left_out) {
      t.rows.push_back({name, "-", "-", "-", std::string(bench::to_string(s.status)) + ": " + s.reason.value_or("")});
      continue;
    }
    const bench::AllocatorFigures f = s.figures.value_or(bench::AllocatorFigures{});
    std::string speed = "n/a";
    if (f.speedup && std::isfinite(f.speedup->estimate)) {
      const double est = f.speedup->estimate, lo = f.speedup->low, hi = f.speedup->high;
      speed = std::isfinite(lo) && std::isfinite(hi) ? fmt::format("{} [{:.2f}, {:.2f}]", format_ratio(est), lo, hi)
                                                     : format_ratio(est);
    }
    std::string note = s.description;
    if (s.library && !s.library->empty()) note += ", " + *s.library;
    if (f.detected && !f.detected->empty()) note += "; found " + *f.detected;
    if (s.reason && !s.reason->empty()) note += "; " + *s.reason;
    t.rows.push_back({name, format_duration_ns(f.eager_ns), format_duration_ns(f.compiled_ns), speed, note});
  }
  if (a->compare.skipped_reason && !a->compare.skipped_reason->empty())
    t.note = "other allocator states not measured: " + *a->compare.skipped_reason;
  else if (a->compare.enabled)
    t.note = fmt::format(
        "each other state in a fresh process, {} of sampling, one process: a figure for the "
        "comparison, not a verdict",
        format_duration_ns(a->compare.budget_s * 1e9));
  return t;
}

}  // namespace tct::report
