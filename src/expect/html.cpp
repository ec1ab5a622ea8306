// The expect section of the HTML report: the class (overhead, memory or compute bound) and
// what decided it, the predicted speedup range, suggestions, and the sweep chart (speedup
// against a parameter: predicted band, measured points with their intervals).
#include <cmath>

#include <fmt/format.h>

#include "core/json_read.hpp"
#include "core/json_number.hpp"
#include "expect/json.hpp"
#include "expect/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "report/svg.hpp"

namespace tct::expect {
namespace {

namespace html = report::html;
using html::Card;
using html::esc;
using html::facts;
using html::generic;
using html::json;
using html::obj_at;
using html::table;
namespace svg = report::svg;
using core::number_or_null;
using core::json_read::text;
using report::format_bytes;
using report::format_duration;
using report::format_duration_ns;
using report::format_percent;
using report::format_ratio;
using report::json_text;

std::string class_words(BoundClass c) { return label(c); }

std::string range_text(const SpeedupRange& r) {
  if (!std::isfinite(r.low) && !std::isfinite(r.high)) return "n/a";
  std::string range = format_ratio(r.low) + " .. " + format_ratio(r.high);
  return std::isfinite(r.point) ? format_ratio(r.point) + " (" + range + ")" : range;
}

std::string measured_text(const MeasuredSpeedup& m) {
  return format_ratio(m.estimate) + " [" + format_ratio(m.low) + ", " + format_ratio(m.high) + "]";
}

// 1.01e8 -> "101 MFLOP".
std::string si(double v, const char* unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 5) {
    v /= 1000;
    ++i;
  }
  return fmt::format("{:.3g} {}{}", v, prefixes[i], unit);
}

// "fixed_cost" -> "fixed cost".
std::string share_in_words(std::string key) {
  for (auto& c : key)
    if (c == '_') c = ' ';
  return key;
}

std::string cell_text(const json& v) {
  if (v.is_number_float()) return fmt::format("{:.4g}", v.get<double>());
  return json_text(v);
}
// A sweep value as a table cell: a float to 4 digits, null as nothing.
std::string cell_text(const SweepValue& v) {
  if (const double* d = std::get_if<double>(&v)) return fmt::format("{:.4g}", *d);
  return std::holds_alternative<std::nullptr_t>(v) ? "" : to_text(v);
}

// A decided_by value in the unit its metric name carries (*_ns, *_fraction), so a reader
// sees "12.8 us" and "16.1%" rather than 1.279e+04 and 0.1613.
std::string metric_value_text(const std::string& metric, const json& v) {
  auto ends_with = [&](const char* suffix) {
    const std::string s(suffix);
    return metric.size() >= s.size() && metric.compare(metric.size() - s.size(), s.size(), s) == 0;
  };
  if (v.is_number() && ends_with("_ns")) return format_duration_ns(v.get<double>());
  if (v.is_number() && ends_with("_fraction")) return format_percent(v.get<double>());
  return cell_text(v);
}

std::string sweep_chart(const Sweep& sweep) {
  if (sweep.points.empty()) return "";
  svg::LineChart c;
  c.title = "Speedup against " + sweep.param;
  c.x.label = sweep.param;
  c.y.label = "speedup (eager / compiled)";
  c.y.format = [](double v) { return fmt::format("{:g}x", v); };
  svg::Series predicted{"predicted range", "predicted", {}, false, false, true};
  svg::Series measured{"measured (95% CI)", "measured", {}, true, true, false};
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < sweep.points.size(); ++i) {
    const SweepPoint& p = sweep.points[i];
    std::string v = cell_text(p.value);
    c.x.categories.push_back(v);
    double x = static_cast<double>(i);
    const SpeedupRange pr = p.analysed ? p.analysed->predicted : SpeedupRange{};
    predicted.points.push_back({x, NAN, pr.low, pr.high,
                                fmt::format("{}={}: predicted {} ({})", sweep.param, v, range_text(pr),
                                            p.analysed ? class_words(p.analysed->cls) : "unknown")});
    const MeasuredSpeedup sp = p.speedup.value_or(MeasuredSpeedup{});
    if (p.speedup)
      measured.points.push_back({x, sp.estimate, sp.low, sp.high,
                                 fmt::format("{}={}: measured {} [{}, {}]", sweep.param, v, format_ratio(sp.estimate),
                                             format_ratio(sp.low), format_ratio(sp.high))});
    for (double y : {pr.low, pr.high, sp.estimate, sp.low, sp.high})
      if (std::isfinite(y) && y > 0) {
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
  }
  c.y.log = std::isfinite(lo) && hi / lo > 10;
  c.series.push_back(predicted);
  c.series.push_back(measured);
  c.hlines.push_back({1.0, "1x = eager", "ref"});
  return "<figure><figcaption>" +
         esc(fmt::format(
             "Speedup against {}: the grey band is the predicted range, the points the measured speedup with "
             "its 95% interval{}.",
             sweep.param, c.y.log ? " (log scale)" : "")) +
         "</figcaption>" + svg::line_chart(c) + "</figure>";
}

std::string sweep_table(const Sweep& sweep) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : sweep.points) {
    std::string measured = p.speedup ? esc(measured_text(*p.speedup)) : "";
    if (p.error) measured += "<span class=\"bad\">" + esc(p.error->message) + "</span>";
    std::string ok = !p.validation                   ? ""
                     : p.validation->direction_right ? "<span class=\"good\">right</span>"
                                                     : "<span class=\"bad\">wrong</span>";
    const std::string cls =
        !p.analysed ? "unknown" : class_words(p.analysed->cls) + (p.analysed->borderline_with ? " (borderline)" : "");
    rows.push_back({esc(cell_text(p.value)), esc(cls),
                    esc(range_text(p.analysed ? p.analysed->predicted : SpeedupRange{})), measured, ok,
                    esc(format_duration(p.analysed ? p.analysed->wall_per_call : kNotMeasured))});
  }
  std::string out =
      table({sweep.param, "Class", "Predicted", "Measured (95% CI)", "Direction", "Eager per call"}, rows);
  if (!sweep.class_changes.empty()) out += "<p>Class changes: " + generic(to_json(sweep.class_changes)) + "</p>";
  return out;
}

