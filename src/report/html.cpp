// The HTML report: one self-contained file that works offline. Inline CSS, charts as inline
// SVG drawn here (report/svg.cpp), no script at all: a Content-Security-Policy with
// default-src 'none' forbids scripts and network loads, so even a string that escaped
// escaping could not run. This file holds the page and its primitives, and knows no command:
// the registry of renderers (cli/render_html.cpp) fills the page with the commands' sections.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/json_read.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "report/svg.hpp"
#include "report/warnings.hpp"

namespace tct::report {
namespace html {

std::string esc(const std::string& text) { return svg::escape_xml(text); }

const json& obj_at(const json& obj, const char* key) {
  static const json empty = json::object();
  if (!obj.is_object()) return empty;
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? *it : empty;
}

const json& arr_at(const json& obj, const char* key) {
  static const json empty = json::array();
  if (!obj.is_object()) return empty;
  auto it = obj.find(key);
  return it != obj.end() && it->is_array() ? *it : empty;
}

std::string verdict_tone(stats::SpeedupVerdict v) {
  return v == stats::SpeedupVerdict::Faster ? "good" : v == stats::SpeedupVerdict::Slower ? "bad" : "warn";
}

std::string verdict_bar_class(stats::SpeedupVerdict v) {
  return v == stats::SpeedupVerdict::Faster ? "faster" : v == stats::SpeedupVerdict::Slower ? "slower" : "unsure";
}

std::string link(const std::string& url, const std::string& label) {
  const std::string& shown = label.empty() ? url : label;
  if (url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0)
    return fmt::format(R"(<a href="{}" rel="noopener noreferrer">{}</a>)", esc(url), esc(shown));
  return esc(shown);
}

std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class) {
  std::string out = css_class.empty() ? "<table>" : fmt::format(R"(<table class="{}">)", esc(css_class));
  out += "<thead><tr>";
  for (const auto& h : header) out += "<th>" + esc(h) + "</th>";
  out += "</tr></thead><tbody>";
  for (const auto& r : rows) {
    out += "<tr>";
    for (const auto& c : r) out += "<td>" + c + "</td>";
    out += "</tr>";
  }
  return out + "</tbody></table>";
}

std::string facts(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string out = R"(<dl class="facts">)";
  for (const auto& [k, v] : items) out += "<dt>" + esc(k) + "</dt><dd>" + v + "</dd>";
  return out + "</dl>";
}

std::string speedup_figure(const std::string& title, const std::string& caption, std::vector<svg::Bar> bars) {
  if (bars.empty()) return "";
  svg::BarChart c;
  c.title = title;
  c.x.label = "speedup (eager time / compiled time)";
  c.x.format = [](double v) { return fmt::format("{:g}x", v); };
  c.reference = 1;
  c.reference_label = "1x = eager";
  double lo = INFINITY, hi = 0;
  for (const auto& b : bars)
    for (double v : {b.value, b.low, b.high})
      if (std::isfinite(v) && v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  c.bars = std::move(bars);
  c.x.log = std::isfinite(lo) && hi / lo > 8;
  if (!c.x.log && std::isfinite(lo)) {
    double a = std::min(lo, 1.0), z = std::max(hi, 1.0), pad = std::max(0.02, 0.15 * (z - a));
    c.x.min = std::max(0.0, a - pad);
    c.x.max = z + pad;
  }
  return "<figure><figcaption>" + caption + "; right of the dashed line is faster than eager." +
         std::string(c.x.log ? " Log scale: the bars span more than 8x." : "") + "</figcaption>" + svg::bar_chart(c) +
         "</figure>";
}

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A number in the unit its key names, by the document's conventions (*_ns nanoseconds,
// *_bytes bytes, *_fraction a share): "ns_per_call 7.289e+05" reads "729 us per call".
std::string with_unit(const std::string& key, double v) {
  if (ends_with(key, "_ns") || key.rfind("ns_", 0) == 0) return format_duration_ns(v);
  if (ends_with(key, "_bytes_per_s")) return format_bytes(v) + "/s";
  if (ends_with(key, "_bytes")) return format_bytes(v);
  if (ends_with(key, "_fraction") || ends_with(key, "_share")) return format_percent(v);
  if (key == "peak_flops" || ends_with(key, "_flops_per_s")) return fmt::format("{:.3g} GFLOP/s", v / 1e9);
  if (ends_with(key, "_flops_per_byte")) return fmt::format("{:.3g} FLOP/byte", v);
  return fmt::format("{:.4g}", v);
}

// The key as words, its unit dropped (the value now carries it).
std::string key_words(std::string key) {
  for (const char* unit : {"_bytes_per_s", "_ns", "_bytes", "_fraction"})
    if (ends_with(key, unit)) key.resize(key.size() - std::string(unit).size());
  if (key.rfind("ns_", 0) == 0) key = "time_" + key.substr(3);
  for (auto& c : key) c = c == '_' ? ' ' : c;
  return key;
}

}  // namespace

std::string generic(const json& v, int depth) {
  if (v.is_object()) {
    if (v.empty()) return "<span class=\"muted\">(none)</span>";
    if (depth > 4) return "<code>" + esc(v.dump()) + "</code>";
    // {factor, value} pairs (what moves a prediction): the factor names the value's unit.
    const std::string factor = v.contains("factor") && v["factor"].is_string() ? v["factor"].get<std::string>() : "";
    std::string out = R"(<dl class="generic">)";
    for (auto& [k, x] : v.items()) {
      const std::string unit_key = k == "value" && !factor.empty() ? factor : k;
      std::string shown =
          x.is_number() && !x.is_boolean() ? esc(with_unit(unit_key, x.get<double>())) : generic(x, depth + 1);
      out += "<dt>" + esc(key_words(k)) + "</dt><dd>" + shown + "</dd>";
    }
    return out + "</dl>";
  }
  if (v.is_array()) {
    if (v.empty()) return "<span class=\"muted\">(none)</span>";
    bool scalars = true;
    for (const auto& x : v) scalars &= !x.is_structured();
    if (scalars || depth > 4) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : ", ") + json_text(x);
      return esc(s);
    }
    std::string out = "<ol class=\"generic\">";
    for (const auto& x : v) out += "<li>" + generic(x, depth + 1) + "</li>";
    return out + "</ol>";
  }
  if (v.is_null()) return "<span class=\"muted\">n/a</span>";
  if (v.is_number_float()) return esc(fmt::format("{:.4g}", v.get<double>()));
  return esc(json_text(v));
}

}  // namespace html

