// tct run's section: silent fallbacks first and loudly (a call site that hit the recompile
// limit and runs eagerly from then on), then per process (rank) each call site: calls and
// time per call, compile time from the trace, breaks and recompiles with their fix, and
// with --compare-eager eager against compiled; then the ranks that diverge. Markdown alike.
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "stats/verdict.hpp"
#include "report/format.hpp"
#include "run/render.hpp"

namespace tct::run {

json fallbacks_of(const json& site) {
  using namespace report;
  const json& list = member(site, "fallbacks");
  if (list.is_array()) return list;
  const json& old = member(site, "fallback");  // documents before the list: the site's own frame
  if (!old.is_object()) return json::array();
  json f = old;
  f["cause"] = string_or(old, "limit", "recompile_limit");
  f["frame"] = {{"role", "site"}, {"function", string_or(member(site, "code"), "function")}};
  return json::array({f});
}

}  // namespace tct::run

namespace tct::report {

using json = nlohmann::json;

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

// A frame of the site in the user's words.
std::string frame_words(const json& f, const json& site, const std::string& cwd) {
  const std::string role = string_or(f, "role"), function = string_or(f, "function");
  const std::string file = rel(string_or(f, "file").empty() ? string_or(member(site, "code"), "file") : string_or(f, "file"), cwd);
  if (role == "after_break" && int_or_zero(f, "break_line") > 0)
    return fmt::format("the code after the graph break at {}:{}", file, int_or_zero(f, "break_line"));
  if (role == "nested" && !function.empty())
    return fmt::format("{} (a function it calls, compiled as a frame of its own)", function);
  return function.empty() ? "a frame of it" : function;
}

using run::fallbacks_of;


std::string fallback_text(const json& s, const json& f, const json& p, bool md, const std::string& cwd) {
  const std::string cause = string_or(f, "cause");
  const std::string limit = f["limit_value"].is_number() ? fmt::format(" ({})", text_or(f, "limit_value")) : "";
  const std::string what = cause == "compile_failed" ? "failed to compile"
                           : cause == "accumulated_recompile_limit" ? "hit the accumulated recompile limit" + limit
                                                                     : "hit the recompile limit" + limit;
  const std::string at = f["at_call"].is_number() ? fmt::format(" at call {}", f["at_call"].get<size_t>() + 1) : "";
  const std::string since =
      f["eager_calls_after"].is_number()
          ? fmt::format("{} of the {} calls since ran eagerly, without compile", text_or(f, "eager_calls_after"),
                        text_or(f, "calls_after"))
          : fmt::format("from then on a call whose guards no compiled entry passes runs that part eagerly ({} calls since)",
                        text_or(f, "calls_after"));
  std::string out = fmt::format(fmt::runtime(md ? "**SILENT FALLBACK: `{}` ({}{}): {} {}{}**: {}.\n"
                                                : "SILENT FALLBACK: {} ({}{}): {} {}{}: {}.\n"),
                                string_or(s, "name"), where(s, cwd),
                                p["rank"].is_number() ? fmt::format(", rank {}", p["rank"].get<int>()) : "",
                                frame_words(member(f, "frame"), s, cwd), what, at, since);
  if (!string_or(f, "guard").empty())
    out += fmt::format(fmt::runtime(md ? "- guard that kept failing: `{}`\n" : "  guard that kept failing: {}\n"), string_or(f, "guard"));
  else if (!string_or(f, "reason").empty())
    out += fmt::format(fmt::runtime(md ? "- torch: {}\n" : "  torch: {}\n"), string_or(f, "reason"));
  if (!string_or(f, "fix").empty()) out += fmt::format(fmt::runtime(md ? "- fix: {}\n" : "  fix: {}\n"), string_or(f, "fix"));
  return out;
}

// "0, 5, 10, 15, 20, 25, ... (8 values)"
std::string values_text(const json& values) {
  std::string out;
  size_t n = 0;
  for (const auto& v : values) {
    if (n == 6) {
      out += fmt::format(", ... ({} values)", values.size());
      break;
    }
    out += (n++ ? ", " : "") + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return out;
}

std::string recompile_group_text(const json& g, const json& s, bool md, const std::string& b, const std::string& cwd,
                                 bool with_fix) {
  const std::string limit = g["limit"].is_number() ? fmt::format(" (limit {})", text_or(g, "limit")) : "";
  const std::string values = values_text(member(g, "values"));
  const std::string where_code = int_or_zero(g, "code_line") > 0
                                     ? fmt::format(" ({}:{})", rel(string_or(g, "code_file"), cwd), int_or_zero(g, "code_line"))
                                     : "";
  std::string out = fmt::format(fmt::runtime(md ? "{}recompiled {}x{} in {}: `{}` failed{}{}\n" : "{}recompiled {}x{} in {}: {} failed{}{}\n"), b,
                                text_or(g, "count"), limit, frame_words(member(g, "frame"), s, cwd), string_or(g, "guard"),
                                values.empty() ? "" : " for values " + values, where_code);
  if (with_fix)
    out += fmt::format("{}  {}; fix: {}{}\n", b, string_or(g, "why"), string_or(g, "fix"),
                       string_or(g, "cost").empty() ? "" : " (" + string_or(g, "cost") + ")");
  return out;
}

// "load 3.1 on 2 CPUs, 120 involuntary context switches/s, torch 2 threads"
std::string contention_words(const json& c) {
  std::string out = fmt::format("load {:.1f} on {} CPUs", number_or_nan(c, "load_1m"), text_or(c, "cpus"));
  if (std::isfinite(number_or_nan(c, "involuntary_switches_per_s")))
    out += fmt::format(", {:.0f} involuntary context switches/s", number_or_nan(c, "involuntary_switches_per_s"));
  if (member(c, "torch_threads").is_number()) out += fmt::format(", torch {} thread(s)", text_or(c, "torch_threads"));
  return out;
}

std::string site_text(const json& s, bool md, bool verbose, const std::string& cwd, const json& contention) {
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
  const json& groups = member(s, "recompile_groups");
  if (groups.is_array()) {
    std::set<std::string> explained;  // a cause's why and fix once, however many frames it touched
    for (const auto& g : groups) out += recompile_group_text(g, s, md, b, cwd, explained.insert(string_or(g, "fix")).second);
  }
  // torch's own text: -v only, its first line (the stack trace it appends is in the JSON).
  if (verbose || !groups.is_array())
    for (const auto& c : compiles)
      for (const auto& g : member(c, "recompile_reasons")) {
        std::string first = g.is_string() ? g.get<std::string>() : g.dump();
        first = first.substr(0, first.find('\n'));
        out += fmt::format(fmt::runtime(md ? "{}recompile (frame {}): guard failed: `{}`\n" : "{}recompile (frame {}): guard failed: {}\n"), b,
                           string_or(c, "compile_id"), first);
      }
  if (const json& st = member(s, "stall"); st.is_object())
    out += fmt::format("{}warning: calls stalled: p90 {:.0f}x the median compiled{}; {}: rerun with --threads 1 (or on "
                       "a quieter machine)\n",
                       b, number_or_nan(st, "compiled_p90_over_median"),
                       number_or_nan(st, "eager_p90_over_median") > 0
                           ? fmt::format(", {:.0f}x eager", number_or_nan(st, "eager_p90_over_median"))
                           : "",
                       contention_words(contention));
  if (s.value("backward_outside", false))
    out += fmt::format("{}per-call figures cover the forward alone: the backward runs in loss.backward(), outside the "
                       "timed call\n", b);
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
    const json& st = member(s, "stall");
    if (v == stats::SpeedupVerdict::Inconclusive)
      out += fmt::format("{}  why inconclusive: {}\n", b,
                         st.is_object() ? "calls stalled (the warning above): the interval holds their waits"
                         : int_or_zero(sp, "runs_each") > 1
                             ? "the runs disagree: rerun on a quieter machine"
                             : "one run each way: --repeat 3 adds runs, and the interval their variation");
    const json& runs = member(s, "compiled_runs");
    if (runs.is_array() && runs.size() > 1) {
      // Each compiled run's compile and its break-even: cold first, then the warm caches.
      std::string line;
      for (const auto& c : runs) {
        const json& be = member(c, "break_even_calls");
        line += fmt::format("{}run {} ({}): compile {}, cost {}, {}", line.empty() ? "" : "; ", text_or(c, "run"),
                            string_or(c, "cache_state"), dur(c, "compile_time_ns"), dur(c, "compile_cost_ns"),
                            be.is_number() ? fmt::format("pays back after {:.0f} calls", be.get<double>())
                                           : "no break-even");
      }
      out += fmt::format("{}compiled runs: {}\n", b, line);
    } else {
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
      for (const auto& f : fallbacks_of(s)) out += "\n" + fallback_text(s, f, p, md, cwd);
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
    for (const auto& s : member(p, "sites")) out += site_text(s, md, verbose, cwd, member(r, "contention"));
  }
  const json& cmp = member(r, "compare_eager");
  if (cmp.is_object())
    out += fmt::format("\neager runs: {} ({}), each call site bypassed (calls go straight to the uncompiled code){}\n",
                       text_or(cmp, "runs_each"), string_or(cmp, "stance"),
                       member(r, "threads").is_number() ? fmt::format("; --threads {} in every run", text_or(r, "threads")) : "");
  for (const auto& n : member(r, "notes")) out += fmt::format("{}note: {}\n", md ? "\n" : "", n.get<std::string>());
  out += fmt::format(fmt::runtime(md ? "\nLogs: `{}` (`tct trace {}` for every detail)\n" : "\nlogs: {} (tct trace {} for every detail)\n"),
                     string_or(r, "trace_dir"), string_or(r, "trace_dir"));
  return out;
}

}  // namespace

}  // namespace tct::report

