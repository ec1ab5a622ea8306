// The bench section of the HTML report: speedup per row (bar chart with intervals), the
// numbers table, the warm-up curve of each row, latency distributions eager against
// compiled, compile-time breakdown, correctness.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bench/verdict.hpp"
#include "report/format.hpp"
#include "bench/allocator_rows.hpp"
#include "report/html_util.hpp"
#include "report/svg.hpp"

namespace tct::report::html {
namespace {

std::string row_label(const json& r) {
  std::string l = str(r, "label");
  if (!l.empty()) return l;
  l = str(r, "backend", "?");
  if (str(r, "mode", "default") != "default") l += " " + str(r, "mode");
  if (str(r, "dynamic", "auto") != "auto") l += " dynamic=" + str(r, "dynamic");
  if (r.value("fullgraph", false)) l += " fullgraph";
  return l;
}

// The row's verdict as a colour: "faster", "slower", else "unsure".
std::string speed_tone(const json& s) {
  switch (bench::verdict_of(s)) {
    case bench::SpeedupVerdict::Faster: return "faster";
    case bench::SpeedupVerdict::Slower: return "slower";
    default: return "unsure";
  }
}

bool inconclusive(const json& s) { return bench::verdict_of(s) == bench::SpeedupVerdict::Inconclusive; }

std::string ci_text(const json& s) {
  double lo = num(s, "low"), hi = num(s, "high");
  if (!std::isfinite(lo) || !std::isfinite(hi)) return "";
  // The bounds as every other rendering prints them ("1.73x [1.64, 1.83]").
  return fmt::format("[{:.2f}, {:.2f}]{}", lo, hi, inconclusive(s) ? " inconclusive: too wide for a verdict" : "");
}

bool row_ok(const json& r) { return str(r, "status") == "ok" || (r.contains("speedup") && r["speedup"].is_object()); }

std::string dur(double ns) { return format_duration_ns(ns); }

std::string fmt_ns_tick(double ns) { return format_duration_ns(ns); }

std::string warmup_chart(const json& bench, const json& r) {
  const json& curve = arr_at(r, "warmup_curve_ns");
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
    if (curve[i].is_number()) {
      double v = curve[i].get<double>();
      comp.points.push_back({static_cast<double>(i + 1), v, NAN, NAN,
                             fmt::format("compiled call {}: {}{}", i + 1, dur(v), i == 0 ? " (includes compiling)" : "")});
    }
  const json& ew = arr_at(obj_at(bench, "eager"), "warmup_ns");
  svg::Series eager{"eager (warm-up calls before sampling)", "eager", {}, true, true, false};
  for (size_t i = 0; i < ew.size(); ++i)
    if (ew[i].is_number())
      eager.points.push_back({static_cast<double>(i + 1), ew[i].get<double>(), NAN, NAN,
                              fmt::format("eager call {}: {}", i + 1, dur(ew[i].get<double>()))});
  if (!eager.points.empty()) c.series.push_back(eager);
  c.series.push_back(comp);
  double em = num(obj_at(obj_at(r, "latency"), "eager"), "median");
  if (std::isfinite(em)) c.hlines.push_back({em, "eager median " + dur(em), "eager", true});
  const json& ss = obj_at(r, "steady_state");
  if (ss.value("found", false)) {
    double level = num(ss, "level_ns");
    if (std::isfinite(level)) c.hlines.push_back({level, "compiled steady " + dur(level), "steady"});
    double start = num(ss, "start_index");
    if (std::isfinite(start)) c.vlines.push_back({start + 1, fmt::format("steady from call {}", start + 1), "steady"});
  }
  c.x.min = 0.5;
  c.x.max = static_cast<double>(std::max(curve.size(), ew.size())) + 0.5;
  std::string caption = fmt::format(
      "Per-call latency of the first {} compiled calls ({}): the first call compiles ({}).{}", curve.size(), row_label(r),
      dur(curve[0].is_number() ? curve[0].get<double>() : NAN),
      ss.value("found", false) ? "" : " No steady state was found: the measured latency may still include warm-up.");
  return "<figure><figcaption>" + esc(caption) + "</figcaption>" + svg::line_chart(c) + "</figure>";
}

svg::Box box_of(const std::string& label, const std::string& cls, const json& s, const json& samples) {
  svg::Box b;
  b.label = label;
  b.css_class = cls;
  b.min = num(s, "min");
  b.p05 = num(s, "p05");
  b.p25 = num(s, "p25");
  b.median = num(s, "median");
  b.p75 = num(s, "p75");
  b.p95 = num(s, "p95");
  b.max = num(s, "max");
  if (samples.is_array())
    for (const auto& v : samples)
      if (v.is_number()) b.samples.push_back(v.get<double>());
  return b;
}

std::string latency_chart(const json& rows) {
  svg::BoxPlot p;
  p.title = "Latency distributions, eager against compiled";
  p.x.label = "latency per call";
  p.x.format = fmt_ns_tick;
  double lo = INFINITY, hi = 0;
  for (const auto& r : rows) {
    if (!row_ok(r)) continue;
    const json& lat = obj_at(r, "latency");
    if (lat.empty()) continue;
    const json& samples = obj_at(r, "samples");
    std::string l = row_label(r);
    p.boxes.push_back(box_of(l + " · eager", "eager", obj_at(lat, "eager"), samples.value("eager", json())));
    p.boxes.push_back(box_of(l + " · compiled", "compiled", obj_at(lat, "compiled"), samples.value("compiled", json())));
    for (const char* side : {"eager", "compiled"}) {
      double a = num(obj_at(lat, side), "p05"), b = num(obj_at(lat, side), "p95");
      if (std::isfinite(a) && a > 0) lo = std::min(lo, a);
      if (std::isfinite(b)) hi = std::max(hi, b);
    }
  }
  if (p.boxes.empty()) return "";
  // A log axis when the spread covers more than a decade and a half (outliers on a shared
  // machine), else linear over the whiskers (svg::box_plot keeps min, max and stray samples
  // off the axis), so that the boxes are wide enough to compare.
  p.x.log = std::isfinite(lo) && hi / lo > 30;
  return "<figure><figcaption>Latency per call, steady state: box p25..p75 with the median, whiskers p05..p95, "
         "circles min and max (an arrowhead at the edge when one lies beyond the axis)" +
         std::string(p.x.log ? " (log scale: the spread is wide)" : "") + ".</figcaption>" + svg::box_plot(p) + "</figure>";
}

std::string speedup_chart(const json& rows) {
  std::vector<svg::Bar> bars;
  for (const auto& r : rows) {
    svg::Bar b;
    b.label = row_label(r);
    if (!row_ok(r)) {
      b.css_class = "failed";
      b.annotation = "failed: " + str(obj_at(r, "error"), "message", str(r, "status"));
      if (b.annotation.size() > 40) b.annotation = b.annotation.substr(0, 37) + "...";
    } else {
      const json& s = obj_at(r, "speedup");
      b.value = num(s, "estimate");
      b.low = num(s, "low");
      b.high = num(s, "high");
      b.css_class = speed_tone(s);
      // Short enough for the space right of the chart: the table says why it is inconclusive.
      b.annotation = format_speedup_interval(s) + (inconclusive(s) ? " inconclusive" : "");
      b.tip = b.label + ": " + b.annotation;
    }
    bars.push_back(b);
  }
  return speedup_figure("Speedup of compiled over eager, per configuration", "Speedup with its 95% interval",
                        std::move(bars));
}

std::string correctness_cell(const json& r) {
  const json& c = obj_at(r, "correctness");
  if (c.empty() || !c.value("checked", false)) return "<span class=\"muted\">not checked</span>";
  const bool spread = c.value("nondeterministic", false);
  if (c.contains("match") && c["match"].is_boolean())
    return c["match"].get<bool>()
               ? (spread ? "<span class=\"warn\">within eager's own spread</span>" : "<span class=\"good\">matches eager</span>")
               : "<span class=\"bad\">differs from eager</span>";
  if (spread) return "<span class=\"warn\">eager is nondeterministic</span>";
  return "<span class=\"muted\">n/a</span>";
}

std::string rows_table(const json& rows) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : rows) {
    if (!row_ok(r)) {
      const json& e = obj_at(r, "error");
      out.push_back({esc(row_label(r)), "<span class=\"pill bad\">" + esc(str(r, "status", "failed")) + "</span>",
                     esc(str(e, "message")) + (str(e, "stage").empty() ? "" : " <span class=\"muted\">[" + esc(str(e, "stage")) + "]</span>") +
                         (str(e, "hint").empty() ? "" : "<br><span class=\"muted\">" + esc(str(e, "hint")) + "</span>"),
                     "", "", "", "", "", ""});
      continue;
    }
    const json& s = obj_at(r, "speedup");
    const json& lat = obj_at(r, "latency");
    const json& comp = obj_at(r, "compile");
    std::string tone = speed_tone(s);
    std::string sp = fmt::format("<span class=\"{}\"><strong>{}</strong></span> <span class=\"muted\">{}</span>",
                                 tone == "faster" ? "good" : tone == "slower" ? "bad" : "warn",
                                 esc(format_ratio(num(s, "estimate"))), esc(ci_text(s)));
    std::vector<std::string> flags;  // each once (two warnings of one kind give one flag twice)
    for (const auto& f : arr_at(r, "flags"))
      if (std::find(flags.begin(), flags.end(), str(f, "text")) == flags.end()) flags.push_back(str(f, "text"));
    for (const auto& f : flags) sp += " <span class=\"pill warn\">" + esc(f) + "</span>";
    // The compile time once: the first row's cold compile *is* its first call in the main
    // process, so the first call is named only when no cold figure exists (as in the terminal).
    std::string compile;
    auto spread = [&](const char* which) {
      const json& sp = obj_at(comp, which);
      return num(sp, "n") > 1 ? fmt::format(" ({} .. {}, {} runs)", dur(num(sp, "min_ns")), dur(num(sp, "max_ns")),
                                            num(sp, "n"))
                              : std::string(" (single measurement)");
    };
    if (std::isfinite(num(comp, "cold_ns")))
      compile = "<span class=\"nw\">cold " + esc(dur(num(comp, "cold_ns")) + spread("cold")) + "</span>";
    else
      compile = "<span class=\"nw\">first call " + esc(dur(num(comp, "first_call_ns"))) + "</span>";
    if (std::isfinite(num(comp, "warm_ns"))) {
      compile += "<br><span class=\"nw\">warm cache " + esc(dur(num(comp, "warm_ns")) + spread("warm")) + "</span>";
      const json& hit = comp.value("warm_cache_hit", json());
      if (hit.is_boolean() && !hit.get<bool>()) compile += " <span class=\"pill warn\">not a cache hit</span>";
    }
    const json& be_obj = obj_at(r, "break_even");
    const json& cold_be = obj_at(be_obj, "cold");
    std::string verdict = str(be_obj, "verdict");
    std::string be_s = verdict == "inconclusive" ? "not given (interval too wide)"
                       : verdict == "no_reliable_gain" ? (bench::verdict_of(obj_at(r, "speedup")) == bench::SpeedupVerdict::Slower ? "never (compiled is slower)" : "no reliable gain")
                       : std::isfinite(num(cold_be, "estimate"))
                           ? fmt::format("{:.0f} calls ({:.0f} .. {:.0f})", num(cold_be, "estimate"), num(cold_be, "low"),
                                         num(cold_be, "high"))
                           : "n/a";
    const json& mem = obj_at(r, "memory");
    std::string mem_s = mem.empty() ? "<span class=\"muted\">n/a</span>"
                                    : esc(fmt::format("+{} / +{}", format_bytes(num(mem, "eager_increase_bytes")),
                                                      format_bytes(num(mem, "compiled_increase_bytes"))));
    if (std::isfinite(num(mem, "compile_peak_increase_bytes")))
      mem_s += "<br><span class=\"muted\">" +
               esc(fmt::format("compiler: peak +{}, kept +{}", format_bytes(num(mem, "compile_peak_increase_bytes")),
                               format_bytes(num(mem, "compiler_kept_bytes")))) +
               "</span>";
    std::string breaks = esc(str(r, "graph_breaks", "?"));
    double rec = num(r, "recompiles_during_measurement");
    if (std::isfinite(rec) && rec > 0) breaks += fmt::format(" <span class=\"pill warn\">{} recompiles</span>", rec);
    std::string label = esc(row_label(r)) + "<br><span class=\"muted\">" +
                        esc(fmt::format("{} blocks, stopped by {}", str(r, "blocks", "?"), str(r, "stop_reason", "?"))) +
                        "</span>";
    out.push_back({label, sp, esc(dur(num(obj_at(lat, "eager"), "median"))),
                   esc(dur(num(obj_at(lat, "compiled"), "median"))), compile, esc(be_s), mem_s, correctness_cell(r), breaks});
  }
  return table({"Configuration", "Speedup (95% CI)", "Eager median", "Compiled median", "Compile", "Break-even",
                "Peak memory above baseline (eager / compiled)", "Outputs", "Graph breaks"},
               out, "rows");
}

