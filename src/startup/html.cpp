// The HTML section of tct startup: one bar per mode, its median start split by phase (SVG,
// drawn here: the shared charts have no stacked bar), the table of modes, the cache lookups.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/html_util.hpp"
#include "startup/json.hpp"
#include "startup/render.hpp"

namespace tct::startup {
namespace {

using report::format_duration;
using report::html::esc;

// One colour per phase (fill attributes: the page's stylesheet is shared by every command).
const char* phase_colour(Phase p) {
  switch (p) {
    case Phase::Interpreter: return "#9aa5b1";
    case Phase::ImportTorch: return "#616e7c";
    case Phase::LoadArtifacts: return "#c99a2e";
    case Phase::BuildModel: return "#7b93db";
    case Phase::LoadInputs: return "#a3b8ef";
    case Phase::LoadPackage: return "#e0a458";
    case Phase::CompileSetup: return "#b9a5d6";
    case Phase::Dynamo: return "#8e6bbf";
    case Phase::AotAutograd: return "#5aa9a0";
    case Phase::Inductor: return "#d1603d";
    case Phase::CppCompiler: return "#a23b2a";
    case Phase::CacheLoad: return "#5b8c3a";
    case Phase::FirstCall: return "#2f4858";
  }
  return "#999";
}

std::string chart(const StartupResult& r) {
  double longest = 0;
  for (const auto& m : r.modes)
    if (m.ok()) longest = std::max(longest, measured(m.high) ? m.high.count() : m.median.count());
  if (longest <= 0) return "";
  const int label_w = 80, bar_w = 760, row_h = 30, top = 10;
  const int rows =
      static_cast<int>(std::count_if(r.modes.begin(), r.modes.end(), [](const ModeResult& m) { return m.ok(); }));
  const int height = top + rows * row_h + 70;
  std::string svg = fmt::format(
      R"(<svg class="chart" role="img" aria-label="Time to the first output per start mode, by phase" width="{}" height="{}" viewBox="0 0 {} {}">)",
      label_w + bar_w + 120, height, label_w + bar_w + 120, height);
  int y = top;
  for (const auto& m : r.modes) {
    if (!m.ok()) continue;
    svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" font-size="12">{}</text>)", label_w - 6, y + 18,
                       esc(std::string(to_string(m.mode))));
    double x = label_w;
    for (Phase p : kAllPhases) {
      auto it = m.phases.find(p);
      if (it == m.phases.end() || !measured(it->second) || it->second.count() <= 0) continue;
      const double w = it->second.count() / longest * bar_w;
      svg +=
          fmt::format(R"(<rect x="{:.1f}" y="{}" width="{:.1f}" height="20" fill="{}"><title>{}: {} {}</title></rect>)",
                      x, y + 4, w, phase_colour(p), esc(std::string(to_string(m.mode))), esc(std::string(describe(p))),
                      esc(format_duration(it->second)));
      x += w;
    }
    // The interval of the total, as a whisker over the bar.
    if (measured(m.low) && measured(m.high)) {
      const double lo = label_w + m.low.count() / longest * bar_w, hi = label_w + m.high.count() / longest * bar_w;
      svg += fmt::format(R"(<line x1="{:.1f}" x2="{:.1f}" y1="{}" y2="{}" stroke="#000" stroke-width="1.5"/>)", lo, hi,
                         y + 14, y + 14);
    }
    // A command's start has no phases: its whole time, one grey bar.
    if (m.phases.empty() && measured(m.median)) {
      const double w = m.median.count() / longest * bar_w;
      svg += fmt::format(R"(<rect x="{:.1f}" y="{}" width="{:.1f}" height="20" fill="#9aa5b1"/>)", x, y + 4, w);
      x += w;
    }
    svg += fmt::format(R"(<text x="{:.1f}" y="{}" font-size="12">{}</text>)", x + 6, y + 18,
                       esc(format_duration(m.median)));
    y += row_h;
  }
  // The legend: the phases that appear.
  int lx = label_w, ly = y + 16;
  for (Phase p : kAllPhases) {
    bool used = false;
    for (const auto& m : r.modes) used = used || (m.ok() && m.phases.count(p) && m.phases.at(p).count() > 0);
    if (!used) continue;
    const std::string name(describe(p));
    const int w = 18 + static_cast<int>(name.size()) * 7;
    if (lx + w > label_w + bar_w + 100) {
      lx = label_w;
      ly += 18;
    }
    svg += fmt::format(
        R"(<rect x="{}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{}" font-size="11">{}</text>)", lx,
        ly - 10, phase_colour(p), lx + 16, ly, esc(name));
    lx += w + 10;
  }
  return svg + "</svg>";
}

std::string lookup_text(const CacheLookup& l) {
  std::string out = fmt::format("{} {}", l.cache == "fx_graph" ? "FX graph cache" : "AOTAutograd cache", l.state);
  if (!l.reason.empty()) out += ": " + l.reason;
  for (const auto& c : l.changed) out += "\n  changed: " + c;
  return out;
}

}  // namespace

std::string html_section(const StartupResult& r) {
  std::string out = R"(<section id="startup"><h2>Start-up</h2>)";
  out += "<p>" + esc(answer(r)) + "</p>";
  for (const auto& f : r.still_compiled)
    out +=
        fmt::format(R"(<p class="muted">{} start: every cache lookup hit, yet the C++ compiler ran {} of its {}.</p>)",
                    esc(std::string(to_string(f.mode))), esc(format_duration(f.cpp_compiler)),
                    esc(format_duration(f.first_output)));
  out += "<figure>" + chart(r) +
         "<figcaption>Launch to the first output of a fresh process, the median start of each mode split by phase; "
         "the line is the interval of the median over the starts.</figcaption></figure>";
  std::vector<std::vector<std::string>> rows;
  for (const auto& m : r.modes) {
    std::string time =
        !m.ok()
            ? esc(m.skipped.empty() ? "failed: " + m.error : "skipped: " + m.skipped)
            : esc(format_duration(m.median)) +
                  (measured(m.low) ? esc(fmt::format(" [{} .. {}]", format_duration(m.low), format_duration(m.high)))
                                   : "");
    std::string be = m.mode == Mode::Eager || !m.ok() ? ""
                     : m.break_even_calls             ? calls_text(*m.break_even_calls)
                                                      : "never";
    std::string lookups;
    for (const auto& l : m.lookups) lookups += (lookups.empty() ? "" : "<br>") + esc(lookup_text(l));
    if (m.check)
      lookups += esc(fmt::format("outputs {} eager's (max abs diff {:.3g})", m.check->match ? "match" : "DIFFER from",
                                 m.check->max_abs_diff));
    if (m.sites.size() > 1) lookups += (lookups.empty() ? "" : "<br>") + esc(sites_line(m));
    rows.push_back({esc(std::string(to_string(m.mode))), esc(std::string(describe(m.mode))), time,
                    m.ok() ? esc(format_duration(m.per_call)) : "", esc(be),
                    m.shipped_bytes ? esc(report::format_bytes(*m.shipped_bytes)) : "", lookups});
  }
  out += report::html::table(
      {"Mode", "How", "First output", "Per call", "Break-even vs eager", "Shipped", "Cache lookups, outputs"}, rows);
  return out + "</section>";
}

std::vector<report::html::Card> html_cards(const StartupResult& r) {
  if (!r.verdict.fastest) return {};
  const ModeResult* f = r.find(r.verdict.fastest_compiled ? *r.verdict.fastest_compiled : *r.verdict.fastest);
  return {{"Fastest compiled start", std::string(to_string(f->mode)),
           format_duration(f->median) + ", " + std::string(describe(f->mode)), r.findings.empty() ? "neutral" : "warn",
           "#startup"}};
}

}  // namespace tct::startup
