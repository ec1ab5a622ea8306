#pragma once
// bench's section descriptor: what cli/ needs to hold, write, read and render a BenchResult in
// an Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/json.hpp"
#include "bench/render.hpp"
#include "report/format.hpp"
#include "report/warning.hpp"
#include "stats/verdict.hpp"

namespace tct::bench {

struct Section {
  using Result = BenchResult;
  static constexpr const char* key = "bench";
  static constexpr int page = 50;    // the HTML page: after compare, before explain
  static constexpr int answer = 10;  // the most decisive answer: a measured speedup
  static constexpr const char* toc = "Speed";

  static nlohmann::json to_json(const Result& r) { return bench::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return bench::from_json(s); }
  // Decided afresh after each phase (bench/run.cpp): the last list replaces the one before.
  static const std::vector<report::Warning>& warnings(const Result& r) { return r.all_warnings; }

  static std::string text(const Result& r) { return bench::text(r); }
  static std::string brief(const Result& r) { return bench::brief(r); }
  static std::string markdown(const Result& r) { return bench::markdown(r); }
  static std::string html(const Result& r) { return bench::html_section(r); }
  static std::vector<report::html::Card> cards(const Result& r) { return bench::html_cards(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& row : r.rows) {
      const std::string label = "speedup, " + (row.label.empty() ? "compiled" : row.label);
      if (!row.ok() || !row.speedup) {
        out.push_back({label, "failed: " + (row.error ? row.error->message : "see details")});
        continue;
      }
      out.push_back({label, fmt::format("{}, {}", report::format_speedup_interval(row.speedup->interval),
                                        stats::describe(row.speedup->verdict))});
    }
    return out;
  }
};

}  // namespace tct::bench