namespace {

using namespace html;
using core::json_read::text;

constexpr const char* kCss = R"css(
:root{--fg:#1d2330;--muted:#5f6b7a;--line:#d8dee6;--bg:#fff;--panel:#f6f8fa;--good:#1a7f37;--bad:#c62828;--warn:#9a6700;
--eager:#4c6ef5;--compiled:#e8590c;--predicted:#9aa5b1;--measured:#e8590c}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1180px;margin:0 auto;padding:8px 28px 40px}
header.top{background:#1d2330;color:#fff;padding:18px 28px}
header.top h1{margin:0;font-size:22px;font-weight:600;word-break:break-all}
header.top .meta{color:#c5cdd8;font-size:13px;margin-top:4px}
nav.toc{font-size:13px;margin:10px 0 0}nav.toc a{color:#9ec5ff;margin-right:14px;text-decoration:none}
h2{font-size:19px;margin:34px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:16px;margin:22px 0 6px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:12px;margin-top:18px}
.card{display:block;border:1px solid var(--line);border-left:5px solid var(--muted);border-radius:6px;padding:10px 14px;background:var(--panel);color:inherit;text-decoration:none}
.card .t{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.card .v{font-size:24px;font-weight:650;margin:2px 0}
.card .d{font-size:13px;color:var(--muted)}
.card.good{border-left-color:var(--good)}.card.good .v{color:var(--good)}
.card.bad{border-left-color:var(--bad)}.card.bad .v{color:var(--bad)}
.card.warn{border-left-color:var(--warn)}.card.warn .v{color:var(--warn)}
.banner{border-radius:6px;padding:10px 14px;margin:16px 0;border:1px solid}
.banner.error{background:#fdecec;border-color:#f3b4b4;color:#7a1212}
.warnings li{margin:4px 0}.warnings .code{font-family:ui-monospace,monospace;font-size:12px;color:var(--warn)}
table{border-collapse:collapse;width:100%;font-size:13.5px;margin:8px 0}
th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
th{background:var(--panel);font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:12.5px}
pre{background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:8px 10px;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
code.src{display:block;background:#fffbe6;border:1px solid #f1e3a6;border-radius:3px;padding:2px 6px;white-space:pre-wrap;word-break:break-word}
.loc{font-family:ui-monospace,monospace;font-size:12.5px;word-break:break-all}
.muted{color:var(--muted)}.good{color:var(--good)}.bad{color:var(--bad)}.warn{color:var(--warn)}
.pill{display:inline-block;font-size:12px;border-radius:10px;padding:0 8px;background:var(--panel);border:1px solid var(--line);white-space:nowrap}
.pill.good{border-color:#a6d8b4;background:#e9f7ee}.pill.bad{border-color:#f3b4b4;background:#fdecec}.pill.warn{border-color:#eed48f;background:#fff6dc}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:8px 0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;word-break:break-word}
dl.generic{display:grid;grid-template-columns:max-content 1fr;gap:1px 12px;margin:2px 0;font-size:13px}
dl.generic dt{color:var(--muted)}dl.generic dd{margin:0}
ol.generic{margin:2px 0;padding-left:20px}
details{margin:8px 0}summary{cursor:pointer;color:var(--muted)}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(540px,1fr));gap:14px}
figure{margin:8px 0;border:1px solid var(--line);border-radius:6px;padding:8px;background:#fff}
figcaption{font-size:13px;color:var(--muted);margin-bottom:4px}
svg.chart{max-width:100%;height:auto;display:block;font-size:11px}
.scroll{overflow-x:auto}table.rows{font-size:13px}table.rows th{white-space:normal}.nw{white-space:nowrap}
svg.chart .grid{stroke:#eceff3}svg.chart .axis{stroke:#9aa5b1}
svg.chart .tick{fill:var(--muted)}svg.chart .axis-label{fill:var(--fg);font-size:12px}
svg.chart .row-label{fill:var(--fg);font-size:12px}
svg.chart .series.eager{color:var(--eager)}svg.chart .series.compiled{color:var(--compiled)}
svg.chart .series.predicted{color:var(--predicted)}svg.chart .series.measured{color:var(--measured)}
svg.chart .series.c0{color:#1c7ed6}svg.chart .series.c1{color:#e8590c}svg.chart .series.c2{color:#2f9e44}
svg.chart .series.c3{color:#ae3ec9}svg.chart .series.c4{color:#c92a2a}svg.chart .series.c5{color:#0c8599}
svg.chart .series.c6{color:#5c940d}svg.chart .series.c7{color:#862e9c}
svg.chart .line{fill:none;stroke:currentColor;stroke-width:1.8}
svg.chart .marker{fill:currentColor}svg.chart .hover{fill:transparent}
svg.chart .band{fill:currentColor;fill-opacity:.25;stroke:none}
svg.chart .errbar,svg.chart .whisker{stroke:currentColor;stroke-width:1.5;fill:none}
svg.chart .box{fill:currentColor;fill-opacity:.25;stroke:currentColor}
svg.chart .median{stroke:currentColor;stroke-width:3}
svg.chart .extreme{fill:none;stroke:currentColor}
svg.chart .outlier-edge{fill:currentColor}
svg.chart .sample{fill:currentColor;fill-opacity:.25}
svg.chart .legend rect{fill:currentColor}svg.chart .legend text{fill:var(--fg)}
svg.chart .refline line{stroke:#5f6b7a;stroke-dasharray:5 4}svg.chart .refline text{fill:#5f6b7a}
svg.chart .refline.eager line{stroke:var(--eager)}svg.chart .refline.eager text{fill:var(--eager)}
svg.chart .refline.steady line{stroke:var(--compiled)}svg.chart .refline.steady text{fill:var(--compiled)}
svg.chart .bar .fill{fill:#9aa5b1}svg.chart .bar.faster .fill{fill:#2f9e44}svg.chart .bar.slower .fill{fill:#e03131}
svg.chart .bar.unsure .fill{fill:#adb5bd}svg.chart .bar .errbar{stroke:var(--fg)}
svg.chart .annotation{fill:var(--fg);font-size:12px}
footer{margin-top:40px;font-size:12px;color:var(--muted)}
@media print{header.top{background:none;color:#000}nav.toc{display:none}}
)css";

}  // namespace

namespace html {

std::string cards_section(const std::vector<Card>& all) {
  if (all.empty()) return "";
  std::string out = R"(<section class="cards" id="summary" aria-label="Summary">)";
  for (const auto& c : all)
    out += fmt::format(
        R"(<a class="card {}" href="{}"><div class="t">{}</div><div class="v">{}</div><div class="d">{}</div></a>)",
        esc(c.tone), esc(c.anchor), esc(c.title), esc(c.value), esc(c.detail));
  return out + "</section>";
}

std::string warnings_section(const json& doc) {
  const json& ws = arr_at(doc, "warnings");
  if (ws.empty()) return "";
  std::string out = R"(<section id="warnings"><h2>Warnings</h2><ul class="warnings">)";
  for (const auto& w : ws) {
    out += fmt::format(R"(<li><span class="code">{}</span> {})", esc(text(w, "code")), esc(text(w, "message")));
    std::string hint = text(w, "hint");
    if (!hint.empty()) out += fmt::format(R"( <span class="muted">({})</span>)", esc(hint));
    out += "</li>";
  }
  return out + "</ul></section>";
}

std::string error_banner(const json& doc) {
  if (!doc.contains("error") || !doc["error"].is_object()) return "";
  const json& e = doc["error"];
  std::string out = fmt::format(R"(<div class="banner error" role="alert"><strong>Error ({})</strong>: {})",
                                esc(text(e, "kind")), esc(text(e, "message")));
  if (!text(e, "stage").empty()) out += fmt::format(" <span class=\"muted\">[stage: {}]</span>", esc(text(e, "stage")));
  if (!text(e, "hint").empty()) out += "<br>" + esc(text(e, "hint"));
  out += "<br><span class=\"muted\">What is below was measured before the failure.</span>";
  return out + "</div>";
}

namespace {

std::string raw_json(const json& doc) {
  std::string dumped = doc.dump(2, ' ', false, json::error_handler_t::replace);
  // Raw samples can make a document large; the report stays light, the .json has it all.
  if (dumped.size() > 400000) return "<p class=\"muted\">The raw document is large; see the .json file.</p>";
  return "<details><summary>Raw JSON document</summary><pre>" + esc(dumped) + "</pre></details>";
}

}  // namespace

std::string page(const json& doc, const std::string& title, const std::string& toc, const std::string& body) {
  const json& env = obj_at(doc, "environment");
  std::string torch = env.contains("torch") && env["torch"].is_object() ? text(env["torch"], "version") : "";
  std::string out;
  out += "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  // No scripts, no network: everything the page needs is in this file.
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src "
      "data:\">";
  out += "<meta name=\"generator\" content=\"tct " + esc(doc.value("tct_version", std::string())) + "\">";
  out += "<title>" + esc(title) + "</title><style>" + kCss + "</style></head><body>\n";
  out += "<header class=\"top\"><h1>" + esc(title) + "</h1><div class=\"meta\">";
  out += esc(fmt::format(
      "{} · tct {} · schema {}{}{}", doc.value("created", std::string()), doc.value("tct_version", std::string()),
      doc.value("schema", std::string()), torch.empty() ? "" : " · torch " + torch,
      doc["exit_code"].is_number() ? fmt::format(" · exit code {}", doc["exit_code"].get<int>()) : ""));
  out += "</div><nav class=\"toc\">" + toc + "</nav></header>\n<main>\n" + body + "\n";
  out += "<footer>" + raw_json(doc) + "<p>Generated by tct " + esc(doc.value("tct_version", std::string())) +
         ". Durations are per call; intervals are 95% bootstrap confidence intervals.</p></footer>";
  out += "\n</main></body></html>\n";
  return out;
}

std::string eager_parts(const std::vector<core::EagerPart>& parts, const std::string& extra) {
  if (parts.empty()) return "";
  std::string out = "<h4 class=\"warn\">Runs eagerly on every call</h4><ul>";
  for (const auto& p : parts)
    out += "<li>" + esc(core::describe(p)) + " <small>([" + esc(core::to_string(p.kind)) + "] " + esc(p.reason) +
           ")</small>" + (p.hint.fix.empty() ? "" : "<br>fix: " + esc(core::fix_with_terms(p.hint.fix, p.hint.terms))) +
           "</li>";
  return out + "</ul>" + extra;
}

}  // namespace html
}  // namespace tct::report
