#pragma once
// startup's section descriptor: what cli/ needs to hold, write, read and render a StartupResult
// in an Outcome (cli/registry.hpp lists it). It only names this folder's functions.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "startup/json.hpp"
#include "startup/render.hpp"

namespace tct::startup {

struct Section {
  using Result = StartupResult;
  static constexpr const char* key = "startup";
  static constexpr int page = 100;   // the HTML page: after trace, before audit
  static constexpr int answer = 70;  // the answers: after run, before explain
  static constexpr const char* toc = "Start-up";

  static nlohmann::json to_json(const Result& r) { return startup::to_json(r); }
  static Result from_json(const nlohmann::json& s) { return startup::from_json(s); }

  static std::string text(const Result& r) { return startup::text(r); }
  static std::string brief(const Result& r) { return startup::brief(r); }
  static std::string markdown(const Result& r) { return startup::markdown(r); }
  static std::string html(const Result& r) { return startup::html_section(r); }
  static std::vector<report::html::Card> cards(const Result& r) { return startup::html_cards(r); }
  static std::vector<std::pair<std::string, std::string>> answers(const Result& r) {
    return {{"time to the first output", startup::answer(r)}};
  }
};

}  // namespace tct::startup
