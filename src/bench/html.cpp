// A BenchResult in the HTML report: speedup per row (bar chart with intervals), the numbers
// table, the warm-up curve of each row, latency distributions eager against compiled,
// compile-time breakdown, correctness. Every verdict is a field of the result.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bench/allocator_rows.hpp"
#include "bench/aoti_render.hpp"
#include "bench/breakdown_render.hpp"
#include "bench/json.hpp"
#include "bench/render.hpp"
#include "bench/words.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "report/svg.hpp"

namespace tct::bench {
namespace {

namespace html = report::html;
using html::Card;
using html::esc;
using html::generic;
using html::json;
using html::speedup_figure;
using html::table;
using html::verdict_bar_class;
using html::verdict_tone;
namespace svg = report::svg;
using report::format_bytes;
using report::format_duration;
using report::format_duration_ns;
using report::format_ratio;
using report::json_text;

std::string row_label(const BenchRow& r) {
  if (!r.label.empty()) return r.label;
  std::string l = r.backend.empty() ? "?" : r.backend;
  if (r.mode != "default") l += " " + r.mode;
  if (r.dynamic != "auto") l += " dynamic=" + r.dynamic;
  if (r.fullgraph) l += " fullgraph";
  return l;
}

SpeedupVerdict row_verdict(const BenchRow& r) { return r.speedup ? r.speedup->verdict : SpeedupVerdict::NotMeasured; }

// The row's verdict as a colour: "faster", "slower", else "unsure".
stats::Interval interval_of(const BenchRow& r) { return r.speedup ? r.speedup->interval : stats::Interval{}; }

std::string ci_text(const BenchRow& r) {
  const stats::Interval iv = interval_of(r);
  if (!std::isfinite(iv.low) || !std::isfinite(iv.high)) return "";
  // The bounds as every other rendering prints them ("1.73x [1.64, 1.83]").
  const std::string note = stats::interval_note(row_verdict(r), iv);
  return fmt::format("[{:.2f}, {:.2f}]{}", iv.low, iv.high, note.empty() ? "" : " " + note);
}

std::string dur(double ns) { return format_duration_ns(ns); }
std::string dur(Nanoseconds d) { return format_duration(d); }

std::string fmt_ns_tick(double ns) { return format_duration_ns(ns); }

double bytes_or_nan(const std::optional<long long>& b) { return b ? static_cast<double>(*b) : NAN; }

double as_double(const std::optional<long long>& n) { return n ? static_cast<double>(*n) : NAN; }

std::string warmup_chart(const BenchResult& bench, const BenchRow& r) {
  const std::vector<double>& curve = r.warmup_curve_ns;
  if (curve.empty()) return "";
  svg::LineChart c;
  c.title = "Warm-up curve: " + row_label(r);
  c.x.label = "call number";
  c.x.include_zero = false;
  c.y.label = "latency per call (log scale)";
  c.y.log = true;
  c.y.format = fmt_ns_tick;
  svg::Series comp{"compiled (" + row_label(r) + ")", "compiled", {}, true, true, false};
  for (size_t i = 0; i < curve.size(); ++i)
    comp.points.push_back(
        {static_cast<double>(i + 1), curve[i], NAN, NAN,
         fmt::format("compiled call {}: {}{}", i + 1, dur(curve[i]), i == 0 ? " (includes compiling)" : "")});
  static const std::vector<double> none;
  const std::vector<double>& ew = bench.eager ? bench.eager->warmup_ns : none;
  svg::Series eager{"eager (warm-up calls before sampling)", "eager", {}, true, true, false};
  for (size_t i = 0; i < ew.size(); ++i)
    eager.points.push_back(
        {static_cast<double>(i + 1), ew[i], NAN, NAN, fmt::format("eager call {}: {}", i + 1, dur(ew[i]))});
  if (!eager.points.empty()) c.series.push_back(eager);
  c.series.push_back(comp);
  const double em = r.latency ? r.latency->eager_ns.median : NAN;
  if (std::isfinite(em)) c.hlines.push_back({em, "eager median " + dur(em), "eager", true});
  const bool steady = r.steady_state && r.steady_state->found;
  if (steady) {
    const Nanoseconds level = r.steady_state->level;
    if (measured(level)) c.hlines.push_back({level.count(), "compiled steady " + dur(level), "steady"});
    if (const auto start = r.steady_state->start_index)
      c.vlines.push_back({*start + 1.0, fmt::format("steady from call {}", *start + 1.0), "steady"});
  }
  c.x.min = 0.5;
  c.x.max = static_cast<double>(std::max(curve.size(), ew.size())) + 0.5;
  std::string caption =
      fmt::format("Per-call latency of the first {} compiled calls ({}): the first call compiles ({}).{}", curve.size(),
                  row_label(r), dur(curve[0]),
                  steady ? "" : " No steady state was found: the measured latency may still include warm-up.");
  return "<figure><figcaption>" + esc(caption) + "</figcaption>" + svg::line_chart(c) + "</figure>";
}

svg::Box box_of(const std::string& label, const std::string& cls, const stats::Summary& s,
                const std::vector<double>& samples) {
  svg::Box b;
  b.label = label;
  b.css_class = cls;
  b.min = s.min;
  b.p05 = s.p05;
  b.p25 = s.p25;
  b.median = s.median;
  b.p75 = s.p75;
  b.p95 = s.p95;
  b.max = s.max;
  b.samples = samples;
  return b;
}

std::string latency_chart(const std::vector<BenchRow>& rows) {
  svg::BoxPlot p;
  p.title = "Latency distributions, eager against compiled";
  p.x.label = "latency per call";
  p.x.format = fmt_ns_tick;
  double lo = INFINITY, hi = 0;
  static const std::vector<double> none;
  for (const auto& r : rows) {
    if (!r.measured() || !r.latency) continue;
    const std::string l = row_label(r);
    p.boxes.push_back(box_of(l + " · eager", "eager", r.latency->eager_ns, r.samples ? r.samples->eager_ns : none));
    p.boxes.push_back(
        box_of(l + " · compiled", "compiled", r.latency->compiled_ns, r.samples ? r.samples->compiled_ns : none));
    for (const stats::Summary* side : {&r.latency->eager_ns, &r.latency->compiled_ns}) {
      if (std::isfinite(side->p05) && side->p05 > 0) lo = std::min(lo, side->p05);
      if (std::isfinite(side->p95)) hi = std::max(hi, side->p95);
    }
  }
  if (p.boxes.empty()) return "";
  // A log axis when the spread covers more than a decade and a half (outliers on a shared
  // machine), else linear over the whiskers (svg::box_plot keeps min, max and stray samples
  // off the axis), so that the boxes are wide enough to compare.
  p.x.log = std::isfinite(lo) && hi / lo > 30;
  return "<figure><figcaption>Latency per call, steady state: box p25..p75 with the median, whiskers p05..p95, "
         "circles min and max (an arrowhead at the edge when one lies beyond the axis)" +
         std::string(p.x.log ? " (log scale: the spread is wide)" : "") + ".</figcaption>" + svg::box_plot(p) +
         "</figure>";
}

std::string speedup_chart(const std::vector<BenchRow>& rows) {
  std::vector<svg::Bar> bars;
  for (const auto& r : rows) {
    svg::Bar b;
    b.label = row_label(r);
    if (!r.measured()) {
      b.css_class = "failed";
      b.annotation = "failed: " + (r.error ? r.error->message : std::string(to_string(r.status)));
      if (b.annotation.size() > 40) b.annotation = b.annotation.substr(0, 37) + "...";
    } else {
      const stats::Interval iv = interval_of(r);
      b.value = iv.estimate;
      b.low = iv.low;
      b.high = iv.high;
      b.css_class = verdict_bar_class(row_verdict(r));
      // Short enough for the space right of the chart: the table says why it is inconclusive.
      b.annotation =
          report::format_speedup_interval(iv) + (row_verdict(r) == SpeedupVerdict::Inconclusive ? " inconclusive" : "");
      b.tip = b.label + ": " + b.annotation;
    }
    bars.push_back(b);
  }
  return speedup_figure("Speedup of compiled over eager, per configuration", "Speedup with its 95% interval",
                        std::move(bars));
}

// The outputs' words, coloured by how they compared.
std::string correctness_html(const BenchRow& r) {
  const char* tone = "muted";
  switch (output_check(r)) {
    case OutputCheck::Match: tone = "good"; break;
    case OutputCheck::MatchWithinSpread: tone = "warn"; break;
    case OutputCheck::Mismatch: tone = "bad"; break;
    case OutputCheck::NotChecked:
    case OutputCheck::Skipped:
    case OutputCheck::Inconclusive: break;
  }
  return fmt::format("<span class=\"{}\">{}</span>", tone, esc(correctness_words(r)));
}

// The compile time once: the first row's cold compile *is* its first call in the main
// process, so the first call is named only when no cold figure exists (as in the terminal).
std::string compile_html(const Compile& comp) {
  auto spread = [&](const std::optional<CompileSpread>& s) {
    return s && s->n > 1 ? fmt::format(" ({} .. {}, {} runs)", dur(s->min), dur(s->max), s->n)
                         : std::string(" (single measurement)");
  };
  static const std::optional<CompileSpread> none;
  std::string out;
  if (measured(comp.cold))
    out = "<span class=\"nw\">cold " + esc(dur(comp.cold) + spread(comp.repeated ? comp.repeated->cold : none)) +
          "</span>";
  else out = "<span class=\"nw\">first call " + esc(dur(comp.first_call)) + "</span>";
  if (measured(comp.warm)) {
    out += "<br><span class=\"nw\">warm cache " +
           esc(dur(comp.warm) + spread(comp.repeated ? comp.repeated->warm : none)) + "</span>";
    if (comp.warm_cache_hit() == false) out += " <span class=\"pill warn\">not a cache hit</span>";
  }
  return out;
}

std::string memory_cell(const BenchRow& r) {
  if (!r.memory) return "<span class=\"muted\">n/a</span>";
  const Memory& m = *r.memory;
  const double compiled = m.compiled ? bytes_or_nan(m.compiled->increase_bytes) : NAN;
  std::string out =
      esc(fmt::format("+{} / +{}", format_bytes(bytes_or_nan(m.eager_increase_bytes)), format_bytes(compiled)));
  const double peak = m.compiled ? bytes_or_nan(m.compiled->compile_peak_increase_bytes) : NAN;
  if (std::isfinite(peak))
    out += "<br><span class=\"muted\">" +
           esc(fmt::format("compiler: peak +{}, kept +{}", format_bytes(peak),
                           format_bytes(m.compiled->compiler_kept_bytes))) +
           "</span>";
  return out;
}

std::string rows_table(const std::vector<BenchRow>& rows) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : rows) {
    if (!r.measured()) {
      const RowError e = r.error.value_or(RowError{});
      out.push_back({esc(row_label(r)), "<span class=\"pill bad\">" + esc(std::string(to_string(r.status))) + "</span>",
                     esc(e.message) + (e.stage.empty() ? "" : " <span class=\"muted\">[" + esc(e.stage) + "]</span>") +
                         (e.hint.empty() ? "" : "<br><span class=\"muted\">" + esc(e.hint) + "</span>"),
                     "", "", "", "", "", ""});
      continue;
    }
    std::string sp =
        fmt::format("<span class=\"{}\"><strong>{}</strong></span> <span class=\"muted\">{}</span>",
                    verdict_tone(row_verdict(r)), esc(format_ratio(interval_of(r).estimate)), esc(ci_text(r)));
    std::vector<std::string> flags;  // each once (two warnings of one kind give one flag twice)
    for (const auto& f : r.flags)
      if (std::find(flags.begin(), flags.end(), f.text) == flags.end()) flags.push_back(f.text);
    for (const auto& f : flags) sp += " <span class=\"pill warn\">" + esc(f) + "</span>";
    std::string breaks = esc(r.graph_breaks ? std::to_string(*r.graph_breaks) : "?");
    if (const int rec = r.recompiles_during_measurement.value_or(0); rec > 0)
      breaks += fmt::format(" <span class=\"pill warn\">{} recompiles</span>", rec);
    std::string label = esc(row_label(r)) + "<br><span class=\"muted\">" +
                        esc(fmt::format("{} blocks, stopped by {}", r.blocks, r.stop_reason.value_or("?"))) + "</span>";
    const double eager = r.latency ? r.latency->eager_ns.median : NAN;
    const double compiled = r.latency ? r.latency->compiled_ns.median : NAN;
    out.push_back({label, sp, esc(dur(eager)), esc(dur(compiled)),
                   r.aoti ? esc(aoti_summary(r)) : compile_html(r.compile), esc(break_even_words(r)), memory_cell(r),
                   correctness_html(r), breaks});
  }
  return table({"Configuration", "Speedup (95% CI)", "Eager median", "Compiled median", "Compile", "Break-even",
                "Peak memory above baseline (eager / compiled)", "Outputs", "Graph breaks"},
               out, "rows");
}