std::string breakdown(const json& rows) {
  std::string out;
  for (const auto& r : rows) {
    const json& b = obj_at(obj_at(r, "compile"), "breakdown");
    if (b.empty()) continue;
    std::vector<std::pair<double, std::string>> items;
    for (auto& [k, v] : b.items())
      if (v.is_number()) items.emplace_back(v.get<double>(), k);
    std::sort(items.rbegin(), items.rend());
    std::vector<std::vector<std::string>> t;
    for (size_t i = 0; i < items.size() && i < 12; ++i)
      t.push_back({"<code>" + esc(items[i].second) + "</code>", esc(dur(items[i].first))});
    out += "<details><summary>Compile-time breakdown: " + esc(row_label(r)) +
           " (torch's own timers, nested: they overlap)</summary>" + table({"Phase", "Total"}, t) + "</details>";
  }
  return out;
}

std::string value_text(const json& v) {
  if (v.is_number()) return fmt::format("{:.7g}", v.get<double>());
  return v.is_null() ? "" : text_of(v);
}

// Per row: the mismatches, then every compared leaf (worst element, errors, the share of
// elements beyond tolerance, and the rule it passed by).
std::string mismatches(const json& rows) {
  std::string out;
  for (const auto& r : rows) {
    const json& c = obj_at(r, "correctness");
    const json& m = arr_at(c, "mismatches");
    if (!m.empty()) out += "<h3 class=\"bad\">Outputs differ: " + esc(row_label(r)) + "</h3>" + generic(m);
    const json& leaves = arr_at(c, "leaf_results");
    if (leaves.empty()) continue;
    std::vector<std::vector<std::string>> t;
    for (const auto& l : leaves) {
      const json& frac = l.contains("fraction_out_of_tolerance") ? l["fraction_out_of_tolerance"] : json();
      t.push_back({"<code>" + esc(str(l, "path")) + "</code>", esc(str(l, "dtype")),
                   l.value("match", false) ? "<span class=\"good\">ok</span>" : "<span class=\"bad\">differs</span>",
                   esc(str(l, "basis")), esc(value_text(l.contains("max_abs_diff") ? l["max_abs_diff"] : json())),
                   esc(value_text(l.contains("max_rel_diff") ? l["max_rel_diff"] : json())),
                   frac.is_number() ? esc(fmt::format("{:.3g}%", 100 * frac.get<double>())) : "",
                   esc(l.contains("worst_index") ? value_text(l["worst_index"]) : std::string()),
                   esc(value_text(l.contains("expected_at_worst") ? l["expected_at_worst"] : json())),
                   esc(value_text(l.contains("actual_at_worst") ? l["actual_at_worst"] : json()))});
    }
    const auto& nc = arr_at(c, "not_compared");
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

std::string target_line(const json& t) {
  if (t.is_string()) return "<p>Target <code>" + esc(t.get<std::string>()) + "</code></p>";
  if (!t.is_object()) return "";
  std::string s = fmt::format("<p>Target <code>{}</code>", esc(str(t, "spec")));
  std::vector<std::string> bits;
  for (const char* k : {"kind", "fn_name", "device", "dtype", "mode"})
    if (!str(t, k).empty()) bits.push_back(str(t, k));
  if (!bits.empty()) {
    std::string joined;
    for (const auto& b : bits) joined += (joined.empty() ? "" : ", ") + b;
    s += " <span class=\"muted\">(" + esc(joined) + ")</span>";
  }
  const json& params = obj_at(t, "params");
  if (!params.empty()) s += " params <code>" + esc(params.dump()) + "</code>";
  double pc = num(t, "parameter_count");
  if (std::isfinite(pc)) s += esc(fmt::format(", {:.0f} parameters", pc));
  return s + "</p>";
}

}  // namespace

std::vector<Card> cards_bench(const json& doc) {
  const json& b = obj_at(doc, "bench");
  const json& rows = arr_at(b, "rows");
  if (rows.empty()) return {};
  const json* best = nullptr;
  for (const auto& r : rows)
    if (row_ok(r) && (!best || num(obj_at(r, "speedup"), "estimate") > num(obj_at(*best, "speedup"), "estimate"))) best = &r;
  std::vector<Card> cards;
  if (!best) {
    cards.push_back({"Speedup", "failed", str(obj_at(rows[0], "error"), "message", "every configuration failed"), "bad", "#bench"});
    return cards;
  }
  const json& s = obj_at(*best, "speedup");
  std::string tone = speed_tone(s);
  // An inconclusive interval says so itself (ci_text); it does not mean "no difference".
  const auto verdict_of_best = bench::verdict_of(s);
  std::string what = verdict_of_best == bench::SpeedupVerdict::Inconclusive ? ""
                                                                            : std::string(bench::describe(verdict_of_best)) + ", ";
  cards.push_back({rows.size() > 1 ? "Best speedup" : "Speedup", format_ratio(num(s, "estimate")),
                   fmt::format("{}: {}95% CI {}", row_label(*best), what, ci_text(s)),
                   tone == "faster" ? "good" : tone == "slower" ? "bad" : "warn", "#bench"});
  const json& comp = obj_at(*best, "compile");
  double cold = num(comp, "cold_ns"), first = num(comp, "first_call_ns"), be = num(*best, "break_even_calls");
  double cost = std::isfinite(cold) ? cold : first;
  const std::string verdict = str(obj_at(*best, "break_even"), "verdict");
  std::string pays = std::isfinite(be) ? fmt::format("; pays for itself after about {:.0f} calls", be)
                     : verdict == "inconclusive" ? "; break-even not given (speedup inconclusive)"
                                                 : "; no reliable gain to pay for it";
  if (std::isfinite(cost))
    cards.push_back({"Compile cost", format_duration_ns(cost),
                     (std::isfinite(cold) ? "cold compile" : "first compiled call") + pays,
                     std::isfinite(be) ? "neutral" : "warn", "#bench"});
  for (const auto& r : rows) {
    const json& c = obj_at(r, "correctness");
    if (c.value("checked", false) && c.contains("match") && c["match"].is_boolean() && !c["match"].get<bool>()) {
      cards.push_back({"Outputs", "differ", row_label(r) + ": compiled outputs differ from eager", "bad", "#bench"});
      break;
    }
  }
  return cards;
}

std::string section_bench(const json& doc) {
  if (!doc.contains("bench") || !doc["bench"].is_object()) return "";
  const json& b = doc["bench"];
  const json& rows = arr_at(b, "rows");
  std::string out = R"(<section id="bench"><h2>Speed: eager against torch.compile</h2>)";
  out += target_line(b.value("target", json()));
  if (rows.empty()) {
    out += "<p class=\"muted\">No configuration was measured";
    if (!str(b, "phase").empty()) out += " (stopped in phase " + esc(str(b, "phase")) + ")";
    return out + ".</p></section>";
  }
  out += speedup_chart(rows);
  out += "<div class=\"scroll\">" + rows_table(rows) + "</div>";
  if (auto at = allocator_table(b); !at.rows.empty()) {
    std::vector<std::vector<std::string>> cells;
    for (const auto& r : at.rows) {
      std::vector<std::string> escaped;
      for (const auto& c : r) escaped.push_back(esc(c));
      cells.push_back(escaped);
    }
    out += "<h3>Allocator</h3><p class=\"muted\">" +
           esc("The headline is measured in " + allocator_state_label(b) + "; the first row in each state:") + "</p>" +
           "<div class=\"scroll\">" + table(at.header, cells) + "</div>";
    if (!at.note.empty()) out += "<p class=\"muted\">" + esc(at.note) + "</p>";
  }
  std::string charts;
  size_t shown = 0;
  for (const auto& r : rows)
    if (row_ok(r) && shown++ < 6) charts += warmup_chart(b, r);
  charts += latency_chart(rows);
  if (!charts.empty()) out += "<h3>Warm-up and latency</h3><div class=\"charts\">" + charts + "</div>";
  out += mismatches(rows);
  out += breakdown(rows);
  const json& eager = obj_at(b, "eager");
  if (!eager.empty())
    out += "<p class=\"muted\">" +
           esc(fmt::format("Eager warm-up, before sampling: first call {}, then {} per call (the eager median in the "
                                          "table is from the interleaved samples). Clock resolution {}.", dur(num(eager, "first_call_ns")),
                           dur(num(eager, "steady_ns")), dur(num(obj_at(b, "clock"), "resolution_ns")))) +
           "</p>";
  return out + "</section>";
}

}  // namespace tct::report::html
