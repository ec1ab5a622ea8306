// tct run's section: silent fallbacks first and loudly (a call site that hit the recompile
// limit and runs eagerly from then on), then per process (rank) each call site: calls and
// time per call, compile time from the trace, breaks and recompiles with their fix, and
// with --compare-eager eager against compiled; then the ranks that diverge. Markdown alike.
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "bench/breakdown_render.hpp"
#include "report/format.hpp"
#include "run/render.hpp"
#include "stats/verdict.hpp"

namespace tct::run {
namespace {

using report::format_duration_ns;
using report::format_percent;
using report::format_ratio;
using report::short_path;

std::string dur(Ns d) { return format_duration_ns(d.count()); }

// A path under the folder the job ran in, relative to it; others shortened.
std::string rel(const std::string& path, const std::string& cwd) {
  if (!cwd.empty() && path.size() > cwd.size() + 1 && path.compare(0, cwd.size(), cwd) == 0 && path[cwd.size()] == '/')
    return path.substr(cwd.size() + 1);
  return short_path(path);
}

std::string where(const SiteResult& s, const std::string& cwd) {
  return fmt::format("{}:{}", rel(s.site_file, cwd), s.site_line);
}

std::string process_title(const ProcessResult& p) {
  if (p.rank && p.pid == 0) return fmt::format("rank {}", *p.rank);
  return p.rank ? fmt::format("rank {} (pid {})", *p.rank, p.pid) : fmt::format("process {}", p.pid);
}

// How a process's records end, after its title.
std::string process_end(const ProcessResult& p) {
  if (p.records_missing)
    return fmt::format(
        ": no records of its own (it ended before its first flush); its trace: {} compile(s), {} "
        "recompile(s)",
        p.trace_compiles, p.trace_recompiles);
  if (p.running) return " (running: its calls up to its last flush)";
  const std::string kept = p.final ? "its calls up to then" : "its calls up to its last flush";
  if (p.ended_by == "SIGTERM") return fmt::format(" (stopped by SIGTERM, as a launcher stops its workers: {})", kept);
  if (!p.ended_by.empty()) return fmt::format(" (ended by {}: {})", p.ended_by, kept);
  return p.final ? "" : " (ended before writing at exit: its last calls are missing)";
}

// A frame of the site in the user's words.
std::string frame_words(const FrameRole& f, const SiteResult& site, const std::string& cwd) {
  const std::string file = rel(f.file.empty() ? site.code_file : f.file, cwd);
  if (f.role == "after_break" && f.break_line > 0)
    return fmt::format("the code after the graph break at {}:{}", file, f.break_line);
  if (f.role == "nested" && !f.function.empty())
    return fmt::format("{} (a function it calls, compiled as a frame of its own)", f.function);
  return f.function.empty() ? "a frame of it" : f.function;
}

std::string fallback_text(const SiteFallback& at_site, bool md, const std::string& cwd) {
  const SiteResult& s = *at_site.site;
  const Fallback& f = *at_site.fallback;
  const std::string limit = f.limit_value ? fmt::format(" ({})", *f.limit_value) : "";
  const std::string what = f.cause == "compile_failed"                ? "failed to compile"
                           : f.cause == "accumulated_recompile_limit" ? "hit the accumulated recompile limit" + limit
                                                                      : "hit the recompile limit" + limit;
  const std::string at = f.at_call ? fmt::format(" at call {}", *f.at_call + 1) : "";
  const std::string since =
      f.eager_after
          ? fmt::format("{} of the {} calls since ran eagerly, without compile", *f.eager_after, f.calls_after)
          : fmt::format(
                "from then on a call whose guards no compiled entry passes runs that part eagerly ({} calls since)",
                f.calls_after);
  const std::optional<int>& rank = at_site.process->rank;
  std::string out = fmt::format(fmt::runtime(md ? "**SILENT FALLBACK: `{}` ({}{}): {} {}{}**: {}.\n"
                                                : "SILENT FALLBACK: {} ({}{}): {} {}{}: {}.\n"),
                                s.name, where(s, cwd), rank ? fmt::format(", rank {}", *rank) : "",
                                frame_words(f.frame, s, cwd), what, at, since);
  if (!f.guard.empty())
    out += fmt::format(fmt::runtime(md ? "- guard that kept failing: `{}`\n" : "  guard that kept failing: {}\n"),
                       f.guard);
  else if (!f.reason.empty()) out += fmt::format(fmt::runtime(md ? "- torch: {}\n" : "  torch: {}\n"), f.reason);
  if (!f.fix.empty())
    out += fmt::format(fmt::runtime(md ? "- fix: {}\n" : "  fix: {}\n"), core::fix_with_terms(f.fix, f.fix_terms));
  return out;
}

// "0, 5, 10, 15, 20, 25, ... (8 values)"
std::string values_text(const std::vector<std::string>& values) {
  std::string out;
  size_t n = 0;
  for (const auto& v : values) {
    if (n == 6) {
      out += fmt::format(", ... ({} values)", values.size());
      break;
    }
    out += (n++ ? ", " : "") + v;
  }
  return out;
}

std::string recompile_group_text(const RecompileGroup& g, const SiteResult& s, bool md, const std::string& b,
                                 const std::string& cwd, bool with_fix) {
  const std::string limit = g.limit ? fmt::format(" (limit {})", *g.limit) : "";
  const std::string values = values_text(g.values);
  const std::string where_code =
      g.code_line > 0 ? fmt::format(" ({}:{}{})", g.code_file_truncated ? "..." + g.code_file : rel(g.code_file, cwd),
                                    g.code_line, g.code_file_truncated ? ", the path as torch truncated it" : "")
                      : "";
  std::string out = fmt::format(
      fmt::runtime(md ? "{}recompiled {}x{} in {}: `{}` failed{}{}\n" : "{}recompiled {}x{} in {}: {} failed{}{}\n"), b,
      g.count, limit, frame_words(g.frame, s, cwd), g.pattern, values.empty() ? "" : " for values " + values,
      where_code);
  if (with_fix) out += fmt::format("{}  {}; fix: {}\n", b, g.why, core::fix_with_terms(g.fix, g.fix_terms));
  return out;
}

// "shapes: x dim 0 took 4 sizes over 40 calls: 1 (10 calls), 2 (10), 3 (10), 4 (10); 2 recompiles on it"
std::string varied_dim_text(const VariedDim& v, const ShapeUse& use, bool md, const std::string& b) {
  std::string sizes;
  for (size_t i = 0; i < v.sizes.size(); ++i) {
    if (i == 8) {
      sizes += fmt::format(", ... ({} to {})", v.sizes.front().size, v.sizes.back().size);
      break;
    }
    sizes += fmt::format(fmt::runtime(i == 0 ? "{} ({} call{})" : ", {} ({}{})"), v.sizes[i].size, v.sizes[i].calls,
                         i == 0 ? (v.sizes[i].calls == 1 ? "" : "s") : "");
  }
  const std::string counted = use.one_in > 0 && use.calls > use.all_calls
                                  ? fmt::format("{} counted calls (every call up to the {}th, then 1 in {} at random)",
                                                use.calls, use.all_calls, use.one_in)
                                  : fmt::format("{} calls", use.calls);
  return fmt::format(
      fmt::runtime(md ? "{}shapes: `{}` dim {} took {} sizes over {}: {}{}{}\n"
                      : "{}shapes: {} dim {} took {} sizes over {}: {}{}{}\n"),
      b, v.input, v.dim, v.sizes.size(), counted, sizes,
      use.other_calls > 0 ? fmt::format(" ({} more calls at shapes not broken down)", use.other_calls) : "",
      v.recompiles > 0 ? fmt::format("; {} recompile{} on it", v.recompiles, v.recompiles == 1 ? "" : "s") : "");
}

// "load 3.1 on 2 CPUs, 120 involuntary context switches/s, torch 2 threads"
std::string contention_words(const Contention& c) {
  std::string out = fmt::format("load {:.1f} on {} CPUs", c.load_1m, c.cpus);
  if (std::isfinite(c.involuntary_switches_per_s))
    out += fmt::format(", {:.0f} involuntary context switches/s", c.involuntary_switches_per_s);
  if (c.torch_threads) out += fmt::format(", torch {} thread(s)", *c.torch_threads);
  return out;
}

std::string eager_text(const SiteResult& s, const EagerComparison& e, const std::string& b) {
  std::string out =
      fmt::format("{}vs eager{}: {} [{}, {}] {}; eager {} vs compiled {} per call (95% interval; covers {})\n", b,
                  e.clock == "cuda_events" ? " (CUDA event time)" : "", format_ratio(e.speedup.estimate),
                  format_ratio(e.speedup.low), format_ratio(e.speedup.high), stats::describe(e.verdict),
                  dur(e.eager.median), dur(e.compiled.median), e.covers);
  if (e.verdict == stats::SpeedupVerdict::Inconclusive)
    out += fmt::format("{}  why inconclusive: {}\n", b,
                       s.stall           ? "calls stalled (the warning above): the interval holds their waits"
                       : e.runs_each > 1 ? "the runs disagree: rerun on a quieter machine"
                                         : "one run each way: --repeat 3 adds runs, and the interval their variation");
  if (s.runs.size() > 1) {
    // Each compiled run's compile and its break-even: cold first, then the warm caches.
    std::string line;
    for (const auto& c : s.runs)
      line += fmt::format(
          "{}run {} ({}): compile {}, cost {}, {}", line.empty() ? "" : "; ", c.run, c.cache_state, dur(c.compile_time),
          dur(c.compile_cost),
          c.break_even_calls ? fmt::format("pays back after {:.0f} calls", *c.break_even_calls) : "no break-even");
    return out + fmt::format("{}compiled runs: {}\n", b, line);
  }
  const std::string pay =
      e.break_even_calls
          ? (e.paid_back ? fmt::format("paid back after {:.0f} calls (this job made {})", *e.break_even_calls, s.calls)
                         : fmt::format("pays back after {:.0f} calls: not in this job ({} calls)", *e.break_even_calls,
                                       s.calls))
      : e.verdict == stats::SpeedupVerdict::Faster ? "never pays back at this speed"
                                                   : "no break-even: no reliable gain to pay it back";
  return out + fmt::format("{}compile cost {}: {}\n", b, dur(e.compile_cost), pay);
}

// The trial of a fix, if the site has one.
const FixTrial* trial_of(const SiteResult& s, const std::string& fix) {
  for (const auto& t : s.trials)
    if (t.fix == fix) return &t;
  return nullptr;
}

// Where a call's time goes: one line when Dynamo's overhead is material, every part under -v
// and in Markdown; why nothing was sampled, where that is the news.
std::string breakdown_text(const SampledBreakdown& d, bool md, bool verbose, const std::string& b) {
  if (d.call.calls == 0) {
    if (!d.error.empty())
      return fmt::format(
          "{}breakdown: no call sampled: torch's profiler failed: {} (--no-breakdown keeps it out of "
          "the job)\n",
          b, d.error);
    return d.skipped > 0 ? fmt::format("{}breakdown: no call sampled: the job's own profiler was on\n", b) : "";
  }
  std::string out;
  // The bare call is the per-call median printed just above: said once.
  if (d.call.material()) out += fmt::format("{}overhead: {}\n", b, bench::breakdown_line(d.call, false));
  if (!md && !verbose) return out;
  out += fmt::format("{}where a call's time goes: {}\n", b, sampling_text(d));
  if (md) out += "\n  ```\n";
  for (const auto& line : bench::breakdown_lines(d.call, false)) out += (md ? "  " : b + "  ") + line + "\n";
  if (md) out += "  ```\n";
  if (d.call.material())
    out += fmt::format(
        "{}guard fixes: `tct bench` on this function times each A/B (run does not change the job's "
        "guards)\n",
        b);
  return out;
}

// An eager part's share of the call, where calls were sampled: the breakdown's eager part holds
// every op outside compiled graphs (a rest of frame runs inside the compiled region, after the
// graph: only a backend that records graph events, inductor, tells them apart), so with one part
// it is that part's, with several theirs together.
std::string eager_share(const SiteResult& s) {
  const auto& d = s.breakdown;
  if (!d || d->call.calls == 0) return "not measured";
  if (!d->call.graph_events) return "not measured (this backend records no graph event to tell it from the graph)";
  const double eager = d->call.part_ns(bench::CallPart::Eager);
  const double profiled = d->call.profiled_ns.median;
  return fmt::format("{:.0f}% of each call{}, on the calls sampled under torch's profiler ({} of their {})",
                     100 * eager / profiled, s.eager_parts.size() > 1 ? ", every part together" : "", dur(Ns(eager)),
                     dur(Ns(profiled)));
}

std::string site_text(const SiteResult& s, bool md, bool verbose, const std::string& cwd,
                      const Contention& contention) {
  const std::string b = md ? "- " : "    ";
  std::string out;
  out += fmt::format(fmt::runtime(md ? "\n#### `{}` at `{}`\n\n" : "  {} at {}"), s.name, where(s, cwd));
  if (!md) out += fmt::format(" ({}, compiles {} at {}:{})\n", s.kind, s.code_name, rel(s.code_file, cwd), s.code_line);
  const std::string eager = s.eager_known ? fmt::format(", {} ran no compiled graph", s.eager_calls) : "";
  out += fmt::format("{}{} call(s): {} compiling ({} in all){}; total {} ({} of the job)\n", b, s.calls,
                     s.compiling_calls, dur(s.compiling_time), eager, dur(s.all.total), format_percent(s.job_share));
  if (s.steady.calls > 0)
    out += fmt::format("{}per call (steady, {} calls): median {}, p90 {}\n", b, s.steady.calls, dur(s.steady.median),
                       dur(s.steady.p90));
  if (s.device_steady && s.device_steady->calls > 0)
    out += fmt::format("{}device time per call (CUDA events, {} steady calls): median {}, p90 {}\n", b,
                       s.device_steady->calls, dur(s.device_steady->median), dur(s.device_steady->p90));
  if (s.breakdown) out += breakdown_text(*s.breakdown, md, verbose, b);
  if (!s.compiles.empty()) {
    std::string cache;
    for (const auto& [k, v] : s.cache) cache += fmt::format("{}{} {}", cache.empty() ? "" : ", ", k, v);
    out += fmt::format(
        "{}compile (trace): {} frame compile(s){} taking {}, {} recompile(s){}, {} graph break(s){}\n", b,
        s.compiles.size(),
        s.unfinished > 0 ? fmt::format(" ({} begun and never finished: the process ended in it)", s.unfinished) : "",
        dur(s.compile_time), s.recompiles,
        s.refused > 0 ? fmt::format(" (and {} refused at the recompile limit)", s.refused) : "", s.graph_breaks,
        cache.empty() ? "" : "; cache: " + cache);
    if (verbose || md)
      for (const auto& c : s.compiles) {
        std::string phases;
        for (const auto& [k, v] : c.phases) phases += fmt::format("{}{} {}", phases.empty() ? "" : ", ", k, dur(v));
        out += fmt::format("{}  frame {} {} (line {}): {}\n", b, c.compile_id, c.function, c.line, phases);
      }
  } else {
    out += fmt::format("{}compile (trace): no compile of this site's frames in the TORCH_TRACE logs\n", b);
  }
  std::set<std::string> explained;  // a fix once, however many breaks or frames it answers
  for (const auto& br : s.breaks) {
    const bool first = explained.insert(br.fix).second;
    const std::string fix = first ? core::fix_with_terms(br.fix, br.fix_terms) : std::string("the same as above");
    out += md ? fmt::format("{}graph break at `{}:{}` ({}, x{}): {}; fix: {}\n", b, rel(br.file, cwd), br.line, br.kind,
                            br.count, br.reason, fix)
              : fmt::format("{}graph break at {}:{} ({}, x{}): {}\n  {}fix: {}\n", b, rel(br.file, cwd), br.line,
                            br.kind, br.count, br.reason, b, fix);
    if (const FixTrial* t = first ? trial_of(s, br.fix_terms.id) : nullptr)
      out += fmt::format(fmt::runtime(md ? "{}- **measured**: {}\n" : "  {}measured: {}\n"), md ? "  " : b,
                         trial_text(*t));
  }
  for (const auto& p : s.eager_parts)
    if (p.cause != core::EagerCause::RecompileLimit)  // said first, as a silent fallback
      out +=
          fmt::format(fmt::runtime(md ? "{}**runs eagerly**: {} (after the [{}] break: {}); its share of the call's "
                                        "time: {}\n"
                                      : "{}RUNS EAGERLY: {} (after the [{}] break: {}); its share of the call's time: "
                                        "{}\n"),
                      b, core::describe(p), core::to_string(p.kind), p.reason, eager_share(s)) +
          (p.hint.fix.empty() || !explained.insert(p.hint.fix).second
               ? std::string()
               : fmt::format(fmt::runtime(md ? "{}fix: {}\n" : "{}  fix: {}\n"), b,
                             core::fix_with_terms(p.hint.fix, p.hint.terms)));
  for (const auto& g : s.recompile_groups)
    out += recompile_group_text(g, s, md, b, cwd, explained.insert(g.fix).second);
  if (s.shape_use)
    for (const VariedDim& v : s.shape_use->varied) out += varied_dim_text(v, *s.shape_use, md, b);
  // torch's own text: -v only, its first line (the stack trace it appends is in the JSON).
  if (verbose)
    for (const auto& c : s.compiles)
      for (const auto& reason : c.recompile_reasons)
        out += fmt::format(fmt::runtime(md ? "{}recompile (frame {}): guard failed: `{}`\n"
                                           : "{}recompile (frame {}): guard failed: {}\n"),
                           b, c.compile_id, reason.substr(0, reason.find('\n')));
  if (s.stall)
    out += fmt::format("{}warning: {}: p90 {:.1f}x the median compiled{}; {}: rerun with --threads 1{}\n", b,
                       s.stall->with_load ? "calls move with the machine's load" : "calls stalled",
                       s.stall->compiled_ratio,
                       s.stall->eager_ratio > 0 ? fmt::format(", {:.1f}x eager", s.stall->eager_ratio) : "",
                       contention_words(contention),
                       s.stall->with_load ? " (one intra-op thread per process: none waits for a core)"
                                          : " (or on a quieter machine)");
  if (s.backward_outside)
    out += fmt::format(
        "{}per-call figures cover the forward alone: the backward runs in loss.backward(), outside the "
        "timed call\n",
        b);
  if (s.eager) out += eager_text(s, *s.eager, b);
  return out;
}

}  // namespace

std::string sampling_text(const SampledBreakdown& d) {
  return fmt::format(
      "{} call(s) in {} window(s) ran under torch's profiler, {} each [{}, {}]{}{}; they and the {} settling after the "
      "windows are left out of the per-call figures; sampling cost the job {} ({} of its time)",
      d.call.calls, d.windows, dur(Ns(d.call.profiled_ns.median)), dur(Ns(d.call.profiled_ns.low)),
      dur(Ns(d.call.profiled_ns.high)),
      d.compiling > 0
          ? fmt::format(" ({} more that compiled, or followed a compile, are not cut into parts)", d.compiling)
          : "",
      d.chain_calls > 0 ? fmt::format(" ({} more read the cache chain)", d.chain_calls) : "", d.settling, dur(d.cost),
      format_percent(d.job_share));
}

std::string trial_text(const FixTrial& t) {
  std::string verdict;
  switch (t.verdict) {
    case stats::SpeedupVerdict::Faster: verdict = "faster with the fix"; break;
    case stats::SpeedupVerdict::Slower: verdict = "slower with the fix"; break;
    case stats::SpeedupVerdict::NoClearDifference: verdict = "no clear difference"; break;
    case stats::SpeedupVerdict::Inconclusive: verdict = stats::interval_note(t.verdict, t.speedup); break;
    case stats::SpeedupVerdict::NotMeasured: verdict = "per call not measured (no steady calls one way)"; break;
  }
  const std::string wide =
      t.verdict == stats::SpeedupVerdict::Inconclusive ? "" : stats::interval_note(t.verdict, t.speedup);
  return fmt::format(
      "graph breaks {} -> {}, per call {} -> {} (steady median), {} {}{} (95% interval; one run each "
      "way, {} and {} steady calls)",
      t.breaks_before, t.breaks_after, dur(t.before.median), dur(t.after.median),
      report::format_speedup_interval(t.speedup), verdict, wide.empty() ? "" : " " + wide, t.before.calls,
      t.after.calls);
}

std::string first_end_text(const FirstEnd& e) {
  const std::string who = e.rank ? fmt::format("rank {} (pid {})", *e.rank, e.pid) : fmt::format("pid {}", e.pid);
  const std::string how =
      e.signal.empty() ? fmt::format("exited with code {}", e.exitcode) : fmt::format("was killed by {}", e.signal);
  std::string moment = e.moment;
  if (!e.compiling.empty()) moment += " (" + e.compiling + ")";
  else if (e.moment == "in its loop") moment += fmt::format(", after {} call(s)", e.calls);
  std::string stopped;
  for (int k : e.stopped) stopped += (stopped.empty() ? "" : ", ") + std::to_string(k);
  return fmt::format("{} ended first: it {} {}{}", who, how, moment,
                     stopped.empty() ? "" : fmt::format("; the launcher then stopped rank(s) {}", stopped));
}

std::string text(const RunResult& r, bool md, bool verbose) {
  std::string cmd;
  for (const auto& a : r.command) cmd += (cmd.empty() ? "" : " ") + a;
  std::string out = fmt::format(fmt::runtime(md ? "## tct run: `{}`\n\n{}, {}\n" : "\ntct run: {}\n  {}, {}\n"), cmd,
                                r.exit_text, dur(r.wall));
  // The loudest news first: the worker whose end ended the job, then call sites that silently
  // run eagerly.
  if (const auto& e = r.first_end) {
    const std::string kept =
        e->records
            ? fmt::format("its records hold {} call(s), as of its last flush (at most about a second before)", e->calls)
            : "it wrote no records (it ended before its first flush)";
    out += fmt::format(fmt::runtime(md ? "\n**A RANK ENDED FIRST: {}.** {}; its trace holds {} compile(s).\n"
                                       : "\nA RANK ENDED FIRST: {}.\n  {}; its trace holds {} compile(s).\n"),
                       first_end_text(*e), kept, e->trace_compiles);
  }
  for (const auto& f : silent_fallbacks(r)) out += "\n" + fallback_text(f, md, r.cwd);
  if (!r.divergence.empty()) {
    out += md ? "\n**Ranks diverge** (a known cause of collective hangs):\n\n"
              : "\nRANKS DIVERGE (a known cause of collective hangs):\n";
    for (const auto& d : r.divergence) out += fmt::format("{}{}\n", md ? "- " : "  ", d.message);
  }
  if (r.processes.empty())
    out += fmt::format("\n{}\n", r.processes_with_torch > 0
                                     ? "torch was imported, but no torch.compile call site was called"
                                     : "no process of the job imported torch (or it ran Python with -S / -I)");
  for (const auto& p : r.processes) {
    out += fmt::format(fmt::runtime(md ? "\n### {}{}\n" : "\n{}{}\n"), process_title(p), process_end(p));
    for (const auto& s : p.sites) out += site_text(s, md, verbose, r.cwd, r.contention);
  }
  for (const auto& f : r.fix_runs)
    out += fmt::format("\nrun with the fix {} (--try-fixes): {}, the same command{}\n", f.fix, f.exit_text,
                       f.fix == "ddp_wrap_order"
                           ? "; torch.compile given a DistributedDataParallel compiled the module inside "
                             "it instead (module.compile()) and returned DDP uncompiled"
                           : "");
  if (r.compared)
    out += fmt::format("\neager runs: {} ({}), each call site bypassed (calls go straight to the uncompiled code){}\n",
                       r.repeat, r.stance, r.threads ? fmt::format("; --threads {} in every run", *r.threads) : "");
  for (const auto& n : r.notes) out += fmt::format("{}note: {}\n", md ? "\n" : "", n);
  out += fmt::format(fmt::runtime(md ? "\nLogs: `{}` (`tct trace {}` for every detail)\n"
                                     : "\nlogs: {} (tct trace {} for every detail)\n"),
                     r.trace_dir, r.trace_dir);
  return out;
}

// The job's answer in one line: its sites, every silent fallback, and every verdict counted,
// so a count of the faster ones never hides what the others were.
std::string answer(const RunResult& r) {
  size_t sites = 0;
  std::map<stats::SpeedupVerdict, size_t> verdicts;
  for (const auto& p : r.processes)
    for (const auto& s : p.sites) {
      ++sites;
      if (s.eager) ++verdicts[s.eager->verdict];
    }
  std::string out = fmt::format("{} call site(s) in {} process(es)", sites, r.processes.size());
  if (const size_t fallbacks = silent_fallbacks(r).size())
    out += fmt::format(", {} SILENT FALLBACK(S) to eager", fallbacks);
  size_t eager_parts = 0;
  for (const auto& p : r.processes)
    for (const auto& s : p.sites) eager_parts += s.eager_parts.size();
  if (eager_parts) out += fmt::format(", {} part(s) of the code run eagerly on every call", eager_parts);
  for (const auto& [v, n] : verdicts)
    out += fmt::format(", {} {}", n,
                       v == stats::SpeedupVerdict::Faster ? "faster than eager" : std::string(stats::to_string(v)));
  if (!r.divergence.empty()) out += ", ranks diverge";
  return out;
}

}  // namespace tct::run