std::string breakdown(const std::vector<BenchRow>& rows) {
  std::string out;
  for (const auto& r : rows) {
    if (r.compile.breakdown.empty()) continue;
    std::vector<std::pair<double, std::string>> items;
    for (const auto& [name, ns] : r.compile.breakdown)
      if (measured(ns)) items.emplace_back(ns.count(), name);
    std::sort(items.rbegin(), items.rend());
    std::vector<std::vector<std::string>> t;
    for (size_t i = 0; i < items.size() && i < 12; ++i)
      t.push_back({"<code>" + esc(items[i].second) + "</code>", esc(dur(items[i].first))});
    out += "<details><summary>Compile-time breakdown: " + esc(row_label(r)) +
           " (torch's own timers, nested: they overlap)</summary>" + table({"Phase", "Total"}, t) + "</details>";
  }
  return out;
}

// Where a compiled call's time goes, per row: a stacked bar of the parts (shares of the profiled
// call), then the breakdown's lines (bench/breakdown_render.cpp).
std::string call_breakdown_html(const std::vector<BenchRow>& rows) {
  std::string out;
  for (const auto& r : rows) {
    if (!r.breakdown) continue;
    const CallBreakdown& b = *r.breakdown;
    std::string lines;
    for (const auto& l : breakdown_lines(b)) lines += esc(l) + "\n";
    out += "<h3>Where a compiled call's time goes: " + esc(row_label(r)) + "</h3>" + breakdown_bar_html(b) + "<pre>" +
           lines + "</pre>";
  }
  return out;
}

