// The suite section (doc["suite"]) as terminal text and Markdown: the summary people quote
// first (geometric-mean speedup with its interval, counts), then one row per entry, then
// what failed and why. With --list, the plan: ids, targets, shards. Nothing is computed
// here: the numbers are in the section (src/suite/summary.cpp).
#include <string>

#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"
#include "suite/summary.hpp"

namespace tct::report {
namespace {

std::string settings_text(const json& settings) {
  std::string out;
  for (auto& [k, v] : settings.items()) out += (out.empty() ? "" : " ") + k + "=" + json_text(v);
  return out;
}

std::string count_or_dash(const json& v) { return v.is_number() ? json_text(v) : "-"; }

Table entries_table(const json& suite) {
  Table t({"entry", "speedup [95% CI]", "verdict", "compile", "break-even", "breaks", "check", "status"});
  for (const auto& e : member(suite, "entries")) {
    const json& r = member(e, "result");
    std::string compile = format_duration_ns(number_or_nan(r, "compile_ns"));
    if (string_or(r, "compile_source") == "first_call") compile += "*";
    t.add({string_or(e, "id"), format_speedup_interval(member(r, "speedup")), string_or(r, "verdict", "-"), compile,
           count_or_dash(member(r, "break_even_calls")), count_or_dash(member(r, "graph_breaks")), string_or(r, "check", "-"),
           string_or(e, "status")});
  }
  return t;
}

Table plan_table(const json& suite) {
  bool sharded = member(suite, "shard").is_object();
  Table t(sharded ? std::vector<std::string>{"id", "target", "settings", "shard"}
                  : std::vector<std::string>{"id", "target", "settings"});
  for (const auto& p : member(suite, "plan")) {
    std::vector<std::string> row = {string_or(p, "id"), string_or(p, "target"), settings_text(member(p, "settings"))};
    if (sharded) row.push_back(text_or(p, "shard"));
    t.add(row);
  }
  return t;
}

std::string heading(const json& suite, bool markdown) {
  std::string name = string_or(suite, "name");
  std::size_t n = member(suite, "plan").size();
  std::string out = fmt::format("suite {}{}: {} {}", markdown ? short_path(string_or(suite, "file")) : string_or(suite, "file"), name.empty() ? "" : " (" + name + ")", n,
                                n == 1 ? "entry" : "entries");
  const json& shard = member(suite, "shard");
  if (shard.is_object())
    out += fmt::format(", shard {}/{} runs {} ({})", text_or(shard, "index"), text_or(shard, "count"),
                       member(suite, "selected").size(),
                       string_or(shard, "method") == "cost" ? "balanced by the costs in " + string_or(shard, "costs_from")
                                                            : "round robin");
  if (member(suite, "merged_from").is_array()) {
    std::size_t shards = member(suite, "merged_from").size();
    out += fmt::format(", merged from {} shard{}", shards, shards == 1 ? "" : "s");
  }
  return out;
}

std::vector<std::string> summary_lines(const json& suite) {
  const suite::SuiteSummary s = suite::summary_from_json(member(suite, "summary"));
  std::vector<std::string> lines;
  if (s.geomean)
    lines.push_back(fmt::format("Geometric-mean speedup {} over {} passing entries (slowdowns counted as slowdowns)",
                                format_speedup_interval(s.geomean->interval), s.geomean->n));
  else
    lines.push_back("Geometric-mean speedup: n/a (no entry passed with a measured speedup)");
  std::string failures;
  for (const auto& [kind, n] : s.failures_by_kind) failures += fmt::format("{}{} {}", failures.empty() ? "" : ", ", kind, n);
  lines.push_back(fmt::format("Entries: {} ok, {} failed, {} outputs differ{}; {}", s.ok, s.failed, s.mismatch,
                              failures.empty() ? "" : " (" + failures + ")", suite::verdict_counts_text(s)));
  lines.push_back(fmt::format("Total compile time {}; entries' wall time {}", format_duration_ns(s.compile_ns_total),
                              format_duration_ns(s.wall_ns_total)));
  return lines;
}

std::vector<std::string> failure_lines(const json& suite) {
  std::vector<std::string> out;
  for (const auto& e : member(suite, "entries")) {
    const json& err = member(e, "error");
    if (!err.is_object()) continue;
    std::string stage = string_or(err, "stage");
    std::string hint = string_or(err, "hint");
    out.push_back(fmt::format("{} [{}{}]: {}{}", string_or(e, "id"), string_or(err, "kind"), stage.empty() ? "" : ", " + stage,
                              string_or(err, "message"), hint.empty() ? "" : " (" + hint + ")"));
  }
  return out;
}

// Each entry's allocator finding (the bench warning allocator_moves_result), one line each.
std::vector<std::string> allocator_lines(const json& suite) {
  std::vector<std::string> out;
  for (const auto& e : member(suite, "entries"))
    for (const auto& w : e.value("warnings", json::array()))
      if (string_or(w, "code") == "allocator_moves_result")
        out.push_back(fmt::format("{}: {} ({})", string_or(e, "id"), string_or(w, "message"), string_or(w, "hint")));
  return out;
}

bool any_first_call(const json& suite) {
  for (const auto& e : member(suite, "entries"))
    if (string_or(member(e, "result"), "compile_source") == "first_call") return true;
  return false;
}

constexpr const char* kFirstCallNote = "* compile time of the first call in the measuring process (no-compile-time)";

}  // namespace

std::string text_suite(const json& doc) {
  const json& suite = member(doc, "suite");
  std::string out = heading(suite, false) + "\n\n";
  if (suite.value("listing", false)) return out + plan_table(suite).str() + "\n";
  for (const auto& l : summary_lines(suite)) out += "  " + l + "\n";
  out += "\n";
  out += entries_table(suite).str();
  if (any_first_call(suite)) out += fmt::format("  {}\n", kFirstCallNote);
  if (auto al = allocator_lines(suite); !al.empty()) {
    out += "\nAllocator:\n";
    for (const auto& l : al) out += "  " + l + "\n";
  }
  auto failures = failure_lines(suite);
  if (!failures.empty()) {
    out += "\nFailures:\n";
    for (const auto& f : failures) out += "  " + f + "\n";
  }
  return out;
}

std::string markdown_suite(const json& doc) {
  const json& suite = member(doc, "suite");
  std::string out = "### " + heading(suite, true) + "\n\n";
  if (suite.value("listing", false)) return out + plan_table(suite).markdown() + "\n";
  for (const auto& l : summary_lines(suite)) out += "- " + l + "\n";
  out += "\n";
  out += entries_table(suite).markdown() + "\n";
  if (any_first_call(suite)) out += fmt::format("\n{}\n", kFirstCallNote);
  if (auto al = allocator_lines(suite); !al.empty()) {
    out += "\n**Allocator**\n\n";
    for (const auto& l : al) out += "- " + l + "\n";
  }
  auto failures = failure_lines(suite);
  if (!failures.empty()) {
    out += "\n**Failures**\n\n";
    for (const auto& f : failures) out += "- " + f + "\n";
  }
  return out;
}

}  // namespace tct::report
