#include "bench/breakdown_render.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::bench {
namespace {

using report::format_duration_ns;

std::string median_words(const MedianNs& m) {
  return fmt::format("{} [{}, {}]", format_duration_ns(m.median), format_duration_ns(m.low),
                     format_duration_ns(m.high));
}

std::string chain_words(const FrameChain& f) {
  std::string out = fmt::format("cache chain of {} ({}:{}): {} entr{}", f.name, f.file, f.line, f.entries.size(),
                                f.entries.size() == 1 ? "y" : "ies");
  if (f.hit_position) out += fmt::format(", the steady calls hit position {}", *f.hit_position);
  else if (!f.entry_frame) out += " (which one a call hits is checked for the entry frame only)";
  if (f.lookup_guards_ns)
    out +=
        fmt::format("; its guard checks up to the hit take {} (steady state)", format_duration_ns(*f.lookup_guards_ns));
  std::string guards;
  for (const auto& e : f.entries) {
    if (!guards.empty()) guards += ", ";
    guards += fmt::format("{}: {} guards", e.compile_id, e.guard_count ? std::to_string(*e.guard_count) : "?");
    if (e.check_ns) guards += fmt::format(" {}", format_duration_ns(*e.check_ns));
    if (e.guard_latency_us) guards += fmt::format(" (torch's cold check at compile: {:.0f} us)", *e.guard_latency_us);
  }
  return out + "; " + guards;
}

// The verdict of a fix against the default (stats::describe speaks of compiled against eager).
std::string_view verdict_words(stats::SpeedupVerdict v) {
  switch (v) {
    case stats::SpeedupVerdict::Faster: return "faster than the default";
    case stats::SpeedupVerdict::Slower: return "slower than the default";
    case stats::SpeedupVerdict::NoClearDifference: return "no clear difference";
    case stats::SpeedupVerdict::Inconclusive: return "inconclusive (the interval holds 1 and is too wide to tell)";
    case stats::SpeedupVerdict::NotMeasured: break;
  }
  return "not measured";
}

std::string fix_words(const FixTrial& t) {
  if (!t.not_tried.empty()) return fmt::format("fix {}: not tried: {}", t.fix, t.not_tried);
  std::string out = fmt::format("fix {}: {:.2f}x [{:.2f}, {:.2f}] {}", t.fix, t.speedup.estimate, t.speedup.low,
                                t.speedup.high, verdict_words(t.verdict));
  if (t.verdict == stats::SpeedupVerdict::Faster) out += fmt::format(", saves {} per call", median_words(t.saves_ns));
  return out +
         fmt::format(" ({} block pairs); write {}; it gives up: {}", t.pairs, fix_code(t.fix), fix_gives_up(t.fix));
}

}  // namespace

std::vector<std::string> breakdown_lines(const CallBreakdown& b, bool window_line) {
  std::vector<std::string> out;
  if (window_line)
    out.push_back(fmt::format("{} calls: {} each unobserved, {} under torch's profiler (sampling costs {} per call)",
                              b.calls, median_words(b.bare_ns), median_words(b.profiled_ns),
                              format_duration_ns(b.sampling_cost_ns())));
  for (const auto& p : b.parts) {
    const double share = b.profiled_ns.median > 0 ? p.ns.median / b.profiled_ns.median : NAN;
    out.push_back(fmt::format("  {:<9} {:>28}  {:>3.0f}%  {}", to_string(p.part), median_words(p.ns), 100 * share,
                              describe(p.part)));
  }
  if (!b.graph_events)
    out.push_back("  (this backend records no graph event: ops in a compiled region count as graphs)");
  for (const auto& f : b.frames) out.push_back(chain_words(f));
  for (const auto& t : b.fixes) out.push_back(fix_words(t));
  if (b.fixes.empty() && !b.material())
    out.push_back(fmt::format("no guard fix tried: lookup and wrappers take {:.0f}% of a call (under {:.0f}%)",
                              100 * b.overhead_share(), 100 * kMaterialOverheadShare));
  return out;
}

std::string breakdown_bar_html(const CallBreakdown& b) {
  using report::html::esc;
  // One hue per part, in kCallParts' order.
  constexpr const char* kHues[] = {"#d9534f", "#5b9bd5", "#f0ad4e", "#9b59b6", "#5cb85c", "#aaaaaa"};
  std::string bar = "<div style=\"display:flex;height:1.4em;max-width:40em\">";
  for (std::size_t i = 0; i < b.parts.size(); ++i) {
    const auto& p = b.parts[i];
    const double share = b.profiled_ns.median > 0 ? p.ns.median / b.profiled_ns.median : 0;
    if (!(share > 0)) continue;
    bar += fmt::format(
        "<span title=\"{}\" style=\"width:{:.1f}%;background:{}\"></span>",
        esc(fmt::format("{}: {} ({:.0f}%)", to_string(p.part), format_duration_ns(p.ns.median), 100 * share)),
        100 * share, kHues[i % std::size(kHues)]);
  }
  bar += "</div>";
  std::string legend;
  for (std::size_t i = 0; i < b.parts.size(); ++i)
    legend += fmt::format("<span style=\"color:{}\">&#9632;</span> {} ", kHues[i % std::size(kHues)],
                          esc(std::string(to_string(b.parts[i].part))));
  return bar + "<p class=\"muted\">" + legend + "</p>";
}

}  // namespace tct::bench