// When the same document measured the compiled speedup (audit) and it is no real gain, the
// "Compile it" suggestion is answered already: say so instead of suggesting it.
std::string measured_gain_note(const std::optional<MeasuredAsIs>& as_is) {
  if (!as_is || !as_is->no_real_gain) return "";
  const MeasuredSpeedup& s = as_is->speedup;
  return "<p class=\"muted\">" +
         esc(fmt::format("Compiling as it is was measured at {} [{:.2f}, {:.2f}] ({}): no real gain, so what is left "
                         "to try is below.",
                         format_ratio(s.estimate), s.low, s.high, as_is->label)) +
         "</p>";
}

}  // namespace

std::vector<Card> html_cards(const ExpectResult& r) {
  if (!r.analysis) return {};
  const Analysis& a = *r.analysis;
  const BoundClass cls = a.cls;
  std::vector<Card> cards{
      {"Bound by", class_words(cls) + borderline_mark(a), "predicted speedup " + range_text(a.predicted.range),
       cls == BoundClass::OverheadBound || cls == BoundClass::MemoryBound ? "good" : "neutral", "#expect"}};
  if (a.predicted.assumes == Assumes::NothingCompiled) {
    cards[0].detail += ": nothing compiles until the skipped frame is fixed";
    cards[0].tone = "bad";
  }
  if (const auto& v = r.validation)
    cards.push_back({"Measured", v->verdict + " the predicted range", v->summary,
                     !v->direction_right      ? "bad"
                     : v->verdict == "inside" ? "good"
                                              : "neutral",
                     "#expect"});
  return cards;
}