namespace tct::run {

std::string text(const json& doc, bool markdown, bool verbose) { return report::run_text(doc, markdown, verbose); }

// The job's answer in one line: its sites, every silent fallback, and every verdict counted,
// so a count of the faster ones never hides what the others were. Decided from the numbers,
// so documents of any version read alike.
std::string answer(const json& run_section) {
  using namespace report;
  size_t sites = 0, fallbacks = 0;
  std::map<stats::SpeedupVerdict, size_t> verdicts;
  for (const auto& p : member(run_section, "processes"))
    for (const auto& s : member(p, "sites")) {
      ++sites;
      fallbacks += fallbacks_of(s).size();
      const json& sp = member(member(s, "eager"), "speedup");
      if (sp.is_object())
        ++verdicts[stats::decide(number_or_nan(sp, "estimate"), number_or_nan(sp, "low"), number_or_nan(sp, "high"))];
    }
  std::string answer = fmt::format("{} call site(s) in {} process(es)", sites, member(run_section, "processes").size());
  if (fallbacks) answer += fmt::format(", {} SILENT FALLBACK(S) to eager", fallbacks);
  for (const auto& [v, n] : verdicts)
    answer += fmt::format(", {} {}", n, v == stats::SpeedupVerdict::Faster ? "faster than eager" : std::string(stats::to_string(v)));
  if (!member(run_section, "divergence").empty()) answer += ", ranks diverge";
  return answer;
}

}  // namespace tct::run
