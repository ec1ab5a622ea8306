#pragma once
// suite's section descriptor: what cli/ needs to hold, write, read and render a SuiteResult in an
// Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/format.hpp"
#include "suite/json.hpp"
#include "suite/render.hpp"

namespace tct::suite {

struct Section {
  using Result = SuiteResult;
  static constexpr const char* key = "suite";
  static constexpr int page = 30;    // the HTML page: after run, before compare
  static constexpr int answer = 20;  // the answers: after bench, before compare
  static constexpr const char* toc = "Suite";

  static nlohmann::json to_json(const Result& r) { return suite::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return suite::suite_from_json(s); }

  static std::string text(const Result& r) { return suite::text(r); }
  static std::string markdown(const Result& r) { return suite::markdown(r); }
  static std::string html(const Result& r) { return suite::html_section(r); }
  static std::vector<report::html::Card> cards(const Result& r) { return suite::html_cards(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    if (r.listing) return {};
    const SuiteSummary& s = r.summary;
    return {{"geometric-mean speedup",
             s.geomean ? fmt::format("{} over {} passing entries", report::format_speedup_interval(s.geomean->interval),
                                     s.geomean->n)
                       : "n/a: no entry passed with a measured speedup"}};
  }
};

}  // namespace tct::suite
