#include "suite/summary.hpp"
#include "core/json_number.hpp"

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "stats/log_interval.hpp"
#include "bench/verdict.hpp"
#include "core/json_read.hpp"

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

SuiteSummary summarize(const json& entries) {
  SuiteSummary s;
  std::vector<analysis::Interval> passing;
  s.no_clear_difference = 0;  // counted since that verdict exists
  for (const auto& e : entries) {
    ++s.entries;
    std::string status = e.value("status", "failed");
    if (status == "ok") ++s.ok;
    else if (status == "mismatch") ++s.mismatch;
    else ++s.failed;
    if (status != "ok") {
      std::string kind = e.contains("error") && e["error"].is_object() ? e["error"].value("kind", "unknown") : "unknown";
      ++s.failures_by_kind[kind];
    }
    const json& r = e.value("result", json::object());
    if (const auto v = tct::bench::parse_verdict(r.value("verdict", "not_measured"))) switch (*v) {
        case tct::bench::SpeedupVerdict::Faster: ++s.faster; break;
        case tct::bench::SpeedupVerdict::Slower: ++s.slower; break;
        case tct::bench::SpeedupVerdict::NoClearDifference: ++*s.no_clear_difference; break;
        case tct::bench::SpeedupVerdict::Inconclusive: ++s.inconclusive; break;
        case tct::bench::SpeedupVerdict::NotMeasured: ++s.not_measured; break;
      }
    if (status == "ok" && r["speedup"].is_object()) passing.push_back(interval_of(r["speedup"]));
    if (const double c = core::number_or_nan(r, "compile_ns"); std::isfinite(c)) s.compile_ns_total += c;
    if (const double w = core::number_or_nan(e, "wall_ns"); std::isfinite(w)) s.wall_ns_total += w;
  }
  if (!passing.empty()) {
    auto g = analysis::geometric_mean(passing);
    // The same rule as a row's speedup, decided here once: the card's colour and the text read it.
    if (std::isfinite(g.estimate))
      s.geomean = GeomeanSpeedup{g, tct::bench::decide(g.estimate, g.low, g.high), static_cast<int>(passing.size())};
  }
  return s;
}

json to_json(const SuiteSummary& s) {
  json out = {{"entries", s.entries}, {"ok", s.ok}, {"failed", s.failed}, {"mismatch", s.mismatch},
              {"failures_by_kind", s.failures_by_kind}, {"faster", s.faster}, {"slower", s.slower},
              {"inconclusive", s.inconclusive}, {"not_measured", s.not_measured}, {"geomean_speedup", nullptr},
              {"compile_ns_total", s.compile_ns_total}, {"wall_ns_total", s.wall_ns_total}};
  if (s.no_clear_difference) out["no_clear_difference"] = *s.no_clear_difference;
  if (s.geomean)
    out["geomean_speedup"] = {
        {"estimate", s.geomean->interval.estimate}, {"low", core::number_or_null(s.geomean->interval.low)},
        {"high", core::number_or_null(s.geomean->interval.high)}, {"confidence", 0.95}, {"n", s.geomean->n},
        {"verdict", tct::bench::to_string(s.geomean->verdict)},
        {"method", "geometric mean over entries that passed, slowdowns included; interval from the entries' "
                   "95% intervals combined on the log scale (independent errors)"}};
  return out;
}

SuiteSummary summary_from_json(const json& j) {
  using namespace core::json_read;
  SuiteSummary s;
  s.entries = num(j, "entries");
  s.ok = num(j, "ok");
  s.failed = num(j, "failed");
  s.mismatch = num(j, "mismatch");
  for (auto& [kind, n] : at(j, "failures_by_kind").items())
    if (n.is_number()) s.failures_by_kind[kind] = n.get<int>();
  s.faster = num(j, "faster");
  s.slower = num(j, "slower");
  s.inconclusive = num(j, "inconclusive");
  s.not_measured = num(j, "not_measured");
  s.no_clear_difference = opt_num(j, "no_clear_difference");
  if (const json& g = at(j, "geomean_speedup"); g.is_object())
    s.geomean = GeomeanSpeedup{interval_of(g), tct::bench::verdict_of(g), num(g, "n")};
  s.compile_ns_total = num<double>(j, "compile_ns_total");
  s.wall_ns_total = num<double>(j, "wall_ns_total");
  return s;
}

std::string verdict_counts_text(const SuiteSummary& s) {
  std::string out = fmt::format("{} faster, {} slower", s.faster, s.slower);
  if (s.no_clear_difference) out += fmt::format(", {} no clear difference", *s.no_clear_difference);
  return out + fmt::format(", {} inconclusive", s.inconclusive);
}

}  // namespace tct::suite
