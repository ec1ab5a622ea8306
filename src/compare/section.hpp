#pragma once
// compare's section descriptor: what cli/ needs to hold, write, read and render a CompareResult
// in an Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compare/compare.hpp"
#include "compare/render.hpp"
#include "compare/result.hpp"

namespace tct::compare {

struct Section {
  using Result = CompareResult;
  static constexpr const char* key = "compare";
  static constexpr int page = 40;    // the HTML page: after suite, before bench
  static constexpr int answer = 30;  // the answers: after suite, before trace
  static constexpr const char* toc = "Compare";

  static nlohmann::json to_json(const Result& r) { return compare::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return compare::compare_from_json(s); }

  static std::string text(const Result& r) { return compare::text(r); }
  static std::string markdown(const Result& r) { return compare::markdown(r); }
  static std::string html(const Result& r) { return compare::html_section(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    return {{"compared with the baseline",
             fmt::format("{}: {} regressed, {} improved, {} newly failing", r.passed ? "pass" : "FAIL",
                         r.count(Change::Regression), r.count(Change::Improvement),
                         r.count(Change::Broken) + r.count(Change::NewMismatch))}};
  }
};

}  // namespace tct::compare
