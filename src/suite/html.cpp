// The suite section of the HTML report: the summary, one chart (each entry's speedup with
// its interval) and a sortable table of the entries.
//
// Sorting without JavaScript: the report's Content-Security-Policy is default-src 'none'
// with no script at all, so that nothing from a document (model names, error messages) can
// ever run. Rather than loosen it for a sorting script (a CSP hash would have to be kept in
// step with the script), the table is rendered once per sort key, and radio buttons with
// CSS (:checked ~) show the one picked; clicking a column heading (a <label>) picks it. A
// suite of a hundred entries costs a few hundred rows of HTML.
#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "stats/verdict.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "report/svg.hpp"
#include "suite/json.hpp"
#include "suite/render.hpp"
#include "suite/summary.hpp"

namespace tct::report::html {
namespace {

using suite::EntryRecord;
using suite::SuiteResult;

template <class T>
double or_nan(const std::optional<T>& v) {
  return v ? static_cast<double>(*v) : NAN;
}

struct Column {
  const char* key;  // radio id suffix
  const char* title;
  // Sort value (NaN sorts last); ascending unless `descending`.
  std::function<double(const EntryRecord&)> value;
  bool descending;
};

std::string row_html(const EntryRecord& e) {
  const suite::EntryResult& r = e.result;
  const std::string status(suite::to_string(e.status));
  const std::string verdict(stats::to_string(r.verdict));
  std::string compile = format_duration_ns(r.compile ? r.compile->count() : NAN);
  if (r.compile_source == "first_call") compile += "*";
  auto count = [](const auto& v) { return v ? esc(json_text(json(*v))) : std::string("-"); };
  std::string why;
  if (e.error) why = "<br><span class=\"muted\">" + esc(e.error->kind) + ": " + esc(e.error->message) + "</span>";
  return fmt::format(
      "<tr><td class=\"loc\">{}</td><td class=\"num nw\"><span class=\"{}\">{}</span></td><td>{}</td><td "
      "class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td><span class=\"pill {}\">{}</span>{}</td></tr>",
      esc(e.entry.id), verdict_tone(r.verdict), esc(format_speedup_interval(r.speedup)), esc(verdict), esc(compile),
      count(r.break_even_calls), count(r.graph_breaks), esc(r.check.empty() ? "-" : r.check),
      e.status == suite::EntryStatus::Ok         ? "good"
      : e.status == suite::EntryStatus::Mismatch ? "warn"
                                                 : "bad",
      esc(status), why);
}

std::string sortable_table(const std::vector<EntryRecord>& entries) {
  const std::vector<Column> cols = {
      {"entry", "Entry", nullptr, false},
      {"speedup", "Speedup [95% CI]", [](const EntryRecord& e) { return e.result.speedup.estimate; }, false},
      {"verdict", "Verdict", nullptr, false},
      {"compile", "Compile", [](const EntryRecord& e) { return e.result.compile ? e.result.compile->count() : NAN; },
       true},
      {"breakeven", "Break-even calls", [](const EntryRecord& e) { return or_nan(e.result.break_even_calls); }, true},
      {"breaks", "Graph breaks", [](const EntryRecord& e) { return or_nan(e.result.graph_breaks); }, true},
      {"check", "Output check", nullptr, false},
      {"status", "Status", nullptr, false},
  };
  std::vector<const EntryRecord*> base;
  for (const auto& e : entries) base.push_back(&e);

  std::string css, radios, tables;
  bool first = true;
  for (const auto& c : cols) {
    if (!c.value && std::string(c.key) != "entry") continue;  // sortable: entry and the numbers
    std::vector<const EntryRecord*> rows = base;
    if (c.value)
      std::stable_sort(rows.begin(), rows.end(), [&](const EntryRecord* a, const EntryRecord* b) {
        double x = c.value(*a), y = c.value(*b);
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
        return c.descending ? x > y : x < y;
      });
    std::string id = fmt::format("suite-sort-{}", c.key);
    radios += fmt::format(R"(<input type="radio" name="suite-sort" id="{}"{}>)", id, first ? " checked" : "");
    css += fmt::format(
        "#{0}:checked~.by-{1}{{display:block}}#{0}:checked~.by-{1} th.k-{1}{{text-decoration:underline}}", id, c.key);
    std::string head = "<thead><tr>";
    for (const auto& h : cols) {
      std::string label = esc(h.title);
      if (h.value || std::string(h.key) == "entry")
        label = fmt::format(R"(<label for="suite-sort-{}" title="sort by {}">{} {}</label>)", h.key, esc(h.title),
                            label, h.value ? (h.descending ? "&#9660;" : "&#9650;") : "&#9650;");
      head += fmt::format(R"(<th class="k-{}">{}</th>)", h.key, label);
    }
    head += "</tr></thead>";
    std::string body;
    for (const EntryRecord* e : rows) body += row_html(*e);
    tables += fmt::format(R"(<div class="sorted by-{}"><table class="rows">{}<tbody>{}</tbody></table></div>)", c.key,
                          head, body);
    first = false;
  }
  return "<style>.sortable>input{position:absolute;opacity:0;pointer-events:none}.sortable .sorted{display:none}"
         ".sortable label{cursor:pointer}" +
         css + "</style><div class=\"sortable scroll\">" + radios + tables + "</div>";
}

// An entry id that fits the chart's label column (about 32 characters): its start (the
// target) and its end (the settings that tell matrix points apart), the middle elided.
// The full id is in the bar's tooltip and the table.
std::string elide_middle(const std::string& id, std::size_t max) {
  if (id.size() <= max) return id;
  std::size_t head = (max - 1) * 2 / 5, tail = max - 1 - head;
  return id.substr(0, head) + "…" + id.substr(id.size() - tail);
}

std::string speedup_chart(const SuiteResult& suite) {
  std::vector<svg::Bar> bars;
  for (const auto& e : suite.entries) {
    svg::Bar b;
    b.label = elide_middle(e.entry.id, 32);
    const stats::Interval& sp = e.result.speedup;
    b.value = sp.estimate;
    if (!std::isfinite(b.value)) {
      b.css_class = "failed";
      b.annotation = std::string(suite::to_string(e.status)) + (e.error ? fmt::format(": {}", e.error->kind) : "");
    } else {
      b.low = sp.low;
      b.high = sp.high;
      b.css_class = verdict_bar_class(e.result.verdict);
      b.annotation = format_speedup_interval(sp);
      b.tip = e.entry.id + ": " + b.annotation;
    }
    bars.push_back(b);
  }
  return speedup_figure("Speedup of each suite entry, with its 95% interval", "Speedup per entry with its 95% interval",
                        std::move(bars));
}

}  // namespace

}  // namespace tct::report::html

