// The expect section of the HTML report: the class (overhead, memory or compute bound) and
// what decided it, the predicted speedup range, suggestions, and the sweep chart (speedup
// against a parameter: predicted band, measured points with their intervals).
#include <cmath>

#include <fmt/format.h>

#include "expect/classifier.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "report/render.hpp"
#include "report/svg.hpp"

namespace tct::report::html {
namespace {

std::string class_words(const std::string& c) {
  if (c == "overhead_bound") return "overhead bound";
  if (c == "memory_bound") return "memory bound";
  if (c == "compute_bound") return "compute bound";
  if (c.empty()) return "unknown";
  return c;
}

std::string range_text(const json& r) {
  double lo = num(r, "low"), hi = num(r, "high"), pt = num(r, "point");
  if (!std::isfinite(lo) && !std::isfinite(hi)) return "n/a";
  std::string range = format_ratio(lo) + " .. " + format_ratio(hi);
  return std::isfinite(pt) ? format_ratio(pt) + " (" + range + ")" : range;
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
std::string words(std::string key) {
  for (auto& c : key)
    if (c == '_') c = ' ';
  return key;
}

std::string value_text(const json& v) {
  if (v.is_number_float()) return fmt::format("{:.4g}", v.get<double>());
  return text_of(v);
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
  return value_text(v);
}

std::string sweep_chart(const json& sweep) {
  const json& points = arr_at(sweep, "points");
  if (points.empty()) return "";
  svg::LineChart c;
  c.title = "Speedup against " + str(sweep, "param");
  c.x.label = str(sweep, "param");
  c.y.label = "speedup (eager / compiled)";
  c.y.format = [](double v) { return fmt::format("{:g}x", v); };
  svg::Series predicted{"predicted range", "predicted", {}, false, false, true};
  svg::Series measured{"measured (95% CI)", "measured", {}, true, true, false};
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const json& p = points[i];
    std::string v = value_text(p.value("value", json()));
    c.x.categories.push_back(v);
    double x = static_cast<double>(i);
    const json& pr = obj_at(p, "predicted_speedup");
    predicted.points.push_back({x, NAN, num(pr, "low"), num(pr, "high"),
                                fmt::format("{}={}: predicted {} ({})", str(sweep, "param"), v, range_text(pr),
                                            class_words(str(p, "class")))});
    const json& sp = obj_at(p, "speedup");
    if (!sp.empty())
      measured.points.push_back({x, num(sp, "estimate"), num(sp, "low"), num(sp, "high"),
                                 fmt::format("{}={}: measured {} [{}, {}]", str(sweep, "param"), v, format_ratio(num(sp, "estimate")),
                                             format_ratio(num(sp, "low")), format_ratio(num(sp, "high")))});
    for (double y : {num(pr, "low"), num(pr, "high"), num(sp, "estimate"), num(sp, "low"), num(sp, "high")})
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
         esc(fmt::format("Speedup against {}: the grey band is the predicted range, the points the measured speedup with "
                         "its 95% interval{}.",
                         str(sweep, "param"), c.y.log ? " (log scale)" : "")) +
         "</figcaption>" + svg::line_chart(c) + "</figure>";
}

std::string sweep_table(const json& sweep) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : arr_at(sweep, "points")) {
    const json& sp = obj_at(p, "speedup");
    std::string measured = sp.empty() ? "" : esc(format_ratio(num(sp, "estimate")) + " [" + format_ratio(num(sp, "low")) + ", " +
                                                   format_ratio(num(sp, "high")) + "]");
    const json& err = p.value("error", json());
    if (err.is_object()) measured += "<span class=\"bad\">" + esc(str(err, "message")) + "</span>";
    const json& val = obj_at(p, "validation");
    std::string ok = val.empty() ? "" : val.value("direction_right", true) ? "<span class=\"good\">right</span>" : "<span class=\"bad\">wrong</span>";
    rows.push_back({esc(value_text(p.value("value", json()))),
                    esc(class_words(str(p, "class")) + expect_borderline_mark(p)),
                    esc(range_text(obj_at(p, "predicted_speedup"))), measured, ok,
                    esc(format_duration_ns(num(obj_at(p, "profile"), "wall_per_call_ns")))});
  }
  std::string out = table({str(sweep, "param", "value"), "Class", "Predicted", "Measured (95% CI)", "Direction", "Eager per call"}, rows);
  const json& changes = arr_at(sweep, "class_changes");
  if (!changes.empty()) out += "<p>Class changes: " + generic(changes) + "</p>";
  return out;
}

}  // namespace

