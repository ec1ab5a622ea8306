// The trace section: per rank a summary line, graph breaks grouped (with the fix), the
// recompiles with the guard that failed, skipped frames, failures, compile time per phase
// and cache; then the ranks that diverge. Markdown renders the same.
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string str(const json& j, const char* key, const std::string& fallback = "") { return string_or(j, key, fallback); }
int num(const json& j, const char* key) { return int_or_zero(j, key); }

std::string rank_title(const json& r, size_t i) {
  return r["rank"].is_number() ? fmt::format("rank {}", r["rank"].get<int>()) : fmt::format("log {}", i);
}

std::string seconds(const json& ns) { return ns.is_number() ? fmt::format("{:.2f} s", ns.get<double>() / 1e9) : "?"; }

std::string rank_text(const json& r, size_t i, bool md) {
  std::string out;
  const json& files = r.value("files", json::array());
  out += fmt::format(fmt::runtime(md ? "\n### {} (`{}`)\n\n" : "\n{} ({})\n"), rank_title(r, i), files.empty() ? "" : files[0].get<std::string>());
  out += fmt::format("{}{} compile(s), {} graph(s), {} graph break(s), {} recompile(s), {} skipped frame(s), {} "
                     "failure(s)\n",
                     md ? "" : "  ", num(r, "compile_count"), num(r, "graph_count"), num(r, "graph_break_count"),
                     r.value("recompiles", json::array()).size(), r.value("skipped_frames", json::array()).size(),
                     r.value("failures", json::array()).size());
  if (int resets = num(r, "dynamo_resets"); resets > 0) {
    std::vector<std::string> after;
    for (const auto& c : r.value("compiles", json::array()))
      if (num(c, "dynamo_resets") > 0) after.push_back(str(c, "compile_id"));
    std::string list;
    for (size_t k = 0; k < after.size() && k < 4; ++k) list += (k ? ", " : "") + after[k];
    if (after.size() > 4) list += fmt::format(" and {} more", after.size() - 4);
    out += fmt::format("{}torch._dynamo.reset() {} time(s): compile ids started over, each compile counted on its own "
                       "({})\n",
                       md ? "\n" : "  ", resets, list);
  }
  const json& unframed = r.value("compiles_without_id", json::array());
  if (!unframed.empty()) {
    std::map<std::string, std::pair<int, std::string>> kinds;  // kind -> (count, what)
    for (const auto& u : unframed) {
      auto& k = kinds[str(u, "kind")];
      k.first++;
      k.second = str(u, "what");
    }
    std::string list;
    for (const auto& [kind, k] : kinds) list += fmt::format("{}{} {} ({})", list.empty() ? "" : ", ", k.first, kind, k.second);
    out += fmt::format("{}{} compile(s) without a compile id: {}\n", md ? "\n" : "  ", unframed.size(), list);
    for (const auto& u : unframed)
      if (!str(u, "file").empty())
        out += fmt::format("{}{} from {} at {}:{}\n", md ? "- " : "    ", str(u, "kind"), str(u, "function"), str(u, "file"),
                           num(u, "line"));
  }
  // File names below are relative to the rank's code folder: say which folder that is.
  if (std::string root = r.value("root", ""); !root.empty())
    out += fmt::format(fmt::runtime(md ? "code under `{}`\n" : "  code under {}\n"), root);
  const json& phases = r.value("compile_time_ns", json::object());
  if (!phases.empty()) {
    std::string p;
    for (const auto& [k, v] : phases.items()) p += (p.empty() ? "" : ", ") + fmt::format("{} {}", k, seconds(v));
    out += fmt::format("{}compile time: {}\n", md ? "\n" : "  ", p);
  }
  const json& cache = r.value("cache", json::object());
  if (!cache.empty()) {
    std::string c;
    for (const auto& [k, v] : cache.items()) c += (c.empty() ? "" : ", ") + fmt::format("{} {}", k, v.get<int>());
    out += fmt::format("{}cache: {}\n", md ? "\n" : "  ", c);
  }
  const json& groups = r.value("graph_breaks", json::array());
  if (!groups.empty()) {
    out += md ? "\n| Where | Kind | Count | Reason | Fix |\n| --- | --- | --- | --- | --- |\n" : "  graph breaks (most frequent first):\n";
    for (const auto& g : groups) {
      const json& h = g.value("hint", json::object());
      std::string skip = g.value("frame_skipped", false) ? fmt::format(" (frame skipped: {})", str(g, "skip_reason")) : "";
      if (g.value("from_restart", false))
        skip += " (logged only as a restart reason, as torch 2.6 and older do: the place is the compiled frame's)";
      if (md)
        out += fmt::format("| `{}:{}` | {} | {} | {}{} | {} |\n", str(g, "file"), num(g, "line"), str(g, "kind"),
                           num(g, "count"), str(g, "reason"), skip, str(h, "fix"));
      else
        out += fmt::format("    {}:{}  [{}]  x{}  in {}\n      reason: {}{}\n      fix:    {}\n", str(g, "file"),
                           num(g, "line"), str(g, "kind"), num(g, "count"),
                           g.value("compile_ids", json::array()).dump(), str(g, "reason"), skip, str(h, "fix"));
    }
  }
  for (const auto& rc : r.value("recompiles", json::array())) {
    out += fmt::format("{}recompile {} of {} at {}:{}  [{}]\n", md ? "\n- " : "  ", str(rc, "compile_id"),
                       str(rc, "function"), str(rc, "file"), num(rc, "line"), str(rc, "kind"));
    for (const auto& g : rc.value("guard_failures", json::array()))
      out += fmt::format("{}guard failed: {}\n", md ? "  - " : "      ", g.get<std::string>());
  }
  for (const auto& s : r.value("skipped_frames", json::array()))
    out += fmt::format("{}SKIPPED {} {} at {}:{} (ran eagerly): {}\n", md ? "\n- " : "  ", str(s, "compile_id"),
                       str(s, "function"), str(s, "file"), num(s, "line"), str(s, "reason"));
  for (const auto& f : r.value("failures", json::array()))
    out += fmt::format("{}failure {} in {}: {}: {}\n", md ? "\n- " : "  ", str(f, "compile_id"), str(f, "function"),
                       str(f, "fail_type"), str(f, "fail_reason"));
  for (const auto& f : r.value("restarts", json::array())) {
    std::string why;
    for (const auto& x : f.value("restart_reasons", json::array())) why += (why.empty() ? "" : "; ") + x.get<std::string>();
    out += fmt::format("{}restart {} in {}: {} attempt(s){}\n", md ? "\n- " : "  ", str(f, "compile_id"),
                       str(f, "function"), num(f, "attempts"), why.empty() ? "" : " (" + why + ")");
  }
  const json& read = r.value("read", json::object());
  if (num(read, "damaged") > 0)
    out += fmt::format("{}skipped {} garbled, {} truncated, {} stray line(s), {} payload(s) whose MD5 does not match\n",
                       md ? "\n" : "  ", num(read, "garbled"), num(read, "truncated"), num(read, "stray_lines"),
                       num(read, "bad_payloads"));
  return out;
}