namespace tct::suite {

std::vector<report::html::Card> html_cards(const SuiteResult& suite) {
  using namespace report;
  using namespace report::html;
  if (suite.listing) return {};
  const SuiteSummary& s = suite.summary;
  std::vector<Card> cards;
  if (s.geomean) {
    const stats::Interval& g = s.geomean->interval;
    cards.push_back({"Geometric-mean speedup", format_ratio(g.estimate),
                     (std::isfinite(g.low) ? fmt::format("95% CI {:.2f}x .. {:.2f}x, ", g.low, g.high)
                                           : std::string("no interval, ")) +
                         fmt::format("{} passing entries", s.geomean->n),
                     verdict_tone(s.geomean->verdict), "#suite"});
  }
  cards.push_back({"Entries", fmt::format("{} of {} passed", s.ok, s.entries), suite::verdict_counts_text(s),
                   s.failed + s.mismatch ? "bad" : "good", "#suite"});
  return cards;
}

std::string html_section(const SuiteResult& suite) {
  using namespace report;
  using namespace report::html;
  std::string out = R"(<section id="suite"><h2>Suite )" + esc(short_path(suite.file)) + "</h2>";
  if (suite.listing) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& p : suite.plan)
      rows.push_back({"<span class=\"loc\">" + esc(p.entry.id) + "</span>", esc(p.entry.target),
                      generic(p.entry.settings), esc(std::to_string(p.shard))});
    return out + table({"Entry", "Target", "Settings", "Shard"}, rows) + "</section>";
  }
  const suite::SuiteSummary& s = suite.summary;
  std::vector<std::pair<std::string, std::string>> items;
  items.push_back({"Geometric-mean speedup",
                   !s.geomean ? "n/a"
                              : esc(format_speedup_interval(s.geomean->interval)) + " <span class=\"muted\">over " +
                                    esc(std::to_string(s.geomean->n)) + " passing entries, slowdowns included</span>"});
  std::string kinds;
  for (const auto& [k, n] : s.failures_by_kind) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", k, n);
  items.push_back({"Entries", esc(fmt::format("{} ok, {} failed, {} outputs differ{}", s.ok, s.failed, s.mismatch,
                                              kinds.empty() ? "" : " (" + kinds + ")"))});
  items.push_back({"Total compile time", esc(format_duration_ns(s.compile_ns_total))});
  items.push_back({"Entries' wall time", esc(format_duration_ns(s.wall_ns_total))});
  if (suite.shard) items.push_back({"Shard", esc(fmt::format("{} of {}", suite.shard->index, suite.shard->count))});
  if (suite.merged_from && !suite.merged_from->empty())
    items.push_back({"Merged from", esc(fmt::format("{} shard{}", suite.merged_from->size(),
                                                    suite.merged_from->size() == 1 ? "" : "s"))});
  out += facts(items) + speedup_chart(suite);
  out +=
      "<p class=\"muted\">Click a column heading to sort. * compile time of the first call in the measuring process "
      "(compile time not measured in fresh processes).</p>";
  out += sortable_table(suite.entries);
  return out + "</section>";
}

}  // namespace tct::suite
