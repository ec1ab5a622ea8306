#pragma once
// expect's section descriptor: what cli/ needs to hold, write, read and render an ExpectResult in
// an Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/result.hpp"
#include "expect/json.hpp"
#include "expect/render.hpp"
#include "expect/result.hpp"
#include "report/format.hpp"
#include "report/warning.hpp"

namespace tct::expect {

struct Section {
  using Result = ExpectResult;
  static constexpr const char* key = "expect";
  static constexpr int page = 80;     // the HTML page: after diff, before trace
  static constexpr int answer = 100;  // the answers: after diff, before probe
  static constexpr const char* toc = "Expectation";

  static nlohmann::json to_json(const Result& r) { return expect::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return expect::from_json(s); }
  static const std::vector<report::Warning>& warnings(const Result& r) { return r.warnings; }

  // An audit's report shows bench's row after this section: the validation line points at it
  // rather than print the measured speedup again.
  template <class Outcome>
  static std::string text(const Result& r, const Outcome& o) {
    return expect::text(r, o.template get<bench::BenchResult>().has_value());
  }
  template <class Outcome>
  static std::string brief(const Result& r, const Outcome& o) {
    return expect::brief(r, o.template get<bench::BenchResult>().has_value());
  }
  template <class Outcome>
  static std::string markdown(const Result& r, const Outcome& o) {
    return expect::markdown(r, o.template get<bench::BenchResult>().has_value());
  }
  // The HTML shows the prediction beside bench's measured speedup, when the run has one.
  template <class Outcome>
  static std::string html(const Result& r, const Outcome& o) {
    const auto& bench = o.template get<bench::BenchResult>();
    return expect::html_section(r, expect::measured_as_is(bench ? &*bench : nullptr));
  }
  static std::vector<report::html::Card> cards(const Result& r) { return expect::html_cards(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    if (!r.analysis) return {};
    std::string cls(expect::to_string(r.analysis->cls));
    for (auto& c : cls) c = c == '_' ? ' ' : c;
    const SpeedupRange& p = r.analysis->predicted.range;
    return {{"expected",
             fmt::format("{}, {} to {} predicted", cls, report::format_ratio(p.low), report::format_ratio(p.high))}};
  }
};

}  // namespace tct::expect
