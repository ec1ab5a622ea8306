// The terminal and Markdown renderings of tct job's result: the decision first, then one line
// per mode, then the evidence (per site, per run with -v).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "job/render.hpp"
#include "report/format.hpp"

namespace tct::job {
namespace {

using report::format_bytes;
using report::format_duration;
using report::format_duration_ns;

std::string command_line(const JobResult& r) {
  std::string out;
  for (const auto& w : r.command) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::string vs_cell(const Decision& d, const ModeResult& m) {
  if (d.best == m.spec.label()) return "best";
  const Comparison* c = d.find(m.spec.label());
  return c ? comparison_text(*c) : "";
}

// Why a mode may not be recommended, or "".
std::string flag_cell(const ModeResult& m) {
  if (!m.error.empty()) return "did not run: " + m.error;
  if (m.output.compared && !m.output.same)
    return fmt::format("OUTPUT DIFFERS from eager's (line {}: \"{}\" against \"{}\"): never recommended", m.output.line,
                       m.output.mode_line, m.output.eager_line);
  if (m.failed > 0) return fmt::format("{} of {} runs failed or timed out", m.failed, m.runs.size());
  if (!m.output.compared) return "output not checked";
  return "";
}

report::Table mode_table(const JobResult& r) {
  std::vector<std::string> header = {"mode", "wall time to exit"};
  if (r.horizon_calls) header.push_back(fmt::format("at {:.0f} calls", *r.horizon_calls));
  header.insert(header.end(), {"per call (loop)", "against the best", "note"});
  report::Table t(header);
  const Decision& d = r.at_horizon ? *r.at_horizon : r.as_run;
  for (const auto& m : r.modes) {
    std::vector<std::string> row = {m.spec.label(), m.ok() ? total_text(m.total) : "failed"};
    if (r.horizon_calls) row.push_back(m.at_horizon ? total_text(*m.at_horizon) : "n/a");
    row.push_back(m.ok() ? format_duration_ns(m.loop_per_call.estimate) : "");
    row.push_back(vs_cell(d, m));
    row.push_back(flag_cell(m));
    t.add(row);
  }
  return t;
}

std::string cache_cell(const SiteSummary& s) {
  if (s.cache_hits + s.cache_misses + s.cache_bypasses == 0) return "none";
  return fmt::format("{} hit, {} miss{}", s.cache_hits, s.cache_misses,
                     s.cache_bypasses ? fmt::format(", {} bypass", s.cache_bypasses) : "");
}

report::Table site_table(const JobResult& r) {
  report::Table t({"mode", "site", "calls", "first output", "steady per call", "compile", "recompiles", "cache"});
  for (const auto& m : r.modes)
    for (const auto& s : m.sites)
      t.add({m.spec.label(), s.name, std::to_string(s.calls), total_text(s.first_output), total_text(s.steady),
             compiles(m.spec.how) ? format_duration(s.compile_time) : "",
             compiles(m.spec.how) ? std::to_string(s.recompiles) : "", compiles(m.spec.how) ? cache_cell(s) : ""});
  return t;
}

std::string crossings_text(const JobResult& r) {
  std::string out;
  for (const auto& c : r.crossings)
    out += fmt::format("{}{} leads from {:.0f} calls on (before: {})", out.empty() ? "" : "; ", c.to, c.calls, c.from);
  return out;
}

std::string run_line(const ModeResult& m, const RunFigures& f) {
  std::string out = fmt::format("{} round {}: ", m.spec.label(), f.round);
  if (!f.ok())
    return out +
           (f.timed_out     ? "timed out"
            : f.interrupted ? "interrupted"
                            : "failed (" + f.exit_text + ")") +
           (f.dir.empty() ? "" : "; its stderr: " + f.dir + "/stderr.txt");
  out += fmt::format("{} to exit, {} calls of its busiest site, {} per call between them", format_duration(f.wall),
                     f.anchor_calls, format_duration(f.loop_per_call));
  if (f.torch_threads) out += fmt::format(", torch threads {}", *f.torch_threads);
  if (measured(f.artifacts_load))
    out += fmt::format(", cache artifacts loaded in {}{}", format_duration(f.artifacts_load),
                       f.artifacts_bytes ? " (" + format_bytes(*f.artifacts_bytes) + ")" : "");
  if (!f.artifacts_error.empty()) out += ", cache artifacts: " + f.artifacts_error;
  if (measured(f.package_load))
    out += fmt::format(", AOTInductor packages loaded in {}", format_duration(f.package_load));
  return out;
}

std::string rendering(const JobResult& r, bool verbose, bool md) {
  std::string out;
  const std::string h = md ? "### " : "";
  out += fmt::format("{}tct job: {} ({} round{}, modes interleaved, each run a fresh process)\n", h, command_line(r),
                     r.rounds, r.rounds == 1 ? "" : "s");
  if (md) out += "\n";
  if (r.at_horizon) out += fmt::format("best for {}: {}\n", horizon_text(r), decision_text(r, *r.at_horizon, true));
  out += fmt::format("best as the job ran: {}\n", decision_text(r, r.as_run, false));
  const Decision& d = r.at_horizon ? *r.at_horizon : r.as_run;
  if (!d.best.empty() && !d.others.empty())
    out += d.clear()      ? "the best is faster than every other mode by its 95% interval\n"
           : r.rounds < 2 ? "one round gives no interval, so no difference is decided: --rounds 3 or more\n"
                          : "not every difference is clear: see each mode's comparison\n";
  if (!r.crossings.empty()) out += "the fastest mode changes: " + crossings_text(r) + "\n";
  out += "\n";
  const report::Table modes = mode_table(r);
  out += md ? modes.markdown() : modes.str();
  out += "\n";
  if (r.filling && std::any_of(r.modes.begin(), r.modes.end(), [](const ModeResult& m) {
        return m.spec.how == How::Warm || m.spec.how == How::Shipped;
      }))
    out +=
        fmt::format("warm and shipped runs start from the caches of one earlier compiled run ({}{})\n",
                    r.filling->ok() ? format_duration(r.filling->wall) : "failed",
                    r.filling->artifacts_bytes ? ", cache artifacts " + format_bytes(*r.filling->artifacts_bytes) : "");
  for (const auto& line : aoti_lines(r)) out += (md ? "- " : "") + line + "\n";
  out += shape_fixes_text(r, md);
  out +=
      "per call (loop): time between calls of the busiest site in the second half of each run (the horizon's slope)\n";
  out += "intervals: 95% Student t across rounds; a comparison pairs the two modes' runs of each round\n";
  if (md) out += "\n";
  out += md ? "#### Per call site\n\n" : "\nper call site:\n";
  const report::Table sites = site_table(r);
  out += md ? sites.markdown() : sites.str();
  if (!r.notes.empty()) {
    out += md ? "\n" : "\n";
    for (const auto& n : r.notes) out += (md ? "- " : "note: ") + n + "\n";
  }
  if (verbose) {
    out += md ? "\n#### Runs\n\n" : "\nruns:\n";
    for (const auto& m : r.modes)
      for (const auto& f : m.runs) out += (md ? "- " : "  ") + run_line(m, f) + "\n";
    if (!r.dir.empty())
      out += fmt::format("{}every run's records, trace, caches and output: {}\n", md ? "\n" : "", r.dir);
  } else {
    out += "(tct job -v: every run)\n";
  }
  return out;
}

}  // namespace

std::string brief(const JobResult& r) { return rendering(r, false, false); }
std::string text(const JobResult& r) { return rendering(r, true, false); }
std::string markdown(const JobResult& r) { return rendering(r, true, true); }

}  // namespace tct::job
