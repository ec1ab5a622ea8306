// The compare section (doc["compare"]) as terminal text and Markdown: the verdict, then the
// before/after table with regressions first (the order src/analysis/compare.cpp gives),
// then entries found in one document only. Nothing is computed here.
#include <string>

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string speedup_text(const json& side) {
  if (!side.is_object()) return "-";
  std::string status = string_or(side, "status");
  if (status == "failed") return "failed (" + string_or(side, "error_kind", "?") + ")";
  if (status == "not_run") return "not run";
  std::string out = format_speedup_interval(member(side, "speedup"));
  if (status == "mismatch") out += " (outputs differ)";
  return out;
}

std::string pair_text(const json& item, const char* key, bool duration) {
  auto one = [&](const json& side) {
    const json& v = member(side, key);
    if (!v.is_number()) return std::string("-");
    return duration ? format_duration_ns(v.get<double>()) : json_text(v);
  };
  std::string b = one(member(item, "baseline")), c = one(member(item, "current"));
  return b == c ? b : b + " -> " + c;
}

std::string change_text(const json& item) {
  std::string c = string_or(item, "change");
  std::string words = c == "regression"       ? "REGRESSION"
                      : c == "improvement"    ? "improvement"
                      : c == "unchanged"      ? "no change (within noise)"
                      : c == "no_interval"    ? "not judged (no interval)"
                      : c == "broken"         ? "BROKEN (passed, now fails)"
                      : c == "fixed"          ? "fixed (failed, now passes)"
                      : c == "still_failing"  ? "still failing"
                      : c == "new_mismatch"   ? "OUTPUTS NOW DIFFER"
                      : c == "mismatch_fixed" ? "outputs match again"
                      : c == "only_baseline"  ? "only in baseline"
                      : c == "only_current"   ? "only in current"
                                              : c;
  if (item.value("gate_failed", false)) words += " (past --max-regression)";
  return words;
}

Table items_table(const json& cmp) {
  Table t({"entry", "change", "speedup before", "speedup after", "ratio [95% CI]", "graph breaks", "compile"});
  for (const auto& i : member(cmp, "items"))
    t.add({string_or(i, "id"), change_text(i), speedup_text(member(i, "baseline")), speedup_text(member(i, "current")),
           format_change_interval(member(i, "ratio")), pair_text(i, "graph_breaks", false), pair_text(i, "compile_ns", true)});
  return t;
}

std::string verdict(const json& cmp) {
  const json& counts = member(cmp, "counts");
  auto n = [&](const char* k) { return int_or_zero(counts, k); };
  std::string head = cmp.value("passed", false) ? "PASS" : "FAIL";
  std::string out = fmt::format("{}: {} regressed, {} improved, {} unchanged within noise", head, n("regression"),
                                n("improvement"), n("unchanged"));
  if (n("broken") + n("new_mismatch")) out += fmt::format(", {} newly failing, {} with outputs that now differ", n("broken"), n("new_mismatch"));
  if (n("fixed")) out += fmt::format(", {} fixed", n("fixed"));
  if (n("no_interval")) out += fmt::format(", {} not judged (no interval)", n("no_interval"));
  if (n("only_baseline") + n("only_current"))
    out += fmt::format(", {} only in baseline, {} only in current", n("only_baseline"), n("only_current"));
  out += fmt::format(" (gate: a confident drop over {:.1f}%)", number_or_nan(cmp, "max_regression") * 100);
  return out;
}

std::string sides(const json& cmp, bool markdown) {
  auto one = [](const json& s) {
    std::string torch = string_or(s, "torch");
    return fmt::format("{} ({}{})", string_or(s, "path"), string_or(s, "created"), torch.empty() ? "" : ", torch " + torch);
  };
  return "baseline " + one(member(cmp, "baseline")) + (markdown ? "; current " : "\ncurrent  ") +
         one(member(cmp, "current"));
}

std::string geomean_line(const json& cmp) {
  const json& g = member(cmp, "geomean");
  if (!g.is_object()) return "";
  return fmt::format("Geometric-mean speedup: {} -> {}", format_speedup_interval(member(g, "baseline")),
                     format_speedup_interval(member(g, "current")));
}

}  // namespace

std::string text_compare(const json& doc) {
  const json& cmp = member(doc, "compare");
  std::string out = verdict(cmp) + "\n" + sides(cmp, false) + "\n";
  std::string g = geomean_line(cmp);
  if (!g.empty()) out += g + "\n";
  return out + "\n" + items_table(cmp).str();
}

std::string markdown_compare(const json& doc) {
  const json& cmp = member(doc, "compare");
  std::string out = "**" + verdict(cmp) + "**\n\n";
  out += sides(cmp, true) + "\n\n";
  std::string g = geomean_line(cmp);
  if (!g.empty()) out += g + "\n\n";
  return out + items_table(cmp).markdown() + "\n\nSpeedups with 95% intervals; a change is called a regression or "
                                              "improvement only when the interval of after/before excludes 1.\n";
}

}  // namespace tct::report
