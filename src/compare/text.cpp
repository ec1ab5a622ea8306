// The compare section as terminal text and Markdown: the verdict, then the before/after
// table with regressions first (the order compare.cpp gives), then entries found in one
// document only. Rendered from the CompareResult; nothing is decided here.
#include <string>

#include <fmt/format.h>

#include "compare/compare.hpp"
#include "report/format.hpp"
#include "compare/render.hpp"

namespace tct::report {
namespace {

using compare::Change;
using compare::CompareResult;
using compare::Entry;
using compare::Item;

std::string side_text(const std::optional<Entry>& e) { return e ? compare::entry_text(*e) : "-"; }

std::string change_text(const Item& item) {
  std::string words(compare::describe(item.change));
  if (item.gate_failed) words += " (past --max-regression)";
  return words;
}

Table items_table(const CompareResult& cmp) {
  Table t({"entry", "change", "speedup before", "speedup after", "ratio [95% CI]", "graph breaks", "compile"});
  for (const auto& i : cmp.items)
    t.add({i.id, change_text(i), side_text(i.baseline), side_text(i.current), format_change_interval(i.ratio),
           compare::before_after(i, compare::graph_breaks_text, "->"),
           compare::before_after(i, compare::compile_text, "->")});
  return t;
}

std::string verdict(const CompareResult& cmp) {
  auto n = [&](Change c) { return cmp.count(c); };
  std::string out =
      fmt::format("{}: {} regressed, {} improved, {} unchanged within noise", cmp.passed ? "PASS" : "FAIL",
                  n(Change::Regression), n(Change::Improvement), n(Change::Unchanged));
  if (n(Change::Broken) + n(Change::NewMismatch))
    out +=
        fmt::format(", {} newly failing, {} with outputs that now differ", n(Change::Broken), n(Change::NewMismatch));
  if (n(Change::Fixed)) out += fmt::format(", {} fixed", n(Change::Fixed));
  if (n(Change::NoInterval)) out += fmt::format(", {} not judged (no interval)", n(Change::NoInterval));
  if (n(Change::OnlyBaseline) + n(Change::OnlyCurrent))
    out += fmt::format(", {} only in baseline, {} only in current", n(Change::OnlyBaseline), n(Change::OnlyCurrent));
  out += fmt::format(" (gate: a confident drop over {:.1f}%)", cmp.max_regression * 100);
  return out;
}

std::string sides(const CompareResult& cmp, bool markdown) {
  auto one = [](const compare::Side& s) {
    return fmt::format("{} ({}{})", s.path, s.created, s.torch.empty() ? "" : ", torch " + s.torch);
  };
  return "baseline " + one(cmp.baseline) + (markdown ? "; current " : "\ncurrent  ") + one(cmp.current);
}

std::string geomean_line(const CompareResult& cmp) {
  if (!cmp.geomean) return "";
  return fmt::format("Geometric-mean speedup: {} -> {}", format_speedup_interval(cmp.geomean->baseline),
                     format_speedup_interval(cmp.geomean->current));
}

}  // namespace

}  // namespace tct::report

namespace tct::compare {

std::string text(const CompareResult& cmp) {
  using namespace report;
  std::string out = verdict(cmp) + "\n" + sides(cmp, false) + "\n";
  std::string g = geomean_line(cmp);
  if (!g.empty()) out += g + "\n";
  return out + "\n" + items_table(cmp).str();
}

std::string markdown(const CompareResult& cmp) {
  using namespace report;
  std::string out = "**" + verdict(cmp) + "**\n\n";
  out += sides(cmp, true) + "\n\n";
  std::string g = geomean_line(cmp);
  if (!g.empty()) out += g + "\n\n";
  return out + items_table(cmp).markdown() +
         "\n\nSpeedups with 95% intervals; a change is called a regression or "
         "improvement only when the interval of after/before excludes 1.\n";
}

}  // namespace tct::compare
