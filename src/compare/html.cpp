// The compare section of the HTML report: the verdict and the before/after table,
// regressions first (the order the result holds). Rendered from the CompareResult.
#include <fmt/format.h>

#include "compare/compare.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::report::html {
namespace {

using compare::Change;
using compare::Entry;
using compare::EntryStatus;
using compare::Item;

std::string speedup(const std::optional<Entry>& e) {
  if (!e) return "<span class=\"muted\">-</span>";
  if (e->status == EntryStatus::Failed)
    return "<span class=\"bad\">failed (" + esc(e->error_kind.empty() ? "?" : e->error_kind) + ")</span>";
  if (e->status == EntryStatus::NotRun) return "<span class=\"muted\">not run</span>";
  std::string out = esc(format_speedup_interval(e->speedup));
  if (e->status == EntryStatus::Mismatch) out += " <span class=\"warn\">(outputs differ)</span>";
  return out;
}

template <typename Get>
std::string both(const Item& item, Get get) {
  auto one = [&](const std::optional<Entry>& e) { return e ? get(*e) : std::string("-"); };
  std::string b = one(item.baseline), c = one(item.current);
  return esc(b == c ? b : b + " → " + c);
}

// The pill's colour: red for what fails the gate or regressed, green for what got better.
const char* tone(const Item& i) {
  if (i.gate_failed || i.change == Change::Regression) return "bad";
  if (i.change == Change::Improvement || i.change == Change::Fixed) return "good";
  return "";
}

}  // namespace

std::string section_compare(const json& doc) {
  const json& section = obj_at(doc, "compare");
  if (section.empty()) return "";
  const compare::CompareResult cmp = compare::compare_from_json(section);
  std::string out = R"(<section id="compare"><h2>Compare</h2>)";
  out += fmt::format(R"(<p><span class="pill {}">{}</span> baseline <span class="loc">{}</span>, current <span class="loc">{}</span>; gate: a confident drop over {:.1f}%</p>)",
                     cmp.passed ? "good" : "bad", cmp.passed ? "pass" : "fail", esc(cmp.baseline.path),
                     esc(cmp.current.path), cmp.max_regression * 100);
  auto breaks = [](const Entry& e) { return e.graph_breaks ? std::to_string(*e.graph_breaks) : std::string("-"); };
  auto compile = [](const Entry& e) { return e.compile ? format_duration_ns(e.compile->count()) : std::string("-"); };
  std::vector<std::vector<std::string>> rows;
  for (const auto& i : cmp.items)
    rows.push_back({"<span class=\"loc\">" + esc(i.id) + "</span>",
                    fmt::format(R"(<span class="pill {}">{}</span>)", tone(i), esc(std::string(compare::to_string(i.change)))),
                    speedup(i.baseline), speedup(i.current), esc(format_change_interval(i.ratio)), both(i, breaks),
                    both(i, compile)});
  out += table({"Entry", "Change", "Speedup before", "Speedup after", "Ratio [95% CI]", "Graph breaks", "Compile"}, rows, "rows");
  return out + "<p class=\"muted\">A change is a regression or improvement only when the 95% interval of after/before "
               "excludes 1.</p></section>";
}

}  // namespace tct::report::html
