// The compare section of the HTML report: the verdict and the before/after table,
// regressions first (the order the result holds). Rendered from the CompareResult.
#include <fmt/format.h>

#include "compare/compare.hpp"
#include "compare/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::report::html {
namespace {

using compare::Change;
using compare::Entry;
using compare::EntryStatus;
using compare::Item;

// A side's cell: its words, coloured by what happened to it.
std::string side(const std::optional<Entry>& e) {
  if (!e) return "<span class=\"muted\">-</span>";
  const char* tone = e->status == EntryStatus::Failed     ? "bad"
                     : e->status == EntryStatus::NotRun   ? "muted"
                     : e->status == EntryStatus::Mismatch ? "warn"
                                                          : "";
  return fmt::format(R"(<span class="{}">{}</span>)", tone, esc(compare::entry_text(*e)));
}

// The pill's colour: red for what fails the gate or regressed, green for what got better.
const char* tone(const Item& i) {
  if (i.gate_failed || i.change == Change::Regression) return "bad";
  if (i.change == Change::Improvement || i.change == Change::Fixed) return "good";
  return "";
}

}  // namespace

}  // namespace tct::report::html

namespace tct::compare {

std::string html_section(const CompareResult& cmp) {
  using namespace report;
  using namespace report::html;
  std::string out = R"(<section id="compare"><h2>Compare</h2>)";
  out += fmt::format(
      R"(<p><span class="pill {}">{}</span> baseline <span class="loc">{}</span>, current <span class="loc">{}</span>; gate: a confident drop over {:.1f}%</p>)",
      cmp.passed ? "good" : "bad", cmp.passed ? "pass" : "fail", esc(cmp.baseline.path), esc(cmp.current.path),
      cmp.max_regression * 100);
  std::vector<std::vector<std::string>> rows;
  for (const auto& i : cmp.items)
    rows.push_back({"<span class=\"loc\">" + esc(i.id) + "</span>",
                    fmt::format(R"(<span class="pill {}">{}</span>)", report::html::tone(i),
                                esc(std::string(compare::to_string(i.change)))),
                    report::html::side(i.baseline), report::html::side(i.current), esc(format_change_interval(i.ratio)),
                    esc(compare::before_after(i, compare::graph_breaks_text, "→")),
                    esc(compare::before_after(i, compare::compile_text, "→"))});
  out += table({"Entry", "Change", "Speedup before", "Speedup after", "Ratio [95% CI]", "Graph breaks", "Compile"},
               rows, "rows");
  return out +
         "<p class=\"muted\">A change is a regression or improvement only when the 95% interval of after/before "
         "excludes 1.</p></section>";
}

}  // namespace tct::compare