std::vector<Card> cards_expect(const json& doc) {
  const json& e = obj_at(doc, "expect");
  if (e.empty() || str(e, "class").empty()) return {};
  std::string cls = str(e, "class");
  const json& pr = obj_at(e, "predicted_speedup");
  std::vector<Card> cards{{"Bound by", class_words(cls) + expect_borderline_mark(e),
                           "predicted speedup " + range_text(pr),
                           cls == "overhead_bound" || cls == "memory_bound" ? "good" : "neutral", "#expect"}};
  if (str(pr, "assumes") == "nothing_compiled") {
    cards[0].detail += ": nothing compiles until the skipped frame is fixed";
    cards[0].tone = "bad";
  }
  const json& v = obj_at(e, "validation");
  if (!v.empty())
    cards.push_back({"Measured", str(v, "verdict") + " the predicted range", str(v, "summary"),
                     !v.value("direction_right", true) ? "bad" : str(v, "verdict") == "inside" ? "good" : "neutral",
                     "#expect"});
  return cards;
}

// When the same document measured the compiled speedup (audit) and it is no real gain, the
// "Compile it" suggestion is answered already: say so instead of suggesting it.
std::string measured_gain_note(const json& doc) {
  const json& bench = doc.value("bench", json());
  if (!bench.is_object()) return "";
  for (const auto& r : bench.value("rows", json::array())) {
    const json& s = obj_at(r, "speedup");
    if (str(r, "status") != "ok" || !std::isfinite(num(s, "high"))) continue;
    // No real gain: the whole interval below expect's gain band (kGainBand, the line its
    // prediction and validation draw too). Not the speedup verdict: 1.02x [1.01, 1.03] is
    // faster than eager, and still no gain worth a compile.
    if (num(s, "high") >= analysis::kGainBand) return "";
    return "<p class=\"muted\">" +
           esc(fmt::format("Compiling as it is was measured at {} [{:.2f}, {:.2f}] ({}): no real gain, so what is left "
                           "to try is below.",
                           format_ratio(num(s, "estimate")), num(s, "low"), num(s, "high"), str(r, "label"))) +
           "</p>";
  }
  return "";
}