// A measured number of a leaf, in 7 significant digits; "" when the agent gave none.
std::string measured_text(double v) { return std::isfinite(v) ? fmt::format("{:.7g}", v) : ""; }

// The worst element's value: a real one as a number, a complex one as the agent's [re, im].
std::string element_text(const std::optional<ElementValue>& v) {
  if (!v) return "";
  if (!v->im) return measured_text(v->re);
  return json::array({core::number_or_null(v->re), core::number_or_null(*v->im)}).dump();
}

// Per row: the mismatches, then every compared leaf (worst element, errors, the share of
// elements beyond tolerance, and the rule it passed by).
std::string mismatches(const std::vector<BenchRow>& rows) {
  std::string out;
  for (const auto& r : rows) {
    if (!r.correctness) continue;
    const Correctness& c = *r.correctness;
    if (!c.mismatches.empty()) {
      json m = json::array();
      for (const auto& x : c.mismatches) m.push_back({{"path", x.path}, {"reason", x.reason}});
      out += "<h3 class=\"bad\">Outputs differ: " + esc(row_label(r)) + "</h3>" + generic(m);
    }
    if (!c.leaf_results || c.leaf_results->empty()) continue;
    const auto& leaves = *c.leaf_results;
    std::vector<std::vector<std::string>> t;
    for (const auto& l : leaves) {
      const LeafMeasured& m = l.measured;
      t.push_back({"<code>" + esc(l.path) + "</code>", esc(l.dtype),
                   l.match ? "<span class=\"good\">ok</span>" : "<span class=\"bad\">differs</span>", esc(l.basis),
                   esc(measured_text(m.max_abs_diff)), esc(measured_text(m.max_rel_diff)),
                   l.fraction_out_of_tolerance ? esc(fmt::format("{:.3g}%", 100 * *l.fraction_out_of_tolerance)) : "",
                   esc(m.worst_index ? json(*m.worst_index).dump() : std::string()),
                   esc(element_text(m.expected_at_worst)), esc(element_text(m.actual_at_worst))});
    }
    json nc = json::array();
    if (c.not_compared)
      for (const auto& n : *c.not_compared) nc.push_back({{"path", n.path}, {"type", n.type}});
    out += "<details><summary>Output check: " + esc(row_label(r)) + fmt::format(" ({} leaves", leaves.size()) +
           (nc.empty() ? std::string() : fmt::format(", {} not compared", nc.size())) + ")</summary>" +
           table({"Leaf", "dtype", "", "Rule", "Max abs diff", "Max rel diff", "Beyond tolerance", "Worst at",
                  "Expected", "Got"},
                 t) +
           (nc.empty() ? std::string() : "<p>Not compared (no equality of their own): " + generic(nc) + "</p>") +
           "</details>";
  }
  return out;
}

