#include "suite/summary.hpp"
#include "core/json_number.hpp"

#include <cmath>
#include <vector>

#include "stats/log_interval.hpp"
#include "bench/verdict.hpp"

namespace tct::suite {
namespace {

analysis::Interval interval_of(const json& speedup) {
  return {core::number_or_nan(speedup, "estimate"), core::number_or_nan(speedup, "low"), core::number_or_nan(speedup, "high")};
}

}  // namespace

json entry_result(const tct::bench::BenchResult& bench, const json& explain) {
  json r = {{"speedup", nullptr}, {"verdict", "not_measured"}, {"compile_ns", nullptr}, {"compile_source", nullptr},
            {"break_even_calls", nullptr}, {"graph_breaks", nullptr}, {"check", nullptr}};
  if (!bench.rows.empty()) {
    const tct::bench::BenchRow& row = bench.rows[0];
    if (row.speedup) {
      const analysis::Interval& iv = row.speedup->interval;
      r["speedup"] = {{"estimate", core::number_or_null(iv.estimate)}, {"low", core::number_or_null(iv.low)},
                      {"high", core::number_or_null(iv.high)}};
      r["verdict"] = tct::bench::to_string(row.speedup->verdict);
    }
    if (std::isfinite(row.compile.cold_ns)) {
      r["compile_ns"] = row.compile.cold_ns;
      r["compile_source"] = "cold";
    } else if (std::isfinite(row.compile.first_call_ns)) {
      r["compile_ns"] = row.compile.first_call_ns;
      r["compile_source"] = "first_call";
    }
    if (row.break_even_calls) r["break_even_calls"] = *row.break_even_calls;
    if (row.graph_breaks) r["graph_breaks"] = *row.graph_breaks;
    if (row.correctness && row.correctness->match)
      r["check"] = *row.correctness->match ? "match" : "mismatch";
    else if (bench.config && bench.config->more.value("check", true) == false)
      r["check"] = "not_checked";
  }
  // The malloc state of the speedup, and the fastest state when the allocator moved it.
  const json& alloc = bench.allocator;
  r["allocator"] = alloc.is_object() ? alloc.value("state", json()) : json();
  const bool moved = alloc.is_object() && (alloc.value("differs", json()) == true || alloc.value("processes_disagree", json()) == true);
  r["allocator_best"] = moved ? alloc.value("best_state", json()) : json();
  if (r["graph_breaks"].is_null() && explain.is_object() && explain.contains("graph_break_count"))
    r["graph_breaks"] = explain["graph_break_count"];
  return r;
}

json summarize(const json& entries) {
  json s = {{"entries", 0}, {"ok", 0}, {"failed", 0}, {"mismatch", 0}, {"failures_by_kind", json::object()},
            {"faster", 0}, {"slower", 0}, {"no_clear_difference", 0}, {"inconclusive", 0}, {"not_measured", 0},
            {"geomean_speedup", nullptr}, {"compile_ns_total", 0.0}, {"wall_ns_total", 0.0}};
  std::vector<analysis::Interval> passing;
  for (const auto& e : entries) {
    s["entries"] = s["entries"].get<int>() + 1;
    std::string status = e.value("status", "failed");
    if (status != "ok" && status != "failed" && status != "mismatch") status = "failed";
    s[status] = s[status].get<int>() + 1;
    if (status != "ok") {
      std::string kind = e.contains("error") && e["error"].is_object() ? e["error"].value("kind", "unknown") : "unknown";
      s["failures_by_kind"][kind] = s["failures_by_kind"].value(kind, 0) + 1;
    }
    const json& r = e.value("result", json::object());
    std::string verdict = r.value("verdict", "not_measured");
    if (s.contains(verdict)) s[verdict] = s[verdict].get<int>() + 1;
    if (status == "ok" && r["speedup"].is_object()) passing.push_back(interval_of(r["speedup"]));
    if (std::isfinite(core::number_or_nan(r, "compile_ns"))) s["compile_ns_total"] = s["compile_ns_total"].get<double>() + core::number_or_nan(r, "compile_ns");
    if (std::isfinite(core::number_or_nan(e, "wall_ns"))) s["wall_ns_total"] = s["wall_ns_total"].get<double>() + core::number_or_nan(e, "wall_ns");
  }
  if (!passing.empty()) {
    auto g = analysis::geometric_mean(passing);
    if (std::isfinite(g.estimate))
      s["geomean_speedup"] = {
          {"estimate", g.estimate}, {"low", core::number_or_null(g.low)}, {"high", core::number_or_null(g.high)},
          {"confidence", 0.95}, {"n", passing.size()},
          // The same rule as a row's speedup, decided here once: the card's colour and the text read it.
          {"verdict", tct::bench::to_string(tct::bench::decide(g.estimate, g.low, g.high))},
          {"method", "geometric mean over entries that passed, slowdowns included; interval from the entries' "
                     "95% intervals combined on the log scale (independent errors)"}};
  }
  return s;
}

}  // namespace tct::suite