std::string section_expect(const json& doc) {
  if (!doc.contains("expect") || !doc["expect"].is_object()) return "";
  const json& e = doc["expect"];
  std::string out = R"(<section id="expect"><h2>Should a gain be expected?</h2>)";
  std::string cls = str(e, "class");
  std::vector<std::pair<std::string, std::string>> items;
  items.push_back({"Class", "<strong>" + esc(class_words(cls)) + "</strong>" + esc(expect_borderline_note(e))});
  items.push_back({"Predicted speedup", esc(range_text(obj_at(e, "predicted_speedup")))});
  if (std::string note = expect_compiled_note(e); !note.empty())
    items.push_back({"What compiled", "<span class=\"warn\">" + esc(note) + "</span>"});
  double flops = num(e, "flops_per_call"), bytes = num(e, "bytes_per_call"), ai = num(e, "arithmetic_intensity");
  if (std::isfinite(flops)) items.push_back({"FLOPs per call", esc(si(flops, "FLOP"))});
  if (std::isfinite(bytes)) items.push_back({"Bytes moved per call", esc(format_bytes(bytes))});
  if (std::isfinite(ai)) items.push_back({"Arithmetic intensity", esc(fmt::format("{:.3g} FLOP/byte", ai))});
  if (std::string guarded = expect_guarded_text(e); !guarded.empty()) items.push_back({"Guarded per call", esc(guarded)});
  if (!str(e, "flops_error").empty()) items.push_back({"FLOP count", "<span class=\"warn\">" + esc(str(e, "flops_error")) + "</span>"});
  const json& shares = obj_at(e, "time_shares");
  if (!shares.empty()) {
    std::string s;
    for (auto& [k, v] : shares.items())
      if (v.is_number()) s += (s.empty() ? "" : ", ") + words(k) + " " + format_percent(v.get<double>());
    items.push_back({"Eager time shares", esc(s)});
  }
  const json& roof = obj_at(e, "roofline");
  if (std::isfinite(num(roof, "fraction")))
    items.push_back({"Roofline", esc(fmt::format("{} of the attainable FLOP/s", format_percent(num(roof, "fraction"))))});
  out += facts(items);

  const json& decided = arr_at(e, "decided_by");
  if (!decided.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& d : decided)
      rows.push_back({"<code>" + esc(str(d, "metric")) + "</code>",
                      esc(metric_value_text(str(d, "metric"), d.value("value", json()))),
                      esc(metric_value_text(str(d, "metric"), d.value("threshold", json()))), esc(str(d, "meaning"))});
    out += "<h3>What decided it</h3>" + table({"Metric", "Value", "Threshold", "Meaning"}, rows);
  }
  const json& sugg = arr_at(e, "suggestions");
  const std::string measured = measured_gain_note(doc);
  if (!sugg.empty()) {
    out += "<h3>What to try, in order</h3>" + measured + "<ol class=\"suggestions\">";
    for (const auto& s : sugg)
      if (measured.empty() || str(s, "title").rfind("Compile it", 0) != 0)  // already measured: see the note
        out += "<li><strong>" + esc(str(s, "title")) + "</strong><br>" + esc(str(s, "why")) +
             (str(s, "how").empty() ? "" : "<br><code class=\"src\">" + esc(str(s, "how")) + "</code>") + "</li>";
    out += "</ol>";
  }
  const json& sweep = e.value("sweep", json());
  if (sweep.is_object()) {
    out += "<h3>Sweep of " + esc(str(sweep, "param")) + "</h3>";
    out += "<div class=\"charts\">" + sweep_chart(sweep) + "</div>";
    out += sweep_table(sweep);
  }
  const json& v = e.value("validation", json());
  if (v.is_object()) {
    bool right = v.value("direction_right", true);
    out += fmt::format(R"(<h3>Validation</h3><p><span class="{}">{}</span></p>)", right ? "good" : "bad",
                       esc(str(v, "summary")));
  }
  std::string more;
  if (e.contains("ceilings")) more += "<h3>Machine ceilings</h3>" + generic(e["ceilings"]);
  if (e.contains("profile")) more += "<h3>Profile</h3>" + generic(e["profile"]);
  const json& terms = arr_at(obj_at(e, "predicted_speedup"), "terms");
  if (!terms.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& t : terms)
      rows.push_back({"<code>" + esc(str(t, "term")) + "</code>", esc(fmt::format("{:.4g}", num(t, "share"))),
                      esc(fmt::format("{:.3g}", num(t, "keep"))), esc(fmt::format("{:.4g}", num(t, "compiled_share")))});
    more += "<h3>How the point prediction is made</h3><p>predicted speedup = 1 / the sum of the last column; the "
            "interval is the calibration set's error spread around it</p>" +
            table({"Term", "Share of eager time", "Fraction kept compiled", "Compiled share"}, rows);
  }
  if (obj_at(e, "predicted_speedup").contains("shifts")) more += "<h3>What moves the prediction</h3>" + generic(obj_at(e, "predicted_speedup")["shifts"]);
  if (!more.empty()) out += "<details><summary>Evidence: ceilings, profile, what moves the prediction</summary>" + more + "</details>";
  return out + "</section>";
}

}  // namespace tct::report::html