std::string target_line(const core::LoadedTarget& target) {
  if (target.raw.is_string()) return "<p>Target <code>" + esc(target.raw.get<std::string>()) + "</code></p>";
  if (!target.given()) return "";
  const core::reply::TargetLoad& t = target.view;
  std::string s = fmt::format("<p>Target <code>{}</code>", esc(t.spec));
  std::vector<std::string> bits;
  for (const std::string* k : {&t.kind, &t.fn_name, &t.device, &t.dtype, &t.mode})
    if (!k->empty()) bits.push_back(*k);
  if (!bits.empty()) {
    std::string joined;
    for (const auto& b : bits) joined += (joined.empty() ? "" : ", ") + b;
    s += " <span class=\"muted\">(" + esc(joined) + ")</span>";
  }
  if (t.params.is_object() && !t.params.empty()) s += " params <code>" + esc(t.params.dump()) + "</code>";
  if (std::isfinite(t.parameter_count)) s += esc(fmt::format(", {:.0f} parameters", t.parameter_count));
  return s + "</p>";
}

}  // namespace

std::vector<report::html::Card> html_cards(const BenchResult& b) {
  const std::vector<BenchRow>& rows = b.rows;
  if (rows.empty()) return {};
  const BenchRow* best = b.best_row();
  std::vector<Card> cards;
  if (!best) {
    cards.push_back(
        {"Speedup", "failed", rows[0].error ? rows[0].error->message : "every configuration failed", "bad", "#bench"});
    return cards;
  }
  const SpeedupVerdict verdict = row_verdict(*best);
  // An inconclusive interval says so itself (ci_text); it does not mean "no difference".
  std::string what = verdict == SpeedupVerdict::Inconclusive ? "" : std::string(describe(verdict)) + ", ";
  cards.push_back({rows.size() > 1 ? "Best speedup" : "Speedup", format_ratio(interval_of(*best).estimate),
                   fmt::format("{}: {}95% CI {}", row_label(*best), what, ci_text(*best)), verdict_tone(verdict),
                   "#bench"});
  const Compile& comp = best->compile;
  const double be = as_double(best->break_even_calls);
  const bool cold = measured(comp.cold);
  const Nanoseconds cost = cold ? comp.cold : comp.first_call;
  if (measured(cost))
    cards.push_back(
        {"Compile cost", format_duration(cost),
         (cold ? "cold compile; break-even " : "first compiled call; break-even ") + break_even_words(*best),
         std::isfinite(be) ? "neutral" : "warn", "#bench"});
  for (const auto& r : rows)
    if (r.correctness && r.correctness->checked && r.correctness->match == false) {
      cards.push_back({"Outputs", "differ", row_label(r) + ": compiled outputs differ from eager", "bad", "#bench"});
      break;
    }
  return cards;
}