std::string render(const json& doc, bool md) {
  const json& t = doc["trace"];
  const json& ranks = t.value("ranks", json::array());
  std::string out = md ? fmt::format("**TORCH_TRACE `{}`**: {} log(s)\n", str(t, "path"), ranks.size())
                       : fmt::format("tct trace {} ({} log(s))\n", str(t, "path"), ranks.size());
  const json& div = t.value("divergence", json::array());
  if (ranks.size() > 1) {
    if (div.empty())
      out += "All ranks compiled alike (same compile ids, graphs, breaks, recompiles, collective schedules, graph "
             "execution order, cache hits and misses, tensor metadata, as far as the logs record them).\n";
    else {
      out += md ? "\n**Ranks diverge** (a known cause of collective hangs):\n\n" : "RANKS DIVERGE (a known cause of collective hangs):\n";
      for (const auto& d : div) out += fmt::format("{}{}\n", md ? "- " : "  - ", str(d, "message"));
    }
  }
  for (size_t i = 0; i < ranks.size(); ++i) out += rank_text(ranks[i], i, md);
  return out;
}

}  // namespace

std::string text_trace(const json& doc) { return render(doc, false); }
std::string markdown_trace(const json& doc) { return render(doc, true) + "\n"; }

}  // namespace tct::report
