// tct run's section: silent fallbacks first and loudly (a call site that hit the recompile
// limit and runs eagerly from then on), then per process (rank) each call site: calls and
// time per call, compile time from the trace, breaks and recompiles with their fix, and
// with --compare-eager eager against compiled; then the ranks that diverge. Markdown alike.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "stats/verdict.hpp"
#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string dur(const json& j, const char* key) { return format_duration_ns(number_or_nan(j, key)); }

// A path under the folder the job ran in, relative to it; others shortened.
std::string rel(const std::string& path, const std::string& cwd) {
  if (!cwd.empty() && path.size() > cwd.size() + 1 && path.compare(0, cwd.size(), cwd) == 0 && path[cwd.size()] == '/')
    return path.substr(cwd.size() + 1);
  return short_path(path);
}

std::string where(const json& s, const std::string& cwd) {
  const json& site = member(s, "site");
  return fmt::format("{}:{}", rel(string_or(site, "file"), cwd), int_or_zero(site, "line"));
}

std::string process_title(const json& p) {
  return p["rank"].is_number() ? fmt::format("rank {} (pid {})", p["rank"].get<int>(), text_or(p, "pid"))
                               : fmt::format("process {}", text_or(p, "pid"));
}

std::string fallback_text(const json& s, const json& p, bool md, const std::string& cwd) {
  const json& f = member(s, "fallback");
  std::string at = f["at_call"].is_number() ? fmt::format(" at call {}", f["at_call"].get<size_t>() + 1) : "";
  std::string limit = f["limit_value"].is_number() ? fmt::format(" ({} = {})", string_or(f, "limit"), text_or(f, "limit_value"))
                                                   : "";
  std::string out = fmt::format(
      fmt::runtime(md ? "**SILENT FALLBACK: `{}` ({}{}) hit the recompile limit{}{}**: {} of the {} calls since ran "
                        "eagerly, without compile.\n"
                      : "SILENT FALLBACK: {} ({}{}) hit the recompile limit{}{}: {} of the {} calls since ran "
                        "eagerly, without compile.\n"),
      string_or(s, "name"), where(s, cwd), p["rank"].is_number() ? fmt::format(", rank {}", p["rank"].get<int>()) : "", limit, at,
      text_or(f, "eager_calls_after"), text_or(f, "calls_after"));
  if (!string_or(f, "guard").empty())
    out += fmt::format(fmt::runtime(md ? "- guard that kept failing: `{}`\n" : "  guard that kept failing: {}\n"), string_or(f, "guard"));
  if (!string_or(f, "fix").empty()) out += fmt::format(fmt::runtime(md ? "- fix: {}\n" : "  fix: {}\n"), string_or(f, "fix"));
  return out;
}

std::string site_text(const json& s, bool md, bool verbose, const std::string& cwd) {
  const std::string b = md ? "- " : "    ";
  std::string out;
  const json& code = member(s, "code");
  out += fmt::format(fmt::runtime(md ? "\n#### `{}` at `{}`\n\n" : "  {} at {}"), string_or(s, "name"), where(s, cwd));
  if (!md) out += fmt::format(" ({}, compiles {} at {}:{})\n", string_or(s, "kind"), string_or(code, "function"),
                              rel(string_or(code, "file"), cwd), int_or_zero(code, "line"));
  const json& all = member(s, "all_calls");
  const json& steady = member(s, "steady_calls");
  std::string eager = s["eager_calls"].is_number() ? fmt::format(", {} ran no compiled graph", s["eager_calls"].get<size_t>())
                                                   : "";
  out += fmt::format("{}{} call(s): {} compiling ({} in all){}; total {} ({} of the job)\n", b, text_or(s, "calls"),
                     text_or(s, "compiling_calls"), dur(s, "compiling_calls_ns"), eager, dur(all, "total_ns"),
                     format_percent(number_or_nan(s, "job_share")));
  if (int_or_zero(steady, "calls") > 0)
    out += fmt::format("{}per call (steady, {} calls): median {}, p90 {}\n", b, text_or(steady, "calls"),
                       dur(steady, "median_ns"), dur(steady, "p90_ns"));
  const json& device = member(s, "device_steady_calls");
  if (device.is_object() && int_or_zero(device, "calls") > 0)
    out += fmt::format("{}device time per call (CUDA events, {} steady calls): median {}, p90 {}\n", b,
                       text_or(device, "calls"), dur(device, "median_ns"), dur(device, "p90_ns"));
  const json& compiles = member(s, "compiles");
  if (compiles.is_array() && !compiles.empty()) {
    std::string cache;
    for (const auto& [k, v] : member(s, "cache").items()) cache += fmt::format("{}{} {}", cache.empty() ? "" : ", ", k, json_text(v));
    out += fmt::format("{}compile (trace): {} frame compile(s) taking {}, {} recompile(s), {} graph break(s){}\n", b,
                       compiles.size(), dur(s, "compile_time_ns"), text_or(s, "recompiles"), text_or(s, "graph_breaks"),
                       cache.empty() ? "" : "; cache: " + cache);
    if (verbose || md)
      for (const auto& c : compiles) {
        std::string phases;
        for (const auto& [k, v] : member(c, "phase_ns").items())
          phases += fmt::format("{}{} {}", phases.empty() ? "" : ", ", k, format_duration_ns(v.is_number() ? v.get<double>() : NAN));
        out += fmt::format("{}  frame {} {} (line {}): {}\n", b, string_or(c, "compile_id"), string_or(c, "function"),
                           text_or(c, "line"), phases);
      }
  } else {
    out += fmt::format("{}compile (trace): no compile of this site's frames in the TORCH_TRACE logs\n", b);
  }
  for (const auto& br : member(s, "breaks"))
    out += fmt::format(fmt::runtime(md ? "{}graph break at `{}:{}` ({}, x{}): {}; fix: {}\n" : "{}graph break at {}:{} ({}, x{}): {}\n  {}fix: {}\n"),
                       b, rel(string_or(br, "file"), cwd), text_or(br, "line"), string_or(br, "kind"),
                       text_or(br, "count"), string_or(br, "reason"), md ? string_or(br, "fix") : b, md ? "" : string_or(br, "fix"));
  for (const auto& c : compiles)
    for (const auto& g : member(c, "recompile_reasons"))
      out += fmt::format(fmt::runtime(md ? "{}recompile (frame {}): guard failed: `{}`\n" : "{}recompile (frame {}): guard failed: {}\n"), b,
                         string_or(c, "compile_id"), g.is_string() ? g.get<std::string>() : g.dump());
  const json& e = member(s, "eager");
  if (e.is_object()) {
    const json& sp = member(e, "speedup");
    // Decided from the interval, by the one rule, for documents of any version.
    const stats::SpeedupVerdict v =
        stats::decide(number_or_nan(sp, "estimate"), number_or_nan(sp, "low"), number_or_nan(sp, "high"));
    const std::string verdict(stats::describe(v));
    out += fmt::format("{}vs eager{}: {} [{}, {}] {}; eager {} vs compiled {} per call (95% interval; covers {})\n", b,
                       string_or(e, "clock") == "cuda_events" ? " (CUDA event time)" : "",
                       format_ratio(number_or_nan(sp, "estimate")), format_ratio(number_or_nan(sp, "low")),
                       format_ratio(number_or_nan(sp, "high")), verdict,
                       dur(member(e, "eager"), "median_ns"), dur(member(e, "compiled"), "median_ns"), string_or(sp, "covers"));
    const json& be = member(e, "break_even_calls");
    std::string pay = be.is_number()
                          ? (e.value("paid_back", false)
                                 ? fmt::format("paid back after {:.0f} calls (this job made {})", be.get<double>(), text_or(s, "calls"))
                                 : fmt::format("pays back after {:.0f} calls: not in this job ({} calls)", be.get<double>(),
                                               text_or(s, "calls")))
                          : v == stats::SpeedupVerdict::Faster ? "never pays back at this speed"
                                                               : "no break-even: no reliable gain to pay it back";
    out += fmt::format("{}compile cost {}: {}\n", b, dur(e, "compile_cost_ns"), pay);
  }
  return out;
}