std::string html_section(const BenchResult& b) {
  const std::vector<BenchRow>& rows = b.rows;
  std::string out = R"(<section id="bench"><h2>Speed: eager against torch.compile</h2>)";
  out += target_line(b.target);
  if (rows.empty()) {
    out += "<p class=\"muted\">No configuration was measured";
    if (!b.phase.empty()) out += " (stopped in phase " + esc(b.phase) + ")";
    return out + ".</p></section>";
  }
  out += speedup_chart(rows);
  out += "<div class=\"scroll\">" + rows_table(rows) + "</div>";
  if (auto at = report::allocator_table(b.allocator); !at.rows.empty()) {
    std::vector<std::vector<std::string>> cells;
    for (const auto& r : at.rows) {
      std::vector<std::string> escaped;
      for (const auto& c : r) escaped.push_back(esc(c));
      cells.push_back(escaped);
    }
    out += "<h3>Allocator</h3><p class=\"muted\">" +
           esc("The headline is measured in " + report::allocator_state_label(b.allocator) +
               "; the first row in each state:") +
           "</p>" + "<div class=\"scroll\">" + table(at.header, cells) + "</div>";
    if (!at.note.empty()) out += "<p class=\"muted\">" + esc(at.note) + "</p>";
  }
  std::string charts;
  size_t shown = 0;
  for (const auto& r : rows)
    if (r.measured() && shown++ < 6) charts += warmup_chart(b, r);
  charts += latency_chart(rows);
  if (!charts.empty()) out += "<h3>Warm-up and latency</h3><div class=\"charts\">" + charts + "</div>";
  out += mismatches(rows);
  out += call_breakdown_html(rows);
  out += breakdown(rows);
  if (b.eager)
    out += "<p class=\"muted\">" +
           esc(fmt::format("Eager warm-up, before sampling: first call {}, then {} per call (the eager median in the "
                           "table is from the interleaved samples). Clock resolution {}.",
                           dur(b.eager->first_call), dur(b.eager->steady),
                           dur(b.clock ? b.clock->resolution : kNotMeasured))) +
           "</p>";
  return out + "</section>";
}

}  // namespace tct::bench