std::string html_section(const ExpectResult& r, const std::optional<MeasuredAsIs>& as_is) {
  std::string out = R"(<section id="expect"><h2>Should a gain be expected?</h2>)";
  // Before the profile is analysed (a checkpoint, or a run that stopped there) the class is
  // unknown and the range n/a; the evidence below is what the analysis found.
  const Analysis empty;
  const Analysis& a = r.analysis ? *r.analysis : empty;
  std::vector<std::pair<std::string, std::string>> items;
  items.push_back({"Class", "<strong>" + esc(class_words(a.cls)) + "</strong>" + esc(borderline_note(a))});
  items.push_back({"Predicted speedup", esc(range_text(a.predicted.range))});
  if (std::string note = compiled_note(a); !note.empty())
    items.push_back({"What compiled", "<span class=\"warn\">" + esc(note) + "</span>"});
  if (std::isfinite(a.flops_per_call)) items.push_back({"FLOPs per call", esc(si(a.flops_per_call, "FLOP"))});
  if (std::isfinite(a.bytes_per_call)) items.push_back({"Bytes moved per call", esc(format_bytes(a.bytes_per_call))});
  if (std::isfinite(a.arithmetic_intensity))
    items.push_back({"Arithmetic intensity", esc(fmt::format("{:.3g} FLOP/byte", a.arithmetic_intensity))});
  if (std::string guarded = guarded_text(a); !guarded.empty()) items.push_back({"Guarded per call", esc(guarded)});
  if (!a.flops_error.empty()) items.push_back({"FLOP count", "<span class=\"warn\">" + esc(a.flops_error) + "</span>"});
  if (r.analysis) {
    // In the section's key order (its JSON's), each share's name in words.
    const expect::TimeShares& t = a.time_shares;
    const std::pair<const char*, double> shares[] = {
        {"conv", t.conv},          {"fixed_cost", t.fixed},      {"kept_arithmetic", t.kept_arithmetic},
        {"library", t.library},    {"memory_traffic", t.memory}, {"other_compute", t.other},
        {"outside_ops", t.outside}};
    std::string s;
    for (const auto& [k, v] : shares)  // a document older than a share lacks it
      if (!std::isnan(v)) s += (s.empty() ? "" : ", ") + share_in_words(k) + " " + format_percent(v);
    items.push_back({"Eager time shares", esc(s)});
  }
  if (std::isfinite(a.roofline.fraction))
    items.push_back({"Roofline", esc(fmt::format("{} of the attainable FLOP/s", format_percent(a.roofline.fraction)))});
  out += facts(items);

  if (!a.decided_by.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& d : a.decided_by)
      rows.push_back({"<code>" + esc(d.metric) + "</code>", esc(metric_value_text(d.metric, number_or_null(d.value))),
                      esc(metric_value_text(d.metric, number_or_null(d.threshold))), esc(d.meaning)});
    out += "<h3>What decided it</h3>" + table({"Metric", "Value", "Threshold", "Meaning"}, rows);
  }
  const std::string measured = measured_gain_note(as_is);
  if (!a.suggestions.empty()) {
    out += "<h3>What to try, in order</h3>" + measured + "<ol class=\"suggestions\">";
    for (const auto& s : a.suggestions)
      if (!answered_by(s, as_is))  // the measured note above says what became of it
        out += "<li><strong>" + esc(s.title) + "</strong><br>" + esc(s.why) +
               (s.how.empty() ? "" : "<br><code class=\"src\">" + esc(s.how) + "</code>") +
               (core::fix_words(s.terms).empty()
                    ? ""
                    : "<br><span class=\"muted\">" + esc(core::fix_words(s.terms)) + "</span>") +
               "</li>";
    out += "</ol>";
  }
  if (r.sweep) {
    out += "<h3>Sweep of " + esc(r.sweep->param) + "</h3>";
    out += "<div class=\"charts\">" + sweep_chart(*r.sweep) + "</div>";
    out += sweep_table(*r.sweep);
  }
  if (const auto& v = r.validation)
    out += fmt::format(R"(<h3>Validation</h3><p><span class="{}">{}</span></p>)", v->direction_right ? "good" : "bad",
                       esc(v->summary));
  std::string more;
  if (r.machine) more += "<h3>Machine ceilings</h3>" + generic(to_json(r.machine->ceilings));
  if (r.analysis) more += "<h3>Profile</h3>" + generic(to_json(a.profile));
  if (a.predicted.terms && !a.predicted.terms->empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& t : *a.predicted.terms)
      rows.push_back({"<code>" + esc(t.name) + "</code>", esc(fmt::format("{:.4g}", t.share)),
                      esc(fmt::format("{:.3g}", t.keep)), esc(fmt::format("{:.4g}", t.compiled_share))});
    more +=
        "<h3>How the point prediction is made</h3><p>predicted speedup = 1 / the sum of the last column; the "
        "interval is the calibration set's error spread around it</p>" +
        table({"Term", "Share of eager time", "Fraction kept compiled", "Compiled share"}, rows);
  }
  if (a.predicted.shifts) more += "<h3>What moves the prediction</h3>" + generic(to_json(*a.predicted.shifts));
  if (!more.empty())
    out += "<details><summary>Evidence: ceilings, profile, what moves the prediction</summary>" + more + "</details>";
  return out + "</section>";
}

}  // namespace tct::expect