std::string run_text(const json& doc, bool md, bool verbose) {
  const json& r = member(doc, "run");
  if (!r.is_object()) return "";
  const std::string cwd = string_or(r, "cwd");
  std::string cmd;
  for (const auto& a : member(r, "command")) cmd += (cmd.empty() ? "" : " ") + a.get<std::string>();
  std::string out = fmt::format(fmt::runtime(md ? "## tct run: `{}`\n\n{}, {}\n" : "\ntct run: {}\n  {}, {}\n"), cmd,
                                string_or(r, "exit"), dur(r, "wall_ns"));
  // The loudest news first: call sites that silently run eagerly.
  for (const auto& p : member(r, "processes"))
    for (const auto& s : member(p, "sites"))
      if (member(s, "fallback").is_object()) out += "\n" + fallback_text(s, p, md, cwd);
  const json& div = member(r, "divergence");
  if (div.is_array() && !div.empty()) {
    out += md ? "\n**Ranks diverge** (a known cause of collective hangs):\n\n" : "\nRANKS DIVERGE (a known cause of collective hangs):\n";
    for (const auto& d : div) out += fmt::format("{}{}\n", md ? "- " : "  ", string_or(d, "message"));
  }
  const json& procs = member(r, "processes");
  if (!procs.is_array() || procs.empty()) {
    out += fmt::format("\n{}\n", int_or_zero(r, "processes_with_torch") > 0
                                     ? "torch was imported, but no torch.compile call site was called"
                                     : "no process of the job imported torch (or it ran Python with -S / -I)");
  }
  for (const auto& p : procs) {
    out += fmt::format(fmt::runtime(md ? "\n### {}\n" : "\n{}{}\n"), process_title(p),
                       p.value("complete", true) ? "" : " (ended before writing at exit: its last calls are missing)");
    for (const auto& s : member(p, "sites")) out += site_text(s, md, verbose, cwd);
  }
  const json& cmp = member(r, "compare_eager");
  if (cmp.is_object())
    out += fmt::format("\neager runs: {} ({}), each call site bypassed (calls go straight to the uncompiled code)\n", text_or(cmp, "runs_each"),
                       string_or(cmp, "stance"));
  for (const auto& n : member(r, "notes")) out += fmt::format("{}note: {}\n", md ? "\n" : "", n.get<std::string>());
  out += fmt::format(fmt::runtime(md ? "\nLogs: `{}` (`tct trace {}` for every detail)\n" : "\nlogs: {} (tct trace {} for every detail)\n"),
                     string_or(r, "trace_dir"), string_or(r, "trace_dir"));
  return out;
}

}  // namespace

std::string text_run(const json& doc) { return run_text(doc, false, true); }
std::string brief_run(const json& doc) { return run_text(doc, false, false); }
std::string markdown_run(const json& doc) { return run_text(doc, true, true); }

}  // namespace tct::report
