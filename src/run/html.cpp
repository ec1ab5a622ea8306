// tct run's section of the HTML report: silent fallbacks first, then per process (rank) a
// table of call sites (calls, per-call time, share of the job, compile time, breaks,
// recompiles, eager comparison), the breaks and recompiles with their fix, and divergence.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/breakdown_render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "run/render.hpp"
#include "stats/verdict.hpp"

namespace tct::run {

namespace {

std::string html_dur(Ns d) { return report::format_duration_ns(d.count()); }

std::string html_fallback(const SiteFallback& at_site) {
  using report::html::esc;
  const SiteResult& s = *at_site.site;
  const Fallback& f = *at_site.fallback;
  return fmt::format(
      "<h3 class=\"warn\">Silent fallback: {} ({}:{}), frame {}: {}</h3><p>{} calls since{}. Guard "
      "that kept failing: <code>{}</code>. Fix: {}</p>",
      esc(s.name), esc(report::short_path(s.site_file)), s.site_line, esc(f.frame.function), esc(f.cause),
      f.calls_after, f.eager_after ? fmt::format(", {} of them wholly eager", *f.eager_after) : "", esc(f.guard),
      esc(core::fix_with_terms(f.fix, f.fix_terms)));
}

}  // namespace

std::string html_section(const RunResult& r) {
  using namespace report;
  using namespace report::html;
  std::string cmd;
  for (const auto& a : r.command) cmd += (cmd.empty() ? "" : " ") + a;
  std::string out = R"(<section id="run"><h2>tct run: per torch.compile call site</h2>)";
  out += facts({{"Command", "<code>" + esc(cmd) + "</code>"},
                {"Exit", esc(r.exit_text)},
                {"Wall time", html_dur(r.wall)},
                {"Logs", "<code>" + esc(r.trace_dir) + "</code>"}});
  if (r.first_end)
    out += "<p class=\"warn\"><strong>A rank ended first:</strong> " + esc(first_end_text(*r.first_end)) + "</p>";
  for (const auto& f : silent_fallbacks(r)) out += html_fallback(f);
  if (!r.divergence.empty()) {
    out += "<h3 class=\"warn\">Ranks diverge</h3><ul>";
    for (const auto& v : r.divergence) out += "<li>" + esc(v.message) + "</li>";
    out += "</ul>";
  }
  for (const auto& n : r.notes) out += "<p>Note: " + esc(n) + "</p>";
  for (const auto& p : r.processes) {
    out += "<h3>" + esc(p.rank ? fmt::format("Rank {}", *p.rank) : fmt::format("Process {}", p.pid)) + "</h3>";
    if (p.records_missing)
      out += "<p>" +
             esc(fmt::format("No records of its own (it ended before its first flush); its trace: {} compile(s), {} "
                             "recompile(s)",
                             p.trace_compiles, p.trace_recompiles)) +
             "</p>";
    else if (!p.complete())
      out += "<p>" +
             esc(p.running            ? "Running: its calls up to its last flush"
                 : p.ended_by.empty() ? "Ended before writing at exit: its last calls are missing"
                                      : "Ended by " + p.ended_by + ": its calls up to then") +
             "</p>";
    std::vector<std::vector<std::string>> rows, details;
    std::vector<core::EagerPart> eager;
    bool eager_measured = false;  // a site with eager parts had calls sampled: its breakdown says their share
    std::string breakdowns;
    for (const auto& s : p.sites) {
      if (s.breakdown && s.breakdown->call.calls > 0) {
        std::string lines;
        for (const auto& l : bench::breakdown_lines(s.breakdown->call, false)) lines += esc(l) + "\n";
        breakdowns += "<h4>Where a call's time goes: " + esc(s.name) + "</h4>" +
                      bench::breakdown_bar_html(s.breakdown->call) + "<p>" + esc(sampling_text(*s.breakdown)) +
                      "</p><pre>" + lines + "</pre>";
        eager_measured = eager_measured || !s.eager_parts.empty();
      }
      for (const auto& e : s.eager_parts)
        if (e.cause != core::EagerCause::RecompileLimit) eager.push_back(e);  // said first, as a silent fallback
      const std::string vs = s.eager
                                 ? fmt::format("{} [{}, {}] {}", format_ratio(s.eager->speedup.estimate),
                                               format_ratio(s.eager->speedup.low), format_ratio(s.eager->speedup.high),
                                               stats::describe(s.eager->verdict))
                                 : "";
      rows.push_back({esc(s.name), esc(short_path(s.site_file) + ":" + std::to_string(s.site_line)),
                      std::to_string(s.calls), esc(html_dur(s.steady.median)), esc(html_dur(s.steady.p90)),
                      esc(format_percent(s.job_share)), esc(html_dur(s.compile_time)), std::to_string(s.graph_breaks),
                      std::to_string(s.recompiles), esc(vs)});
      std::vector<std::string> measured;  // a trial beside its fix's first break, once
      for (const auto& b : s.breaks) {
        std::string fix = esc(core::fix_with_terms(b.fix, b.fix_terms));
        for (const auto& t : s.trials)
          if (t.fix == b.fix_terms.id && std::find(measured.begin(), measured.end(), t.fix) == measured.end()) {
            measured.push_back(t.fix);
            fix += "<br><strong>Measured:</strong> " + esc(trial_text(t));
          }
        details.push_back(
            {esc(s.name), "graph break", esc(short_path(b.file) + ":" + std::to_string(b.line) + " " + b.reason), fix});
      }
      for (const auto& g : s.recompile_groups)
        details.push_back({esc(s.name), esc(fmt::format("recompiled {}x ({})", g.count, g.frame.function)),
                           "<code>" + esc(g.pattern) + "</code> " + esc(g.why),
                           esc(core::fix_with_terms(g.fix, g.fix_terms))});
    }
    out += table({"Call site", "Where", "Calls", "Median/call", "p90/call", "Share of job", "Compile time", "Breaks",
                  "Recompiles", "vs eager"},
                 rows, "sites");
    if (!details.empty()) out += table({"Call site", "What", "Where / guard", "Fix"}, details, "details");
    out += report::html::eager_parts(eager, eager_measured
                                                ? "<p>Their share of the call's time: the eager part below.</p>"
                                                : "<p>Their share of the call's time is not measured here.</p>");
    out += breakdowns;
  }
  return out + "</section>";
}

}  // namespace tct::run
