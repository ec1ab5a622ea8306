// The HTML section of tct job: the chart of each mode's total time against the number of calls
// (measured up to the calls the job made, extrapolated beyond them with the loop's per-call
// time), the points where the fastest mode changes marked, then the tables.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "job/decide.hpp"
#include "job/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "report/svg.hpp"

namespace tct::job {
namespace {

using report::format_duration;
using report::format_duration_ns;
using report::html::esc;

// Points per mode's curve in the chart.
constexpr int kChartPoints = 60;
// Series colours in the page's stylesheet (report/html.cpp: .series.c0 .. c7).
constexpr int kColours = 8;

std::string chart(const JobResult& r) {
  double span = r.horizon_calls.value_or(0);
  for (const auto& m : r.modes)
    for (const auto& run : m.runs)
      if (run.ok()) span = std::max(span, static_cast<double>(run.anchor_calls));
  if (span < 2) return "";
  report::svg::LineChart c;
  c.title = "Total time of the job per mode against the number of calls";
  c.x.label = "calls of " + (r.anchor_name.empty() ? std::string("the busiest site") : r.anchor_name);
  c.y.label = "total time (s)";
  c.y.include_zero = true;
  c.width = 720;
  c.height = 360;
  int colour = 0;
  for (const auto& m : r.modes) {
    if (!m.ok()) continue;
    report::svg::Series s;
    s.name = m.spec.label() + (m.eligible() ? "" : " (not recommended)");
    s.css_class = fmt::format("c{}", colour++ % kColours);
    s.markers = false;
    for (int i = 0; i <= kChartPoints; ++i) {
      const double calls = 1 + (span - 1) * i / kChartPoints;
      const double t = mean_total_at(m, calls, r.anchor);
      if (!std::isfinite(t)) continue;
      s.points.push_back({calls, t / 1e9, NAN, NAN,
                          fmt::format("{}: {:.0f} calls, {}", m.spec.label(), calls, format_duration_ns(t))});
    }
    if (!s.points.empty()) c.series.push_back(std::move(s));
  }
  for (const auto& x : r.crossings)
    c.vlines.push_back({x.calls, fmt::format("{} leads from {:.0f}", x.to, x.calls), "ref", false});
  if (r.horizon_calls)
    c.vlines.push_back({*r.horizon_calls, fmt::format("{:.0f} calls", *r.horizon_calls), "steady", true});
  return report::svg::line_chart(c);
}

std::string verdict_cell(const Decision& d, const ModeResult& m) {
  if (d.best == m.spec.label()) return "<strong>best</strong>";
  const Comparison* c = d.find(m.spec.label());
  return c ? esc(comparison_text(*c)) : "";
}

}  // namespace

std::string html_section(const JobResult& r) {
  std::string out = R"(<section id="job"><h2>The job, each way</h2>)";
  out += "<p><strong>" + esc(answer(r)) + "</strong></p>";
  if (r.at_horizon) out += "<p>" + esc("as the job ran: " + decision_text(r, r.as_run, false)) + "</p>";
  out += "<figure>" + chart(r) +
         "<figcaption>Mean total time per mode (launch to exit) against the number of calls of the busiest site: "
         "measured up to the calls each run made, beyond them extrapolated with the run's time per call between "
         "calls; a dashed line marks where the fastest mode changes.</figcaption></figure>";
  const Decision& d = r.at_horizon ? *r.at_horizon : r.as_run;
  std::vector<std::vector<std::string>> rows;
  for (const auto& m : r.modes) {
    std::string note = !m.error.empty() ? "did not run: " + m.error
                       : (m.output.compared && !m.output.same)
                           ? fmt::format("output differs from eager's at line {}", m.output.line)
                       : m.failed ? fmt::format("{} run(s) failed", m.failed)
                                  : "";
    rows.push_back({esc(m.spec.label()), m.ok() ? esc(total_text(m.total)) : "failed",
                    m.at_horizon ? esc(total_text(*m.at_horizon)) : "",
                    m.ok() ? esc(format_duration_ns(m.loop_per_call.estimate)) : "", verdict_cell(d, m), esc(note)});
  }
  out += report::html::table({"Mode", "Wall time to exit",
                              r.horizon_calls ? fmt::format("At {:.0f} calls", *r.horizon_calls) : "At the horizon",
                              "Per call (loop)", "Against the best", "Note"},
                             rows);
  out += shape_fixes_html(r);
  std::vector<std::vector<std::string>> sites;
  for (const auto& m : r.modes)
    for (const auto& s : m.sites)
      sites.push_back({esc(m.spec.label()), esc(s.name), std::to_string(s.calls), esc(total_text(s.first_output)),
                       esc(total_text(s.steady)), compiles(m.spec.how) ? esc(format_duration(s.compile_time)) : "",
                       compiles(m.spec.how) ? esc(fmt::format("{} hit, {} miss", s.cache_hits, s.cache_misses)) : ""});
  out += "<h3>Per call site</h3>" +
         report::html::table({"Mode", "Site", "Calls", "First output", "Steady per call", "Compile", "Cache"}, sites);
  out += aoti_html(r);
  for (const auto& n : r.notes) out += R"(<p class="muted">)" + esc(n) + "</p>";
  return out + "</section>";
}

std::vector<report::html::Card> html_cards(const JobResult& r) {
  const Decision& d = r.at_horizon ? *r.at_horizon : r.as_run;
  if (d.best.empty()) return {};
  const ModeResult* best = r.find(d.best);
  const stats::Interval& t = r.at_horizon && best->at_horizon ? *best->at_horizon : best->total;
  return {{"Best way to run the job", d.best,
           fmt::format("{}{}", total_text(t), r.at_horizon ? " for " + horizon_text(r) : " as it ran"),
           d.clear() ? "good" : "neutral", "#job"}};
}

}  // namespace tct::job
