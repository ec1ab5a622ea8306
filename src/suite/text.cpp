// The suite section (doc["suite"]) as terminal text and Markdown: the summary people quote
// first (geometric-mean speedup with its interval, counts), then one row per entry, then
// what failed and why. With --list, the plan: ids, targets, shards. Nothing is computed
// here: the numbers are in the section (src/suite/summary.cpp).
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "report/format.hpp"
#include "suite/json.hpp"
#include "suite/render.hpp"
#include "suite/summary.hpp"

namespace tct::report {
namespace {

using json = nlohmann::json;
using suite::SuiteResult;

std::string settings_text(const json& settings) {
  std::string out;
  for (auto& [k, v] : settings.items()) out += (out.empty() ? "" : " ") + k + "=" + json_text(v);
  return out;
}

template <class T>
std::string count_or_dash(const std::optional<T>& v) {
  return v ? json_text(json(*v)) : "-";
}

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

Table entries_table(const SuiteResult& suite) {
  Table t({"entry", "speedup [95% CI]", "verdict", "compile", "break-even", "breaks", "check", "status"});
  for (const auto& e : suite.entries) {
    const suite::EntryResult& r = e.result;
    std::string compile = format_duration_ns(r.compile ? r.compile->count() : NAN);
    if (r.compile_source == "first_call") compile += "*";
    t.add({e.entry.id, format_speedup_interval(r.speedup), std::string(stats::to_string(r.verdict)), compile,
           count_or_dash(r.break_even_calls), count_or_dash(r.graph_breaks), or_dash(r.check),
           std::string(suite::to_string(e.status))});
  }
  return t;
}

Table plan_table(const SuiteResult& suite) {
  const bool sharded = suite.shard.has_value();
  Table t(sharded ? std::vector<std::string>{"id", "target", "settings", "shard"}
                  : std::vector<std::string>{"id", "target", "settings"});
  for (const auto& p : suite.plan) {
    std::vector<std::string> row = {p.entry.id, p.entry.target, settings_text(p.entry.settings)};
    if (sharded) row.push_back(std::to_string(p.shard));
    t.add(row);
  }
  return t;
}

std::string heading(const SuiteResult& suite, bool markdown) {
  const std::size_t n = suite.plan.size();
  std::string out = fmt::format("suite {}{}: {} {}", markdown ? short_path(suite.file) : suite.file,
                                suite.name.empty() ? "" : " (" + suite.name + ")", n, n == 1 ? "entry" : "entries");
  if (suite.shard)
    out += fmt::format(
        ", shard {}/{} runs {} ({})", suite.shard->index, suite.shard->count, suite.selected.size(),
        suite.shard->costs_from.empty() ? "round robin" : "balanced by the costs in " + suite.shard->costs_from);
  if (suite.merged_from) {
    const std::size_t shards = suite.merged_from->size();
    out += fmt::format(", merged from {} shard{}", shards, shards == 1 ? "" : "s");
  }
  return out;
}

std::vector<std::string> summary_lines(const SuiteResult& suite) {
  const suite::SuiteSummary& s = suite.summary;
  std::vector<std::string> lines;
  if (s.geomean)
    lines.push_back(fmt::format("Geometric-mean speedup {} over {} passing entries (slowdowns counted as slowdowns)",
                                format_speedup_interval(s.geomean->interval), s.geomean->n));
  else lines.push_back("Geometric-mean speedup: n/a (no entry passed with a measured speedup)");
  std::string failures;
  for (const auto& [kind, n] : s.failures_by_kind)
    failures += fmt::format("{}{} {}", failures.empty() ? "" : ", ", kind, n);
  lines.push_back(fmt::format("Entries: {} ok, {} failed, {} outputs differ{}; {}", s.ok, s.failed, s.mismatch,
                              failures.empty() ? "" : " (" + failures + ")", suite::verdict_counts_text(s)));
  lines.push_back(fmt::format("Total compile time {}; entries' wall time {}", format_duration_ns(s.compile_ns_total),
                              format_duration_ns(s.wall_ns_total)));
  return lines;
}

std::vector<std::string> failure_lines(const SuiteResult& suite) {
  std::vector<std::string> out;
  for (const auto& e : suite.entries) {
    if (!e.error) continue;
    const report::ErrorRecord& err = *e.error;
    const std::string stage = err.stage.value_or(""), hint = err.hint.value_or("");
    out.push_back(fmt::format("{} [{}{}]: {}{}", e.entry.id, err.kind, stage.empty() ? "" : ", " + stage, err.message,
                              hint.empty() ? "" : " (" + hint + ")"));
  }
  return out;
}

// Each entry's allocator finding (the bench warning allocator_moves_result), one line each.
std::vector<std::string> allocator_lines(const SuiteResult& suite) {
  std::vector<std::string> out;
  for (const auto& e : suite.entries)
    for (const auto& w : e.warnings)
      if (code_of(w) == "allocator_moves_result")
        out.push_back(fmt::format("{}: {} ({})", e.entry.id, message_of(w), hint_of(w)));
  return out;
}

bool any_first_call(const SuiteResult& suite) {
  return std::any_of(suite.entries.begin(), suite.entries.end(),
                     [](const suite::EntryRecord& e) { return e.result.compile_source == "first_call"; });
}

constexpr const char* kFirstCallNote = "* compile time of the first call in the measuring process (no-compile-time)";

}  // namespace

}  // namespace tct::report

namespace tct::suite {

std::string text(const SuiteResult& suite) {
  using namespace report;
  std::string out = heading(suite, false) + "\n\n";
  if (suite.listing) return out + plan_table(suite).str() + "\n";
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

std::string markdown(const SuiteResult& suite) {
  using namespace report;
  std::string out = "### " + heading(suite, true) + "\n\n";
  if (suite.listing) return out + plan_table(suite).markdown() + "\n";
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

}  // namespace tct::suite
