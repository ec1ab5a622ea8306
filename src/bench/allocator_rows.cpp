#include "bench/allocator_rows.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/format.hpp"

namespace tct::report {

using json = nlohmann::json;

std::string allocator_state_label(const json& a) {
  if (!a.is_object() || !a.contains("state")) return "";
  std::string out = string_or(a, "state");
  const json& d = member(a, "detected");
  const std::string kind = string_or(d, "kind");
  if (!kind.empty() && kind != out) out += " (" + kind + ")";
  return out;
}

AllocatorTable allocator_table(const json& a) {
  AllocatorTable t;
  if (!a.is_object()) return t;
  t.header = {"allocator", "eager", "compiled", "speedup", ""};
  for (const auto& s : a.value("states", json::array())) {
    const std::string status = string_or(s, "status");
    std::string name = string_or(s, "state");
    if (status == "headline") name += " (headline)";
    if (name == string_or(a, "best_state") && status != "skipped" && status != "failed") name += " fastest";
    if (status == "skipped" || status == "failed") {
      t.rows.push_back({name, "-", "-", "-", status + ": " + string_or(s, "reason")});
      continue;
    }
    const json& sp = member(s, "speedup");
    std::string speed = "n/a";
    const double est = number_or_nan(sp, "estimate"), lo = number_or_nan(sp, "low"), hi = number_or_nan(sp, "high");
    if (std::isfinite(est))
      speed = std::isfinite(lo) && std::isfinite(hi) ? fmt::format("{} [{:.2f}, {:.2f}]", format_ratio(est), lo, hi)
                                                     : format_ratio(est);
    std::string note = string_or(s, "description");
    const std::string lib = string_or(s, "library");
    if (!lib.empty()) note += ", " + lib;
    const std::string detected = string_or(s, "detected");
    if (!detected.empty()) note += "; found " + detected;
    if (!string_or(s, "reason").empty()) note += "; " + string_or(s, "reason");
    t.rows.push_back({name, format_duration_ns(number_or_nan(s, "eager_ns")),
                      format_duration_ns(number_or_nan(s, "compiled_ns")), speed, note});
  }
  const json& c = member(a, "compare");
  if (!string_or(c, "skipped_reason").empty())
    t.note = "other allocator states not measured: " + string_or(c, "skipped_reason");
  else if (c.is_object() && c.value("enabled", false))
    t.note = fmt::format(
        "each other state in a fresh process, {} of sampling, one process: a figure for the "
        "comparison, not a verdict",
        format_duration_ns(number_or_nan(c, "budget_s") * 1e9));
  return t;
}

}  // namespace tct::report
