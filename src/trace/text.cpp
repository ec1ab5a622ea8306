// The trace section: per rank a summary line, graph breaks grouped (with the fix), the
// recompiles with the guard that failed, skipped frames, failures, compile time per phase
// and cache; then the ranks that diverge. Markdown renders the same. Both read the
// TraceResult and decide nothing.
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "trace/json.hpp"
#include "trace/render.hpp"

namespace tct::trace {
namespace {

// The first spots of a rank's read, at most 3, without the log (a rank's heading names it)
// and, where the line already says it, without what was wrong.
std::string spot_list(const std::vector<Spot>& spots, bool with_what = true) {
  std::string out;
  for (size_t k = 0; k < spots.size() && k < 3; ++k) {
    Spot s = spots[k];
    s.log.clear();
    if (!with_what) s.what.clear();
    out += (k ? "; " : "") + describe(s);
  }
  return out;
}

std::string seconds(Nanoseconds ns) { return fmt::format("{:.2f} s", static_cast<double>(ns.count()) / 1e9); }

// "0, 1, 2, 3, 4, 5, ... (7 values)"
std::string value_list(const std::vector<std::string>& values) {
  std::string out;
  for (size_t k = 0; k < values.size() && k < 6; ++k) out += (k ? ", " : "") + values[k];
  if (values.size() > 6) out += fmt::format(", ... ({} values)", values.size());
  return out;
}

// "recompiled 7x forward (model.py:36): `self.level == ...` failed for values 0, 1, ...".
std::string group_text(const RecompileGroup& g, bool md) {
  const std::string where =
      g.function.empty()
          ? "frame " + g.frame
          : fmt::format("{}{}", g.function, g.file.empty() ? "" : fmt::format(" ({}:{})", g.file, g.line));
  std::string out =
      fmt::format(fmt::runtime(md ? "\n- recompiled {}x {}: `{}` failed{}" : "  recompiled {}x {}: {} failed{}"),
                  g.count, where, g.pattern, g.values.empty() ? "" : " for values " + value_list(g.values));
  if (g.refused > 0)
    out += fmt::format(
        "; then the recompile limit refused {} compile(s): the frame runs eagerly when no entry's guards "
        "pass",
        g.refused);
  return out + fmt::format(fmt::runtime(md ? "; fix: {}\n" : "\n      fix: {}\n"), g.fix);
}

std::string rank_text(const Rank& r, size_t i, bool md, bool verbose) {
  std::string out;
  out += fmt::format(fmt::runtime(md ? "\n### {} (`{}`)\n\n" : "\n{} ({})\n"), r.name(i),
                     r.files.empty() ? "" : r.files[0]);
  out += fmt::format(
      "{}{} compile(s), {} graph(s), {} graph break(s), {} recompile(s), {} skipped frame(s), {} "
      "failure(s){}\n",
      md ? "" : "  ", r.compiles.size(), r.graph_count, r.graph_break_count, r.recompiles.size(),
      r.skipped_frames.size(), r.failures.size(),
      r.eager_parts.empty() ? ""
                            : fmt::format(", {} part(s) of the code run eagerly on every call", r.eager_parts.size()));
  if (r.dynamo_resets > 0) {
    std::vector<std::string> after;
    for (const auto& c : r.compiles)
      if (c.dynamo_resets > 0) after.push_back(c.compile_id);
    std::string list;
    for (size_t k = 0; k < after.size() && k < 4; ++k) list += (k ? ", " : "") + after[k];
    if (after.size() > 4) list += fmt::format(" and {} more", after.size() - 4);
    out += fmt::format(
        "{}torch._dynamo.reset() {} time(s): compile ids started over, each compile counted on its own "
        "({})\n",
        md ? "\n" : "  ", r.dynamo_resets, list);
  }
  if (!r.compiles_without_id.empty()) {
    std::map<std::string, std::pair<int, std::string>> kinds;  // kind -> (count, what)
    for (const auto& u : r.compiles_without_id) {
      auto& k = kinds[u.kind];
      k.first++;
      k.second = u.what;
    }
    std::string list;
    for (const auto& [kind, k] : kinds)
      list += fmt::format("{}{} {} ({})", list.empty() ? "" : ", ", k.first, kind, k.second);
    out +=
        fmt::format("{}{} compile(s) without a compile id: {}\n", md ? "\n" : "  ", r.compiles_without_id.size(), list);
    for (const auto& u : r.compiles_without_id)
      if (!u.file.empty())
        out += fmt::format("{}{} from {} at {}:{}\n", md ? "- " : "    ", u.kind, u.function, u.file, u.line);
  }
  // File names below are relative to the rank's code folder: say which folder that is (none
  // when they have no folder in common).
  if (r.root.size() > 1) out += fmt::format(fmt::runtime(md ? "code under `{}`\n" : "  code under {}\n"), r.root);
  if (!r.compile_time.empty()) {
    std::string p;
    for (const auto& [k, v] : r.compile_time) p += (p.empty() ? "" : ", ") + fmt::format("{} {}", k, seconds(v));
    out += fmt::format("{}compile time: {}\n", md ? "\n" : "  ", p);
  }
  if (!r.cache.empty()) {
    std::string c;
    for (const auto& [k, v] : r.cache) c += (c.empty() ? "" : ", ") + fmt::format("{} {}", k, v);
    out += fmt::format("{}cache: {}\n", md ? "\n" : "  ", c);
  }
  if (!r.graph_breaks.empty()) {
    out += md ? "\n| Where | Kind | Count | Reason | Fix |\n| --- | --- | --- | --- | --- |\n"
              : "  graph breaks (most frequent first):\n";
    for (const auto& g : r.graph_breaks) {
      std::string skip = g.rest_only       ? fmt::format(" (not a graph break as torch counts them: {})", g.skip_reason)
                         : g.frame_skipped ? fmt::format(" (frame skipped: {})", g.skip_reason)
                                           : "";
      if (g.from_restart)
        skip += " (logged only as a restart reason, as torch 2.6 and older do: the place is the compiled frame's)";
      const std::string kind = core::to_string(g.kind);
      if (md)
        out += fmt::format("| `{}:{}` | {} | {} | {}{} | {} |\n", g.file, g.line, kind, g.count, g.reason, skip,
                           core::fix_with_terms(g.hint.fix, g.hint.terms));
      else if (!verbose)
        out += fmt::format("    {}:{}  [{}]  x{}: {}{}\n      fix: {}\n", g.file, g.line, kind, g.count, g.reason, skip,
                           core::fix_with_terms(g.hint.fix, g.hint.terms));
      else
        out += fmt::format("    {}:{}  [{}]  x{}  in {}\n      reason: {}{}\n      fix:    {}\n", g.file, g.line, kind,
                           g.count, nlohmann::json(g.compile_ids).dump(), g.reason, skip,
                           core::fix_with_terms(g.hint.fix, g.hint.terms));
    }
  }
  // One line per frame and cause; torch's own guard text of each recompile under -v.
  for (const auto& g : r.recompile_groups) out += group_text(g, md);
  if (verbose)
    for (const auto& rc : r.recompiles) {
      out += fmt::format("{}recompile {} of {}{}  [{}]\n", md ? "\n- " : "    ", rc.compile_id,
                         rc.function.empty() ? "?" : rc.function,
                         rc.file.empty() ? "" : fmt::format(" at {}:{}", rc.file, rc.line), core::to_string(rc.kind));
      for (const auto& g : rc.guard_failures) out += fmt::format("{}guard failed: {}\n", md ? "  - " : "      ", g);
    }
  for (const auto& s : r.skipped_frames)
    out += fmt::format("{}SKIPPED {} {} at {}:{} (ran eagerly): {}\n", md ? "\n- " : "  ", s.compile_id, s.function,
                       s.file, s.line, s.reason);
  for (const auto& p : r.eager_parts)
    out += fmt::format("{}runs eagerly: {} ([{}] {})\n", md ? "\n- " : "  ", core::describe(p), core::to_string(p.kind),
                       p.reason) +
           (p.hint.fix.empty()
                ? std::string()
                : fmt::format("{}fix: {}\n", md ? "  " : "    ", core::fix_with_terms(p.hint.fix, p.hint.terms)));
  for (const auto& f : r.failures)
    out += fmt::format("{}failure {}{}: {}: {}\n", md ? "\n- " : "  ", f.compile_id,
                       f.function.empty() ? "" : " in " + f.function, f.fail_type,
                       verbose ? f.fail_reason : f.fail_reason.substr(0, f.fail_reason.find('\n')));
  for (const auto& f : r.restarts) {
    std::string why;
    for (const auto& x : f.restart_reasons) why += (why.empty() ? "" : "; ") + x;
    out += fmt::format("{}restart {} in {}: {} attempt(s){}\n", md ? "\n- " : "  ", f.compile_id, f.function,
                       f.attempts, why.empty() ? "" : " (" + why + ")");
  }
  if (r.read.damaged() > 0)
    out += fmt::format(
        "{}skipped {} garbled, {} truncated, {} stray line(s), {} payload(s) that do not parse; the "
        "first at {}\n",
        md ? "\n" : "  ", r.read.garbled, r.read.truncated, r.read.stray, r.read.bad_payload,
        spot_list(r.read.damaged_at));
  if (r.read.edited > 0)
    out += fmt::format("{}note: {} payload(s) edited after they were written: MD5 differs (read as they are): {}\n",
                       md ? "\n" : "  ", r.read.edited, spot_list(r.read.edited_at, false));
  return out;
}

std::string render(const TraceResult& t, bool md, bool verbose) {
  std::string out = md ? fmt::format("**TORCH_TRACE `{}`**: {} log(s)\n", t.path, t.ranks.size())
                       : fmt::format("tct trace {} ({} log(s))\n", t.path, t.ranks.size());
  if (t.ranks.size() > 1) {
    if (!t.ranks_diverge())
      out +=
          "All ranks compiled alike (same frames, graphs, breaks, recompiles, collective schedules, graph "
          "execution order, tensor metadata, as far as the logs record them).\n";
    else {
      out += md ? "\n**Ranks diverge** (a known cause of collective hangs):\n\n"
                : "RANKS DIVERGE (a known cause of collective hangs):\n";
      for (const auto& d : t.divergence) out += fmt::format("{}{}\n", md ? "- " : "  - ", d.message);
    }
    for (const auto& n : t.cache_notes) out += fmt::format("{}note: {}\n", md ? "\n" : "", n.message);
  }
  for (size_t i = 0; i < t.ranks.size(); ++i) out += rank_text(t.ranks[i], i, md, verbose);
  return out;
}

}  // namespace

std::string text(const TraceResult& t) { return render(t, false, true); }
std::string brief(const TraceResult& t) { return render(t, false, false); }
std::string markdown(const TraceResult& t) { return render(t, true, true) + "\n"; }

}  // namespace tct::trace
